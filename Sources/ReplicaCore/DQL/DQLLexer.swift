import JSONText

/// Splits DQL text into tokens, one at a time, tracking lines and columns.
///
/// Lexing is lazy so that the first error in the text is the one reported: a syntax error on line 1
/// is not hidden behind an unterminated string on line 3. Positions step along as `TextPosition`
/// counts (columns in `Character`s, which is what a user sees in an editor), the same way JSON
/// errors count. Nothing here recurses, so input length is bounded only by memory.
struct DQLLexer {
    private let characters: [Character]
    private var index = 0
    private var position = TextPosition.start

    init(_ text: String) {
        characters = Array(text)
    }

    /// The next token; `.end` forever once the text is used up.
    mutating func next() throws(DQLSyntaxError) -> DQLToken {
        skipWhitespaceAndComments()
        let start = position
        let startIndex = index
        guard let character = peek() else {
            return DQLToken(kind: .end, position: start, text: "")
        }
        let kind: DQLToken.Kind
        switch character {
        case "'":
            kind = .string(try quoted(by: "'", unterminated: .unterminatedString(position: start)))
        case "`":
            let name = try quoted(by: "`", unterminated: .unterminatedQuotedIdentifier(position: start))
            guard !name.isEmpty else { throw .emptyQuotedIdentifier(position: start) }
            kind = .quotedIdentifier(name)
        case ":":
            advance()
            guard let first = peek(), Self.startsWord(first) else {
                throw .missingParameterName(position: start)
            }
            kind = .parameter(word())
        case "*", ",", ".", "=", "(", ")", ";":
            advance()
            kind = .symbol(character)
        case "-" where peek(at: 1).map(Self.isDigit) == true:
            kind = .number(try number(start: start))
        case _ where Self.isDigit(character):
            kind = .number(try number(start: start))
        case _ where Self.startsWord(character):
            kind = .word(word())
        default:
            throw .unexpectedCharacter(character, position: start)
        }
        return DQLToken(kind: kind, position: start, text: String(characters[startIndex..<index]))
    }

    // MARK: Pieces of tokens

    private mutating func skipWhitespaceAndComments() {
        while let character = peek() {
            if character.isWhitespace {
                advance()
            } else if character == "-", peek(at: 1) == "-" {
                while let next = peek(), !next.isNewline { advance() }
            } else {
                return
            }
        }
    }

    /// Reads `quote ... quote`, where a doubled quote stands for one quote character.
    private mutating func quoted(
        by quote: Character, unterminated: DQLSyntaxError
    ) throws(DQLSyntaxError) -> String {
        advance()
        var content = ""
        while let character = peek() {
            advance()
            if character == quote {
                guard peek() == quote else { return content }
                advance()
            }
            content.append(character)
        }
        throw unterminated
    }

    private mutating func word() -> String {
        let start = index
        while let character = peek(), Self.continuesWord(character) { advance() }
        return String(characters[start..<index])
    }

    /// `-?digits[.digits][(e|E)[+|-]digits]`; a dot not followed by a digit is left for the parser.
    private mutating func number(start: DQLPosition) throws(DQLSyntaxError) -> Double {
        let startIndex = index
        if peek() == "-" { advance() }
        skipDigits()
        if peek() == ".", peek(at: 1).map(Self.isDigit) == true {
            advance()
            skipDigits()
        }
        if peek() == "e" || peek() == "E" {
            advance()
            if peek() == "+" || peek() == "-" { advance() }
            guard peek().map(Self.isDigit) == true else {
                throw .malformedNumber(text: String(characters[startIndex..<index]), position: start)
            }
            skipDigits()
        }
        let text = String(characters[startIndex..<index])
        guard let value = Double(text), value.isFinite else {
            throw .malformedNumber(text: text, position: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while let character = peek(), Self.isDigit(character) { advance() }
    }

    // MARK: Moving through the text

    private func peek(at offset: Int = 0) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func advance() {
        guard index < characters.count else { return }
        position.advance(past: characters[index])
        index += 1
    }

    // MARK: Character classes (ASCII only, as the grammar says)

    static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    static func startsWord(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && character.isLetter)
    }

    static func continuesWord(_ character: Character) -> Bool {
        startsWord(character) || isDigit(character)
    }
}
