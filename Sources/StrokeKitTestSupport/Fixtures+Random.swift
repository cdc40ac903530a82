import StrokeKit

extension Fixtures {
    /// A random but valid group: several pieces, random ink, paths, transforms and masks; the
    /// same generator state gives the same group.
    public static func randomGroup(using generator: inout some RandomNumberGenerator) -> StrokeGroup {
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
