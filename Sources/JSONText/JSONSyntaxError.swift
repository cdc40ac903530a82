/// Why a text is not one JSON value (RFC 8259, read strictly), with the UTF-8 offset of the
/// problem and what the reader found there.
///
/// The words a person reads are the callers' (`JSONError` in ReplicaStore, `DrawingJSONError` in
/// StrokeKit); every case carries what both need: the offset, what was expected, what was found.
public enum JSONSyntaxError: Error, Hashable, Sendable {
    /// The text is longer than `limit` bytes of UTF-8; nothing of it was read.
    case inputTooLarge(bytes: Int, limit: Int)
    /// An array or object opens deeper than `limit`; `offset` is its bracket.
    case nestedTooDeeply(limit: Int, offset: Int)
    /// Not what the grammar allows here; `found` is nil at the end of the text.
    case unexpected(expected: JSONExpectation, found: Unicode.Scalar?, offset: Int)
    /// A number that breaks the grammar: `literal` is the run of number characters starting at
    /// `offset` (`01`, `1.`, `-`), and the grammar stopped at `stopOffset`, where it expected
    /// `stoppedExpecting` and found `found`. After a leading zero (`01`) the number ended at the
    /// `0`, so `stoppedExpecting` is what may follow a value there.
    case invalidNumber(
        literal: String, offset: Int, stoppedExpecting: JSONExpectation, found: Unicode.Scalar?,
        stopOffset: Int)
    /// A raw control character (below U+0020) inside a string; JSON requires it escaped.
    case controlCharacterInString(UInt8, offset: Int)
    /// A backslash followed by a letter that starts no escape; `escape` is both, as written.
    case invalidEscape(String, offset: Int)
    /// `\u` without four hex digits: `escape` is up to six bytes from the backslash;
    /// `truncated` when the text ends inside it.
    case invalidHexEscape(String, offset: Int, truncated: Bool)
    /// A `\uD800`–`\uDFFF` escape that is not half of a well-formed pair: `escape` is its six
    /// characters; `isHigh` for a high surrogate without a low one after it.
    case unpairedSurrogate(String, offset: Int, isHigh: Bool)
    /// An object names `key` twice; `offset` is the second key's opening quote.
    case duplicateKey(String, offset: Int)

    /// The UTF-8 offset where the problem is; nil for `inputTooLarge`, which is about the whole text.
    public var offset: Int? {
        switch self {
        case .inputTooLarge: nil
        case .nestedTooDeeply(_, let offset), .unexpected(_, _, let offset),
            .invalidNumber(_, let offset, _, _, _), .controlCharacterInString(_, let offset),
            .invalidEscape(_, let offset), .invalidHexEscape(_, let offset, _),
            .unpairedSurrogate(_, let offset, _), .duplicateKey(_, let offset):
            offset
        }
    }
}
