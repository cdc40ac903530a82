import ReplicaCore

/// The payload of the `NOTIFY` sent with each commit, one per document that got new rows: which
/// document, and (when it fits in NOTIFY's 8,000 bytes) the highest counter per peer now stored,
/// so a listener that already holds that much reads nothing. A listener that was disconnected
/// misses notices and re-reads by version vector; the notice only says where to look.
///
/// Text, as NOTIFY requires: `dt1 <collection hex> <document hex> [<peer hex>:<counter>]...`.
/// Names are hex-encoded UTF-8 so no character of theirs can break the format.
public struct CommitNotice: Equatable, Sendable {
    public static let payloadLimit = 7_999

    public var collection: String
    public var documentID: String
    /// Nil when it did not fit: read the document by version vector.
    public var stored: VersionVector?

    public init(collection: String, documentID: String, stored: VersionVector?) {
        self.collection = collection
        self.documentID = documentID
        self.stored = stored
    }

    /// Whether a relay that holds `have` of the document should read it.
    public func isNew(comparedWith have: VersionVector) -> Bool {
        guard let stored else { return true }
        return stored.sortedEntries.contains { $0.counter > have[$0.peer] }
    }

    /// The payload; the vector is left out when it would pass the limit. Nil when even the names
    /// do not fit (a listener then learns of the rows on its next read by version vector).
    public var payload: String? {
        let names = "dt1 \(Self.hex(collection)) \(Self.hex(documentID))"
        guard names.utf8.count <= Self.payloadLimit else { return nil }
        guard let stored else { return names }
        let entries = stored.sortedEntries.map { " \($0.peer.hex):\($0.counter)" }.joined()
        return names.utf8.count + entries.utf8.count <= Self.payloadLimit ? names + entries : names
    }

    /// Reads a payload; nil for anything this version did not write.
    public init?(payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 3, fields[0] == "dt1", let collection = Self.unhex(fields[1]),
            let documentID = Self.unhex(fields[2])
        else { return nil }
        var counters: [PeerID: UInt64] = [:]
        for entry in fields.dropFirst(3) {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 16, let peer = UInt64(parts[0], radix: 16),
                let counter = UInt64(parts[1]), counter > 0,
                counters.updateValue(counter, forKey: PeerID(peer)) == nil
            else { return nil }
        }
        self.init(
            collection: collection, documentID: documentID,
            stored: fields.count > 3 ? VersionVector(counters) : nil)
    }

    private static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef")
        return String(text.utf8.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    private static func unhex(_ text: Substring) -> String? {
        guard text.utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
