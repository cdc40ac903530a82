/// The settings in a `.env` file: `KEY=value` lines, as docker compose and most dotenv tools read.
///
/// Accepted: blank lines, `# comments`, an optional `export ` before the key, spaces around `=`,
/// unquoted values (a ` #` starts a comment), `'single-quoted'` values taken literally and
/// `"double-quoted"` values with `\n \t \r \" \\` escapes. A value is one line; a later line for
/// the same key wins. No `${VAR}` expansion: a token should never change because of another
/// variable.
struct DotEnv: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var value: String
        /// The 1-based line the value came from, for messages about it.
        var line: Int
    }

    var entries: [String: Entry] = [:]

    subscript(key: String) -> Entry? {
        entries[key]
    }

    /// Why a `.env` text could not be read; every case names the 1-based line.
    enum SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        case missingEquals(line: Int)
        case invalidKey(String, line: Int)
        case unterminatedQuote(Character, line: Int)
        case textAfterClosingQuote(line: Int)

        var line: Int {
            switch self {
            case .missingEquals(let line), .invalidKey(_, let line), .unterminatedQuote(_, let line),
                .textAfterClosingQuote(let line):
                return line
            }
        }

        var description: String {
            switch self {
            case .missingEquals(let line):
                return "line \(line): expected KEY=value"
            case .invalidKey(let key, let line):
                return
                    "line \(line): '\(key)' is not a valid name (letters, digits and '_', not starting with a digit)"
            case .unterminatedQuote(let quote, let line):
                return "line \(line): the value has no closing \(quote) (values cannot span lines)"
            case .textAfterClosingQuote(let line):
                return "line \(line): unexpected text after the closing quote (use '#' for a comment)"
            }
        }
    }

    init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Parses the text of a `.env` file.
    init(parsing text: String) throws(SyntaxError) {
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            let lineNumber = offset + 1
            var line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export"), let next = line.dropFirst(6).first, next == " " || next == "\t" {
                line = Self.trimmed(line.dropFirst(6))
            }
            guard let equals = line.firstIndex(of: "=") else { throw .missingEquals(line: lineNumber) }
            let key = Self.trimmed(line[..<equals])
            guard Self.isValidKey(key) else { throw .invalidKey(String(key), line: lineNumber) }
            let value = try Self.value(Self.trimmed(line[line.index(after: equals)...]), line: lineNumber)
            entries[String(key)] = Entry(value: value, line: lineNumber)
        }
    }

    private static func value(_ text: Substring, line: Int) throws(SyntaxError) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            // Unquoted: a '#' after whitespace starts a comment; one inside a word does not.
            var value = text
            if let comment = text.indices.first(where: { index in
                text[index] == "#" && index > text.startIndex && text[text.index(before: index)].isWhitespace
            }) {
                value = text[..<comment]
            }
            return String(trimmed(value))
        }
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == quote {
                let rest = trimmed(text[index...])
                guard rest.isEmpty || rest.hasPrefix("#") else { throw .textAfterClosingQuote(line: line) }
                return result
            }
            if quote == "\"", character == "\\", index < text.endIndex {
                let escaped = text[index]
                index = text.index(after: index)
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\"", "\\": result.append(escaped)
                default: result.append(contentsOf: ["\\", escaped])
                }
            } else {
                result.append(character)
            }
        }
        throw .unterminatedQuote(quote, line: line)
    }

    private static func isValidKey(_ key: Substring) -> Bool {
        guard let first = key.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// Without surrounding spaces, tabs and stray `\r`s.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isBlank($0) }),
            let last = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }
}
