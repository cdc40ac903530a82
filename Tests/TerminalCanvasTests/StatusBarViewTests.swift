import StrokeKit
import Testing

@testable import TerminalCanvas

private func bar(
    sync: SyncStatus = .syncing, peers: Int = 1, glyphs: ChromeGlyphs = .unicode, tool: ToolKind = .pen,
    brush: Double? = 2
) -> StatusBarView {
    StatusBarView(
        drawingName: "Design notes", tool: tool, colorNumber: 3, colorValue: 196, brushSize: brush,
        peersOnline: peers,
        sync: sync, glyphs: glyphs)
}

private func paint(_ view: StatusBarView, width: Int) -> String {
    var grid = CellGrid(width: width, height: 1)
    view.paint(into: &grid, row: 0)
    return grid.rows[0]
}

@Suite struct StatusBarViewTests {
    @Test func aWideTerminalShowsEveryFieldWithItsLabel() {
        #expect(
            paint(bar(), width: 80)
                == " Design notes │ pen │ █ colour 3 │ brush 2             1 peer online │ syncing…")
    }

    /// A pen finer than the glyphs can draw says what it draws as (`¼→½` in blocks), so ¼ and
    /// ½ do not silently look the same.
    @Test func aBrushFinerThanTheGlyphsSaysWhatItDrawsAs() {
        var view = bar(brush: 0.25)
        view.brushDrawnAs = 0.5
        #expect(paint(view, width: 80).contains("│ brush ¼→½ "))
        #expect(paint(view, width: 60).contains("│ b¼→½ "))
        view.glyphs = .ascii
        #expect(paint(view, width: 80).contains("| brush 0.25->0.5 "))
    }

    /// Following a peer (`F`) is said on the bar, shorter in a narrow terminal.
    @Test func followingAPeerIsShown() {
        var view = bar()
        view.following = "bob"
        #expect(paint(view, width: 100).contains("│ following bob"))
        #expect(paint(view, width: 64).contains("│ follow bob"))
    }

    @Test func narrowerTerminalsShortenLabelsThenCutTheNameThenDropFields() {
        #expect(paint(bar(), width: 60) == " Design notes │ pen │ █ 3 │ b2            1 peer │ syncing…")
        #expect(paint(bar(), width: 45) == " Design not… │ pen │ █ 3   1 peer │ syncing…")
        #expect(paint(bar(), width: 40) == " Design notes │ pen   1 peer │ syncing…")
        #expect(paint(bar(), width: 30) == " Design not… │ pen   syncing…")
        #expect(paint(bar(), width: 20) == " Design…   syncing…")
    }

    @Test func theRelayIsNamedAndShortenedThenDroppedBeforeTheBrush() {
        var view = bar(sync: .inSync)
        view.relay = "relay-b.example.com:7420"
        #expect(
            paint(view, width: 110)
                == " Design notes │ pen │ █ colour 3 │ brush 2           1 peer online │ relay relay-b.example.com:7420 │ in sync"
        )
        #expect(
            paint(view, width: 72)
                == " Design notes │ pen │ █ 3 │ b2          1 peer │ relay-b:7420 │ in sync")
        #expect(paint(view, width: 56) == " Design notes │ pen │ █ 3 │ b2         1 peer │ in sync")
        #expect(StatusBarView.shortRelayName("10.0.0.7:7420") == "10.0.0.7:7420")
        #expect(StatusBarView.shortRelayName("[::1]:7420") == "[::1]:7420")
        #expect(StatusBarView.shortRelayName("relay-a:7420") == "relay-a:7420")
    }

    @Test func theSyncStateIsShownInEveryWidthTheAppUses() {
        for width in TooSmallView.minimumWidth...120 {
            for sync in [
                SyncStatus.inSync, .syncing, .alone, .offline, .error(reason: "token rejected by the relay"),
            ] {
                let text = paint(bar(sync: sync), width: width)
                #expect(text.unicodeScalars.count <= width)
                let marker =
                    switch sync {
                    case .inSync: "in sync"
                    case .syncing: "syncing…"
                    case .alone: "alone"
                    case .offline: "offline"
                    case .error: "error: "
                    }
                #expect(text.contains(marker), "width \(width): \(text)")
            }
        }
    }

    @Test func anErrorShowsItsReasonInBoldAndCutsItWhenNarrow() {
        let view = bar(sync: .error(reason: "connection refused by 10.0.0.7:7777"), peers: 2)
        #expect(
            paint(view, width: 100)
                == " Design notes │ pen │ █ 3 │ b2                 2 peers │ error: connection refused by 10.0.0.7:7777"
        )
        #expect(paint(view, width: 50) == " Design … │ pen   2 peers │ error: connection re…")
        var grid = CellGrid(width: 100, height: 1)
        view.paint(into: &grid, row: 0)
        let errorStart = grid.rows[0].unicodeScalars.count - "connection refused by 10.0.0.7:7777".count
        #expect(grid[errorStart, 0].attributes == [.reverse, .bold])
        #expect(grid[1, 0].attributes == [.reverse])
    }

    @Test func theSwatchIsPaintedInTheCurrentColourAndTheBarIsReversed() {
        var grid = CellGrid(width: 80, height: 3)
        bar().paint(into: &grid, row: 2)
        let swatchX = Array(grid.rows[2].unicodeScalars).firstIndex(of: "█") ?? -1
        #expect(grid[swatchX, 2] == Cell("█", foreground: 196))
        #expect(grid[0, 2].attributes == .reverse)
        #expect(grid[79, 2].attributes == .reverse)
        #expect(grid.rows[0].isEmpty && grid.rows[1].isEmpty)
    }

    @Test func peerCountsReadNaturally() {
        #expect(paint(bar(sync: .inSync, peers: 0), width: 80).contains("no peers │ in sync"))
        #expect(paint(bar(sync: .inSync, peers: 3), width: 80).contains("3 peers online │ in sync"))
        #expect(paint(bar(sync: .offline, peers: 1), width: 80).contains("1 peer online │ offline"))
    }

    @Test func asciiGlyphsAvoidEveryNonASCIICharacter() {
        let text = paint(bar(glyphs: .ascii), width: 80)
        #expect(text == " Design notes | pen | # colour 3 | brush 2           1 peer online | syncing...")
        let narrow = paint(bar(glyphs: .ascii), width: 30)
        #expect(narrow.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func everyPenAndEraserSizeReadsDifferently() {
        #expect(
            ToolSettings.penWidths.map { StatusBarView.sizeLabel($0, ascii: false) } == [
                "¼", "½", "1", "2", "3", "4",
            ])
        #expect(
            ToolSettings.eraserSizes.map { StatusBarView.sizeLabel($0, ascii: false) } == [
                "½", "1", "1½", "2", "3", "4",
            ])
        #expect(
            ToolSettings.penWidths.map { StatusBarView.sizeLabel($0, ascii: true) } == [
                "0.25", "0.5", "1", "2", "3", "4",
            ])
        #expect(paint(bar(brush: 0.25), width: 80).contains("│ brush ¼ "))
        #expect(paint(bar(tool: .maskEraser, brush: 1.5), width: 80).contains("│ brush 1½ "))
        #expect(paint(bar(glyphs: .ascii, brush: 0.25), width: 80).contains("| brush 0.25 "))
        #expect(paint(bar(brush: 0.5), width: 60).contains("│ b½ "))
    }

    @Test func theStrokeEraserShowsNoBrushSizeAndErasersNoColour() {
        let text = paint(bar(tool: .strokeEraser, brush: nil), width: 80)
        #expect(text.hasPrefix(" Design notes │ stroke eraser   "))
        #expect(!text.contains("brush") && !text.contains("colour"))
        let mask = paint(bar(tool: .maskEraser, brush: 2), width: 80)
        #expect(mask.hasPrefix(" Design notes │ mask eraser │ brush 2   "), "\(mask)")
    }

    @Test func theGlyphModeAndAKeyboardPenDownAreShown() {
        var view = bar(sync: .inSync)
        view.glyphMode = "braille"
        view.isPenDown = true
        #expect(
            paint(view, width: 100).hasPrefix(" Design notes │ pen down │ █ colour 3 │ brush 2 │ braille   "))
        // Narrow: the mode goes, the pen's state stays with the tool.
        let narrow = paint(view, width: 60)
        #expect(narrow.contains("pen ↓") && !narrow.contains("braille"), "\(narrow)")
    }

    @Test func theLongestSizeLabelsStillFitEveryWidth() {
        for width in TooSmallView.minimumWidth...120 {
            for size in ToolSettings.penWidths + ToolSettings.eraserSizes {
                for glyphs in [ChromeGlyphs.unicode, .ascii] {
                    let text = paint(bar(sync: .offline, glyphs: glyphs, brush: size), width: width)
                    #expect(
                        text.unicodeScalars.count <= width && text.contains("offline"),
                        "width \(width): \(text)")
                }
            }
        }
    }

    @Test func theCursorPositionAndAPannedViewAreShownAndGoFirstWhenNarrow() {
        var view = bar(sync: .inSync)
        view.cursor = CanvasCell(x: 41, y: 11)
        #expect(paint(view, width: 100).contains(" │ 41,11   "))
        view.viewOrigin = CanvasCell(x: 20, y: 0)
        #expect(paint(view, width: 100).contains(" │ 41,11 view 20,0   "))
        // Narrow: the view offset goes with the long labels, then the position before the brush.
        #expect(!paint(view, width: 60).contains("view"))
        let narrow = paint(view, width: 44)
        #expect(!narrow.contains("41,11") && narrow.contains("in sync"), "\(narrow)")
    }

    @Test func peersOnAnotherDrawingAreCountedApart() {
        var view = bar(sync: .inSync, peers: 1)
        view.peersElsewhere = 2
        #expect(paint(view, width: 100).contains("1 peer here, 2 elsewhere │ in sync"))
        #expect(paint(view, width: 60).contains("1+2 peers │ in sync"))
        view.peersOnline = 0
        #expect(paint(view, width: 100).contains("0 peers here, 2 elsewhere"))
    }
}
