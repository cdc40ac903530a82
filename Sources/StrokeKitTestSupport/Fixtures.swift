import StrokeKit

/// Builders of valid StrokeKit values from plain numbers, shared by the test targets, so tests are
/// about behaviour, not construction. A builder given something invalid stops the test run: a
/// fixture that silently repaired its input would hide what the test meant.
public enum Fixtures {
    /// 2026-03-25T16:20:14.000Z, the time the fixtures' drawings are made at.
    public static let baseMilliseconds: Int64 = 1_774_455_614_000

    /// A key at a Unix time (milliseconds) for a peer; the fixtures only use valid values.
    public static func key(
        _ milliseconds: Int64 = baseMilliseconds + 127, peer: String = "3fa2c1"
    ) -> StrokeKey {
        guard let key = StrokeKey(creationMilliseconds: milliseconds, peerSuffix: peer) else {
            preconditionFailure("fixture key must be valid")
        }
        return key
    }

    /// A stroke through the given points, `millisecondsApart` (10 ms unless told) from each other.
    public static func stroke(
        _ points: [(Double, Double)], key: StrokeKey = key(), width: Double = 0.25, colour: UInt8 = 1,
        tool: InkTool = .pen, transform: StrokeTransform = .identity, mask: StrokeMask = .none,
        millisecondsApart: Int = 10
    ) -> Stroke {
        let path = points.enumerated().map { index, point in
            StrokePoint(x: point.0, y: point.1, timeOffsetMilliseconds: index * millisecondsApart)
        }
        guard
            let stroke = Stroke(
                key: key, ink: Ink(tool: tool, colour: colour, width: width), path: path,
                createdAtMilliseconds: key.creationMilliseconds, transform: transform, mask: mask)
        else { preconditionFailure("fixture stroke needs points") }
        return stroke
    }

    /// A group of the pieces, under the first piece's key.
    public static func group(_ pieces: [Stroke]) -> StrokeGroup {
        guard let first = pieces.first, let group = StrokeGroup(key: first.key, pieces: pieces) else {
            preconditionFailure("fixture group needs pieces")
        }
        return group
    }

    /// A mask of one eraser sweep.
    public static func mask(radius: Double, _ points: [(Double, Double)]) -> StrokeMask {
        guard let sweep = MaskSweep(radius: radius, path: Self.points(points)) else {
            preconditionFailure("fixture sweep needs points")
        }
        return StrokeMask(sweeps: [sweep])
    }

    /// Canvas points from coordinate pairs.
    public static func points(_ pairs: [(Double, Double)]) -> [CanvasPoint] {
        pairs.map { CanvasPoint(x: $0.0, y: $0.1) }
    }
}
