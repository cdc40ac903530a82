import StrokeKit
import Testing

@testable import TerminalCanvas

@Suite struct TooSmallViewTests {
    @Test func twentyBySixIsTheSmallestUsableTerminal() {
        #expect(!TooSmallView.isTooSmall(width: 20, height: 6))
        #expect(TooSmallView.isTooSmall(width: 19, height: 6))
        #expect(TooSmallView.isTooSmall(width: 20, height: 5))
    }

    @Test func theMessageIsCentredAndNamesBothSizes() {
        var grid = CellGrid(width: 19, height: 6, filling: Cell("x"))
        TooSmallView().paint(into: &grid)
        #expect(grid.text == "\n\nTerminal too small:\n 19x6, needs 20x6\n\n")
        #expect(grid[0, 2].attributes == .bold)
    }

    @Test func aTinyTerminalGetsAsMuchOfTheMessageAsFits() {
        var grid = CellGrid(width: 5, height: 2)
        TooSmallView().paint(into: &grid)
        #expect(grid.text == "Term…\n too")
        var empty = CellGrid(width: 0, height: 0)
        TooSmallView().paint(into: &empty)
        #expect(empty.text.isEmpty)
    }

    @Test func onlyQuittingAndResizingGetThroughWhileTheTerminalIsTooSmall() {
        #expect(TooSmallView.allows(.resize))
        #expect(TooSmallView.allows(.command(.quit)))
        let blocked: [InputEvent] = [
            .mouse(MouseEvent(.press, x: 2, y: 1)), .mouse(MouseEvent(.drag, x: 5, y: 1)),
            .mouse(MouseEvent(.release, x: 5, y: 1)), .command(.togglePen), .command(.move(.right)),
            .command(.undo), .command(.pan(.left)), .command(.openDrawings), .character("d"), .character("y"),
            .enter, .backspace,
        ]
        for event in blocked { #expect(!TooSmallView.allows(event), "\(event)") }
    }
}
