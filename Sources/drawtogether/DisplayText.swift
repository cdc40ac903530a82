/// Text from outside (a peer's name or goodbye, a drawing's name, a value from `.env`) made safe
/// to print on one terminal line, in logs, messages, `list` and the canvas: control characters
/// are shown as escapes (`\n`, `\t`, `\u{1B}`), so no text can start a forged line, send the
/// terminal an escape sequence or reorder what follows it, and an excerpt keeps an enormous value
/// from filling the screen.
enum DisplayText {
    /// `text` with every control character (C0, DEL, C1, the line and paragraph separators and
    /// the bidirectional overrides and isolates) replaced by a visible escape.
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
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
