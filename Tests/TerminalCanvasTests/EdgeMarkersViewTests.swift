import StrokeKit
import TerminalCanvas
import Testing

@Suite struct EdgeMarkersViewTests {
    let viewport = CanvasViewport(screenWidth: 20, screenHeight: 6)

    @Test func aPeerOffTheRightEdgeGetsAnArrowInItsColourWithItsNameInside() {
        var grid = CellGrid(width: 20, height: 6)
        let ana = PeerPresence(name: "ana", colour: 33, cursor: CanvasCell(x: 90, y: 2))
        EdgeMarkersView().paint(into: &grid, viewport: viewport, peers: [ana], inkExtent: nil)
        #expect(grid.rows[2] == "                ana→")
        #expect(grid[19, 2] == Cell("→", foreground: 33, attributes: .reverse))
        #expect(grid[16, 2].attributes.contains(.reverse))
    }

    @Test func aPeerInViewGetsNoMarkerAndCornersPointSideways() {
        #expect(EdgeMarkersView.marker(for: CanvasCell(x: 5, y: 2), in: viewport) == nil)
        let below = EdgeMarkersView.marker(for: CanvasCell(x: 5, y: 40), in: viewport)
        #expect(below?.x == 5 && below?.y == 4 && below?.direction == .down)
        let corner = EdgeMarkersView.marker(for: CanvasCell(x: 50, y: 40), in: viewport)
        #expect(corner?.x == 19 && corner?.y == 4 && corner?.direction == .right)
        // Under the status bar (row 5) is outside the canvas too.
        #expect(EdgeMarkersView.marker(for: CanvasCell(x: 5, y: 5), in: viewport)?.direction == .down)
    }

    @Test func inkBeyondAnEdgeShowsADimArrowInTheMiddleOfIt() {
        var grid = CellGrid(width: 20, height: 6)
        let ink = CellRect(x: 2, y: 1, width: 30, height: 2)  // reaches past column 19
        EdgeMarkersView(glyphs: .ascii).paint(into: &grid, viewport: viewport, peers: [], inkExtent: ink)
        #expect(grid[19, 2] == Cell(">", attributes: .dim))
        #expect(grid.rows.joined().filter { $0 != " " } == ">")
        var inside = CellGrid(width: 20, height: 6)
        EdgeMarkersView().paint(
            into: &inside, viewport: viewport, peers: [],
            inkExtent: CellRect(x: 2, y: 1, width: 5, height: 2))
        #expect(inside == CellGrid(width: 20, height: 6))
    }
}
