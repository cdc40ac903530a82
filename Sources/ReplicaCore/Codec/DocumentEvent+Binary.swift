import ByteCoding

extension VersionVector {
    func write(to writer: inout ByteWriter) {
        writer.writeVarint(UInt64(entries.count))
        for entry in entries {
            writer.writeFixed(entry.peer.rawValue, .littleEndian)
            writer.writeVarint(entry.counter)
        }
    }

    static func read(from reader: inout ByteReader<BinaryDecodingError>) throws -> VersionVector {
        let count = try reader.readCount("version vector entries", prefix: .varint, minimumBytes: 9)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var sorted = true
        for _ in 0..<count {
            let start = reader.offset
            let peer = PeerID(try reader.readFixed("version vector peer", as: UInt64.self, .littleEndian))
            let counter = try reader.readVarint("version vector counter")
            guard counter > 0 else {
                throw BinaryDecodingError.invalid(what: "version vector entry", offset: start)
            }
            if let last = entries.last, last.peer >= peer {
                // Writers put peers in order; a repeated peer is malformed, another order is accepted.
                guard !entries.contains(where: { $0.peer == peer }) else {
                    throw BinaryDecodingError.invalid(what: "version vector entry", offset: start)
                }
                sorted = false
            }
            entries.append(Entry(peer: peer, counter: counter))
        }
        if !sorted { entries.sort { $0.peer < $1.peer } }
        return VersionVector(sortedEntries: entries)
    }
}

extension DocumentEvent {
    private static let removedFlag: UInt8 = 1
    private static let valueFlag: UInt8 = 2

    func write(to writer: inout ByteWriter) {
        writer.writeFixed(dot.peer.rawValue, .littleEndian)
        writer.writeVarint(dot.counter)
        writer.writeVarint(UInt64(bitPattern: timestamp.milliseconds))
        writer.writeVarint(UInt64(timestamp.counter))
        writer.writeVarint(UInt64(path.count))
        for component in path { writer.writeUTF8(component, prefix: .varint) }
        writer.writeByte(kind.rawValue)
        writer.writeByte((isRemoved ? Self.removedFlag : 0) | (value == nil ? 0 : Self.valueFlag))
        value?.write(to: &writer)
        context.write(to: &writer)
    }

    static func read(from reader: inout ByteReader<BinaryDecodingError>) throws -> DocumentEvent {
        let peer = PeerID(try reader.readFixed("event peer", as: UInt64.self, .littleEndian))
        let counter = try reader.readVarint("event counter")
        let milliseconds = Int64(bitPattern: try reader.readVarint("timestamp milliseconds"))
        let counterOffset = reader.offset
        guard let logical = UInt32(exactly: try reader.readVarint("timestamp counter")) else {
            throw BinaryDecodingError.invalid(what: "timestamp counter", offset: counterOffset)
        }
        var path: [String] = []
        for _ in 0..<(try reader.readCount("path", prefix: .varint)) {
            path.append(try reader.readUTF8("path component", prefix: .varint))
        }
        let kindOffset = reader.offset
        guard let kind = Kind(rawValue: try reader.readByte("event kind")) else {
            throw BinaryDecodingError.invalid(what: "event kind", offset: kindOffset)
        }
        let flagsOffset = reader.offset
        let flags = try reader.readByte("event flags")
        guard flags & ~(removedFlag | valueFlag) == 0 else {
            throw BinaryDecodingError.invalid(what: "event flags", offset: flagsOffset)
        }
        let value = flags & valueFlag != 0 ? try DocumentValue.read(from: &reader) : nil
        let context = try VersionVector.read(from: &reader)
        return DocumentEvent(
            dot: Dot(peer: peer, counter: counter),
            timestamp: HybridTimestamp(milliseconds: milliseconds, counter: logical),
            path: path, kind: kind, value: value, context: context, isRemoved: flags & removedFlag != 0)
    }

    /// The stored form of one event (a row of the events table).
    package func encoded() -> [UInt8] {
        var writer = ByteWriter()
        write(to: &writer)
        return writer.bytes
    }

    package init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        self = try Self.read(from: &reader)
        if reader.remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: reader.offset) }
    }
}
