import StrokeKit
import Testing

@testable import TerminalCanvas

/// The marker: `m` selects it, it draws with the colour key and its own widths, and its strokes
/// lie under the pen's ink.
@Suite struct ToolMarkerTests {
    static let yellowSlot = 4  // CanvasSession.palette[3] == 226
    static let yellow: UInt8 = 226

    /// An older pen line of another peer along row 2, cells 0 to 6, in blue (33).
    let line = CanvasFixtures.group(through: [(0, 2), (6, 2)], colour: 33)

    @Test func theMKeySelectsTheMarker() {
        var decoder = InputDecoder()
        let m = RawInput.character(UInt32(("m" as Unicode.Scalar).value))
        #expect(decoder.decode([m]) == [.command(.selectTool(.marker))])
        #expect(EditorCommand(KeyCommand.selectTool(.marker)) == .selectTool(.marker))
        var session = CanvasSession()
        session.run(.selectTool(.marker))
        #expect(session.editor.tool == .marker)
    }

    @Test func aDragWithTheMarkerHighlightsUnderTheInkThatIsThere() throws {
        var session = CanvasSession(groups: [line])
        session.run(.selectColour(slot: Self.yellowSlot), .selectTool(.marker))
        session.mouseStroke([(1, 2), (8, 2)])

        let group = try #require(session.document.groups.last)
        #expect(group.key != line.key)
        #expect(group.pieces.map(\.ink) == [Ink(tool: .marker, colour: Self.yellow, width: 1)])
        // The marker is newer, yet the blue line stays on top of it.
        #expect(session.ink == ["", "", "▄▄▄▄▄▄▄░░", "", "", ""])
        let grid = session.view.render(session.document, viewport: session.editor.viewport)
        #expect(grid[0, 2] == Cell("▄", foreground: 33))
        #expect(grid[3, 2] == Cell("▄", foreground: 33, background: Self.yellow))
        #expect(grid[8, 2] == Cell("░", foreground: Self.yellow, background: Self.yellow))
    }

    @Test func theCursorOnAHighlightedCellStaysVisible() {
        var session = CanvasSession(groups: [line])
        session.run(.selectColour(slot: Self.yellowSlot), .selectTool(.marker))
        session.mouseStroke([(1, 2), (8, 2)])
        // Reverse video of a shade in yellow on yellow would be the same cell: it shows `+`.
        #expect(session.grid()[8, 2] == Cell("+", foreground: Self.yellow, attributes: .reverse))
        session.run(.moveCursor(dx: -5, dy: 0))
        #expect(
            session.grid()[3, 2] == Cell("▄", foreground: 33, background: Self.yellow, attributes: .reverse))
    }

    @Test func theStrokeInProgressIsAlreadyAMarker() throws {
        var session = CanvasSession()
        session.run(.selectTool(.marker))
        session.press(2, 1)
        session.drag(5, 1)
        let stroke = try #require(session.editor.inProgressStroke)
        #expect(stroke.ink.tool == .marker)
        #expect(session.document.isEmpty)
        #expect(session.ink == ["", "  ░░░░", "", "", "", ""])
    }

    @Test func theMarkerHasItsOwnWidthsAndThePenKeepsItsOwn() throws {
        var session = CanvasSession(width: 20, height: 12)
        session.run(.selectTool(.marker))
        #expect(session.editor.settings.size(for: .marker) == 1)
        session.run(.growSize, .growSize, .growSize)
        #expect(session.editor.settings.markerWidth == 4)
        session.run(.growSize)
        #expect(session.lastFeedback.message == "marker size 4 is the largest")
        #expect(session.editor.settings.penWidth == 0.25)
        session.mouseStroke([(5, 5), (9, 5)])
        session.run(.selectTool(.pen), .growSize, .selectTool(.marker), .shrinkSize)
        session.mouseStroke([(5, 9), (9, 9)])
        session.run(.shrinkSize, .shrinkSize, .shrinkSize)
        #expect(session.lastFeedback.message == "marker size 1 is the smallest")
        #expect(session.editor.settings.penWidth == 0.5)
        let widths = session.document.groups.flatMap(\.pieces).map(\.ink.width)
        #expect(widths == [4, 3])
        #expect(ToolSettings.markerWidths == [1, 2, 3, 4])
    }

    @Test func theStatusBarNamesTheMarkerAndItsSize() {
        var session = CanvasSession()
        session.run(.selectTool(.marker), .growSize)
        let tool = session.editor.tool
        let bar = StatusBarView(
            drawingName: "notes", tool: tool, colorNumber: session.editor.settings.colourSlot,
            colorValue: session.editor.settings.colour, brushSize: session.editor.settings.size(for: tool),
            peersOnline: 0, sync: .offline)
        var grid = CellGrid(width: 60, height: 1)
        bar.paint(into: &grid, row: 0)
        #expect(grid.rows[0].hasPrefix(" notes │ marker │ █ colour 1 │ brush 2 "))
    }

    @Test func aPeersMarkerInProgressIsDrawnAsAMarkerUnderTheInk() {
        let dana = PeerPresence(
            name: "dana", colour: Self.yellow, cursor: CanvasCell(x: 9, y: 0),
            strokeInProgress: (4...9).map { CanvasCell(x: $0, y: 2) }, inkTool: .marker)
        let viewport = CanvasViewport(screenWidth: 16, screenHeight: 5)
        let grid = CanvasView(mode: .block).render(
            Drawing(groups: [line]), viewport: viewport, peers: [dana])
        #expect(grid.rows[2] == "▄▄▄▄▄▄▄░░░")
        #expect(grid[5, 2] == Cell("▄", foreground: 33, background: Self.yellow))
        #expect(grid[9, 2] == Cell("░", foreground: Self.yellow, background: Self.yellow))
    }

    @Test func presenceNamesTheToolAPeerDrawsWith() {
        #expect(ToolKind(presenceName: ToolKind.marker.name)?.inkTool == .marker)
        #expect(ToolKind(presenceName: "pen")?.inkTool == .pen)
        #expect(ToolKind(presenceName: "mask eraser") == .maskEraser)
        #expect(ToolKind.maskEraser.inkTool == nil)
        #expect(ToolKind(presenceName: "airbrush") == nil)
    }

    @Test func theStrokeEraserTakesThePenSeenOnTopThenTheMarker() {
        var session = CanvasSession(groups: [line])
        session.run(.selectColour(slot: Self.yellowSlot), .selectTool(.marker))
        session.mouseStroke([(1, 2), (8, 2)])
        let marker = session.document.keys.last
        session.run(.selectTool(.strokeEraser))
        session.mouseStroke([(3, 2)])
        #expect(session.document.keys == [marker].compactMap { $0 })
        #expect(session.ink == ["", "", " ░░░░░░░░", "", "", ""])
        session.mouseStroke([(3, 2)])
        #expect(session.document.isEmpty)
    }

    @Test func theMaskEraserCutsAMarker() throws {
        var session = CanvasSession()
        session.run(.selectTool(.marker))
        session.mouseStroke([(1, 2), (10, 2)])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(5, 0), (5, 4)])
        let group = try #require(session.document.groups.first)
        #expect(group.pieces.count == 2)
        #expect(group.pieces.allSatisfy { $0.ink.tool == .marker })
        #expect(session.ink == ["", "", " ░░░░ ░░░░░", "", "", ""])
    }
}
