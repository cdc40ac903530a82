import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import StrokeKitTestSupport

/// Small strokes for coordinator and model tests, like the original app's `makeStroke`:
/// a two-point pen stroke from (x, y) to (x + 5, y + 5) under the key for `milliseconds`.
/// Built with the shared `Fixtures`; what is here is this target's own shorthand.
enum StrokeFixtures {
    static let baseMilliseconds = Fixtures.baseMilliseconds

    static func key(_ offset: Int64, peer: String = "aaaaaa") -> StrokeKey {
        Fixtures.key(baseMilliseconds + offset, peer: peer)
    }

    static func stroke(at x: Double, _ y: Double = 1, key: StrokeKey, colour: UInt8 = 15) -> Stroke {
        Fixtures.stroke([(x, y), (x + 5, y + 5)], key: key, width: 1, colour: colour, millisecondsApart: 40)
    }

    static func group(_ strokes: Stroke...) -> StrokeGroup {
        Fixtures.group(strokes)
    }

    static func masked(_ stroke: Stroke, radius: Double = 0.5) -> Stroke {
        var stroke = stroke
        let corner = stroke.path[0].point.offset(by: 1, 1)
        stroke.mask = stroke.mask.adding(Fixtures.mask(radius: radius, [(corner.x, corner.y)]).sweeps)
        return stroke
    }

    static func canvas(_ groups: StrokeGroup...) -> Drawing {
        Drawing(groups: groups)
    }

    static func strokesMap(_ groups: StrokeGroup...) -> [String: DocumentValue] {
        Dictionary(
            uniqueKeysWithValues: groups.map { ($0.key.rawValue, .string(EncodedGroup($0).value)) })
    }
}
