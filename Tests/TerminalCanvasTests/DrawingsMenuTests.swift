import StrokeKit
import TerminalCanvas
import Testing

@Suite struct DrawingsMenuTests {
    let items = [
        DrawingsMenu.Item(id: "a", name: "Alpha"), .init(id: "b", name: "Beta"),
        .init(id: "c", name: "Gamma"),
    ]

    @Test func startsOnTheOpenDrawingAndOpensTheSelectedOne() {
        var menu = DrawingsMenu(items: items, currentID: "b")
        #expect(menu.selection == 1)
        #expect(menu.handle(.command(.move(.down))) == nil)
        #expect(menu.handle(.enter) == .open(id: "c"))
    }

    @Test func typingANameCreatesADrawing() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.character("n"))
        #expect(menu.takesText)
        for character in "Plan B" { _ = menu.handle(.character(character)) }
        _ = menu.handle(.backspace)
        _ = menu.handle(.character("C"))
        #expect(menu.handle(.enter) == .create(name: "Plan C"))
        #expect(!menu.takesText)
    }

    /// A name longer than the limit is not silently cut: the prompt says so, and while typing
    /// the end of the name (where the cursor is) stays in view in a narrow box.
    @Test func aLongNameStopsAtTheLimitWithANoticeAndShowsItsEnd() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.character("n"))
        let long = String(repeating: "abcdefghij", count: 7) + "XYZ"
        for character in long { _ = menu.handle(.character(character)) }
        #expect(menu.notice == "\(DrawingsMenu.nameLimit) characters at most")
        var grid = CellGrid(width: 40, height: 12)
        menu.paint(into: &grid, glyphs: .unicode)
        let text = grid.rows.joined(separator: "\n")
        #expect(text.contains("characters at most"))
        #expect(text.contains("…") && text.contains("abcd_"))
        #expect(menu.handle(.enter) == .create(name: String(long.prefix(DrawingsMenu.nameLimit))))
    }

    @Test func renameStartsFromTheCurrentNameAndEscapeCancels() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.command(.redo))  // r
        for _ in 0..<5 { _ = menu.handle(.backspace) }
        for character in "First" { _ = menu.handle(.character(character)) }
        #expect(menu.handle(.enter) == .rename(id: "a", name: "First"))
        _ = menu.handle(.character("r"))
        #expect(menu.handle(.command(.escape)) == nil)
        #expect(!menu.takesText)
    }

    @Test func deletingAsksFirstAndNeverDeletesTheOpenDrawing() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.character("d"))
        #expect(menu.handle(.character("y")) == nil)  // "a" is open: nothing to confirm
        _ = menu.handle(.command(.move(.down)))
        _ = menu.handle(.character("d"))
        #expect(menu.paintedText.contains("move 'Beta' to the trash for everyone? y / n"))
        #expect(menu.handle(.character("y")) == .delete(id: "b"))
        _ = menu.handle(.character("d"))
        #expect(menu.handle(.character("n")) == nil)
    }

    /// Drawings in the trash are listed last; `u` puts back the selected one or, on another row,
    /// the one deleted last; Enter and a click put it back too; `d` deletes it for good, asked first.
    @Test func theTrashIsListedLastAndUPutsADrawingBack() {
        let trashed = [
            DrawingsMenu.Item(id: "t1", name: "Old", inTrash: true),
            DrawingsMenu.Item(id: "t2", name: "Older", inTrash: true),
        ]
        var menu = DrawingsMenu(items: trashed + items, currentID: "a")
        #expect(menu.items.map(\.id) == items.map(\.id) + ["t1", "t2"])
        #expect(menu.paintedText.contains("Old  (in the trash)"))
        // On a live drawing, u is the undo of the last delete.
        #expect(menu.handle(.command(.undo)) == .restore(id: "t1"))
        while menu.items[menu.selection].id != "t2" { _ = menu.handle(.command(.move(.down))) }
        #expect(menu.paintedText.contains("Enter/u put back  d delete for good"))
        #expect(menu.handle(.command(.undo)) == .restore(id: "t2"))
        #expect(menu.handle(.enter) == .restore(id: "t2"))
        _ = menu.handle(.character("d"))
        #expect(menu.paintedText.contains("delete 'Older' for good, for everyone? y / n"))
        #expect(menu.handle(.character("y")) == .deleteForever(id: "t2"))
        // Nothing in the trash: u says so.
        var empty = DrawingsMenu(items: items, currentID: "a")
        #expect(empty.handle(.command(.undo)) == nil)
        #expect(empty.paintedText.contains("the trash is empty"))
    }

    @Test func aListChangedByAPeerKeepsTheSelectionOnTheSameDrawing() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        _ = menu.handle(.command(.move(.down)))
        menu.update(items: [.init(id: "0", name: "Aardvark")] + items)
        #expect(menu.items[menu.selection].id == "b")
        #expect(menu.handle(.command(.escape)) == .close)
    }

    @Test func paintsTheListWithTheOpenDrawingMarked() {
        var grid = CellGrid(width: 60, height: 12)
        DrawingsMenu(items: items, currentID: "b").paint(into: &grid, glyphs: .ascii)
        let text = grid.text
        #expect(text.contains("> Beta *"))
        #expect(text.contains("Alpha"))
        #expect(text.contains("n new"))
    }

    @Test func deletingTheOpenDrawingSaysWhyNot() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        #expect(menu.handle(.character("d")) == nil)
        #expect(menu.notice == "can't delete the open drawing: open another first")
        var grid = CellGrid(width: 60, height: 12)
        menu.paint(into: &grid, glyphs: .unicode)
        #expect(grid.text.contains("can't delete the open drawing"))
        #expect(grid.text.contains("n new"))  // on its own line below, so the box keeps its size
        // The next key takes the notice away and the hints come back.
        _ = menu.handle(.command(.move(.down)))
        #expect(menu.notice == nil)
        grid = CellGrid(width: 60, height: 12)
        menu.paint(into: &grid, glyphs: .unicode)
        #expect(grid.text.contains("n new"))
    }

    @Test func theMenuBoxHasAnUnbrokenFrame() throws {
        var grid = CellGrid(width: 70, height: 12)
        DrawingsMenu(items: items, currentID: "b").paint(into: &grid, glyphs: .unicode)
        let bottom = try #require(grid.rows.first { $0.contains("└") }).drop { $0 == " " }
        #expect(bottom.hasPrefix("└") && bottom.hasSuffix("┘"))
        #expect(bottom.dropFirst().dropLast().allSatisfy { $0 == "─" }, "\(bottom)")
        let top = try #require(grid.rows.first { $0.contains("┌") }).drop { $0 == " " }
        #expect(top.contains(" drawings "))
    }
}

