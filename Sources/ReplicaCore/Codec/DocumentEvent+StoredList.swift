import ByteCoding

extension DocumentEvent {
    private static let listFormat: UInt8 = 1

    /// The stored form of several events of one document (one row of the replica's log or of a
    /// snapshot): a format byte, the count, then each event as the wire writes it. Deterministic.
    package static func encodedList(_ events: some Collection<DocumentEvent>) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: events.count * 64)
        writer.writeByte(listFormat)
        writer.writeVarint(UInt64(events.count))
        for event in events { event.write(to: &writer) }
        return writer.bytes
    }

    /// Decodes a stored list, calling `body` with each event in order; the whole record must be
    /// well formed (nothing may follow the last event). Returns the number of events.
    @discardableResult
    package static func decodeList(_ bytes: [UInt8], _ body: (DocumentEvent) throws -> Void) throws -> Int {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        let formatOffset = reader.offset
        guard try reader.readByte("stored event list format") == listFormat else {
            throw BinaryDecodingError.invalid(what: "stored event list format", offset: formatOffset)
        }
        // An event takes at least 14 bytes (see ReplicaDelta's decoder).
        let count = try reader.readCount("stored events", prefix: .varint, minimumBytes: 14)
        for _ in 0..<count { try body(try DocumentEvent.read(from: &reader)) }
        if reader.remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: reader.offset) }
        return count
    }
}
