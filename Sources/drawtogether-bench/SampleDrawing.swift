import StrokeKit

/// A seeded drawing: freehand strokes of 6–20 samples (random walks of small steps, as a mouse
/// drag gives), pens and markers in 15 colours, spread over a canvas of 400x120 cells so a
/// 200x60 viewport shows about a quarter of it.
struct SampleDrawing {
    static let canvasWidth = 400.0
    static let canvasHeight = 120.0
    /// 2026-03-25T16:20:14.127Z: keys are this plus one millisecond per stroke.
    static let baseMilliseconds: Int64 = 1_774_455_614_127

    private var random: BenchRandom
    let peer: String
    private var nextIndex: Int

    /// `firstIndex` offsets the keys, so a second sample's strokes can lie above a first one's.
    init(seed: UInt64, peer: String, firstIndex: Int = 0) {
        random = BenchRandom(seed: seed)
        self.peer = peer
        nextIndex = firstIndex
    }

    /// The next `count` strokes, each its own group, keys increasing.
    mutating func groups(_ count: Int) -> [StrokeGroup] {
        (0..<count).compactMap { _ in nextGroup() }
    }

    mutating func nextGroup() -> StrokeGroup? {
        let milliseconds = Self.baseMilliseconds + Int64(nextIndex)
        nextIndex += 1
        guard let key = StrokeKey(creationMilliseconds: milliseconds, peerSuffix: peer) else { return nil }
        var x = Double.random(in: 0..<Self.canvasWidth, using: &random)
        var y = Double.random(in: 0..<Self.canvasHeight, using: &random)
        var path: [StrokePoint] = []
        for index in 0..<Int.random(in: 6...20, using: &random) {
            path.append(StrokePoint(x: x, y: y, timeOffsetMilliseconds: index * 16))
            x = min(max(x + Double.random(in: -1.5...1.5, using: &random), 0), Self.canvasWidth)
            y = min(max(y + Double.random(in: -0.75...0.75, using: &random), 0), Self.canvasHeight)
        }
        let tool: InkTool = Int.random(in: 0..<4, using: &random) == 0 ? .marker : .pen
        let ink = Ink(tool: tool, colour: UInt8.random(in: 1...15, using: &random), width: tool.defaultWidth)
        guard let stroke = Stroke(key: key, ink: ink, path: path, createdAtMilliseconds: milliseconds) else {
            return nil
        }
        return StrokeGroup(key: key, pieces: [stroke])
    }

    /// `group` with one more sample at its end: a changed stroke with the same key.
    static func extended(_ group: StrokeGroup) -> StrokeGroup? {
        guard var piece = group.pieces.last, let last = piece.path.last else { return group }
        piece.append(
            StrokePoint(
                x: min(last.point.x + 0.5, canvasWidth), y: last.point.y,
                timeOffsetMilliseconds: last.timeOffsetMilliseconds + 16))
        return StrokeGroup(key: group.key, pieces: Array(group.pieces.dropLast()) + [piece])
    }
}
