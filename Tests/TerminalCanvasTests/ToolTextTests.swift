import StrokeKit
import StrokeKitTestSupport
import TerminalCanvas
import Testing

/// The text tool as a sequence of key events: place, type, edit, end, undo.
@Suite struct ToolTextTests {
    func type(_ text: String, in session: inout CanvasSession) {
        for character in text {
            session.run(character == "\n" ? .type(.newLine) : .type(.character(character)))
        }
    }

    @Test func typedTextShowsAtTheCursorAndGoesIntoTheDrawingWhenItEnds() {
        var session = CanvasSession(cursor: CanvasCell(x: 2, y: 1))
        session.run(.selectTool(.text))
        type("hi\nyou", in: &session)
        #expect(session.document.isEmpty)
        #expect(session.ink.prefix(3) == ["", "  hi", "  you"])
        #expect(session.editor.cursor == CanvasCell(x: 5, y: 2))
        #expect(session.editor.inProgressText?.text == "hi\nyou")
        session.run(.liftPen)
        #expect(session.document.count == 1)
        #expect(session.document.groups[0].base[0].text?.lines == ["hi", "you"])
        #expect(session.document.groups[0].base[0].origin == CanvasPoint(x: 2, y: 1))
        #expect(session.ink.prefix(3) == ["", "  hi", "  you"])
        #expect(!session.editor.isTyping)
        session.run(.undo)
        #expect(session.document.isEmpty)
        session.run(.redo)
        #expect(session.document.count == 1)
    }

    @Test func backspaceArrowsAndEnterEditWithinTheText() {
        var session = CanvasSession()
        session.run(.selectTool(.text))
        type("helo", in: &session)
        session.run(.moveCursor(dx: -1, dy: 0))
        type("l", in: &session)  // hel|lo
        #expect(session.editor.inProgressText?.text == "hello")
        session.run(.moveCursor(dx: -1, dy: 0), .moveCursor(dx: -1, dy: 0), .type(.newLine))
        #expect(session.editor.inProgressText?.text == "he\nllo")
        session.run(.type(.backspace))  // joins the lines again
        #expect(session.editor.inProgressText?.text == "hello")
        session.run(.type(.backspace), .type(.backspace))
        #expect(session.editor.inProgressText?.text == "llo")
        // Up and down move between lines; the caret never leaves the text.
        session.run(.moveCursor(dx: 0, dy: -1))
        #expect(session.editor.cursor == CanvasCell(x: 0, y: 0))
    }

    @Test func wideCharactersMoveTheCaretTwoCells() {
        var session = CanvasSession(cursor: CanvasCell(x: 1, y: 1))
        session.run(.selectTool(.text))
        type("日本", in: &session)
        #expect(session.editor.cursor == CanvasCell(x: 5, y: 1))
        session.run(.moveCursor(dx: -1, dy: 0))
        #expect(session.editor.cursor == CanvasCell(x: 3, y: 1))
        session.run(.liftPen)
        #expect(session.ink[1] == " 日本")
    }

    @Test func aClickElsewhereEndsTheTextAndPlacesTheNext() {
        var session = CanvasSession()
        session.run(.selectTool(.text))
        type("a", in: &session)
        session.press(6, 3)
        session.release(6, 3)
        #expect(session.document.count == 1)
        #expect(!session.editor.isTyping)
        type("b", in: &session)
        session.run(.selectTool(.pen))
        #expect(session.document.count == 2)
        #expect(session.ink[3] == "      b")
    }

    @Test func aClickOnTheTextMovesItsCaret() {
        var session = CanvasSession(cursor: CanvasCell(x: 1, y: 1))
        session.run(.selectTool(.text))
        type("ac\n世x", in: &session)
        session.press(2, 1)  // on the "c"
        session.release(2, 1)
        #expect(session.editor.isTyping)
        type("b", in: &session)
        #expect(session.editor.inProgressText?.text == "abc\n世x")
        session.press(2, 2)  // the right half of 世: before it
        type("y", in: &session)
        #expect(session.editor.inProgressText?.text == "abc\ny世x")
        session.press(9, 1)  // past the end: the text ends
        #expect(!session.editor.isTyping)
        #expect(session.document.count == 1)
    }

    @Test func nothingTypedLeavesNothing() {
        var session = CanvasSession()
        session.run(.selectTool(.text), .type(.newLine), .type(.backspace), .liftPen)
        #expect(session.document.isEmpty)
        type("x", in: &session)
        session.run(.type(.backspace), .liftPen)
        #expect(session.document.isEmpty)
        #expect(session.editor.undoStack.undoEntries.isEmpty)
    }

    @Test func escapeGoesBackToTheToolBefore() {
        var session = CanvasSession()
        session.run(.selectTool(.marker), .selectTool(.text))
        #expect(session.editor.toolBeforeText == .marker)
    }

    @Test func clearRemovesEveryStrokeAsOneUndoStep() {
        var session = CanvasSession(groups: [
            CanvasFixtures.group(through: [(0, 0), (3, 0)]),
            CanvasFixtures.group(through: [(0, 2), (3, 2)], at: CanvasSession.startMilliseconds - 900),
        ])
        session.run(.clearDrawing)
        #expect(session.document.isEmpty)
        #expect(session.lastFeedback.message == "cleared 2 strokes for everyone; u undoes it")
        session.run(.undo)
        #expect(session.document.count == 2)
        session.run(.redo)
        #expect(session.document.isEmpty)
    }

    @Test func clearKeepsAKindThisBuildDoesNotKnow() throws {
        let key = CanvasFixtures.key(CanvasSession.startMilliseconds - 500)
        let unknown = Stroke(
            key: key, unknown: UnknownStrokeKind(code: 9, body: [1, 2, 3]), anchor: CanvasPoint(x: 1, y: 1),
            createdAtMilliseconds: key.creationMilliseconds)
        let kept = try #require(StrokeGroup(key: key, pieces: [unknown]))
        var session = CanvasSession(groups: [CanvasFixtures.group(through: [(0, 0), (3, 0)]), kept])
        session.run(.clearDrawing)
        #expect(session.document.groups == [kept])
        #expect(session.lastFeedback.message?.contains("kept 1 of a kind") == true)
    }
}
