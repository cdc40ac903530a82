import ByteCoding

/// Strings that are canonical base64 (padded, standard alphabet, unused bits zero): how the app
/// stores every stroke group. Event block format 3 writes such a string as the bytes it stands
/// for, three bytes for every four characters; reading gives the same string back (as a
/// `DocumentValue.base64` of the bytes), because a canonical string is the only one that encodes
/// those bytes.
enum PackedBase64 {
    /// Writes `tag`, then `text`'s bytes behind their count, when it is canonical base64 of at
    /// least one group of four characters; false (nothing written) otherwise.
    /// The bytes are decoded straight into the writer, not into an array first.
    static func write(_ text: String, tag: UInt8, to writer: inout ByteWriter) -> Bool {
        CanonicalBase64.writeDecoded(text, tag: tag, to: &writer)
    }
}
