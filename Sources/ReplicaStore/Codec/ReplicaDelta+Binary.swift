extension DocumentVersions {
    private static let header: [UInt8] = [0x44, 0x56, 0x01]  // "DV", format 1

    /// Deterministic: documents in id order, vector entries in peer order.
    public func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        for byte in Self.header { writer.write(byte: byte) }
        writer.write(varint: UInt64(vectors.count))
        for id in vectors.keys.sorted() {
            writer.write(string: id)
            self[id].write(to: &writer)
        }
        return writer.bytes
    }

    public init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes)
        try reader.expectHeader(Self.header, name: "a document version list (format 1)")
        var vectors: [String: VersionVector] = [:]
        for _ in 0..<(try reader.readCount(minimumSize: 2)) {
            let start = reader.offset
            let id = try reader.readString()
            guard vectors.updateValue(try VersionVector.read(from: &reader), forKey: id) == nil else {
                throw BinaryDecodingError.invalid(what: "duplicate document '\(id)'", offset: start)
            }
        }
        try reader.expectEnd()
        self.init(vectors)
    }
}

extension ReplicaDelta {
    private static let header: [UInt8] = [0x52, 0x44, 0x01]  // "RD", format 1

    /// Deterministic: documents in the order held (id order from `changes`), events in dot order.
    public func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        for byte in Self.header { writer.write(byte: byte) }
        writer.write(string: collection)
        writer.write(varint: UInt64(documents.count))
        for document in documents {
            writer.write(string: document.documentID)
            writer.write(varint: UInt64(document.events.count))
            for event in document.events { event.write(to: &writer) }
        }
        return writer.bytes
    }

    public init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes)
        try reader.expectHeader(Self.header, name: "a replica delta (format 1)")
        let collection = try reader.readString()
        var documents: [DocumentDelta] = []
        for _ in 0..<(try reader.readCount(minimumSize: 2)) {
            let id = try reader.readString()
            var events: [DocumentEvent] = []
            // An event takes at least 14 bytes (peer, counter, timestamp, path, kind, flags, context).
            for _ in 0..<(try reader.readCount(minimumSize: 14)) { events.append(try DocumentEvent.read(from: &reader)) }
            documents.append(DocumentDelta(documentID: id, events: events))
        }
        try reader.expectEnd()
        self.init(collection: collection, documents: documents)
    }
}
