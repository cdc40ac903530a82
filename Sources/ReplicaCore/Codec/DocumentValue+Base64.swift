import ByteCoding

/// Strings that are canonical base64 (padded, standard alphabet, unused bits zero): how the app
/// stores every stroke group. Event block format 3 writes such a string as the bytes it stands
/// for, three bytes for every four characters; reading gives the same string back, because a
/// canonical string is the only one that encodes those bytes.
enum PackedBase64 {
    /// Writes `tag`, then `text`'s bytes behind their count, when it is canonical base64 of at
    /// least one group of four characters; false (nothing written) otherwise.
    static func write(_ text: String, tag: UInt8, to writer: inout ByteWriter) -> Bool {
        guard !text.isEmpty, let bytes = try? CanonicalBase64.decode(text) else { return false }
        writer.writeByte(tag)
        writer.writeVarint(UInt64(bytes.count))
        writer.writeBytes(bytes)
        return true
    }

    /// The canonical base64 text of `bytes`.
    static func text(of bytes: ArraySlice<UInt8>) -> String {
        CanonicalBase64.encode(bytes)
    }
}
