import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// A layer that strokes are added to later must show what rendering everything at once shows:
/// the canvas keeps the drawing's layer and adds the strokes being drawn on top of it per frame.
@Suite struct RasterLayerTests {
    /// Strokes in a small area, pens and markers, so they overlap and share cells.
    static func crowdedGroups(count: Int, seed: UInt64) -> [StrokeGroup] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let points = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                (Double.random(in: -2...22, using: &random), Double.random(in: -2...10, using: &random))
            }
            return Fixtures.group([
                Fixtures.stroke(
                    points, key: Fixtures.key(1_774_455_614_000 + Int64(index)),
                    width: [0.25, 0.5, 1, 2].randomElement(using: &random) ?? 0.25,
                    colour: UInt8.random(in: 0...255, using: &random),
                    tool: Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen)
            ])
        }
    }

    @Test(arguments: [GlyphMode.block, .braille, .ascii], [UInt64(1), 2, 3])
    func addingStrokesOnTopEqualsRenderingThemTogether(mode: GlyphMode, seed: UInt64) {
        let groups = Self.crowdedGroups(count: 40, seed: seed)
        let viewport = Viewport(x: 0, y: 0, width: 20, height: 8)
        var layer = RasterLayer(Array(groups.prefix(30)), viewport: viewport, mode: mode)
        let drawingOnly = layer.grid
        layer.add(Array(groups.suffix(10)))
        #expect(layer.grid == Raster.render(groups, viewport: viewport, mode: mode))
        #expect(layer.grid != drawingOnly)
    }

    @Test func anEmptyViewportHasNoCells() {
        let layer = RasterLayer(
            Self.crowdedGroups(count: 3, seed: 9), viewport: Viewport(x: 0, y: 0, width: 0, height: 5),
            mode: .block)
        #expect(layer.grid.width == 0)
    }
}
