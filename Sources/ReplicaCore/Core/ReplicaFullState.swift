import ByteCoding

/// The whole state of documents that a peer cannot be sent a delta for: the sender compacted
/// history the peer lacks (its version vector does not cover the document's compacted vector),
/// so the removals the peer would need are gone. It carries every event the sender holds of
/// each document and the compacted vector that says which missing dots were dropped there (see
/// `DocumentState.adopt`).
public struct ReplicaFullState: Equatable, Sendable {
    /// Every event of each document, live and removed.
    public var delta: ReplicaDelta
    /// Each document's compacted vector.
    public var compacted: DocumentVersions

    public init(delta: ReplicaDelta, compacted: DocumentVersions) {
        self.delta = delta
        self.compacted = compacted
    }

    private static let header: [UInt8] = [0x46, 0x53, 0x01]  // "FS", format 1

    /// The compacted vectors (a version list), then the events (a delta), each behind its
    /// length: both in their own deterministic encodings.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.writeBytes(Self.header)
        writer.writeBytes(compacted.encoded(), prefix: .varint)
        writer.writeBytes(delta.encoded(), prefix: .varint)
        return writer.bytes
    }

    public init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        guard reader.remaining >= Self.header.count,
            try reader.readBytes("format", count: Self.header.count).elementsEqual(Self.header)
        else { throw BinaryDecodingError.wrongFormat(expected: "a document's whole state (format 1)") }
        let compacted = try DocumentVersions(
            decoding: Array(try reader.readBytes("compacted", prefix: .varint)))
        let delta = try ReplicaDelta(decoding: Array(try reader.readBytes("events", prefix: .varint)))
        if reader.remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: reader.offset) }
        let ids = Set(delta.documents.map(\.documentID))
        if let stray = compacted.vectors.keys.sorted().first(where: { !ids.contains($0) }) {
            throw BinaryDecodingError.invalid(
                what: "compacted vector of '\(stray)', a document it lacks", offset: 0)
        }
        self.init(delta: delta, compacted: compacted)
    }
}
