/// Turns byte offsets into the line and column a person looks for in an editor.
struct TextPositions {
    let bytes: [UInt8]

    /// Lines are split at line feeds; columns count Unicode scalars (UTF-8 continuation bytes
    /// are skipped), both from 1. Computed only when an error is reported.
    func position(_ offset: Int) -> DrawingJSON.Position {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[0..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return DrawingJSON.Position(line: line, column: column, offset: end)
    }
}
