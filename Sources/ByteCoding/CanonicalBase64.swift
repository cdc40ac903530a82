/// Standard base64 (RFC 4648, `+/`, `=` padding) with one text per value: decoding is strict (no
/// whitespace, padding only at the end, unused bits zero), so a value has exactly one text form.
/// The stroke codec's `Base64` (StrokeKit) and the event blocks' packed strings (ReplicaCore)
/// both use it.
public enum CanonicalBase64 {
    /// A text that is not canonical base64, and the first position that shows it.
    public struct Invalid: Error, Equatable, Sendable {
        public var position: Int
    }

    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let padding = UInt8(ascii: "=")

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes[...])
    }

    /// The two characters of every 12 bits, the first in the low byte (stored little-endian).
    private static let pairs: [UInt16] = (0..<4096).map { bits in
        UInt16(alphabet[bits >> 6]) | UInt16(alphabet[bits & 63]) << 8
    }

    public static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        let length = (bytes.count + 2) / 3 * 4
        // Every stroke value of a decoded delta comes through here: whole groups of three
        // bytes read through pointers and written as two pairs of characters, then the tail.
        return alphabet.withUnsafeBufferPointer { alphabet in
            pairs.withUnsafeBufferPointer { pairs in
                bytes.withUnsafeBufferPointer { input in
                    String(unsafeUninitializedCapacity: length) { output in
                        var index = 0
                        var out = 0
                        let raw = UnsafeMutableRawBufferPointer(output)
                        while input.count - index >= 3 {
                            let triple =
                                Int(input[index]) << 16 | Int(input[index + 1]) << 8 | Int(input[index + 2])
                            raw.storeBytes(
                                of: pairs[triple >> 12].littleEndian, toByteOffset: out, as: UInt16.self)
                            raw.storeBytes(
                                of: pairs[triple & 4095].littleEndian, toByteOffset: out + 2, as: UInt16.self)
                            index += 3
                            out += 4
                        }
                        return tail(input, from: index, to: output, at: out, alphabet, length: length)
                    }
                }
            }
        }
    }

    /// The last one or two bytes of `input`, padded; returns `length`.
    private static func tail(
        _ input: UnsafeBufferPointer<UInt8>, from index: Int, to output: UnsafeMutableBufferPointer<UInt8>,
        at out: Int, _ alphabet: UnsafeBufferPointer<UInt8>, length: Int
    ) -> Int {
        let remaining = input.count - index
        if remaining > 0 {
            let a = UInt32(input[index])
            let b = remaining > 1 ? UInt32(input[index + 1]) : 0
            let triple = a << 16 | b << 8
            output[out] = alphabet[Int(triple >> 18 & 63)]
            output[out + 1] = alphabet[Int(triple >> 12 & 63)]
            output[out + 2] = remaining > 1 ? alphabet[Int(triple >> 6 & 63)] : padding
            output[out + 3] = padding
        }
        return length
    }

    public static func decode(_ text: String) throws(Invalid) -> [UInt8] {
        var text = text
        // A native string's bytes are read in place; no copy of the text, no array per quad.
        let result = text.withUTF8 { chars in
            Result { () throws(Invalid) -> [UInt8] in try decode(chars) }
        }
        return try result.get()
    }

    /// Writes `tag`, the byte count of `text` decoded and the bytes themselves straight into
    /// `writer` when `text` is canonical base64 of at least one group of four characters; returns
    /// false and leaves `writer` as it was otherwise. No array of the bytes is made on the way.
    public static func writeDecoded(_ text: String, tag: UInt8, to writer: inout ByteWriter) -> Bool {
        var text = text
        return text.withUTF8 { chars in
            guard !chars.isEmpty, chars.count % 4 == 0 else { return false }
            let padding =
                (chars[chars.count - 1] == Self.padding ? 1 : 0)
                + (chars[chars.count - 2] == Self.padding ? 1 : 0)
            let mark = writer.storage.count
            // Room grows geometrically: one block may write thousands of values into one writer.
            let needed = mark + 11 + chars.count / 4 * 3
            if writer.storage.capacity < needed {
                writer.storage.reserveCapacity(max(needed, 2 * writer.storage.capacity))
            }
            writer.writeByte(tag)
            writer.writeVarint(UInt64(chars.count / 4 * 3 - padding))
            do throws(Invalid) {
                try decode(chars, appendingTo: &writer.storage)
                return true
            } catch {
                writer.storage.removeSubrange(mark...)
                return false
            }
        }
    }

    private static func decode(_ chars: UnsafeBufferPointer<UInt8>) throws(Invalid) -> [UInt8] {
        guard chars.count % 4 == 0 else { throw Invalid(position: chars.count) }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        try decode(chars, appendingTo: &out)
        return out
    }

    /// Decodes every group of four characters but the last (which may hold padding) into room
    /// made at the end of `out` at once, three bytes a group, until a group holds a character
    /// outside the alphabet; returns the index of the first group not decoded. What is left (the
    /// last group, or a bad one with its exact position) is the general loop's.
    private static func decodeWholeGroups(
        _ chars: UnsafeBufferPointer<UInt8>, appendingTo out: inout [UInt8], _ table: [UInt8]
    ) -> Int {
        let groups = chars.count / 4 - 1
        guard groups > 0 else { return 0 }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: groups * 3))
        let decoded = table.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { output in
                var group = 0
                while group < groups {
                    let index = group * 4
                    let a = table[Int(chars[index])]
                    let b = table[Int(chars[index + 1])]
                    let c = table[Int(chars[index + 2])]
                    let d = table[Int(chars[index + 3])]
                    // 0xFF marks a character outside the alphabet (padding included).
                    guard (a | b | c | d) & 0x80 == 0 else { break }
                    let triple = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    let at = start + group * 3
                    output[at] = UInt8(truncatingIfNeeded: triple >> 16)
                    output[at + 1] = UInt8(truncatingIfNeeded: triple >> 8)
                    output[at + 2] = UInt8(truncatingIfNeeded: triple)
                    group += 1
                }
                return group
            }
        }
        if decoded < groups { out.removeSubrange((start + decoded * 3)...) }
        return decoded * 4
    }

    /// Appends the bytes `chars` stands for to `out`; throws at the first character that is not
    /// canonical (`out` may then hold part of the bytes). `chars.count` is a multiple of four.
    private static func decode(_ chars: UnsafeBufferPointer<UInt8>, appendingTo out: inout [UInt8])
        throws(Invalid)
    {
        // Read once: each access to the static goes through its lazy initialiser's check.
        let table = decodeTable
        var index = decodeWholeGroups(chars, appendingTo: &out, table)
        while index < chars.count {
            let isLast = index + 4 == chars.count
            var triple: UInt32 = 0
            var pad = 0
            for offset in 0..<4 {
                let char = chars[index + offset]
                if char == padding && isLast && offset >= 2 {
                    pad += 1
                    continue
                }
                // Data after padding ("=A") is as invalid as an unknown character.
                let value = table[Int(char)]
                guard value != 0xFF, pad == 0 else { throw Invalid(position: index + offset) }
                triple |= UInt32(value) << (18 - 6 * UInt32(offset))
            }
            out.append(UInt8(triple >> 16 & 0xFF))
            if pad < 2 { out.append(UInt8(triple >> 8 & 0xFF)) }
            if pad < 1 { out.append(UInt8(triple & 0xFF)) }
            let unusedBits: UInt32 = pad == 2 ? 0xFFFF : (pad == 1 ? 0xFF : 0)
            guard triple & unusedBits == 0 else { throw Invalid(position: index + 3 - pad) }
            index += 4
        }
    }
}
