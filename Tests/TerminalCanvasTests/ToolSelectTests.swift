import StrokeKit
import TerminalCanvas
import Testing

/// The select tool: a band or a click selects, the selection is outlined, and a drag or the
/// arrows move it (a transform, one undo step each), Delete removes it, `y` duplicates it.
@Suite struct ToolSelectTests {
    static let left = CanvasFixtures.group(
        through: [(1, 1), (3, 1)], at: CanvasSession.startMilliseconds - 2000)
    static let right = CanvasFixtures.group(
        through: [(8, 3), (10, 3)], at: CanvasSession.startMilliseconds - 1000)

    func session() -> CanvasSession {
        var session = CanvasSession(width: 14, height: 8, groups: [Self.left, Self.right])
        session.run(.selectTool(.select))
        return session
    }

    @Test func aBandSelectsWhatItTouchesAndTheSelectionIsOutlined() {
        var session = session()
        session.mouseStroke([(0, 0), (4, 2)])
        #expect(session.editor.selection(in: session.document) == [Self.left.key])
        #expect(
            session.editor.selectionOutline(in: session.document) == CellRect(x: 0, y: 0, width: 5, height: 3)
        )
        #expect(session.screen().prefix(4) == ["·╌╌╌·", "╎▄▄▄╎", "·╌╌╌+", "        ▄▄▄"])
        // A band over both selects both (started outside the outline: a press inside it would
        // drag the selection).
        session.mouseStroke([(12, 5), (0, 0)])
        #expect(session.editor.selection(in: session.document) == [Self.left.key, Self.right.key])
    }

    @Test func theBandIsOutlinedWhileItIsDragged() {
        var session = session()
        session.press(6, 2)
        session.drag(11, 4)
        #expect(session.screen().prefix(5) == ["", " ▄▄▄", "      ·╌╌╌╌·", "      ╎ ▄▄▄╎", "      ·╌╌╌╌+"])
    }

    @Test func aClickSelectsTheTopmostStrokeThereAndAClickOnNothingClears() {
        var session = session()
        session.press(9, 3)
        session.release(9, 3)
        #expect(session.editor.selection(in: session.document) == [Self.right.key])
        session.press(5, 5)
        session.release(5, 5)
        #expect(session.editor.selection(in: session.document).isEmpty)
    }

    @Test func draggingTheSelectionMovesItAsOneUndoStep() throws {
        var session = session()
        session.mouseStroke([(0, 0), (4, 2)])
        session.takeChangedKeys()
        // A press inside the outline drags the selection along.
        session.press(2, 1)
        session.drag(3, 2)
        session.drag(5, 4)
        #expect(session.changedKeys == [Self.left.key])
        session.release(5, 4)
        let moved = try #require(session.document[Self.left.key])
        #expect(moved.baseTransforms == [StrokeTransform(dx: 3, dy: 3)])
        #expect(session.ink.prefix(5) == ["", "", "", "        ▄▄▄", "    ▄▄▄"])
        #expect(session.document[Self.right.key] == Self.right)

        session.run(.undo)
        #expect(session.document[Self.left.key] == Self.left)
        session.run(.redo)
        #expect(session.document[Self.left.key] == moved)
    }

    @Test func arrowsMoveTheSelectionAndTheCursorAndEscapeDeselects() throws {
        var session = session()
        session.mouseStroke([(7, 2), (11, 4)])
        let cursor = session.editor.cursor
        session.run(.moveCursor(dx: 0, dy: 1), .moveCursor(dx: -1, dy: 0))
        #expect(session.document[Self.right.key]?.baseTransforms == [StrokeTransform(dx: -1, dy: 1)])
        #expect(session.editor.cursor == cursor.offset(dx: -1, dy: 1))
        // One undo step per key.
        session.run(.undo)
        #expect(session.document[Self.right.key]?.baseTransforms == [StrokeTransform(dx: 0, dy: 1)])
        session.run(.clearSelection, .moveCursor(dx: 1, dy: 0))
        #expect(session.document[Self.right.key]?.baseTransforms == [StrokeTransform(dx: 0, dy: 1)])
        #expect(session.editor.cursor == cursor.offset(dx: 0, dy: 1))
    }

    @Test func theKeyboardSelectsWithSpaceMoveSpace() {
        var session = CanvasSession(
            width: 14, height: 8, groups: [Self.left, Self.right], cursor: CanvasCell(x: 7, y: 2))
        session.run(.selectTool(.select), .togglePen)
        for _ in 0..<2 { session.run(.moveCursor(dx: 1, dy: 1)) }
        session.run(.togglePen)
        #expect(session.editor.selection(in: session.document) == [Self.right.key])
    }

    @Test func aMoveUndoesToTheOldPlaceEvenAfterAnotherPeerErasedPartOfIt() throws {
        var session = session()
        session.mouseStroke([(0, 0), (4, 2)])
        session.mouseStroke([(2, 1), (2, 3)])
        let moved = try #require(session.document[Self.left.key])
        // Another peer erases the middle of the moved stroke.
        let sweepKey = CanvasFixtures.key(CanvasSession.startMilliseconds + 5_000)
        let erased = moved.addingPasses(
            MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
                along: [CanvasCell(x: 2, y: 3).centre], near: moved),
            toSweep: sweepKey)
        session.receiveFromReplica([erased, Self.right])
        #expect(session.ink.prefix(4) == ["", "", "", " ▄ ▄    ▄▄▄"])
        session.run(.undo)
        // Back where it was, with the erased part going along.
        #expect(session.document[Self.left.key]?.baseTransforms == [.identity])
        #expect(session.document[Self.left.key]?.sweeps == erased.sweeps)
        #expect(session.ink.prefix(4) == ["", " ▄ ▄", "", "        ▄▄▄"])
    }

    @Test func aMoveAnotherPeerMovedOnIsLeftAloneThenASecondUndoPutsItBack() throws {
        var session = session()
        session.mouseStroke([(0, 0), (4, 2)])
        session.mouseStroke([(2, 1), (2, 3)])
        let moved = try #require(session.document[Self.left.key])
        // Another peer moves it further.
        session.receiveFromReplica([moved.translated(dx: 5, dy: 0), Self.right])
        session.run(.undo)
        #expect(session.document[Self.left.key]?.baseTransforms == [StrokeTransform(dx: 5, dy: 2)])
        #expect(session.lastFeedback.message?.contains("u again") == true)
        session.run(.undo)
        #expect(session.document[Self.left.key]?.baseTransforms == [.identity])
    }

    @Test func deleteRemovesTheSelectionAsOneUndoStep() {
        var session = session()
        session.mouseStroke([(0, 0), (12, 5)])
        session.run(.deleteSelection)
        #expect(session.document.isEmpty)
        #expect(session.lastFeedback.message == "2 strokes deleted")
        #expect(session.editor.selection(in: session.document).isEmpty)
        session.run(.undo)
        #expect(session.document.groups == [Self.left, Self.right])
        session.run(.deleteSelection)
        #expect(session.lastFeedback.message?.hasPrefix("nothing selected") == true)
        #expect(session.document.count == 2)
    }

    @Test func duplicateCopiesOnTopMovedAndSelectsTheCopies() throws {
        var session = session()
        session.mouseStroke([(0, 0), (4, 2)])
        session.run(.duplicateSelection)
        #expect(session.document.count == 3)
        let copyKey = try #require(session.editor.selection(in: session.document).first)
        #expect(copyKey != Self.left.key)
        #expect(copyKey > Self.right.key)  // on top: its key is the newest
        let copy = try #require(session.document[copyKey])
        #expect(copy.baseTransforms == [StrokeTransform(dx: 2, dy: 1)])
        #expect(session.ink.prefix(4) == ["", " ▄▄▄", "   ▄▄▄", "        ▄▄▄"])
        session.run(.undo)
        #expect(session.document.groups == [Self.left, Self.right])
    }

    @Test func anotherToolDropsTheSelection() {
        var session = session()
        session.mouseStroke([(0, 0), (12, 5)])
        session.run(.selectTool(.pen))
        #expect(session.editor.selection(in: session.document).isEmpty)
        #expect(session.editor.selectionOutline(in: session.document) == nil)
    }
}
