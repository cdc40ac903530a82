import StrokeKit

/// The drawing's raster layer from the last frame, kept while the drawing, the view and the
/// glyph mode stay the same.
///
/// Most frames change none of them: a peer's cursor moves, someone is in the middle of a stroke,
/// the status line changes. Rasterising a 10,000-stroke drawing takes about 17 ms, and presence
/// arrives many times a second, so `CanvasView` asks this cache for the drawing's layer and only
/// adds the strokes in progress on top of a copy. A cache follows one drawing, whose `revision`
/// tells its states apart; opening another drawing takes a new cache.
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
    /// Frames that reused the layer, frames that added new strokes to it, and frames that had to
    /// rasterise the drawing.
    public private(set) var hits = 0
    public private(set) var extensions = 0
    public private(set) var misses = 0

    public init() {}

    /// The layer of `drawing` in `viewport` and `mode`, rasterised only when one of them changed.
    public func layer(for drawing: Drawing, viewport: Viewport, mode: GlyphMode) -> RasterLayer {
        let wanted = Key(revision: drawing.revision, viewport: viewport, mode: mode)
        if wanted == key, let layer {
            hits += 1
            return layer
        }
        // Only strokes added since, all above everything in the layer (a new stroke here or from
        // a peer, the common change): draw them on top instead of starting over.
        if var extended = layer, let cached = key, cached.viewport == viewport, cached.mode == mode,
            let added = drawing.additions(since: cached.revision), let lowest = added.first?.key,
            topKey.map({ $0 < lowest }) ?? true
        {
            extensions += 1
            layer = nil  // so the layer below is not shared while it changes
            extended.add(added)
            key = wanted
            layer = extended
            topKey = added.last?.key ?? topKey
            return extended
        }
        misses += 1
        let fresh = RasterLayer(drawing.groups, viewport: viewport, mode: mode)
        key = wanted
        layer = fresh
        topKey = drawing.keys.last
        return fresh
    }
}
