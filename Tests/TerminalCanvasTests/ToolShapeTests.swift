import StrokeKit
import TerminalCanvas
import Testing

/// The line, box and ellipse tools: a drag (or space, move, space) sizes a live preview, the
/// release commits it as one ordinary stroke and one undo step.
@Suite struct ToolShapeTests {
    @Test func aBoxDragShowsAPreviewAndCommitsItOnRelease() throws {
        var session = CanvasSession(width: 12, height: 7)
        session.run(.selectTool(.shape(.box)))
        session.press(1, 1)
        session.drag(4, 2)
        session.drag(8, 4)
        // While dragging: the box as it will be, on screen and for presence, not in the drawing.
        let preview = try #require(session.editor.inProgressStroke)
        #expect(session.document.isEmpty)
        #expect(session.ink == ["", " ▄▄▄▄▄▄▄▄", " █      █", " █      █", " █▄▄▄▄▄▄█", "", ""])
        #expect(
            session.editor.inProgressCells.map { [$0.x, $0.y] } == [
                [1, 1], [8, 1], [8, 4], [1, 4], [1, 1],
            ])

        session.release(8, 4)
        let group = try #require(session.document.groups.first)
        #expect(session.document.count == 1)
        #expect(group.pieces == [preview])
        #expect(group.pieces[0].ink == session.editor.settings.ink)
        #expect(session.ink == ["", " ▄▄▄▄▄▄▄▄", " █      █", " █      █", " █▄▄▄▄▄▄█", "", ""])
        #expect(session.editor.inProgressStroke == nil)

        session.run(.undo)
        #expect(session.document.isEmpty)
        session.run(.redo)
        #expect(session.document.groups == [group])
    }

    @Test func aLineTakesTheColourAndTheBrush() throws {
        var session = CanvasSession(width: 12, height: 7)
        session.run(.selectTool(.shape(.line)), .selectColour(slot: 2), .growSize, .growSize)
        session.mouseStroke([(1, 1), (9, 1)])
        let stroke = try #require(session.document.groups.first?.pieces.first)
        #expect(stroke.ink == Ink(tool: .pen, colour: 196, width: 1))
        #expect(stroke.path.map(\.point) == [CanvasCell(x: 1, y: 1).centre, CanvasCell(x: 9, y: 1).centre])
        #expect(session.ink == ["", " █████████", "", "", "", "", ""])
    }

    @Test func theKeyboardAnchorsMovesAndDraws() throws {
        var session = CanvasSession(width: 12, height: 7, cursor: CanvasCell(x: 1, y: 1))
        session.run(.selectTool(.shape(.ellipse)), .togglePen)
        #expect(session.editor.isPenDown)
        for _ in 0..<10 { session.run(.moveCursor(dx: 1, dy: 0)) }
        for _ in 0..<4 { session.run(.moveCursor(dx: 0, dy: 1)) }
        #expect(session.document.isEmpty)
        let preview = try #require(session.editor.inProgressStroke)
        session.run(.togglePen)
        #expect(!session.editor.isPenDown)
        #expect(session.document.groups.first?.pieces == [preview])
        #expect(
            session.ink == [
                "", "   ▄▄▄▄▄▄▄", " ▄█▀     ▀█▄", " █         █", " ▀█▄     ▄█▀", "   ▀▀█▄█▀▀", "",
            ])
    }

    @Test func theConstraintKeySquaresABoxEvenWhileDragging() throws {
        var session = CanvasSession(width: 14, height: 8)
        session.run(.selectTool(.shape(.box)))
        session.press(1, 1)
        session.drag(4, 4)
        // = while dragging: the corner at once becomes the square one (3 rows: 6 columns).
        session.run(.toggleConstraint)
        #expect(session.editor.constrainsShapes)
        #expect(session.lastFeedback.message?.contains("squares") == true)
        session.release(4, 4)
        let path = try #require(session.document.groups.first?.pieces.first?.path.map(\.point))
        #expect(path.contains(CanvasCell(x: 7, y: 4).centre))
        #expect(!path.contains(CanvasCell(x: 4, y: 4).centre))
        // The constraint stays on for the next shape, until = again.
        session.run(.selectTool(.shape(.line)))
        session.mouseStroke([(1, 6), (9, 7)])
        let line = try #require(session.document.groups.last?.pieces.first?.path.map(\.point))
        #expect(line == [CanvasCell(x: 1, y: 6).centre, CanvasCell(x: 9, y: 6).centre])
        session.run(.toggleConstraint)
        #expect(!session.editor.constrainsShapes)
    }

    @Test func shiftWithTheMouseConstrainsAndLettingGoFreesIt() throws {
        var session = CanvasSession(width: 14, height: 8)
        session.run(.selectTool(.shape(.ellipse)))
        session.editor.pointerShiftHeld = true
        session.press(1, 1)
        session.drag(10, 3)
        let circle = try #require(session.editor.inProgressStroke?.path.map(\.point))
        // 9 columns wide is the longer side on screen (2 rows are 4 columns): the circle is 10
        // columns by 5 rows, its far corner at cell (11, 6).
        #expect(circle.map(\.x).max() == CanvasCell(x: 11, y: 6).centre.x)
        #expect(circle.map(\.y).max() == CanvasCell(x: 11, y: 6).centre.y)
        session.editor.pointerShiftHeld = false
        session.drag(10, 3)
        #expect(
            session.editor.inProgressStroke?.path.map(\.point.x).max() == CanvasCell(x: 10, y: 0).centre.x)
        session.release(10, 3)
        #expect(session.document.count == 1)
    }

    @Test func aShapeIsErasedLikeAnyStroke() throws {
        var session = CanvasSession(width: 12, height: 7)
        session.run(.selectTool(.shape(.line)))
        session.mouseStroke([(1, 2), (9, 2)])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(5, 1), (5, 3)])
        #expect(
            session.ink
                == ["", "", " ████ ████", "", "", "", ""].map { $0.replacingOccurrences(of: "█", with: "▄") })
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
