import StrokeKit
import TerminalCanvas
import Testing

@Suite struct ExportPromptTests {
    @Test func theDefaultFileIsNamedAfterTheDrawing() {
        #expect(ExportPrompt.defaultFileName(forDrawing: "Design notes") == "Design notes.svg")
        #expect(ExportPrompt.defaultFileName(forDrawing: "a/b\u{1B}c") == "a_b_c.svg")
        #expect(ExportPrompt.defaultFileName(forDrawing: ".hidden") == "_hidden.svg")
        #expect(ExportPrompt.defaultFileName(forDrawing: "  ") == "drawing.svg")
    }

    @Test func theEndingPicksTheFormat() {
        var prompt = ExportPrompt(path: "notes.svg")
        for _ in 0..<3 { _ = prompt.handle(.backspace) }
        for character in "txt" { _ = prompt.handle(.character(character)) }
        #expect(prompt.handle(.enter) == .write(path: "notes.txt", format: .text))
        #expect(ExportPrompt.format(ofPath: "x.ANS") == .ansi)
        var bad = ExportPrompt(path: "notes.png")
        #expect(bad.handle(.enter) == nil)
        #expect(bad.hint.contains(".svg, .txt (text) or .ans (ANSI)"))
        #expect(bad.handle(.command(.escape)) == .cancel)
    }

    @Test func thePromptIsPaintedAboveTheStatusBar() {
        var grid = CellGrid(width: 30, height: 4)
        ExportPrompt(path: "notes.svg").paint(into: &grid, row: 2, glyphs: .unicode)
        #expect(grid.rows[2] == " export to: notes.svg_")
        #expect(grid[0, 2].attributes.contains(.reverse))
    }
}
