/// One lexical token of a DQL statement, with where it starts and the text it was read from.
struct DQLToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A bare word: a keyword (compared case-insensitively) or a plain identifier.
        case word(String)
        /// A backquoted identifier, with doubled backquotes already undone.
        case quotedIdentifier(String)
        /// `:name`, without the colon.
        case parameter(String)
        /// A single-quoted string, with doubled quotes already undone.
        case string(String)
        case number(Double)
        /// One of `* , . = ( ) ;`.
        case symbol(Character)
        case end
    }

    var kind: Kind
    var position: DQLPosition
    /// The source text of the token, for error messages.
    var text: String

    /// The token as an error message names it: `'FORM'`, `','`, `end of input`.
    var foundDescription: String {
        switch kind {
        case .end: return "end of input"
        case .string: return "string " + Self.quote(text)
        case .number: return "number " + Self.quote(text)
        case .parameter: return "parameter " + Self.quote(text)
        case .word, .quotedIdentifier, .symbol: return Self.quote(text)
        }
    }

    /// Whether this is the keyword `keyword` (given in upper case), in any letter case.
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let word) = kind { return Self.uppercasedASCII(word) == keyword }
        return false
    }

    func isSymbol(_ symbol: Character) -> Bool {
        kind == .symbol(symbol)
    }

    /// Quotes source text for a message, shortened so a 100k-character token cannot flood it.
    static func quote(_ text: String) -> String {
        let limit = 40
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "'" + shown + "'"
    }

    /// Words are ASCII by construction (the lexer admits nothing else), so plain upper-casing
    /// cannot turn one keyword into another.
    static func uppercasedASCII(_ word: String) -> String {
        word.uppercased()
    }
}
