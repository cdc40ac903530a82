import StrokeKit

/// Paints the canvas part of the screen into a `CellGrid`: the drawing, strokes still being
/// drawn, other peers' cursors with their names, and this peer's cursor.
///
/// The grid is the whole screen; its last row is left blank for the status bar, which another
/// view paints. Layers, bottom first: committed groups in key order; strokes in progress (this
/// peer's, then other peers', added to the groups' raster layer so half-cells combine, and always
/// above the drawing while they are drawn); peers'
/// cursors as a reverse-video cell in their colour with their name tag, also in reverse video, to
/// the right (to the left when it would not fit); this peer's cursor, reverse video. A cursor on a blank cell (or one
/// only a marker highlights) shows `+`.
public struct CanvasView: Sendable {
    public var mode: GlyphMode

    /// The glyph a cursor shows on a cell with no ink.
    public static let cursorGlyph: Unicode.Scalar = "+"

    public init(mode: GlyphMode = .block) {
        self.mode = mode
    }

    /// The screen for a viewport. With a `cache`, the drawing is rasterised only when it, the
    /// view or the mode changed; strokes in progress are added on top of it every frame.
    ///
    /// `finishedStrokes` are peers' strokes past pen up whose commit has not arrived yet (see
    /// `StrokeHandover`): drawn as strokes in progress are, so they never blink out.
    public func render(
        _ drawing: Drawing, viewport: CanvasViewport, inProgress: Stroke? = nil,
        peers: [PeerPresence] = [], finishedStrokes: [PeerStroke] = [], cursor: CanvasCell? = nil,
        cache: CanvasLayerCache? = nil
    ) -> CellGrid {
        var layer =
            cache?.layer(for: drawing, viewport: viewport.visible, mode: mode)
            ?? RasterLayer(drawing, viewport: viewport.visible, mode: mode)
        var overlay: [StrokeGroup] = []
        if let inProgress, let group = StrokeGroup(key: inProgress.key, pieces: [inProgress]) {
            overlay.append(group)
        }
        let peerStrokes =
            finishedStrokes
            + peers.map {
                PeerStroke(
                    cells: $0.strokeInProgress, colour: $0.colour, inkTool: $0.inkTool, width: $0.width,
                    text: $0.textInProgress)
            }
        layer.add(overlay + Self.overlayGroups(for: peerStrokes))
        let canvas = layer.grid

        var grid: CellGrid
        if canvas.width == viewport.screenWidth {
            grid = canvas.extended(toHeight: viewport.screenHeight)
        } else {
            grid = CellGrid(width: viewport.screenWidth, height: viewport.screenHeight)
            for y in 0..<canvas.height {
                for x in 0..<canvas.width { grid[x, y] = canvas[x, y] }
            }
        }
        for peer in peers {
            guard let place = viewport.screenPosition(of: peer.cursor) else { continue }
            mark(&grid, x: place.x, y: place.y, colour: peer.markColour)
            let tag = peer.tag
            let spot = Self.tagPlace(
                for: tag.unicodeScalars.count, cursor: place, in: grid, canvasRows: viewport.canvasRows)
            // Reverse video, as the cursor: the tag is a band of the peer's colour whatever the
            // terminal's background and whatever ink lies under it.
            grid.put(tag, x: spot.x, y: spot.y, foreground: peer.markColour, attributes: [.bold, .reverse])
        }
        if let cursor, let place = viewport.screenPosition(of: cursor) {
            mark(&grid, x: place.x, y: place.y, colour: nil)
        }
        return grid
    }

    /// The screen for an editor's state: its viewport, stroke in progress and cursor.
    public func render(
        _ editor: CanvasEditor, drawing: Drawing, peers: [PeerPresence] = [],
        finishedStrokes: [PeerStroke] = [],
        cache: CanvasLayerCache? = nil
    ) -> CellGrid {
        var grid = render(
            drawing, viewport: editor.viewport, inProgress: editor.inProgressStroke, peers: peers,
            finishedStrokes: finishedStrokes, cursor: editor.cursor, cache: cache)
        for rect in [editor.selectionOutline(in: drawing), editor.selectionBand].compactMap({ $0 }) {
            outline(rect, in: &grid, viewport: editor.viewport)
        }
        return grid
    }

