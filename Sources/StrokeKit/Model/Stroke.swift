import ByteCoding

/// One stroke, or one piece of a stroke that the eraser cut: ink, a non-empty path, the creation
/// key it belongs to, when it was created, where it has been moved and what has been erased.
public struct Stroke: Hashable, Sendable {
    public var key: StrokeKey
    public var ink: Ink
    /// Never empty.
    public private(set) var path: [StrokePoint]
    /// Wall-clock creation time in Unix milliseconds (the key's time may be a few ms later).
    public var createdAtMilliseconds: Int64
    public var transform: StrokeTransform
    public var mask: StrokeMask

    /// A stroke; nil for an empty path.
    public init?(
        key: StrokeKey, ink: Ink, path: [StrokePoint], createdAtMilliseconds: Int64,
        transform: StrokeTransform = .identity, mask: StrokeMask = .none
    ) {
        guard !path.isEmpty else { return nil }
        self.key = key
        self.ink = ink
        self.path = path
        self.createdAtMilliseconds = createdAtMilliseconds
        self.transform = transform
        self.mask = mask
    }

    /// A stroke that starts with one point (the pen going down).
    public init(key: StrokeKey, ink: Ink, start: StrokePoint, createdAtMilliseconds: Int64) {
        self.key = key
        self.ink = ink
        self.path = [start]
        self.createdAtMilliseconds = createdAtMilliseconds
        self.transform = .identity
        self.mask = .none
    }

    /// Adds a sample as the pen moves.
    public mutating func append(_ point: StrokePoint) {
        path.append(point)
    }

    /// The stroke's fingerprint of its mask alone; nil when nothing is masked.
    public var maskFingerprint: StrokeFingerprint? {
        guard !mask.isEmpty else { return nil }
        var writer = ByteWriter()
        StrokeGroupCodec.write(mask, to: &writer)
        return StrokeFingerprint(of: writer.bytes)
    }

    /// The path placed on the canvas (transform applied), for geometry.
    var canvasSpine: [Vector2] {
        path.map { transform.apply($0.point) }
    }
}
