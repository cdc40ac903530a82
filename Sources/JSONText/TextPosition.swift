/// A place in a text as a person finds it in an editor: a line and a column, both from 1.
///
/// Lines end at whatever Swift calls a newline (`Character.isNewline`: LF, CR, CR LF, and the
/// Unicode line separators); columns count `Character`s, so `é` written as `e` plus a combining
/// accent is one column. The DQL lexer steps a position along as it reads; the JSON reader works
/// in UTF-8 offsets and turns one into a position only when it reports an error. Both count the
/// same way because both go through `advance(past:)`.
public struct TextPosition: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Line 1, column 1: where every text starts.
    public static let start = TextPosition(line: 1, column: 1)

    /// The position of the UTF-8 byte `offset` in `text` (clamped to the text). An offset inside
    /// a character counts the part of it before the offset as a character of its own.
    public init(utf8Offset offset: Int, in text: String) {
        let prefix = String(decoding: text.utf8.prefix(max(offset, 0)), as: UTF8.self)
        var position = TextPosition.start
        for character in prefix { position.advance(past: character) }
        self = position
    }

    /// Moves past one character of the text: to the next line after a newline, else one column on.
    public mutating func advance(past character: Character) {
        if character.isNewline {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }

    public var description: String { "line \(line), column \(column)" }
}
