/// Every stroke piece that shares one creation key: the unit that is stored under that key,
/// encoded, fingerprinted and replaced as a whole.
public struct StrokeGroup: Hashable, Sendable {
    public let key: StrokeKey
    /// Never empty; all pieces carry `key`. Order is drawing order within the group.
    public let pieces: [Stroke]

    /// A group; nil when there are no pieces (a group with nothing left is removed, not stored).
    /// Pieces take the group's key.
    public init?(key: StrokeKey, pieces: [Stroke]) {
        guard !pieces.isEmpty else { return nil }
        self.key = key
        self.pieces = pieces.map { piece in
            var piece = piece
            piece.key = key
            return piece
        }
    }

    /// Strokes grouped by key, groups sorted by key (z-order), pieces in the order given.
    public static func grouping(_ strokes: [Stroke]) -> [StrokeGroup] {
        var byKey: [StrokeKey: [Stroke]] = [:]
        for stroke in strokes { byKey[stroke.key, default: []].append(stroke) }
        return byKey.keys.sorted().compactMap { key in StrokeGroup(key: key, pieces: byKey[key] ?? []) }
    }

    /// A fingerprint of the whole content (pieces, paths, ink, transforms, masks, order): equal
    /// groups give equal fingerprints, and any change gives a different one.
    public var fingerprint: StrokeFingerprint {
        StrokeFingerprint(of: StrokeGroupCodec.encode(self))
    }
}
