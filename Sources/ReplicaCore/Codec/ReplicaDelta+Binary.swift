import ByteCoding

extension DocumentVersions {
    private static let header: [UInt8] = [0x44, 0x56, 0x01]  // "DV", format 1

    /// Deterministic: documents in id order, vector entries in peer order.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.writeBytes(Self.header)
        writer.writeVarint(UInt64(vectors.count))
        for id in vectors.keys.sorted() {
            writer.writeUTF8(id, prefix: .varint)
            self[id].write(to: &writer)
        }
        return writer.bytes
    }

    public init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        try readHeader(Self.header, name: "a document version list (format 1)", from: &reader)
        var vectors: [String: VersionVector] = [:]
        for _ in 0..<(try reader.readCount("documents", prefix: .varint, minimumBytes: 2)) {
            let start = reader.offset
            let id = try reader.readUTF8("document id", prefix: .varint)
            guard vectors.updateValue(try VersionVector.read(from: &reader), forKey: id) == nil else {
                throw BinaryDecodingError.invalid(what: "duplicate document '\(id)'", offset: start)
            }
        }
        try readEnd(of: reader)
        self.init(vectors)
    }
}

extension ReplicaDelta {
    private static let headerOne: [UInt8] = [0x52, 0x44, 0x01]  // "RD", format 1 (read only)
    private static let headerTwo: [UInt8] = [0x52, 0x44, 0x02]  // "RD", format 2 (read only)
    private static let headerThree: [UInt8] = [0x52, 0x44, 0x03]  // "RD", format 3

    /// Deterministic: documents in the order held (id order from `changes`), events in dot order,
    /// each document's events as one event block of format 3 (`DocumentEvent.writeBlock`).
    public func encoded() -> [UInt8] {
        encoded(header: Self.headerThree, format: .three)
    }

    /// Format 2 (event blocks without packed base64 strings) as the replica wrote it before format
    /// 3: kept for the tests that pin old bytes.
    package func encodedFormatTwo() -> [UInt8] {
        encoded(header: Self.headerTwo, format: .two)
    }

    private func encoded(header: [UInt8], format: EventBlockFormat) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: estimatedSize)
        writer.writeBytes(header)
        writer.writeUTF8(collection, prefix: .varint)
        writer.writeVarint(UInt64(documents.count))
        for document in documents {
            writer.writeUTF8(document.documentID, prefix: .varint)
            DocumentEvent.writeBlock(document.events, format: format, to: &writer)
        }
        return writer.bytes
    }

    /// Room for the encoding, so writing it does not grow the buffer again and again: a live
    /// update is one event whose value is most of its bytes.
    private var estimatedSize: Int {
        var size = 16 + collection.utf8.count
        for document in documents {
            size += 8 + document.documentID.utf8.count
            for event in document.events {
                switch event.value {
                case .string(let text)?: size += 40 + text.utf8.count
                case .base64(let bytes)?: size += 40 + bytes.count / 3 * 4 + 4
                default: size += 48
                }
            }
        }
        return size
    }

    /// Format 1 (every event written out in full) as the replica wrote it before format 2: kept
    /// for tests that pin old bytes and for peers of an older build.
    package func encodedFormatOne() -> [UInt8] {
        var writer = ByteWriter()
        writer.writeBytes(Self.headerOne)
        writer.writeUTF8(collection, prefix: .varint)
        writer.writeVarint(UInt64(documents.count))
        for document in documents {
            writer.writeUTF8(document.documentID, prefix: .varint)
            writer.writeVarint(UInt64(document.events.count))
            for event in document.events { event.write(to: &writer) }
        }
        return writer.bytes
    }

    /// Reads format 1, 2 or 3. A format 3 document keeps its event block's bytes
    /// (`DocumentDelta.encodedBlock`), so applying it can store them as they came (a block of
    /// format 2 is encoded again: the replica's rows hold format 3).
    public init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        guard reader.remaining >= 3 else {
            throw BinaryDecodingError.wrongFormat(expected: "a replica delta (format 1, 2 or 3)")
        }
        let header = try reader.readBytes("format", count: 3)
        let blocks: EventBlockFormat?
        if header.elementsEqual(Self.headerThree) {
            blocks = .three
        } else if header.elementsEqual(Self.headerTwo) {
            blocks = .two
        } else if header.elementsEqual(Self.headerOne) {
            blocks = nil
        } else {
            throw BinaryDecodingError.wrongFormat(expected: "a replica delta (format 1, 2 or 3)")
        }
        let collection = try reader.readUTF8("collection", prefix: .varint)
        var documents: [DocumentDelta] = []
        for _ in 0..<(try reader.readCount("documents", prefix: .varint, minimumBytes: 2)) {
            let id = try reader.readUTF8("document id", prefix: .varint)
            var events: [DocumentEvent] = []
            if let blocks {
                let start = reader.offset
                // The count is checked against the bytes left before it is reserved.
                try DocumentEvent.readBlock(
                    from: &reader, format: blocks, reserve: { events.reserveCapacity($0) }
                ) { events.append($0) }
                var document = DocumentDelta(documentID: id, events: events)
                if blocks == EventBlockFormat.current { document.encodedBlock = bytes[start..<reader.offset] }
                documents.append(document)
                continue
            }
            // An event takes at least 14 bytes (peer, counter, timestamp, path, kind, flags, context).
            for _ in 0..<(try reader.readCount("events", prefix: .varint, minimumBytes: 14)) {
                events.append(try DocumentEvent.read(from: &reader))
            }
            documents.append(DocumentDelta(documentID: id, events: events))
        }
        try readEnd(of: reader)
        self.init(collection: collection, documents: documents)
    }
}

/// The format tag at the start of a version list or a delta.
private func readHeader(
    _ header: [UInt8], name: String, from reader: inout ByteReader<BinaryDecodingError>
) throws {
    guard reader.remaining >= header.count,
        try reader.readBytes("format", count: header.count).elementsEqual(header)
    else { throw BinaryDecodingError.wrongFormat(expected: name) }
}

/// Nothing may follow a complete version list or delta.
private func readEnd(of reader: ByteReader<BinaryDecodingError>) throws {
    if reader.remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: reader.offset) }
}
