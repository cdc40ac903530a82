/// JSON string literals: the one quoter every JSON writer in the package uses.
public enum JSONString {
    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\b \f \n \r
    /// \t` or `\u00XX` (upper-case hex), everything else as is (the text is UTF-8).
    public static func quoted(_ text: String) -> String {
        var output = ""
        write(text, to: &output)
        return output
    }

    /// Appends `text` as a JSON string literal to `output` (see `quoted(_:)`).
    public static func write(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
