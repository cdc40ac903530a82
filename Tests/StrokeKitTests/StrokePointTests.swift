import StrokeKit
import Testing

/// A path sample keeps its position on the 1/16 grid and its time offset exactly, across the
/// whole range the model allows (it stores both as 32-bit integers).
@Suite struct StrokePointTests {
    @Test(arguments: [
        (0.0, 0.0), (-0.0, 0.0625), (1.03125, -7.5), (1_048_576, -1_048_576), (-1_048_576, 1_048_575.9375),
        (2e9, -2e9), (0.03, 12.34),
    ])
    func thePositionIsTheSnappedPoint(x: Double, y: Double) {
        let sample = StrokePoint(x: x, y: y, timeOffsetMilliseconds: 5)
        #expect(sample.point == CanvasPoint(x: x, y: y))
        #expect(sample.point.x == CanvasPoint(x: x, y: y).x && sample.point.y == CanvasPoint(x: x, y: y).y)
        #expect(sample.timeOffsetMilliseconds == 5)
    }

    @Test func theTimeOffsetIsClampedToItsRange() {
        #expect(StrokePoint(x: 0, y: 0, timeOffsetMilliseconds: -3).timeOffsetMilliseconds == 0)
        #expect(
            StrokePoint(x: 0, y: 0, timeOffsetMilliseconds: .max).timeOffsetMilliseconds
                == StrokePoint.maximumTimeOffset)
        #expect(
            StrokePoint(x: 0, y: 0, timeOffsetMilliseconds: StrokePoint.maximumTimeOffset - 1)
                .timeOffsetMilliseconds == StrokePoint.maximumTimeOffset - 1)
    }

    @Test func samplesAreEqualExactlyWhenPositionAndTimeAre() {
        let a = StrokePoint(x: 1.5, y: 2.25, timeOffsetMilliseconds: 16)
        #expect(a == StrokePoint(x: 1.5 + 0.01, y: 2.25, timeOffsetMilliseconds: 16))
        #expect(a != StrokePoint(x: 1.5625, y: 2.25, timeOffsetMilliseconds: 16))
        #expect(a != StrokePoint(x: 1.5, y: 2.25, timeOffsetMilliseconds: 17))
        #expect(Set([a, StrokePoint(x: 1.5, y: 2.25, timeOffsetMilliseconds: 16)]).count == 1)
    }
}
