import ReplicaCore

/// The payload of the `NOTIFY` sent with each commit, one per document that got new rows: which
/// document and what is new. When it fits in NOTIFY's 8,000 bytes, that is the commit's events
/// of the document themselves (the records its rows hold), so another relay enters them without
/// a read; otherwise the highest counter per peer now stored, or only the names, and a relay
/// that lacks something reads the document by version vector. The rows stay the durable log: a
/// listener that was disconnected misses notices and re-reads by version vector, and one that
/// finds a gap before a notice's events reads too.
///
/// Text, as NOTIFY requires, names hex-encoded UTF-8 so no character of theirs can break it:
/// `dt2 <collection hex> <document hex> <record hex>...` with the events, or
/// `dt1 <collection hex> <document hex> [<peer hex>:<counter>]...` without.
public struct CommitNotice: Equatable, Sendable {
    public static let payloadLimit = 7_999

    public var collection: String
    public var documentID: String
    /// Nil when it did not fit: read the document by version vector.
    public var stored: VersionVector?
    /// The commit's events of the document (nil when they did not fit): a relay that holds
    /// everything before them enters them as they are, the same records the rows hold.
    public var events: [DocumentEvent]?

    public init(collection: String, documentID: String, stored: VersionVector?) {
        self.collection = collection
        self.documentID = documentID
        self.stored = stored
        events = nil
    }

    /// The notice of a commit's `events` of one document: it carries them when they fit.
    public init(collection: String, documentID: String, events: [DocumentEvent]) {
        var stored = VersionVector()
        for event in events { stored.formUnion(VersionVector([event.dot.peer: event.dot.counter])) }
        self.collection = collection
        self.documentID = documentID
        self.stored = stored
        self.events = events
    }

    /// Whether a relay that holds `have` of the document should read it (or enter the events).
    public func isNew(comparedWith have: VersionVector) -> Bool {
        guard let stored else { return true }
        return stored.sortedEntries.contains { $0.counter > have[$0.peer] }
    }

    /// The payload: the events when they fit, else the vector when it fits, else the names. Nil
    /// when even the names do not fit (a listener then learns of the rows on its next read by
    /// version vector).
    public var payload: String? {
        Self.payload(
            collection: collection, documentID: documentID, records: events?.map { $0.encoded() },
            stored: stored)
    }

    /// `payload` for events already encoded (`records`, as the commit stores them).
    static func payload(collection: String, documentID: String, records: [[UInt8]]?, stored: VersionVector?)
        -> String?
    {
        let names = " \(hex(collection)) \(hex(documentID))"
        guard names.utf8.count + 3 <= payloadLimit else { return nil }
        if let records, records.reduce(names.utf8.count + 3, { $0 + 1 + 2 * $1.count }) <= payloadLimit {
            return "dt2" + names + records.map { " " + hex($0) }.joined()
        }
        guard let stored else { return "dt1" + names }
        let entries = stored.sortedEntries.map { " \($0.peer.hex):\($0.counter)" }.joined()
        return names.utf8.count + 3 + entries.utf8.count <= payloadLimit
            ? "dt1" + names + entries : "dt1" + names
    }

    /// Reads a payload; nil for anything this version did not write. Split as bytes: a relay
    /// reads every other relay's notices, and a notice is thousands of hex digits.
    public init?(payload: String) {
        var text = payload
        let parsed = text.withUTF8 { Self.parse(Array($0)) }
        guard let parsed else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: [UInt8]) -> CommitNotice? {
        let fields = bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let kind = fields.first.map { String(decoding: $0, as: UTF8.self) }
        guard fields.count >= 3, kind == "dt1" || kind == "dt2",
            let collection = unhex(fields[1]).flatMap({ String(validating: $0, as: UTF8.self) }),
            let documentID = unhex(fields[2]).flatMap({ String(validating: $0, as: UTF8.self) })
        else { return nil }
        if kind == "dt2" {
            var events: [DocumentEvent] = []
            events.reserveCapacity(fields.count - 3)
            for field in fields.dropFirst(3) {
                guard let record = unhex(field), let event = try? DocumentEvent(decoding: record) else {
                    return nil
                }
                events.append(event)
            }
            guard !events.isEmpty else { return nil }
            return CommitNotice(collection: collection, documentID: documentID, events: events)
        }
        var counters: [PeerID: UInt64] = [:]
        for entry in fields.dropFirst(3) {
            let parts = entry.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 16,
                let peer = UInt64(String(decoding: parts[0], as: UTF8.self), radix: 16),
                let counter = UInt64(String(decoding: parts[1], as: UTF8.self)), counter > 0,
                counters.updateValue(counter, forKey: PeerID(peer)) == nil
            else { return nil }
        }
        return CommitNotice(
            collection: collection, documentID: documentID,
            stored: fields.count > 3 ? VersionVector(counters) : nil)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ text: String) -> String {
        hex(Array(text.utf8))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unhex(_ utf8: ArraySlice<UInt8>) -> [UInt8]? {
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for char in utf8 {
            let value: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = char - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
