import ByteCoding

/// Strings that are canonical base64 (padded, standard alphabet, unused bits zero): how the app
/// stores every stroke group. Event block format 3 writes such a string as the bytes it stands
/// for, three bytes for every four characters; reading gives the same string back, because a
/// canonical string is the only one that encodes those bytes.
enum PackedBase64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let invalid: UInt8 = 0xFF
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
        return table
    }()
    private static let padding = UInt8(ascii: "=")

    /// Writes `tag`, then `text`'s bytes behind their count, when it is canonical base64 of at
    /// least one group of four characters; false (nothing written) otherwise.
    static func write(_ text: String, tag: UInt8, to writer: inout ByteWriter) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let count = decodedCount(utf8) else { return false }
            writer.writeByte(tag)
            writer.writeVarint(UInt64(count))
            var index = 0
            var written = 0
            while written < count {
                let a = UInt32(values[Int(utf8[index])])
                let b = UInt32(values[Int(utf8[index + 1])])
                let c = utf8[index + 2] == padding ? 0 : UInt32(values[Int(utf8[index + 2])])
                let d = utf8[index + 3] == padding ? 0 : UInt32(values[Int(utf8[index + 3])])
                let triple = a << 18 | b << 12 | c << 6 | d
                writer.writeByte(UInt8(truncatingIfNeeded: triple >> 16))
                if written + 1 < count { writer.writeByte(UInt8(truncatingIfNeeded: triple >> 8)) }
                if written + 2 < count { writer.writeByte(UInt8(truncatingIfNeeded: triple)) }
                written += 3
                index += 4
            }
            return true
        }
    }

    /// How many bytes a canonical base64 text stands for, or nil when it is not one.
    private static func decodedCount(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = utf8.count
        guard length >= 4, length % 4 == 0 else { return nil }
        var pad = 0
        if utf8[length - 1] == padding { pad = utf8[length - 2] == padding ? 2 : 1 }
        for index in 0..<(length - pad) where values[Int(utf8[index])] == invalid { return nil }
        // The bits the last symbol carries past the last byte must be zero.
        let last = values[Int(utf8[length - pad - 1])]
        if pad == 1, last & 0b11 != 0 { return nil }
        if pad == 2, last & 0b1111 != 0 { return nil }
        return length / 4 * 3 - pad
    }

    /// The canonical base64 text of `bytes`.
    static func text(of bytes: ArraySlice<UInt8>) -> String {
        let length = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: length) { output in
            var index = bytes.startIndex
            var out = 0
            while index < bytes.endIndex {
                let remaining = bytes.endIndex - index
                let a = UInt32(bytes[index])
                let b = remaining > 1 ? UInt32(bytes[index + 1]) : 0
                let c = remaining > 2 ? UInt32(bytes[index + 2]) : 0
                let triple = a << 16 | b << 8 | c
                output[out] = alphabet[Int(triple >> 18 & 63)]
                output[out + 1] = alphabet[Int(triple >> 12 & 63)]
                output[out + 2] = remaining > 1 ? alphabet[Int(triple >> 6 & 63)] : padding
                output[out + 3] = remaining > 2 ? alphabet[Int(triple & 63)] : padding
                index += 3
                out += 4
            }
            return length
        }
    }
}
