import StrokeKit

/// The drawing's raster layer from the last frame, brought up to date for the next one by
/// rasterising only what changed.
///
/// Most frames change nothing of the drawing: a peer's cursor moves, someone is in the middle of
/// a stroke, the status line changes; the layer is reused as it is and `CanvasView` adds the
/// strokes in progress on top of a copy. A new stroke on top of everything (here or from a peer,
/// the common change) is drawn on top of the layer. Any other change — an erase, a cut, an undo,
/// a stroke eraser, a peer changing an old stroke — redraws only the old and new bounds of each
/// changed group in the viewport (exactly those cells, not the index's tiles they reach into),
/// cleared and drawn again from every group the drawing's spatial index lists there. A pan moves the
/// cells both views show and draws only the strip that came into view (exactly, not whole tiles). Only a change of glyph
/// mode, a jump to a place the old view does not overlap, or more changes than the drawing's
/// journal keeps rasterise the whole viewport (and then only the groups under it).
///
/// A cache follows one drawing, whose `revision` tells its states apart; opening another drawing
/// takes a new cache.
public final class CanvasLayerCache {
    private struct Key: Equatable {
        var revision: UInt64
        var viewport: Viewport
        var mode: GlyphMode
    }

    private var key: Key?
    private var layer: RasterLayer?
    /// The highest key in the layer: strokes above it can be added on top.
    private var topKey: StrokeKey?
    /// Frames that reused the layer, frames that added new strokes to it, frames that redrew some
    /// of its tiles, and frames that had to rasterise the whole viewport.
    public private(set) var hits = 0
    public private(set) var extensions = 0
    public private(set) var redraws = 0
    public private(set) var misses = 0
    /// Cells redrawn by all the frames so far (a frame that redrew any counts in `redraws`).
    public private(set) var redrawnCells = 0

    public init() {}

    /// The layer of `drawing` in `viewport` and `mode`, rasterised only where something changed.
    public func layer(for drawing: Drawing, viewport: Viewport, mode: GlyphMode) -> RasterLayer {
        let wanted = Key(revision: drawing.revision, viewport: viewport, mode: mode)
        defer {
            key = wanted
            topKey = drawing.lastKey
        }
        guard var current = layer, let cached = key, cached.mode == mode else {
            return rasterise(drawing, wanted)
        }
        if wanted == cached {
            hits += 1
            return current
        }
        layer = nil  // so the layer below is not shared while it changes
        // Only strokes added since, all above everything in the layer: draw them on top.
        if cached.viewport == viewport, let added = drawing.additions(since: cached.revision),
            let lowest = added.first?.key, topKey.map({ $0 < lowest }) ?? true
        {
            extensions += 1
            current.add(added)
            layer = current
            return current
        }
        guard let changed = drawing.changedRegions(since: cached.revision),
            viewport.intersects(cached.viewport)
        else {
            return rasterise(drawing, wanted)
        }
        // What a pan brought into view, and the old and new bounds of each changed group: exactly
        // those cells, not the tiles they reach into, redrawn in one walk where they lie close.
        var regions: [CellRect] = []
        if cached.viewport != viewport {
            current = current.moved(to: viewport)
            regions = DirtyRegions.uncovered(viewport, by: cached.viewport)
        }
        regions += changed
        redraws += 1
        redrawnCells += current.redraw(regions, from: drawing)
        layer = current
        return current
    }

    private func rasterise(_ drawing: Drawing, _ wanted: Key) -> RasterLayer {
        misses += 1
        let fresh = RasterLayer(drawing, viewport: wanted.viewport, mode: wanted.mode)
        layer = fresh
        return fresh
    }
}

/// What a frame must draw again besides the changed groups' bounds.
enum DirtyRegions {
    /// The cells of `viewport` that `previous` did not show (what a pan brings into view), as up
    /// to four strips, none empty.
    static func uncovered(_ viewport: Viewport, by previous: Viewport) -> [CellRect] {
        let v = viewport
        guard let shared = previous.intersection(v) else { return [v] }
        return [
            CellRect(x: v.x, y: v.y, width: v.width, height: shared.y - v.y),
            CellRect(x: v.x, y: shared.maxY, width: v.width, height: v.maxY - shared.maxY),
            CellRect(x: v.x, y: shared.y, width: shared.x - v.x, height: shared.height),
            CellRect(x: shared.maxX, y: shared.y, width: v.maxX - shared.maxX, height: shared.height),
        ].filter { $0.width > 0 && $0.height > 0 }
    }
}
