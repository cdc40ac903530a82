/// Appends the compact binary forms used on disk and on the wire: LEB128 varints, length-prefixed
/// UTF-8 strings, little-endian fixed-width integers and doubles.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func write(varint value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func write(fixed value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func write(string: String) {
        let utf8 = Array(string.utf8)
        write(varint: UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func write(double: Double) {
        write(fixed: double.bitPattern)
    }
}
