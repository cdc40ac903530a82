import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// The sampler's candidates per row are the samples whose rectangle meets the segment's part in
/// the row and those whose centre lies within half the width of it, and a candidate near enough
/// its centre is inked without the rectangle test: neither may lose a sample. Points here lie on
/// sample edges and corners (quarters and halves of a cell) far more often than a drag puts them,
/// at the widths where the two rules meet, near the origin and far from it.
@Suite struct InkSamplerEdgeTests {
    static func edgeStroke(using random: inout SplitMix64) -> Stroke {
        let far = Bool.random(using: &random) ? Double(Int.random(in: -1...1, using: &random)) * 524_288 : 0
        let grid = [0.25, 0.5, 1.0].randomElement(using: &random) ?? 0.25
        func coordinate(_ range: ClosedRange<Int>) -> Double {
            let onGrid = Double(Int.random(in: range, using: &random)) * grid
            // Now and then one sixteenth off an edge.
            return onGrid
                + (Int.random(in: 0..<4, using: &random) == 0
                    ? (Bool.random(using: &random) ? -0.0625 : 0.0625) : 0)
        }
        var points: [(Double, Double)] = [(far + coordinate(-12...12), far / 2 + coordinate(-8...8))]
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let last = points[points.count - 1]
            points.append((last.0 + coordinate(-6...6), last.1 + coordinate(-4...4)))
        }
        let widths: [Double] = [0.0625, 0.125, 0.25, 0.5, 0.75, 1, 2]
        let width = widths.randomElement(using: &random) ?? 0.25
        let tool: InkTool = Bool.random(using: &random) ? .pen : .marker
        return Fixtures.stroke(points, width: width, tool: tool)
    }

    @Test(arguments: Array(UInt64(1)...16))
    func samplesOnEdgesAreTheOnesEverySampleTriedGives(seed: UInt64) {
        InkSamplerCandidateTests.expectSamplerAgreesWithTryingEverySample(
            seed: seed, strokes: 60, made: Self.edgeStroke)
    }
}

/// The raster's walk asks whether a group can still change a cell only of its ink bounds (the
/// path's box widened by half the width, without the index's extra cell): every sample the rules
/// ink, tried one by one over the wider bounds, must lie in them, for strokes on sample edges,
/// near the origin and far from it, and for random ones.
@Suite struct InkBoundsTests {
    @Test(arguments: Array(UInt64(1)...16))
    func everyInkedSampleLiesInTheInkBounds(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            for index in 0..<60 {
                let stroke =
                    index.isMultiple(of: 2)
                    ? InkSamplerEdgeTests.edgeStroke(using: &random)
                    : InkSamplerCandidateTests.randomStroke(using: &random)
                let ink = SpatialIndex.inkBounds(of: stroke)
                let bounds = SpatialIndex.bounds(of: stroke)
                #expect(ink.intersection(bounds) == ink, "seed \(seed) stroke \(index)")
                for sample in InkSamplerCandidateTests.inkedByTryingEverySample(stroke, lattice: lattice) {
                    let cell = lattice.cell(ofColumn: sample[0], row: sample[1])
                    #expect(
                        ink.intersects(CellRect(x: cell.x, y: cell.y, width: 1, height: 1)),
                        "seed \(seed) stroke \(index) \(lattice) sample \(sample) outside \(ink)")
                }
            }
        }
    }
}
