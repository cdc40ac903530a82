import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// The sampler looks at a few candidate samples per row of each segment; the samples it inks are
/// the ones the two rules give when every sample of the stroke's bounds is tried (seeded random
/// strokes: thin and wide, long and short segments, single points, moved; both lattices).
@Suite struct InkSamplerCandidateTests {
    /// The samples `sampler` inks of `stroke`, as its walk visits them.
    static func visited(by sampler: InkSampler, _ stroke: Stroke) -> Set<[Int]> {
        var visited: Set<[Int]> = []
        sampler.forEachVisibleSample(of: stroke) { column, row in
            visited.insert([column, row])
            return true
        }
        return visited
    }

    /// Every sample of the stroke's bounds that the rules ink, tried one by one.
    static func inkedByTryingEverySample(_ stroke: Stroke, lattice: SampleLattice) -> Set<[Int]> {
        let bounds = SpatialIndex.bounds(of: stroke)
        let (columns, rows) = lattice.samples(in: bounds)
        let spine = stroke.path.map {
            Vector2($0.point.x + stroke.transform.dx, $0.point.y + stroke.transform.dy)
        }
        let segments = PlanarGeometry.segments(of: spine)
        let halfWidth = stroke.ink.width / 2
        let sw = lattice.sampleWidth
        let sh = lattice.sampleHeight
        var inked: Set<[Int]> = []
        for row in rows {
            for column in columns {
                let left = Double(column) * sw
                let top = Double(row) * sh
                let centre = Vector2(left + sw / 2, top + sh / 2)
                let touched = segments.contains { a, b in
                    PlanarGeometry.distanceSquared(from: centre, toSegment: a, b) < halfWidth * halfWidth
                        || PlanarGeometry.segment(
                            a, b, touchesRectMinX: left, minY: top, maxX: left + sw - 1e-9,
                            maxY: top + sh - 1e-9)
                }
                if touched { inked.insert([column, row]) }
            }
        }
        return inked
    }

    static func randomStroke(using random: inout SplitMix64) -> Stroke {
        let x = Double(Int.random(in: -80...80, using: &random)) / 16
        let y = Double(Int.random(in: -40...40, using: &random)) / 16
        var points: [(Double, Double)] = [(x, y)]
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let steps: [Double] = [0.0625, 0.5, 1, 3, 9]
            let step = steps.randomElement(using: &random) ?? 1
            let last = points[points.count - 1]
            let dx = Double(Int.random(in: -16...16, using: &random)) / 16 * step
            let dy = Double(Int.random(in: -16...16, using: &random)) / 16 * step
            points.append((last.0 + dx, last.1 + dy))
        }
        let transform =
            Bool.random(using: &random)
            ? StrokeTransform(
                dx: Double.random(in: -3...3, using: &random), dy: Double.random(in: -2...2, using: &random))
            : .identity
        return Fixtures.stroke(
            points, width: [0.0625, 0.25, 0.5, 1, 1.5, 2, 3.25].randomElement(using: &random) ?? 0.25,
            transform: transform)
    }

    @Test(arguments: Array(UInt64(1)...24))
    func theSamplesInkedAreTheOnesEverySampleTriedGives(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            let sampler = InkSampler(lattice: lattice)
            for index in 0..<40 {
                let stroke = Self.randomStroke(using: &random)
                #expect(
                    Self.visited(by: sampler, stroke)
                        == Self.inkedByTryingEverySample(stroke, lattice: lattice),
                    "seed \(seed) stroke \(index) \(lattice)")
            }
        }
    }

    /// With some cells settled (told to the sampler per sample and per rectangle of cells, as
    /// the raster's topmost-first walk does), every sample the rules ink in a cell that is not
    /// settled is still visited, and nothing else is: a segment is passed over only when every
    /// sample it can ink lies in settled cells.
    @Test(arguments: Array(UInt64(1)...24))
    func settledCellsHideOnlyTheirOwnSamples(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            let sampler = InkSampler(lattice: lattice)
            for index in 0..<40 {
                let stroke = Self.randomStroke(using: &random)
                let inked = Self.inkedByTryingEverySample(stroke, lattice: lattice)
                // Most of the cells the stroke inks are settled, so whole segments are passed over.
                let share = [0.5, 0.9, 1.0].randomElement(using: &random) ?? 0.9
                var settledCells: Set<[Int]> = []
                for sample in inked {
                    let cell = lattice.cell(ofColumn: sample[0], row: sample[1])
                    if Double.random(in: 0..<1, using: &random) < share {
                        settledCells.insert([cell.x, cell.y])
                    }
                }
                func isSettled(_ column: Int, _ row: Int) -> Bool {
                    let cell = lattice.cell(ofColumn: column, row: row)
                    return settledCells.contains([cell.x, cell.y])
                }
                var visited: Set<[Int]> = []
                sampler.forEachVisibleSample(
                    of: stroke, skipping: isSettled,
                    skippingCells: { left, top, right, bottom in
                        (top...bottom).allSatisfy { y in
                            (left...right).allSatisfy { settledCells.contains([$0, y]) }
                        }
                    }
                ) { column, row in
                    visited.insert([column, row])
                    return true
                }
                #expect(
                    visited == inked.filter { !isSettled($0[0], $0[1]) },
                    "seed \(seed) stroke \(index) \(lattice) share \(share)")
            }
        }
    }
}
