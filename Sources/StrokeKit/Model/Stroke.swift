import ByteCoding

/// One stroke, or one piece of a stroke that the eraser cut: ink, a non-empty path, the creation
/// key it belongs to, when it was created, where it has been moved and what has been erased.
///
/// Its `kind` says what the path is: ink along it, or (text, a kind from a newer build) the one
/// point where the stroke sits.
///
/// 72 bytes (the fields in this order leave no padding but at the end), so a group of one piece
/// is a 112-byte block of the heap; a drawing holds one per stroke and more.
public struct Stroke: Hashable, Sendable {
    public var key: StrokeKey
    /// Never empty; one point for text and unknown kinds.
    public private(set) var path: [StrokePoint]
    /// A path, text, or a kind this build does not know.
    public let kind: StrokeKind
    /// Wall-clock creation time in Unix milliseconds (the key's time may be a few ms later).
    public var createdAtMilliseconds: Int64
    public var transform: StrokeTransform
    public var mask: StrokeMask
    public var ink: Ink

    /// A stroke; nil for an empty path.
    public init?(
        key: StrokeKey, ink: Ink, path: [StrokePoint], createdAtMilliseconds: Int64,
        transform: StrokeTransform = .identity, mask: StrokeMask = .none
    ) {
        guard !path.isEmpty else { return nil }
        self.key = key
        self.ink = ink
        self.path = Self.atItsSize(path)
        self.createdAtMilliseconds = createdAtMilliseconds
        self.transform = transform
        self.mask = mask
        kind = .path
    }

    /// A text stroke: `text` in `colour` with its first character in the cell holding `origin`
    /// (the editor puts it on the cell's top-left corner). Its ink is the pen's, of that colour.
    public init(
        key: StrokeKey, text: StrokeText, colour: UInt8, origin: CanvasPoint, createdAtMilliseconds: Int64,
        transform: StrokeTransform = .identity, mask: StrokeMask = .none
    ) {
        self.key = key
        ink = Self.textInk(colour: colour)
        path = [StrokePoint(origin)]
        self.createdAtMilliseconds = createdAtMilliseconds
        self.transform = transform
        self.mask = mask
        kind = .text(text)
    }

    /// A piece of a kind from a newer build, anchored at `anchor`: kept as it came, shown as a
    /// placeholder in default ink.
    public init(key: StrokeKey, unknown: UnknownStrokeKind, anchor: CanvasPoint, createdAtMilliseconds: Int64)
    {
        self.key = key
        ink = Self.textInk(colour: Ink.defaultInkColour)
        path = [StrokePoint(anchor)]
        self.createdAtMilliseconds = createdAtMilliseconds
        transform = .identity
        mask = .none
        kind = .unknown(unknown)
    }

    /// The ink text is stored with: the pen's tool and default width, only the colour varies.
    public static func textInk(colour: UInt8) -> Ink {
        Ink(tool: .pen, colour: colour)
    }

    /// The text, for a text stroke.
    public var text: StrokeText? { kind.text }

    /// The stroke's origin (its path's first point) as drawn, before the transform.
    public var origin: CanvasPoint { path[0].point }

    /// A stroke that starts with one point (the pen going down).
    public init(key: StrokeKey, ink: Ink, start: StrokePoint, createdAtMilliseconds: Int64) {
        self.key = key
        self.ink = ink
        self.path = [start]
        self.createdAtMilliseconds = createdAtMilliseconds
        self.transform = .identity
        self.mask = .none
        kind = .path
    }

    /// Adds a sample as the pen moves (a path only: text and unknown kinds keep their one point).
    public mutating func append(_ point: StrokePoint) {
        guard kind.isPath else { return }
        path.append(point)
    }

    /// This stroke with its path in an array of its size: a path grown a point at a time (the
    /// pen's, as it moves) keeps the room its array doubled into, up to twice what its points
    /// take, for as long as the drawing holds it. The pen's stroke is made so when the pen comes
    /// up, and so is a stroke made from a path.
    public func holdingPathAtItsSize() -> Stroke {
        var stroke = self
        stroke.path = Self.atItsSize(path)
        return stroke
    }

    /// `path` in an array of its size, when the one it is in has room for more than two points
    /// more (a decoded path, made at its size, is not copied: the allocator rounds its block up
    /// by a point, rarely more).
    private static func atItsSize(_ path: [StrokePoint]) -> [StrokePoint] {
        guard path.capacity > path.count + 2 else { return path }
        return path.withUnsafeBufferPointer { Array($0) }
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