@Suite struct DrawingsMenuMouseTests {
    let items = [
        DrawingsMenu.Item(id: "a", name: "Alpha"), DrawingsMenu.Item(id: "b", name: "Beta"),
        DrawingsMenu.Item(id: "c", name: "Gamma"),
    ]

    /// Row of an item on a 80x24 grid: the box is centred, its first line one below its top.
    func row(of index: Int, in menu: DrawingsMenu) -> (x: Int, y: Int) {
        var grid = CellGrid(width: 80, height: 24)
        menu.paint(into: &grid, glyphs: .unicode)
        let y = grid.rows.firstIndex { $0.contains(items[index].name) } ?? -1
        let x =
            grid.rows[y].firstIndex(of: "│").map {
                grid.rows[y].distance(from: grid.rows[y].startIndex, to: $0)
            } ?? -1
        return (x + 3, y)
    }

    @Test func aClickOnADrawingOpensItAndTheWheelMovesTheSelection() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        let beta = row(of: 1, in: menu)
        #expect(
            menu.handle(
                MouseEvent(.scrollDown, x: beta.x, y: beta.y), gridWidth: 80, gridHeight: 24, glyphs: .unicode
            ) == nil)
        #expect(menu.selection == 1)
        _ = menu.handle(MouseEvent(.scrollUp, x: 0, y: 0), gridWidth: 80, gridHeight: 24, glyphs: .unicode)
        #expect(menu.selection == 0)
        let gamma = row(of: 2, in: menu)
        #expect(
            menu.handle(
                MouseEvent(.press, x: gamma.x, y: gamma.y), gridWidth: 80, gridHeight: 24, glyphs: .unicode)
                == .open(id: "c"))
    }

    @Test func aClickOutsideTheBoxClosesItAndOneOnItsFrameDoesNothing() {
        var menu = DrawingsMenu(items: items, currentID: "a")
        #expect(
            menu.handle(MouseEvent(.press, x: 0, y: 0), gridWidth: 80, gridHeight: 24, glyphs: .unicode)
                == .close)
        let alpha = row(of: 0, in: menu)
        #expect(
            menu.handle(
                MouseEvent(.press, x: alpha.x, y: alpha.y - 1), gridWidth: 80, gridHeight: 24,
                glyphs: .unicode)
                == nil)
        #expect(
            menu.handle(MouseEvent(.drag, x: 0, y: 0), gridWidth: 80, gridHeight: 24, glyphs: .unicode) == nil
        )
    }
}

@Suite struct DrawingsMenuDetailsTests {
    @Test func rowsShowStrokeCountsAndWhoIsOnEachDrawing() {
        let menu = DrawingsMenu(
            items: [
                DrawingsMenu.Item(id: "a", name: "Alpha", strokeCount: 12, people: ["ana", "bob"]),
                DrawingsMenu.Item(id: "b", name: "Beta", strokeCount: 1),
                DrawingsMenu.Item(id: "c", name: "Gamma"),
            ], currentID: "a")
        var grid = CellGrid(width: 80, height: 12)
        menu.paint(into: &grid, glyphs: .ascii)
        #expect(grid.text.contains("> Alpha *  (12 strokes; ana, bob)"))
        #expect(grid.text.contains("  Beta  (1 stroke) "))
        #expect(grid.text.contains("  Gamma "))
        #expect(!grid.text.contains("Gamma  ("))
    }
}

extension DrawingsMenu {
    /// The menu painted on a 70x16 grid, as text.
    fileprivate var paintedText: String {
        var grid = CellGrid(width: 70, height: 16)
        paint(into: &grid, glyphs: .ascii)
        return grid.text
    }
}
