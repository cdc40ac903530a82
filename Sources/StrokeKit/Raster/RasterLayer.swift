/// The ink of a viewport before it becomes cells: per cell the pen samples that are inked and
/// the colour of the topmost pen there, and the colour of the topmost marker.
///
/// `Raster.render` is a layer made and turned into cells at once. Keeping the layer lets a caller
/// add strokes on top later — the strokes other peers are drawing, the one being drawn here —
/// without rasterising the drawing again: their samples combine with the drawing's in each cell
/// (half blocks and braille dots merge) exactly as if everything had been rendered together.
public struct RasterLayer: Equatable, Sendable {
    public let viewport: Viewport
    public let mode: GlyphMode
    private var penBits: [UInt8]
    private var penColours: [UInt8]
    /// A marker's samples only decide whether the cell is highlighted, so a colour is enough.
    private var markerColours: [UInt8?]
    /// Cells showing a glyph of a text or a placeholder (few, so kept by index): each covers the
    /// pen ink drawn before it, and pen ink drawn after it covers it.
    private var glyphCells: [Int: Raster.GlyphCell] = [:]

    /// The layer of `groups`, drawn in key order.
    public init(_ groups: [StrokeGroup], viewport: Viewport, mode: GlyphMode) {
        self.viewport = viewport
        self.mode = mode
        let count = max(viewport.width, 0) * max(viewport.height, 0)
        penBits = [UInt8](repeating: 0, count: count)
        penColours = [UInt8](repeating: 0, count: count)
        markerColours = [UInt8?](repeating: nil, count: count)
        add(groups)
    }

    /// Draws `groups` over what the layer holds (in key order among themselves): the caller
    /// passes groups that belong above every group already in it.
    public mutating func add(_ groups: [StrokeGroup]) {
        draw(groups, in: viewport)
    }

    /// Rasterises the cells of `region` again from `groups`: the region (clipped to the viewport)
    /// is cleared, then `groups` are drawn into it in key order. The caller passes every group
    /// with ink there (`Drawing.groups(in:)`), so the region ends as a fresh layer would have it;
    /// the cells around it are left as they are.
    public mutating func redraw(_ region: CellRect, from groups: [StrokeGroup]) {
        guard let region = region.intersection(viewport) else { return }
        let width = viewport.width
        for y in region.y..<region.maxY {
            let start = (y - viewport.y) * width + (region.x - viewport.x)
            for index in start..<(start + region.width) {
                penBits[index] = 0
                penColours[index] = 0
                markerColours[index] = nil
                if !glyphCells.isEmpty { glyphCells[index] = nil }
            }
        }
        draw(groups, in: region)
    }

    /// This layer for another viewport in the same mode: the cells both show are copied, the
    /// rest are blank until the caller redraws them (`redraw(_:from:)`).
    public func moved(to newViewport: Viewport) -> RasterLayer {
        var moved = RasterLayer([], viewport: newViewport, mode: mode)
        guard let shared = viewport.intersection(newViewport) else { return moved }
        for y in shared.y..<shared.maxY {
            let from = (y - viewport.y) * viewport.width + (shared.x - viewport.x)
            let to = (y - newViewport.y) * newViewport.width + (shared.x - newViewport.x)
            moved.penBits[to..<(to + shared.width)] = penBits[from..<(from + shared.width)]
            moved.penColours[to..<(to + shared.width)] = penColours[from..<(from + shared.width)]
            moved.markerColours[to..<(to + shared.width)] = markerColours[from..<(from + shared.width)]
        }
        for cell in glyphCells.values
        where cell.x >= newViewport.x && cell.x < newViewport.maxX && cell.y >= newViewport.y
            && cell.y < newViewport.maxY
        {
            moved.glyphCells[(cell.y - newViewport.y) * newViewport.width + (cell.x - newViewport.x)] = cell
        }
        return moved
    }

    /// Draws `groups` in key order over the cells of `region`, a part of the viewport.
    private mutating func draw(_ groups: [StrokeGroup], in region: CellRect) {
        let width = viewport.width
        guard width > 0, viewport.height > 0, region.width > 0, region.height > 0, !groups.isEmpty else {
            return
        }
        let lattice = mode.lattice
        let (columns, rows) = lattice.samples(in: region)
        let sampler = InkSampler(lattice: lattice)
        for stroke in Raster.strokesInZOrder(groups) {
            if !stroke.kind.isPath {
                for cell in Raster.glyphCells(of: stroke, mode: mode)
                where cell.x >= region.x && cell.x < region.maxX && cell.y >= region.y && cell.y < region.maxY
                {
                    let index = (cell.y - viewport.y) * width + (cell.x - viewport.x)
                    penBits[index] = 0
                    glyphCells[index] = cell
                }
                continue
            }
            let isMarker = stroke.ink.tool == .marker
            sampler.forEachVisibleSample(of: stroke, columns: columns, rows: rows) { column, row in
                let place = lattice.cell(ofColumn: column, row: row)
                let index = (place.y - viewport.y) * width + (place.x - viewport.x)
                if isMarker {
                    markerColours[index] = stroke.ink.colour
                } else {
                    penBits[index] |= 1 << UInt8(place.subRow * lattice.columnsPerCell + place.subColumn)
                    penColours[index] = stroke.ink.colour
                    if !glyphCells.isEmpty { glyphCells[index] = nil }
                }
                return true
            }
        }
    }

    /// The cells, blank where there is no ink.
    public var grid: CellGrid {
        let width = max(viewport.width, 0)
        let height = max(viewport.height, 0)
        var cells = [Cell](repeating: .blank, count: width * height)
        for index in cells.indices {
            let bits = penBits[index]
            let pen =
                glyphCells.isEmpty
                ? (bits == 0 ? nil : Cell(mode.glyph(bits: bits), foreground: penColours[index]))
                : glyphCell(at: index)
                    ?? (bits == 0 ? nil : Cell(mode.glyph(bits: bits), foreground: penColours[index]))
            if let cell = Raster.layered(pen: pen, marker: markerColours[index], mode: mode) {
                cells[index] = cell
            }
        }
        // The right half of a wide glyph takes the colours of its left half, as the grid's pairs do.
        for (index, cell) in glyphCells where cell.columns == 2 && cell.half == 1 {
            if cells[index].isContinuation, index > 0 {
                cells[index] = Cell(
                    Cell.continuationGlyph, foreground: cells[index - 1].foreground,
                    background: cells[index - 1].background, attributes: cells[index - 1].attributes)
            }
        }
        return CellGrid(width: width, height: height, narrowCells: cells)
    }

    /// The cell a glyph shows in, in its colour; a half of a wide glyph whose other half is
    /// not beside it (cut by the viewport or covered by ink) shows as a space in that colour.
    private func glyphCell(at index: Int) -> Cell? {
        guard let cell = glyphCells[index] else { return nil }
        guard cell.columns == 2 else { return Cell(cell.glyph, foreground: cell.colour) }
        let width = max(viewport.width, 0)
        let column = index % max(width, 1)
        let partnerIndex = cell.half == 0 ? index + 1 : index - 1
        let partnerColumn = cell.half == 0 ? column + 1 : column - 1
        guard partnerColumn >= 0, partnerColumn < width, let partner = glyphCells[partnerIndex],
            partner.glyph == cell.glyph, partner.half == 1 - cell.half,
            partner.x == cell.x + (partner.half - cell.half)
        else { return Cell(" ", foreground: cell.colour) }
        return Cell(cell.half == 0 ? cell.glyph : Cell.continuationGlyph, foreground: cell.colour)
    }
}
