import ByteCoding

extension DocumentEvent {
    /// Format 1: a count, then each event as `write(to:)` writes it (read only: rows written before
    /// format 2).
    private static let listFormatOne: UInt8 = 1
    /// Format 2: a count of event blocks, then the blocks (see `writeBlock`), of block format 2
    /// (read only: rows written before format 3).
    private static let listFormatTwo: UInt8 = 2
    /// Format 3: as format 2, with blocks of format 3 (packed base64 strings).
    private static let listFormatThree: UInt8 = 3

    /// The stored form of several events of one document (one row of the replica's log or of a
    /// snapshot): format 3, the events as one event block. Deterministic.
    package static func encodedList(_ events: [DocumentEvent]) -> [UInt8] {
        encodedList(blocks: [], then: events)
    }

    /// A stored list of the given event blocks (each as a format 3 delta carried it, stored
    /// without being encoded again), followed by `events` as one more block when there are any.
    /// Arrays, not any collection: the replica's store calls this from another module, where a
    /// generic function runs unspecialized (witness tables and metadata lookups on every event).
    package static func encodedList(blocks: [ArraySlice<UInt8>], then events: [DocumentEvent]) -> [UInt8] {
        // Room for the values too, so the writer grows once at most: a text value takes its UTF-8
        // bytes, or three for every four characters when it is base64 (packed); one write of the
        // whole drawing is 100,000 values, which a writer doubling as it goes held two buffers of
        // at once, 38 MB at the moment of copying.
        var valueBytes = 0
        for event in events {
            switch event.value {
            case .string(let text)?:
                let count = text.utf8.count
                valueBytes += count % 4 == 0 && count > 0 ? count / 4 * 3 + 10 : count + 10
            case .base64(let bytes)?: valueBytes += bytes.count + 10
            default: break
            }
        }
        var writer = ByteWriter(
            reservingCapacity: blocks.reduce(16) { $0 + $1.count } + events.count * 64 + valueBytes)
        writer.writeByte(listFormatThree)
        writer.writeVarint(UInt64(blocks.count + (events.isEmpty && !blocks.isEmpty ? 0 : 1)))
        for block in blocks { writer.writeBytes(block) }
        if !events.isEmpty || blocks.isEmpty { writeBlock(events, format: .three, to: &writer) }
        return writer.bytes
    }

    /// The events of a stored list (see `decodeList`), in order, in an array made at their count.
    package static func decodedList(_ bytes: [UInt8]) throws -> [DocumentEvent] {
        var events: [DocumentEvent] = []
        try decodeList(bytes, reserve: { events.reserveCapacity(events.count + $0) }) { events.append($0) }
        return events
    }

    /// Decodes a stored list (format 1, 2 or 3), calling `body` with each event in order; the whole
    /// record must be well formed (nothing may follow the last event). Returns the number of events.
    /// `reserve` is told each block's count of events (checked against the bytes left) before
    /// its first event.
    @discardableResult
    package static func decodeList(
        _ bytes: [UInt8], reserve: (Int) -> Void = { _ in }, _ body: (consuming DocumentEvent) throws -> Void
    ) throws -> Int {
        var reader = ByteReader<BinaryDecodingError>(bytes)
        let formatOffset = reader.offset
        var count = 0
        let formatByte = try reader.readByte("stored event list format")
        switch formatByte {
        case listFormatOne:
            // An event takes at least 14 bytes in format 1 (see ReplicaDelta's decoder).
            count = try reader.readCount("stored events", prefix: .varint, minimumBytes: 14)
            reserve(count)
            for _ in 0..<count { try body(try DocumentEvent.read(from: &reader)) }
        case listFormatTwo, listFormatThree:
            let format: EventBlockFormat = formatByte == listFormatTwo ? .two : .three
            for _ in 0..<(try reader.readCount("event blocks", prefix: .varint, minimumBytes: 4)) {
                count += try readBlock(from: &reader, format: format, reserve: reserve, body)
            }
        default:
            throw BinaryDecodingError.invalid(what: "stored event list format", offset: formatOffset)
        }
        if reader.remaining != 0 { throw BinaryDecodingError.trailingBytes(offset: reader.offset) }
        return count
    }
}
