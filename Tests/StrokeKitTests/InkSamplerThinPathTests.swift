import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

/// A path no wider than a sample's shorter side is walked exactly in the grid's integers
/// (`InkSampler+ThinPaths.swift`); it inks the samples the general walk inks, on paths the
/// sampler's other tests do not reach: long segments, far from the origin, under masks, with the
/// walk clipped to some columns and rows.
@Suite struct InkSamplerThinPathTests {
    /// What the walk visits of `stroke` within the clip, with `settled` samples settled.
    static func visited(
        by sampler: InkSampler, _ stroke: Stroke, columns: Range<Int>?, rows: Range<Int>?,
        settled: Set<[Int]>
    ) -> Set<[Int]> {
        var visitor = InkSamplerCandidateTests.SettledSamples(
            lattice: sampler.lattice, settled: settled, settledCells: [])
        sampler.forEachVisibleSample(of: stroke, columns: columns, rows: rows, &visitor)
        return visitor.visited
    }

    /// A random thin stroke for `lattice`: one to eight points, steps from a sixteenth of a cell
    /// to hundreds of cells (shallow, steep, axis-aligned, through sample corners), anywhere from
    /// the origin to the coordinate limit, sometimes moved, sometimes masked.
    static func randomThinStroke(for lattice: SampleLattice, using random: inout SplitMix64) -> Stroke {
        let far = FixedPoint.coordinateLimit - 600
        let origins: [ClosedRange<Double>] = [-8...8, -far...(-far + 40), (far - 40)...far]
        let origin: ClosedRange<Double> = origins.randomElement(using: &random) ?? -8...8
        let startX = FixedPoint.quantize(Double.random(in: origin, using: &random))
        let startY = FixedPoint.quantize(Double.random(in: -8.0...8.0, using: &random))
        var point: (Double, Double) = (startX, startY)
        var points = [point]
        for _ in 0..<Int.random(in: 0...7, using: &random) {
            let reaches: [Double] = [0.0625, 0.5, 2, 9, 300]
            let reach = reaches.randomElement(using: &random) ?? 1
            var dx = Double(Int.random(in: -16...16, using: &random)) / 16 * reach
            var dy = Double(Int.random(in: -16...16, using: &random)) / 16 * reach
            switch Int.random(in: 0..<6, using: &random) {
            case 0: dy = 0
            case 1: dx = 0
            case 2: dy = dx  // through sample corners when it starts on one
            default: break
            }
            point = (point.0 + dx, point.1 + dy)
            points.append(point)
        }
        let widest = lattice.thinPathWidthUnits
        let width = Double(Int.random(in: 1...widest, using: &random)) / FixedPoint.unitsPerCell
        let transform =
            Bool.random(using: &random)
            ? StrokeTransform(
                dx: Double.random(in: -3...3, using: &random), dy: Double.random(in: -2...2, using: &random))
            : .identity
        let first = points[0]
        let mask =
            Int.random(in: 0..<4, using: &random) == 0
            ? Fixtures.mask(
                radius: [0.25, 0.5, 1.0].randomElement(using: &random) ?? 0.5,
                [(first.0 - 1, first.1 - 0.5), (first.0 + 1.5, first.1 + 0.75)]) : .none
        return Fixtures.stroke(points, width: width, transform: transform, mask: mask)
    }

    @Test(arguments: Array(UInt64(1)...32))
    func theExactWalkInksWhatTheGeneralWalkInks(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for lattice in [SampleLattice.halfBlock, .braille] {
            let exact = InkSampler(lattice: lattice)
            let general = InkSampler(lattice: lattice, walksThinPathsExactly: false)
            for index in 0..<50 {
                let stroke = Self.randomThinStroke(for: lattice, using: &random)
                let label = "seed \(seed) stroke \(index) \(lattice)"
                let inked = Self.visited(by: general, stroke, columns: nil, rows: nil, settled: [])
                #expect(!inked.isEmpty || !stroke.mask.isEmpty, "\(label): an unmasked stroke inks")
                #expect(
                    Self.visited(by: exact, stroke, columns: nil, rows: nil, settled: []) == inked, "\(label)"
                )
                // Clipped to a window around some of its ink, with some of that ink settled.
                guard let sample = inked.randomElement(using: &random) else { continue }
                let columns = (sample[0] - Int.random(in: 0...6, using: &random))..<(sample[0] + 3)
                let rows = (sample[1] - 2)..<(sample[1] + Int.random(in: 1...8, using: &random))
                let settled = Set(inked.filter { _ in Bool.random(using: &random) })
                #expect(
                    Self.visited(by: exact, stroke, columns: columns, rows: rows, settled: settled)
                        == Self.visited(by: general, stroke, columns: columns, rows: rows, settled: settled),
                    "\(label) clipped")
                let bounds = [exact, general].map { sampler in
                    sampler.visibleBounds(of: stroke).map {
                        [
                            $0.columns.lowerBound, $0.columns.upperBound, $0.rows.lowerBound,
                            $0.rows.upperBound,
                        ]
                    }
                }
                #expect(bounds[0] == bounds[1], "\(label) bounds")
            }
        }
    }

    /// Segments along sample edges and through sample corners, each way: a sample's right and
    /// bottom edges belong to the next sample, as the rectangle rule's half-open rectangles say.
    @Test func segmentsOnEdgesAndThroughCornersInkTheSamplesBelowAndRightOfThem() {
        for lattice in [SampleLattice.halfBlock, .braille] {
            let (sw, sh) = (lattice.sampleWidth, lattice.sampleHeight)
            let paths: [[(Double, Double)]] = [
                [(0, 0), (4 * sw, 0)],  // along a row's top edge
                [(0, sh), (4 * sw, sh)],  // along the next row's top edge
                [(sw, 0), (sw, 4 * sh)],  // along a column's left edge
                [(0, 0), (3 * sw, 3 * sh)],  // through corners, down and right
                [(3 * sw, 0), (0, 3 * sh)],  // through corners, down and left
                [(3 * sw, 3 * sh), (0, 0)],  // the same, drawn the other way
                [(0, 3 * sh), (3 * sw, 0)],
                [(sw, sh), (sw, sh)],  // a dot on a corner
                [(0.5 * sw, 0), (2.5 * sw, 2 * sh)],  // leaves rows mid-sample
            ]
            for path in paths {
                let stroke = Fixtures.stroke(path, width: Double(lattice.thinPathWidthUnits) / 16)
                let sampler = InkSampler(lattice: lattice)
                #expect(
                    InkSamplerCandidateTests.visited(by: sampler, stroke)
                        == InkSamplerCandidateTests.inkedByTryingEverySample(stroke, lattice: lattice),
                    "\(lattice) \(path)")
            }
        }
    }

    /// A pen of a quarter cell is thin in both lattices, a marker of a cell in neither: the widest
    /// thin path is a sample's shorter side.
    @Test func theWidestThinPathIsASamplesShorterSide() {
        #expect(SampleLattice.braille.thinPathWidthUnits == 4)
        #expect(SampleLattice.halfBlock.thinPathWidthUnits == 8)
        #expect(SampleLattice.braille.unitShifts == (3, 2))
        #expect(SampleLattice.halfBlock.unitShifts == (4, 3))
    }
}
