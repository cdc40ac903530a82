import StrokeKit
import TestSupport

/// Small builders that keep the tests about behaviour, not construction.
enum Fixtures {
    /// A key at a Unix time (milliseconds) for a peer; the fixtures only use valid values.
    static func key(_ milliseconds: Int64 = 1_774_455_614_127, peer: String = "3fa2c1") -> StrokeKey {
        guard let key = StrokeKey(creationMilliseconds: milliseconds, peerSuffix: peer) else {
            preconditionFailure("fixture key must be valid")
        }
        return key
    }

    /// A stroke through the given points, 10 ms apart.
    static func stroke(
        _ points: [(Double, Double)], key: StrokeKey = key(), width: Double = 0.25, colour: UInt8 = 1,
        tool: InkTool = .pen, transform: StrokeTransform = .identity, mask: StrokeMask = .none
    ) -> Stroke {
        let path = points.enumerated().map { index, point in
            StrokePoint(x: point.0, y: point.1, timeOffsetMilliseconds: index * 10)
        }
        guard
            let stroke = Stroke(
                key: key, ink: Ink(tool: tool, colour: colour, width: width), path: path,
                createdAtMilliseconds: key.creationMilliseconds, transform: transform, mask: mask)
        else { preconditionFailure("fixture stroke needs points") }
        return stroke
    }

    static func group(_ pieces: [Stroke]) -> StrokeGroup {
        guard let first = pieces.first, let group = StrokeGroup(key: first.key, pieces: pieces) else {
            preconditionFailure("fixture group needs pieces")
        }
        return group
    }

    static func mask(radius: Double, _ points: [(Double, Double)]) -> StrokeMask {
        guard let sweep = MaskSweep(radius: radius, path: points.map { CanvasPoint(x: $0.0, y: $0.1) }) else {
            preconditionFailure("fixture sweep needs points")
        }
        return StrokeMask(sweeps: [sweep])
    }

    static func points(_ pairs: [(Double, Double)]) -> [CanvasPoint] {
        pairs.map { CanvasPoint(x: $0.0, y: $0.1) }
    }

    /// A random but valid group: several pieces, random ink, paths, transforms and masks.
    static func randomGroup(using generator: inout SplitMix64) -> StrokeGroup {
        let milliseconds = Int64.random(in: 0...StrokeKey.maximumMilliseconds, using: &generator)
        let peer = String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36)
        let groupKey = key(milliseconds, peer: String(peer.prefix(Int.random(in: 1...12, using: &generator))))
        func coordinate() -> Double {
            Bool.random(using: &generator)
                ? Double.random(in: -200...200, using: &generator)
                : Double.random(
                    in: -FixedPoint.coordinateLimit...FixedPoint.coordinateLimit, using: &generator)
        }
        let pieces = (0..<Int.random(in: 1...4, using: &generator)).map { _ -> Stroke in
            var time = 0
            let path = (0..<Int.random(in: 1...30, using: &generator)).map { _ -> StrokePoint in
                time += Int.random(in: 0...500, using: &generator)
                return StrokePoint(x: coordinate(), y: coordinate(), timeOffsetMilliseconds: time)
            }
            let sweeps = (0..<Int.random(in: 0...3, using: &generator)).compactMap { _ in
                MaskSweep(
                    radius: Double.random(in: 0...70, using: &generator),
                    path: (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                        CanvasPoint(x: coordinate(), y: coordinate())
                    })
            }
            let transform =
                Bool.random(using: &generator)
                ? StrokeTransform(dx: coordinate(), dy: coordinate()) : .identity
            let ink = Ink(
                tool: InkTool.allCases.randomElement(using: &generator) ?? .pen,
                colour: UInt8.random(in: 0...255, using: &generator),
                width: Double.random(in: 0...70, using: &generator))
            let created = milliseconds + Int64.random(in: -5...5, using: &generator)
            guard
                let stroke = Stroke(
                    key: groupKey, ink: ink, path: path, createdAtMilliseconds: created, transform: transform,
                    mask: StrokeMask(sweeps: sweeps))
            else { preconditionFailure("random path is never empty") }
            return stroke
        }
        return group(pieces)
    }
}
