import StrokeKit

/// Markers on the edges of the canvas for what lies outside the view: an arrow in a peer's colour
/// (reverse video, with the name beside it when there is room) where the peer's cursor would be,
/// and a dim arrow in the middle of each edge beyond which there is ink.
public struct EdgeMarkersView: Sendable {
    public var glyphs: ChromeGlyphs

    public init(glyphs: ChromeGlyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// The arrow pointing off an edge.
    func arrow(_ direction: Direction) -> Unicode.Scalar {
        switch (direction, glyphs.isASCII) {
        case (.up, false): "↑"
        case (.down, false): "↓"
        case (.left, false): "←"
        case (.right, false): "→"
        case (.up, true): "^"
        case (.down, true): "v"
        case (.left, true): "<"
        case (.right, true): ">"
        }
    }

    /// Where an off-view cell's marker goes: the screen cell on the canvas's border nearest to
    /// it, and the edge it lies beyond (left or right before up or down at a corner); nil when
    /// the cell is in view.
    public static func marker(for cell: CanvasCell, in viewport: CanvasViewport) -> (
        x: Int, y: Int, direction: Direction
    )? {
        guard !viewport.shows(cell), viewport.screenWidth > 0, viewport.canvasRows > 0 else { return nil }
        let dx = cell.x - viewport.origin.x
        let dy = cell.y - viewport.origin.y
        let x = min(max(dx, 0), viewport.screenWidth - 1)
        let y = min(max(dy, 0), viewport.canvasRows - 1)
        let direction: Direction =
            dx < 0 ? .left : dx >= viewport.screenWidth ? .right : dy < 0 ? .up : .down
        return (x, y, direction)
    }

    /// Paints the markers over the canvas rows of `grid`: ink first, peers on top.
    public func paint(
        into grid: inout CellGrid, viewport: CanvasViewport, peers: [PeerPresence], inkExtent: CellRect?
    ) {
        if let inkExtent {
            let visible = viewport.visible
            let middleX = viewport.screenWidth / 2
            let middleY = viewport.canvasRows / 2
            var edges: [(Direction, Int, Int)] = []
            if inkExtent.x < visible.x { edges.append((.left, 0, middleY)) }
            if inkExtent.maxX > visible.x + visible.width {
                edges.append((.right, viewport.screenWidth - 1, middleY))
            }
            if inkExtent.y < visible.y { edges.append((.up, middleX, 0)) }
            if inkExtent.maxY > visible.y + visible.height {
                edges.append((.down, middleX, viewport.canvasRows - 1))
            }
            for (direction, x, y) in edges where grid.contains(x: x, y: y) {
                grid[x, y] = Cell(arrow(direction), attributes: .dim)
            }
        }
        for peer in peers {
            guard let place = Self.marker(for: peer.cursor, in: viewport) else { continue }
            grid[place.x, place.y] = Cell(
                arrow(place.direction), foreground: peer.markColour, attributes: .reverse)
            // The name beside the arrow, towards the middle of the screen, when it fits.
            let tag = peer.tag
            let width = tag.unicodeScalars.count
            let tagX = place.x + 1 + width <= viewport.screenWidth ? place.x + 1 : place.x - width
            guard tagX >= 0, !tag.isEmpty else { continue }
            grid.put(tag, x: tagX, y: place.y, foreground: peer.markColour, attributes: [.bold, .reverse])
        }
    }
}
