import StrokeKit
import StrokeKitTestSupport
import Testing

/// A drawing holds every stroke for as long as it is open, so a path grown a point at a time (as
/// the pen draws it) is kept in an array of its size once the stroke is finished, not in the room
/// the array doubled into.
@Suite struct StrokePathRoomTests {
    private static func grownPath(_ count: Int) -> [StrokePoint] {
        var path: [StrokePoint] = []
        for index in 0..<count {
            path.append(StrokePoint(x: Double(index), y: 1, timeOffsetMilliseconds: index))
        }
        return path
    }

    @Test(arguments: [1, 2, 5, 9, 17, 33, 100, 1_000])
    func aStrokeMadeFromAGrownPathHoldsItAtItsSize(points: Int) throws {
        let path = Self.grownPath(points)
        let stroke = try #require(
            Stroke(key: Fixtures.key(), ink: Ink(tool: .pen, colour: 3), path: path, createdAtMilliseconds: 0)
        )
        #expect(stroke.path == path)
        #expect(stroke.path.capacity <= points + 4)
    }

    @Test(arguments: [2, 9, 33, 1_000])
    func aStrokeDrawnPointByPointIsHeldAtItsSizeOnceFinished(points: Int) {
        var stroke = Stroke(
            key: Fixtures.key(), ink: Ink(tool: .marker, colour: 9), start: StrokePoint(x: 0, y: 0),
            createdAtMilliseconds: 0)
        for point in Self.grownPath(points).dropFirst() { stroke.append(point) }
        let finished = stroke.holdingPathAtItsSize()
        #expect(finished == stroke)
        #expect(finished.path.capacity <= points + 4)
        // Nothing else of the stroke changes, and it can still grow.
        var longer = finished
        longer.append(StrokePoint(x: 5, y: 5))
        #expect(longer.path.count == points + 1 && finished.path.count == points)
    }
}
