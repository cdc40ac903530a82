/// Reads the codec's primitives from untrusted bytes; every read is bounds-checked and every
/// count is checked against the bytes that remain before anything is allocated.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func readByte(_ field: String) throws(StrokeCodecError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(field: field, offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBytes(_ count: Int, _ field: String) throws(StrokeCodecError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .truncated(field: field, offset: offset) }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// An LEB128 varint in its shortest form, at most 64 bits.
    mutating func readVarint(_ field: String) throws(StrokeCodecError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte(field)
            let payload = UInt64(byte & 0x7F)
            if shift == 63 && payload > 1 { throw .malformedVarint(field: field, offset: start) }
            value |= payload << shift
            if byte & 0x80 == 0 {
                // A zero final byte after others means an overlong form: refuse it, so one value
                // has one encoding.
                if byte == 0 && offset - start > 1 { throw .malformedVarint(field: field, offset: start) }
                return value
            }
            shift += 7
            if shift > 63 { throw .malformedVarint(field: field, offset: start) }
        }
    }

    mutating func readSigned(_ field: String) throws(StrokeCodecError) -> Int64 {
        let raw = try readVarint(field)
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A count of items that each take at least `minimumBytes`, refused when the rest cannot
    /// hold that many (so hostile counts never reach an allocation).
    mutating func readCount(_ field: String, minimumBytes: Int) throws(StrokeCodecError) -> Int {
        let count = try readVarint(field)
        guard count > 0 else { throw .emptyList(field: field) }
        guard count <= UInt64(remaining / minimumBytes) else {
            throw .countTooLarge(field: field, count: count, remainingBytes: remaining)
        }
        return Int(count)
    }

    /// A value checked against an inclusive range.
    func checked(_ value: Int64, in range: ClosedRange<Int64>, _ field: String) throws(StrokeCodecError)
        -> Int64
    {
        guard range.contains(value) else { throw .valueOutOfRange(field: field, value: value) }
        return value
    }

    /// Reads points written by `ByteWriter.writePoints`, each within the coordinate limit.
    mutating func readPoints(_ field: String) throws(StrokeCodecError) -> [CanvasPoint] {
        let count = try readCount(field, minimumBytes: 2)
        let limit = FixedPoint.coordinateUnitLimit
        var points: [CanvasPoint] = []
        points.reserveCapacity(count)
        var x: Int64 = 0
        var y: Int64 = 0
        for _ in 0..<count {
            let dx = try checked(readSigned(field), in: -2 * limit...2 * limit, field)
            let dy = try checked(readSigned(field), in: -2 * limit...2 * limit, field)
            x = try checked(x + dx, in: -limit...limit, field)
            y = try checked(y + dy, in: -limit...limit, field)
            points.append(CanvasPoint(x: FixedPoint.value(units: x), y: FixedPoint.value(units: y)))
        }
        return points
    }

    /// Reads a mask written by `ByteWriter.writeMask`.
    mutating func readMask() throws(StrokeCodecError) -> StrokeMask {
        let count = try readCount("mask sweeps", minimumBytes: 4)
        var sweeps: [MaskSweep] = []
        sweeps.reserveCapacity(count)
        let radiusUnits = FixedPoint.units(MaskSweep.radiusRange)
        for _ in 0..<count {
            let radius = try checked(
                Int64(clamping: readVarint("sweep radius")), in: radiusUnits, "sweep radius")
            let path = try readPoints("sweep points")
            guard let sweep = MaskSweep(radius: FixedPoint.value(units: radius), path: path) else {
                throw .emptyList(field: "sweep points")
            }
            sweeps.append(sweep)
        }
        return StrokeMask(sweeps: sweeps)
    }
}