    /// Draws the border cells of `rect` (canvas cells) dimmed: the selection and the band being
    /// dragged. Only blank cells take it, so the outline never hides ink or a cursor.
    func outline(_ rect: CellRect, in grid: inout CellGrid, viewport: CanvasViewport) {
        guard rect.width > 0, rect.height > 0 else { return }
        let ascii = mode == .ascii
        let (lastX, lastY) = (rect.maxX - 1, rect.maxY - 1)
        func glyph(x: Int, y: Int) -> Unicode.Scalar {
            let corner = (x == rect.x || x == lastX) && (y == rect.y || y == lastY)
            if corner { return ascii ? "+" : "·" }
            if y == rect.y || y == lastY { return ascii ? "-" : "╌" }
            return ascii ? ":" : "╎"
        }
        let visible = viewport.visible
        let rows = max(rect.y, visible.y)..<min(rect.maxY, visible.y + visible.height)
        let columns = max(rect.x, visible.x)..<min(rect.maxX, visible.x + visible.width)
        for y in rows {
            for x in columns where y == rect.y || y == lastY || x == rect.x || x == lastX {
                guard let place = viewport.screenPosition(of: CanvasCell(x: x, y: y)),
                    grid[place.x, place.y] == .blank
                else { continue }
                grid[place.x, place.y] = Cell(glyph(x: x, y: y), attributes: .dim)
            }
        }
    }

    /// Where a name tag of `length` cells goes beside a cursor: right of it, left of it, or the
    /// same on the row above or below, whichever fits on the canvas rows (never on the status
    /// bar) and covers the fewest cells with ink; in that order when they tie.
    static func tagPlace(for length: Int, cursor: (x: Int, y: Int), in grid: CellGrid, canvasRows: Int)
        -> (x: Int, y: Int)
    {
        let right = cursor.x + 1
        let left = cursor.x - length
        var candidates: [(x: Int, y: Int)] = []
        for y in [cursor.y, cursor.y - 1, cursor.y + 1] where y >= 0 && y < canvasRows {
            for x in [right, left] where x >= 0 && x + length <= grid.width { candidates.append((x, y)) }
        }
        func covered(_ spot: (x: Int, y: Int)) -> Int {
            (spot.x..<(spot.x + length)).filter { grid[$0, spot.y].glyph != " " }.count
        }
        var best = candidates.first ?? (right + length <= grid.width ? right : left, cursor.y)
        var bestCount = candidates.first.map(covered) ?? 0
        for spot in candidates.dropFirst() {
            let count = covered(spot)
            if count < bestCount { (best, bestCount) = (spot, count) }
        }
        return best
    }

    /// Turns a cell into a cursor: reverse video, in `colour` when given, `+` if it was blank.
    /// A cell only a marker highlights counts as blank: its shade is drawn in the band's colour on
    /// the same colour, which reverse video would leave unchanged, so the cursor would vanish.
    private func mark(_ grid: inout CellGrid, x: Int, y: Int, colour: UInt8?) {
        var cell = grid[x, y]
        if cell.glyph == mode.markerGlyph && cell.background != nil {
            cell.glyph = Self.cursorGlyph
            cell.background = nil
        }
        if cell.glyph == " " { cell.glyph = Self.cursorGlyph }
        if let colour { cell.foreground = colour }
        cell.attributes.insert(.reverse)
        grid[x, y] = cell
    }

    /// Peers' strokes in progress as groups whose keys sort after every real key (the latest
    /// time a key can hold, with a suffix of z's), so they are drawn on top. They are never stored.
    private static func overlayGroups(for strokes: [PeerStroke]) -> [StrokeGroup] {
        strokes.filter { !$0.cells.isEmpty }.prefix(overlayLimit).enumerated().compactMap { index, peer in
            let digits = String(index, radix: 36)
            let suffix =
                String(repeating: "z", count: StrokeKey.maximumPeerSuffixLength - 4)
                + String(repeating: "0", count: 4 - digits.count) + digits
            guard let key = StrokeKey(creationMilliseconds: StrokeKey.maximumMilliseconds, peerSuffix: suffix)
            else { return nil }
            if !peer.text.isEmpty {
                // A peer's text is shown as it will be once committed (escaped: only what a
                // cell can show gets into a text).
                guard let text = StrokeText(peer.text) else { return nil }
                let origin = peer.cells[0]
                let stroke = Stroke(
                    key: key, text: text, colour: peer.colour,
                    origin: CanvasPoint(x: Double(origin.x), y: Double(origin.y)), createdAtMilliseconds: 0)
                return StrokeGroup(key: key, pieces: [stroke])
            }
            guard
                let stroke = Stroke(
                    key: key,
                    ink: Ink(
                        tool: peer.inkTool, colour: peer.colour,
                        width: peer.width ?? peer.inkTool.defaultWidth),
                    path: peer.cells.map { StrokePoint($0.centre) }, createdAtMilliseconds: 0)
            else { return nil }
            return StrokeGroup(key: key, pieces: [stroke])
        }
    }

    /// The most peers whose strokes in progress are drawn (four base-36 digits of overlay keys).
    private static let overlayLimit = 36 * 36 * 36 * 36
}
