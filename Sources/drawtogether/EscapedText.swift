/// Text from elsewhere (a peer's name, a goodbye's reason) made safe to print: one line, with
/// every control character visible instead of acted on, so a peer cannot forge log lines with a
/// newline or reach the operator's terminal with an escape sequence.
enum EscapedText {
    /// `text` with C0 and C1 controls, DEL, line and paragraph separators and the bidirectional
    /// overrides written as `\n`, `\r`, `\t` or `\u{XX}`; everything else as it is.
    static func line(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isHidden(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isHidden(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
