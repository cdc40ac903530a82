/// Text from outside (a drawing's name from a peer, a value from `.env`) made safe to print on
/// one terminal line: control characters are shown as escapes (`\n`, `\t`, `\u{1B}`), so no
/// text can start a forged line or send the terminal an escape sequence, and an excerpt keeps an
/// enormous value from filling the screen.
enum DisplayText {
    /// `text` with every control character (C0, DEL, C1 and the line and paragraph separators)
    /// replaced by a visible escape.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            case _ where isControl(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// At most `limit` characters of `text`, escaped; a longer value ends in "…" and says how
    /// long it was.
    static func excerpt(_ text: String, limit: Int = 64) -> String {
        guard text.count > limit else { return escaped(text) }
        return escaped(String(text.prefix(limit))) + "… (\(text.utf8.count) bytes)"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029
    }
}
