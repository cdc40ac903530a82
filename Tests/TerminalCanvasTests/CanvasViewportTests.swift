import StrokeKit
import TerminalCanvas
import Testing

@Suite struct CanvasViewportTests {
    @Test func theLastScreenRowBelongsToTheStatusBar() {
        let viewport = CanvasViewport(origin: CanvasCell(x: 10, y: 20), screenWidth: 8, screenHeight: 5)
        #expect(viewport.visible == Viewport(x: 10, y: 20, width: 8, height: 4))
        #expect(viewport.canvasCell(atScreenX: 3, y: 3) == CanvasCell(x: 13, y: 23))
        #expect(viewport.canvasCell(atScreenX: 3, y: 4) == nil)
        #expect(viewport.canvasCell(atScreenX: 8, y: 0) == nil)
        #expect(viewport.screenPosition(of: CanvasCell(x: 17, y: 23))?.x == 7)
        #expect(!viewport.shows(CanvasCell(x: 17, y: 24)))
    }

    @Test func keepingACellVisibleScrollsByTheLeastAmount() {
        var viewport = CanvasViewport(screenWidth: 8, screenHeight: 5)
        viewport.keepVisible(CanvasCell(x: 3, y: 2))
        #expect(viewport.origin == CanvasCell(x: 0, y: 0))
        viewport.keepVisible(CanvasCell(x: 10, y: 4))
        #expect(viewport.origin == CanvasCell(x: 3, y: 1))
        viewport.keepVisible(CanvasCell(x: 1, y: 0))
        #expect(viewport.origin == CanvasCell(x: 1, y: 0))
    }

    @Test func theViewNeverShowsNegativeCoordinates() {
        var viewport = CanvasViewport(origin: CanvasCell(x: 2, y: 3), screenWidth: 8, screenHeight: 5)
        let moved = viewport.pan(dx: -5, dy: -5)
        #expect(moved == (-2, -3))
        #expect(viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(viewport.pan(dx: -1, dy: 0) == (0, 0))
        viewport.keepVisible(CanvasCell(x: -4, y: -1))
        #expect(viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(
            CanvasViewport(origin: CanvasCell(x: -7, y: 4), screenWidth: 8, screenHeight: 5).origin
                == CanvasCell(x: 0, y: 4))
    }

    @Test func growingTheScreenAgainBringsBackTheViewTheUserChose() {
        var viewport = CanvasViewport(screenWidth: 80, screenHeight: 24)
        let cursor = CanvasCell(x: 60, y: 20)
        viewport.resize(screenWidth: 20, screenHeight: 6, keeping: cursor)
        #expect(viewport.origin == CanvasCell(x: 41, y: 16))  // forced, to show the cursor
        #expect(viewport.chosenOrigin == CanvasCell(x: 0, y: 0))
        viewport.resize(screenWidth: 80, screenHeight: 24, keeping: cursor)
        #expect(viewport.origin == CanvasCell(x: 0, y: 0))
        // A pan is a choice: it is what a resize comes back to.
        viewport.pan(dx: 10, dy: 0)
        viewport.resize(screenWidth: 20, screenHeight: 6, keeping: cursor)
        viewport.resize(screenWidth: 80, screenHeight: 24, keeping: cursor)
        #expect(viewport.origin == CanvasCell(x: 10, y: 0))
    }

    @Test func theNearestCanvasCellOfAPointOffTheCanvasIsOnItsEdge() {
        let viewport = CanvasViewport(origin: CanvasCell(x: 10, y: 20), screenWidth: 8, screenHeight: 5)
        #expect(viewport.nearestCanvasCell(toScreenX: 3, y: 2) == CanvasCell(x: 13, y: 22))
        #expect(viewport.nearestCanvasCell(toScreenX: 3, y: 4) == CanvasCell(x: 13, y: 23))
        #expect(viewport.nearestCanvasCell(toScreenX: 12, y: 9) == CanvasCell(x: 17, y: 23))
        #expect(viewport.nearestCanvasCell(toScreenX: -1, y: -1) == CanvasCell(x: 10, y: 20))
        #expect(CanvasViewport(screenWidth: 8, screenHeight: 1).nearestCanvasCell(toScreenX: 1, y: 0) == nil)
    }

    @Test func panningMovesAQuarterScreen() {
        var viewport = CanvasViewport(screenWidth: 80, screenHeight: 25)
        let step = viewport.panStep(.right)
        viewport.pan(dx: step.dx, dy: step.dy)
        let down = viewport.panStep(.down)
        viewport.pan(dx: down.dx, dy: down.dy)
        #expect(viewport.origin == CanvasCell(x: 20, y: 6))
        let tiny = CanvasViewport(screenWidth: 2, screenHeight: 2)
        #expect(tiny.panStep(.left) == (-1, 0) && tiny.panStep(.up) == (0, -1))
    }

    @Test func aScreenTooSmallForACanvasNeverScrolls() {
        var viewport = CanvasViewport(screenWidth: 10, screenHeight: 1)
        viewport.keepVisible(CanvasCell(x: 50, y: 50))
        #expect(viewport.origin == CanvasCell(x: 0, y: 0))
        #expect(viewport.visible.height == 0)
    }
}
