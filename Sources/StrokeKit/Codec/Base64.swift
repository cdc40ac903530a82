/// Standard base64 (RFC 4648, `+/`, `=` padding), written here so StrokeKit needs no Foundation.
///
/// Decoding is strict: no whitespace, padding only at the end, and unused bits must be zero, so a
/// value has exactly one text form.
public enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) throws(StrokeCodecError) -> [UInt8] {
        var text = text
        // A native string's bytes are read in place; no copy of the text, no array per quad.
        let result = text.withUTF8 { chars in
            Result { () throws(StrokeCodecError) -> [UInt8] in try decode(chars) }
        }
        return try result.get()
    }

    private static func decode(_ chars: UnsafeBufferPointer<UInt8>) throws(StrokeCodecError) -> [UInt8] {
        guard chars.count % 4 == 0 else { throw .invalidBase64(position: chars.count) }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            let isLast = index + 4 == chars.count
            var triple: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let char = chars[index + offset]
                if char == UInt8(ascii: "=") && isLast && offset >= 2 {
                    padding += 1
                    continue
                }
                // Data after padding ("=A") is as invalid as an unknown character.
                let value = decodeTable[Int(char)]
                guard value != 0xFF, padding == 0 else { throw .invalidBase64(position: index + offset) }
                triple |= UInt32(value) << (18 - 6 * UInt32(offset))
            }
            out.append(UInt8(triple >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(triple >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(triple & 0xFF)) }
            let unusedBits: UInt32 = padding == 2 ? 0xFFFF : (padding == 1 ? 0xFF : 0)
            guard triple & unusedBits == 0 else { throw .invalidBase64(position: index + 3 - padding) }
            index += 4
        }
        return out
    }
}
