/// Text made safe for XML content and attribute values.
enum XMLText {
    /// Escapes the five markup characters, and replaces characters XML 1.0 cannot carry at all
    /// (control characters other than tab, line feed and carriage return, and U+FFFE/U+FFFF)
    /// with U+FFFD, so a drawing name can never break the document.
    static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&apos;".unicodeScalars)
            case "\t", "\n", "\r": result.append(scalar)
            default:
                let isForbidden = scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                result.append(isForbidden ? "\u{FFFD}" : scalar)
            }
        }
        return String(result)
    }
}
