/// What the JSON grammar allowed where the reader stopped, as a value rather than words: each
/// caller words it for its own readers (`a JSON value` for a query's arguments, `a value` for an
/// imported drawing).
public enum JSONExpectation: Hashable, Sendable {
    /// Any value: an object, array, string, number, `true`, `false` or `null`.
    case value
    /// An object's key, which must be a string.
    case key
    /// The `:` between a key and its value.
    case colon
    /// `,` or `}` after an object's member.
    case commaOrObjectEnd
    /// `,` or `]` after an array's element.
    case commaOrArrayEnd
    /// Nothing but whitespace after the document's value.
    case end
    /// The rest of `true`, `false` or `null` (the word as a whole).
    case literal(String)
    /// A digit of a number (after `-`, `.`, `e` or `e+`).
    case digit
    /// The `"` that closes a string.
    case closingQuote
    /// The letter of an escape after a backslash.
    case escape
}
