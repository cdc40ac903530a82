import TerminalCanvas
import TestSupport
import Testing

@Suite struct ToolCellLineTests {
    @Test func aLineVisitsOneNeighbouringCellPerStepFromStartToEnd() {
        var generator = SplitMix64(seed: 0x7001)
        for _ in 0..<500 {
            let start = CanvasCell(
                x: Int.random(in: -40...40, using: &generator), y: Int.random(in: -40...40, using: &generator)
            )
            let end = CanvasCell(
                x: Int.random(in: -40...40, using: &generator), y: Int.random(in: -40...40, using: &generator)
            )
            let cells = CellLine.cells(from: start, to: end)
            #expect(cells.first == start)
            #expect(cells.last == end)
            #expect(cells.count == max(abs(end.x - start.x), abs(end.y - start.y)) + 1)
            #expect(CanvasFixtures.consecutiveCellsAreNeighbours(cells), "\(start) to \(end)")
        }
    }

    @Test func aLineToItsOwnCellIsThatCell() {
        let cell = CanvasCell(x: 3, y: -2)
        #expect(CellLine.cells(from: cell, to: cell) == [cell])
    }

    @Test func cellsAreClampedToWhatTheStrokeModelCanHold() {
        let far = CanvasCell(x: Int.max, y: Int.min)
        #expect(far.x == CanvasCell.limit && far.y == -CanvasCell.limit)
        #expect(far.offset(dx: Int.max, dy: Int.min) == far)
        #expect(CanvasCell(x: 2, y: 3).centre.x == 2.5)
    }
}
