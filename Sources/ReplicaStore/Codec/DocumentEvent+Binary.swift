extension VersionVector {
    func write(to writer: inout BinaryWriter) {
        let entries = sortedEntries
        writer.write(varint: UInt64(entries.count))
        for entry in entries {
            writer.write(fixed: entry.peer.rawValue)
            writer.write(varint: entry.counter)
        }
    }

    static func read(from reader: inout BinaryReader) throws -> VersionVector {
        var counters: [PeerID: UInt64] = [:]
        for _ in 0..<(try reader.readCount(minimumSize: 9)) {
            let start = reader.offset
            let peer = PeerID(try reader.readFixed())
            let counter = try reader.readVarint()
            guard counter > 0, counters.updateValue(counter, forKey: peer) == nil else {
                throw BinaryDecodingError.invalid(what: "version vector entry", offset: start)
            }
        }
        return VersionVector(counters)
    }
}

extension DocumentEvent {
    private static let removedFlag: UInt8 = 1
    private static let valueFlag: UInt8 = 2

    func write(to writer: inout BinaryWriter) {
        writer.write(fixed: dot.peer.rawValue)
        writer.write(varint: dot.counter)
        writer.write(varint: UInt64(bitPattern: timestamp.milliseconds))
        writer.write(varint: UInt64(timestamp.counter))
        writer.write(varint: UInt64(path.count))
        for component in path { writer.write(string: component) }
        writer.write(byte: kind.rawValue)
        writer.write(byte: (isRemoved ? Self.removedFlag : 0) | (value == nil ? 0 : Self.valueFlag))
        value?.write(to: &writer)
        context.write(to: &writer)
    }

    static func read(from reader: inout BinaryReader) throws -> DocumentEvent {
        let peer = PeerID(try reader.readFixed())
        let counter = try reader.readVarint()
        let milliseconds = Int64(bitPattern: try reader.readVarint())
        let counterOffset = reader.offset
        guard let logical = UInt32(exactly: try reader.readVarint()) else {
            throw BinaryDecodingError.invalid(what: "timestamp counter", offset: counterOffset)
        }
        var path: [String] = []
        for _ in 0..<(try reader.readCount()) { path.append(try reader.readString()) }
        let kindOffset = reader.offset
        guard let kind = Kind(rawValue: try reader.readByte()) else {
            throw BinaryDecodingError.invalid(what: "event kind", offset: kindOffset)
        }
        let flagsOffset = reader.offset
        let flags = try reader.readByte()
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
    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        write(to: &writer)
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes)
        self = try Self.read(from: &reader)
        try reader.expectEnd()
    }
}
