import StrokeKit
import TerminalCanvas
import Testing

@Suite struct ToolEraserTests {
    let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])

    @Test func theMaskEraserSplitsAStrokeIntoTwoPiecesWithOneKey() throws {
        var session = CanvasSession(groups: [line])
        #expect(session.ink == ["", "", " ▄▄▄▄▄▄▄▄▄▄", "", "", ""])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(5, 0), (5, 4)])

        let group = try #require(session.document[line.key])
        #expect(session.document.count == 1)
        #expect(group.pieces.count == 2)
        #expect(group.pieces.allSatisfy { $0.key == line.key })
        #expect(session.changedKeys == [line.key])
        #expect(session.ink == ["", "", " ▄▄▄▄ ▄▄▄▄▄", "", "", ""])
    }

    @Test func theMaskEraserEditsTheDocumentWhileTheButtonIsStillDown() throws {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.press(5, 0)
        #expect(session.document[line.key] == line)
        session.drag(5, 4)
        #expect(session.lastFeedback.documentChanged)
        #expect(session.document[line.key]?.pieces.count == 2)
        #expect(!session.editor.undoStack.canUndo)
        session.release(5, 4)
        #expect(session.editor.undoStack.undoEntries.count == 1)
    }

    @Test func aLargerBrushErasesMore() throws {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser), .growSize, .growSize, .growSize)
        #expect(session.editor.settings.eraserSize == 3)
        session.mouseStroke([(5, 0), (5, 4)])
        #expect(session.ink == ["", "", " ▄▄▄   ▄▄▄▄", "", "", ""])
    }

    /// The group stays, erased completely: its sweep can still be undone, here or by its peer.
    @Test func erasingAllOfAStrokeShowsItAsGone() throws {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(0, 2), (11, 2)])
        let group = try #require(session.document[line.key])
        #expect(group.isErasedCompletely)
        #expect(group.base == line.base)
        #expect(session.ink == ["", "", "", "", "", ""])
        #expect(session.changedKeys == [line.key])
    }

    /// A whole drag is one sweep of each group it erased from, under one key, beside the stroke
    /// as drawn, which stays as it was.
    @Test func oneDragIsOneSweepOfTheStrokeAsDrawn() throws {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(3, 0), (3, 4), (7, 4), (7, 0)])
        let group = try #require(session.document[line.key])
        #expect(group.base == line.base)
        #expect(group.sweeps.count == 1)
        #expect(group.pieces.count == 3)
        #expect(session.ink == ["", "", " ▄▄ ▄▄▄ ▄▄▄", "", "", ""])
        let entry = try #require(session.editor.undoStack.undoEntries.last)
        #expect(entry.sweeps.map(\.key) == [line.key])
        #expect(entry.changes.isEmpty)
    }

    @Test func anEraserDragThatTouchesNothingLeavesNoUndoStep() {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(0, 4), (11, 4)])
        #expect(session.document[line.key] == line)
        #expect(session.changedKeys.isEmpty)
        #expect(!session.editor.undoStack.canUndo)
    }

    @Test func theStrokeEraserRemovesTheTopmostGroupUnderThePointer() {
        let red = CanvasFixtures.group(through: [(1, 2), (8, 2)], at: 1_000, colour: 196)
        let blue = CanvasFixtures.group(through: [(4, 0), (4, 4)], at: 2_000, colour: 33)
        var session = CanvasSession(groups: [blue, red])
        #expect(session.ink == ["    ▄", "    █", " ▄▄▄█▄▄▄▄", "    █", "    █", ""])
        session.run(.selectTool(.strokeEraser))

        session.press(4, 2)
        session.release(4, 2)
        #expect(session.document.keys == [red.key])
        #expect(session.ink == ["", "", " ▄▄▄▄▄▄▄▄", "", "", ""])

        session.press(4, 2)
        session.release(4, 2)
        #expect(session.document.isEmpty)
        #expect(session.changedKeys == [red.key, blue.key])
    }

    @Test func holdingTheStrokeEraserStillRemovesOnlyOneGroup() {
        let red = CanvasFixtures.group(through: [(1, 2), (8, 2)], at: 1_000, colour: 196)
        let blue = CanvasFixtures.group(through: [(4, 0), (4, 4)], at: 2_000, colour: 33)
        var session = CanvasSession(groups: [red, blue])
        session.run(.selectTool(.strokeEraser))
        session.press(4, 2)
        session.drag(4, 2)
        session.drag(4, 2)
        session.release(4, 2)
        #expect(session.document.keys == [red.key])
    }

    @Test func aStrokeEraserDragRemovesEveryGroupItCrossesInOneUndoStep() {
        let first = CanvasFixtures.group(through: [(2, 0), (2, 4)], at: 1_000)
        let second = CanvasFixtures.group(through: [(6, 0), (6, 4)], at: 2_000)
        let untouched = CanvasFixtures.group(through: [(10, 0), (10, 4)], at: 3_000)
        var session = CanvasSession(groups: [first, second, untouched])
        session.run(.selectTool(.strokeEraser))
        // One report jumps across both lines: the cells in between are visited too.
        session.mouseStroke([(0, 2), (8, 2)])
        #expect(session.document.keys == [untouched.key])
        #expect(session.editor.undoStack.undoEntries.count == 1)
        #expect(session.editor.undoStack.undoEntries.first?.changes.map(\.key) == [first.key, second.key])
    }

    @Test func theStrokeEraserMissesEmptyCells() {
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.strokeEraser))
        session.press(3, 4)
        session.release(3, 4)
        #expect(session.document[line.key] == line)
        #expect(!session.editor.undoStack.canUndo)
    }

    @Test func grazingTheEdgeOfAWideStrokeMasksItWithoutCutting() throws {
        var session = CanvasSession(width: 12, height: 9)
        session.run(.growSize, .growSize, .growSize)  // a pen 2 cells wide
        session.mouseStroke([(2, 5), (9, 5)])
        let before = session.ink
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(0, 4), (11, 4)])
        let group = try #require(session.document.groups.first)
        #expect(group.pieces.count == 1)
        #expect(!group.pieces[0].mask.isEmpty)
        #expect(before == ["", "", "", "", "  ▄▄▄▄▄▄▄▄", "  ████████", "  ▀▀▀▀▀▀▀▀", "", ""])
        #expect(session.ink == ["", "", "", "", "", "  ████████", "  ▀▀▀▀▀▀▀▀", "", ""])
    }
}
