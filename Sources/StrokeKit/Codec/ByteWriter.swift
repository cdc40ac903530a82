/// Appends the codec's primitives: bytes, LEB128 varints and zigzag signed varints.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Small magnitudes of either sign become small varints.
    mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func writeBytes(_ more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Points as absolute fixed-point units first, then deltas: a path is mostly small steps.
    mutating func writePoints(_ points: [CanvasPoint]) {
        writeVarint(UInt64(points.count))
        var previousX: Int64 = 0
        var previousY: Int64 = 0
        for point in points {
            let x = FixedPoint.units(point.x)
            let y = FixedPoint.units(point.y)
            writeSigned(x - previousX)
            writeSigned(y - previousY)
            previousX = x
            previousY = y
        }
    }

    mutating func writeMask(_ mask: StrokeMask) {
        writeVarint(UInt64(mask.sweeps.count))
        for sweep in mask.sweeps {
            writeVarint(UInt64(FixedPoint.units(sweep.radius)))
            writePoints(sweep.path)
        }
    }
}
