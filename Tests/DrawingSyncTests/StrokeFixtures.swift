import DrawingSync
import ReplicaStore
import StrokeKit

/// Small strokes for coordinator and model tests, like the original app's `makeStroke`:
/// a two-point pen stroke from (x, y) to (x + 5, y + 5) under the key for `milliseconds`.
enum StrokeFixtures {
    static let baseMilliseconds: Int64 = 1_774_455_614_000  // 2026-03-25T16:20:14.000Z

    static func key(_ offset: Int64, peer: String = "aaaaaa") -> StrokeKey {
        StrokeKey(creationMilliseconds: baseMilliseconds + offset, peerSuffix: peer)!
    }

    static func stroke(at x: Double, _ y: Double = 1, key: StrokeKey, colour: UInt8 = 15) -> Stroke {
        Stroke(
            key: key, ink: Ink(tool: .pen, colour: colour, width: 1),
            path: [StrokePoint(CanvasPoint(x: x, y: y)), StrokePoint(CanvasPoint(x: x + 5, y: y + 5), timeOffsetMilliseconds: 40)],
            createdAtMilliseconds: key.creationMilliseconds)!
    }

    static func group(_ strokes: Stroke...) -> StrokeGroup {
        StrokeGroup(key: strokes[0].key, pieces: strokes)!
    }

    static func masked(_ stroke: Stroke, radius: Double = 0.5) -> Stroke {
        var stroke = stroke
        let first = stroke.path[0].point
        stroke.mask = stroke.mask.adding([MaskSweep(radius: radius, path: [first.offset(by: 1, 1)])!])
        return stroke
    }

    static func canvas(_ groups: StrokeGroup...) -> Drawing {
        Drawing(groups: groups)
    }

    static func strokesMap(_ groups: StrokeGroup...) -> [String: DocumentValue] {
        Dictionary(uniqueKeysWithValues: groups.map { ($0.key.rawValue, .string(StrokeModel.encode($0).value)) })
    }
}
