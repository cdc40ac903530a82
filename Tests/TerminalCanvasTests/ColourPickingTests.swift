import StrokeKit
import Testing

@testable import TerminalCanvas

/// Colours beyond the nine keys: the palette overlay's and the eyedropper's picks.
@Suite struct ColourPickingTests {
    @Test func aColourAKeyHoldsSelectsTheKeyAndAnyOtherStandsAlone() {
        var settings = ToolSettings(palette: CanvasSession.palette)
        settings.selectColour(value: 208)
        #expect(settings.colourSlot == 3)
        #expect(settings.colourOutsidePalette == nil)
        settings.selectColour(value: 32)
        #expect(settings.colour == 32)
        #expect(settings.colourOutsidePalette == 32)
        #expect(settings.ink.colour == 32 && settings.markerInk.colour == 32)
        // A key takes over again.
        let selected = settings.selectColour(slot: 2)
        #expect(selected)
        #expect(settings.colour == 196)
        #expect(settings.colourOutsidePalette == nil)
    }

    @Test func theStatusBarShowsAColourNoKeyHoldsByItsIndex() {
        var grid = CellGrid(width: 80, height: 1)
        StatusBarView(
            drawingName: "d", tool: .shape(.box), colorNumber: 0, colorValue: 32, brushSize: 0.25,
            peersOnline: 0,
            sync: .alone
        ).paint(into: &grid, row: 0)
        #expect(grid.rows[0].hasPrefix(" d │ box │ █ colour #32 │ brush ¼"))
    }

    @Test func theInkColourUnderACellIsTheTopmostPens() {
        let under = CanvasFixtures.group(
            through: [(1, 1), (5, 1)], at: CanvasSession.startMilliseconds - 2000, colour: 33)
        let over = CanvasFixtures.group(
            through: [(3, 0), (3, 2)], at: CanvasSession.startMilliseconds - 1000, colour: 201)
        let session = CanvasSession(groups: [under, over])
        #expect(session.editor.inkColour(at: CanvasCell(x: 1, y: 1), in: session.document) == 33)
        #expect(session.editor.inkColour(at: CanvasCell(x: 3, y: 1), in: session.document) == 201)
        #expect(session.editor.inkColour(at: CanvasCell(x: 8, y: 4), in: session.document) == nil)
    }

    @Test func theEyedropperRemembersTheToolItReplaced() {
        var session = CanvasSession()
        session.run(.selectTool(.shape(.ellipse)), .selectTool(.eyedropper))
        #expect(session.editor.previousTool == .shape(.ellipse))
        // Picking it again keeps the tool to go back to.
        session.run(.selectTool(.eyedropper))
        #expect(session.editor.previousTool == .shape(.ellipse))
        // It draws nothing itself.
        session.mouseStroke([(1, 1), (5, 1)])
        #expect(session.document.isEmpty)
        session.run(.growSize)
        #expect(session.lastFeedback.message == "the eyedropper tool has no size")
    }

    @Test func everyToolIsFoundByThePresenceName() {
        for tool in ToolKind.allCases {
            #expect(ToolKind(presenceName: tool.name) == tool)
        }
        #expect(ToolKind(presenceName: "box")?.inkTool == .pen)
        #expect(ToolKind(presenceName: "select")?.inkTool == nil)
    }
}
