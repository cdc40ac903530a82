import Foundation
import StrokeKit
import Testing

@testable import TerminalCanvas

@Suite struct HelpOverlayViewTests {
    @Test func aFramedBoxIsCentredOverTheCanvasAndLeavesTheRestAlone() {
        var grid = CellGrid(width: 30, height: 8, filling: Cell("."))
        HelpOverlayView(text: "Drawing\n  space  pen\n\n\n", footer: "Esc closes", glyphs: .ascii).paint(
            into: &grid)
        #expect(
            grid.text == """
                ..............................
                ..............................
                .......+- Keys -------+.......
                .......| Drawing      |.......
                .......|   space  pen |.......
                .......+- Esc closes -+.......
                ..............................
                ..............................
                """)
    }

    @Test func aShortTerminalShowsAsManyLinesAsFitWithAnArrowWhereThereIsMore() {
        var grid = CellGrid(width: 31, height: 6)
        HelpOverlayView(text: "one\ntwo\nthree\nfour\nfive\nsix").paint(into: &grid)
        #expect(
            grid.text == """
                ┌─ Keys ──────────────────────┐
                │ one                         │
                │ two                         │
                │ three                       │
                │ four                        │
                └─ ↑ ↓ scroll · Esc closes ──↓┘
                """)
    }

    @Test func scrollingShowsLaterLinesWithArrowsBothWaysAndStopsAtTheEnd() {
        let view = HelpOverlayView(text: "one\ntwo\nthree\nfour\nfive\nsix", glyphs: .ascii, firstLine: 1)
        #expect(view.lastFirstLine(gridHeight: 6) == 2)
        #expect(view.lastFirstLine(gridHeight: 8) == 0)
        var grid = CellGrid(width: 34, height: 6)
        view.paint(into: &grid)
        #expect(
            grid.text == """
                +- Keys ------------------------^+
                | two                            |
                | three                          |
                | four                           |
                | five                           |
                +- up/down scroll, Esc closes --v+
                """)
        var end = CellGrid(width: 34, height: 6)
        HelpOverlayView(text: view.text, glyphs: .ascii, firstLine: 99).paint(into: &end)
        #expect(end.rows[4] == "| six                            |")
        #expect(end.rows[5].hasSuffix("-+"))
        #expect(end.rows[0].hasSuffix("^+"))
    }

    @Test func longLinesAreCutAtTheFrame() {
        var grid = CellGrid(width: 20, height: 3)
        HelpOverlayView(text: "a line much longer than the box").paint(into: &grid)
        #expect(grid.rows[1] == "│ a line much lon… │")
    }

    @Test func theShippedKeyListFitsAnEightyByTwentyFourTerminal() throws {
        // The overlay is read from Resources at run time; a help text that outgrows the usual
        // terminal would hide keys behind the "more" marker.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/help/keys.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var grid = CellGrid(width: 80, height: 24)
        HelpOverlayView(text: text).paint(into: &grid)
        #expect(!grid.text.contains("│ …"))
        #expect(grid.text.contains("q                 quit (Ctrl-Z suspends; fg resumes)"))
        #expect(grid.text.contains("? or Esc closes"))
    }
}
