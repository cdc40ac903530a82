import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// A frame after a change redraws the old and new bounds of the changed groups, several regions
/// at once (`RasterLayer.redraw(_:from:)` of a list): regions near each other in one walk whose
/// masks open only their cells, regions far apart in walks of their own. The layer must end as a
/// fresh layer of the changed drawing, cell for cell.
@Suite struct RasterLayerRegionsTests {
    /// Seeded rounds of erases (mask dabs cutting pieces), removals, moves, recolourings and new
    /// groups below the top, on dense pens and markers with text in some seeds; after each round
    /// the old layer, with the changed groups' old and new bounds redrawn in one call, must be the
    /// fresh layer of the drawing (and what drawing every group in key order gives).
    @Test(arguments: [GlyphMode.block, .braille, .ascii], Array(UInt64(1)...8))
    func redrawingTheChangedBoundsTogetherEqualsAFreshLayer(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pool =
            seed.isMultiple(of: 2)
            ? RasterLayerTextAmongPensTests.mixedGroups(count: 160, using: &random)
            : RasterLayerTopFirstTests.denseGroups(count: 160, using: &random)
        var drawing = Drawing(groups: Array(pool.prefix(120)))
        let viewport = Viewport(x: -2, y: -1, width: 70, height: 16)
        var layer = RasterLayer(drawing, viewport: viewport, mode: mode)
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.5))
        for round in 0..<10 {
            let before = drawing.revision
            func set(_ group: StrokeGroup?, for key: StrokeKey) { _ = drawing.setGroup(group, for: key) }
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let group = pool.randomElement(using: &random) ?? pool[0]
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    // A dab of the mask eraser on every group under it, as a drag does.
                    let centre = CanvasPoint(
                        x: Double.random(in: 0..<24, using: &random),
                        y: Double.random(in: 0..<10, using: &random))
                    let reach = CellRect(x: Int(centre.x) - 2, y: Int(centre.y) - 2, width: 5, height: 5)
                    for under in drawing.groups(in: reach) {
                        set(eraser.erase([under], along: [centre]).first, for: under.key)
                    }
                case 1: set(nil, for: group.key)
                case 2:
                    // Moved far along the row: its old and new bounds lie apart.
                    let pieces = group.pieces.map { piece in
                        var moved = piece
                        moved.transform = StrokeTransform(
                            dx: piece.transform.dx + Double(Int.random(in: 20...40, using: &random)),
                            dy: piece.transform.dy)
                        return moved
                    }
                    set(StrokeGroup(key: group.key, pieces: pieces), for: group.key)
                case 3:
                    let pieces = group.pieces.map { piece in
                        var recoloured = piece
                        recoloured.ink.colour = UInt8.random(in: 1...255, using: &random)
                        return recoloured
                    }
                    set(StrokeGroup(key: group.key, pieces: pieces), for: group.key)
                default: set(group, for: group.key)
                }
            }
            // What the canvas's cache redraws: the old and new bounds of every changed group.
            let changed = drawing.changedRegions(since: before) ?? [viewport]
            let redrawn = layer.redraw(changed, from: drawing)
            let fresh = RasterLayer(drawing, viewport: viewport, mode: mode)
            #expect(layer == fresh, "seed \(seed) round \(round)")
            #expect(
                fresh == RasterLayerTopFirstTests.inKeyOrder(drawing.groups, viewport: viewport, mode: mode),
                "seed \(seed) round \(round)")
            let inView = changed.compactMap { $0.intersection(viewport) }
            #expect(redrawn == Self.distinctCells(of: inView), "seed \(seed) round \(round)")
            layer = fresh
        }
    }

    /// Regions redrawn from a blank layer show exactly their own cells of the fresh layer, in a
    /// drawing dense enough that most groups are passed over: each cell of a region as the fresh
    /// layer has it, each cell outside every region blank.
    @Test(arguments: [GlyphMode.block, .braille], Array(UInt64(1)...6))
    func regionsRedrawnOnABlankLayerHoldOnlyTheirOwnCells(mode: GlyphMode, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let drawing = Drawing(groups: RasterLayerTopFirstTests.denseGroups(count: 400, using: &random))
        let viewport = Viewport(x: -3, y: -2, width: 33, height: 17)
        let fresh = RasterLayer(drawing, viewport: viewport, mode: mode).grid
        let regions = (0..<Int.random(in: 2...6, using: &random)).map { _ in
            CellRect(
                x: Int.random(in: -5..<28, using: &random), y: Int.random(in: -4..<13, using: &random),
                width: Int.random(in: 1...9, using: &random), height: Int.random(in: 1...6, using: &random))
        }
        var layer = RasterLayer(Drawing(), viewport: viewport, mode: mode)
        layer.redraw(regions, from: drawing)
        let grid = layer.grid
        for y in 0..<viewport.height {
            for x in 0..<viewport.width {
                let cell = (x: x + viewport.x, y: y + viewport.y)
                let inRegion = regions.contains {
                    cell.x >= $0.x && cell.x < $0.maxX && cell.y >= $0.y && cell.y < $0.maxY
                }
                #expect(grid[x, y] == (inRegion ? fresh[x, y] : .blank), "seed \(seed) cell \(cell)")
            }
        }
    }

    /// Regions close together share a walk; one far from the rest gets its own, so a change at
    /// each end of the screen does not ask the index for every group between them. Every region
    /// is in exactly one cluster, inside its bounds, and a cluster's bounds hold at most twice
    /// the cells of its regions.
    @Test func regionsFarApartAreWalkedApart() {
        let near = [
            CellRect(x: 10, y: 10, width: 6, height: 4), CellRect(x: 14, y: 12, width: 6, height: 4),
            CellRect(x: 11, y: 9, width: 3, height: 3),
        ]
        let far = CellRect(x: 150, y: 50, width: 6, height: 4)
        let clusters = RasterLayer.clusters(of: near + [far])
        #expect(clusters.count == 2)
        #expect(clusters.map(\.regions.count).sorted() == [1, 3])
        var random = SplitMix64(seed: 17)
        for _ in 0..<200 {
            let regions = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                CellRect(
                    x: Int.random(in: 0..<190, using: &random), y: Int.random(in: 0..<55, using: &random),
                    width: Int.random(in: 1...12, using: &random),
                    height: Int.random(in: 1...6, using: &random))
            }
            let clusters = RasterLayer.clusters(of: regions)
            #expect(clusters.flatMap(\.regions).count == regions.count)
            for cluster in clusters {
                let cells = cluster.regions.reduce(0) { $0 + $1.width * $1.height }
                #expect(cluster.bounds.width * cluster.bounds.height <= 2 * cells)
                for region in cluster.regions { #expect(region.intersection(cluster.bounds) == region) }
            }
        }
    }

    static func distinctCells(of regions: [CellRect]) -> Int {
        var cells = Set<Int64>()
        for region in regions {
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX {
                    cells.insert(Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(y))))
                }
            }
        }
        return cells.count
    }
}
