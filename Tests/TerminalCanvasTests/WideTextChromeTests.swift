import StrokeKit
import Testing

@testable import TerminalCanvas

/// The chrome with names in wide characters (emoji, CJK): laid out by terminal columns, so
/// frames line up and nothing is dropped or doubled.
@Suite struct WideTextChromeTests {
    private let items = [
        DrawingsMenu.Item(id: "a", name: "☕ coffee"), .init(id: "b", name: "設計図 ノート"),
        .init(id: "c", name: "plain"),
    ]

    private func statusBar(_ name: String, width: Int) -> String {
        var grid = CellGrid(width: width, height: 1)
        StatusBarView(
            drawingName: name, tool: .pen, colorNumber: 3, colorValue: 196, brushSize: 2, peersOnline: 1,
            sync: .inSync
        ).paint(into: &grid, row: 0)
        return grid.rows[0]
    }

    /// The column just after the last character of each row that has a frame's right edge.
    private func rightEdges(_ grid: CellGrid) -> Set<Int> {
        Set(grid.rows.filter { $0.contains("│") || $0.contains("┐") }.map(\.terminalColumns))
    }

    @Test func theMenuShowsWideNamesWholeInsideAStraightFrame() {
        var grid = CellGrid(width: 50, height: 8)
        DrawingsMenu(items: items, currentID: "a").paint(into: &grid, glyphs: .unicode)
        #expect(
            grid.text == """
                ┌─ drawings ─────────────────────────────────────┐
                │ > ☕ coffee *                                  │
                │   設計図 ノート                                │
                │   plain                                        │
                │                                                │
                │                                                │
                │ Enter open  n new  r rename  d delete  c clea… │
                └────────────────────────────────────────────────┘
                """)
        #expect(rightEdges(grid) == [50])
    }

    /// The box stays put from one prompt to the next: same frame browsing and renaming.
    @Test func theRenamePromptShowsTheWholeNameInTheSameBox() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.command(.move(.down)))
        var browsing = CellGrid(width: 70, height: 10)
        menu.paint(into: &browsing, glyphs: .unicode)
        _ = menu.handle(.character("r"))
        var grid = CellGrid(width: 70, height: 10)
        menu.paint(into: &grid, glyphs: .unicode)
        #expect(grid.text.contains("│ rename to: 設計図 ノート_ "))
        #expect(rightEdges(grid) == rightEdges(browsing))
        #expect(grid.rows.map { $0.hasPrefix(" ") } == browsing.rows.map { $0.hasPrefix(" ") })
        #expect(grid.rows[0] == browsing.rows[0] && grid.rows.last == browsing.rows.last)
    }

    @Test func theStatusBarKeepsTheSpaceAroundAWideNameAt80Columns() {
        #expect(
            statusBar("☕ coffee", width: 80)
                == " ☕ coffee │ pen │ █ colour 3 │ brush 2                 1 peer online │ in sync")
        #expect(
            statusBar("設計図 ノート", width: 80)
                == " 設計図 ノート │ pen │ █ colour 3 │ brush 2             1 peer online │ in sync")
        // The sync state ends one column before the edge, as with a narrow name.
        #expect(statusBar("設計図 ノート", width: 80).terminalColumns == 79)
    }

    @Test func aNarrowStatusBarCutsAWideNameBetweenCharacters() {
        #expect(statusBar("設計図 ノート 設計図設計図", width: 30) == " 設計図 ノー… │ pen   in sync")
        for width in TooSmallView.minimumWidth...80 {
            let row = statusBar("☕ 設計図 plan ノート", width: width)
            #expect(row.terminalColumns <= width - 1, "\(width): \(row)")
            #expect(row.hasSuffix("in sync"), "\(width): \(row)")
        }
    }

    @Test func truncationCountsColumnsAndNeverSplitsAWideCharacter() {
        #expect("設計図".truncated(to: 6, ellipsis: "…") == "設計図")
        #expect("設計図".truncated(to: 5, ellipsis: "…") == "設計…")
        #expect("設計図".truncated(to: 4, ellipsis: "…") == "設…")
        #expect("☕ coffee".truncated(to: 3, ellipsis: "…") == "☕…")
        #expect("☕ coffee".truncated(to: 2, ellipsis: "…") == "…")
        #expect("設計図 ノート".wrapped(to: 7, ellipsis: "…") == ["設計図", "ノート"])
    }

    @Test func theHelpOverlayFramesLinesWithWideCharacters() {
        var grid = CellGrid(width: 40, height: 6)
        HelpOverlayView(text: "☕ break\n設計図 plan", title: "ノート", footer: "Esc").paint(into: &grid)
        #expect(
            grid.rows == [
                "", "            ┌─ ノート ────┐", "            │ ☕ break    │", "            │ 設計図 plan │",
                "            └─────── Esc ─┘", "",
            ])
        #expect(rightEdges(grid) == [27])
    }

    @Test func theMessageLineEndsAtTheRightEdgeAndStaysOnItsRow() {
        var grid = CellGrid(width: 30, height: 2)
        MessageLineView(message: "☕ refused by 設計図").paint(into: &grid, row: 0)
        #expect(grid.rows == ["         ☕ refused by 設計図", ""])
        #expect(grid[29, 0] == Cell(" ", attributes: .reverse))
        grid = CellGrid(width: 20, height: 2)
        MessageLineView(message: "設計図 ノート refused by the relay", maximumLines: 1).paint(into: &grid, row: 0)
        #expect(grid.rows == [" 設計図 ノート ref…", ""])
    }

    /// The end of a refusal says what to do, so a long message wraps instead of being cut.
    @Test func aLongMessageWrapsAtSpacesOntoLinesAboveAndKeepsItsEnd() {
        let message =
            "peer-661: authentication failed: the peers do not share the same token; check --token on both"
        let view = MessageLineView(message: message)
        let lines = view.lines(width: 78, maximum: 3)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.terminalColumns <= 78 })
        #expect(lines.joined(separator: " ") == message)
        var grid = CellGrid(width: 80, height: 4)
        view.paint(into: &grid, row: 2)
        #expect(grid.rows[0] == "")
        #expect(grid.rows[2].hasSuffix("--token on both") && grid.rows[1].hasPrefix("  "))
        #expect(grid.rows[3] == "")
        // Too long even for the lines there are: the last one says so, by columns.
        let cut = MessageLineView(message: String(repeating: "設計 ", count: 30)).lines(width: 11, maximum: 2)
        #expect(cut.count == 2 && cut[1].hasSuffix("…") && cut.allSatisfy { $0.terminalColumns <= 11 })
        #expect(
            MessageLineView(message: String(repeating: "x", count: 30)).lines(width: 12, maximum: 3) == [
                String(repeating: "x", count: 11) + "…"
            ])
    }
}
