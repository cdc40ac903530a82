/// A sweep's key: like a stroke's, its creation time, `~` and the short id of the peer that made
/// it, from the same clock, so one peer never makes two sweeps (or a sweep and a stroke) with one
/// key and keys sort in creation order.
public typealias SweepKey = StrokeKey

/// Every stroke piece that shares one creation key: the stroke as drawn (`base`), the mask sweeps
/// erased from it (`sweeps`), and what shows of it (`pieces`, derived from the two).
///
/// The base is stored once under the key; each sweep is stored as an entry of its own, so sweeps
/// made concurrently by several peers all apply. Pieces are the base with every sweep applied, in
/// sweep-key order, so every peer holding the same base and sweeps shows the same pieces.
public struct StrokeGroup: Hashable, Sendable {
    public let key: StrokeKey
    /// The stroke as drawn: never empty; all pieces carry `key`. A group stored before sweeps
    /// existed has the pieces the eraser of that time cut and masked.
    public let base: [Stroke]
    /// The mask sweeps erased from the stroke, each one erase gesture's passes near it, in the
    /// stroke's own coordinates.
    public let sweeps: [SweepKey: StrokeMask]
    /// What shows: the base with the sweeps applied, in drawing order; empty when the sweeps
    /// hide all of it (the group is then shown as gone, but kept, since undoing a sweep brings
    /// it back).
    public let pieces: [Stroke]

    /// A group as drawn, with no sweeps; nil when there are no pieces. Pieces take the group's key.
    public init?(key: StrokeKey, pieces: [Stroke]) {
        self.init(key: key, base: pieces, sweeps: [:])
    }

    /// A group of a base and sweeps; nil when the base has no pieces. Empty masks are dropped.
    public init?(key: StrokeKey, base: [Stroke], sweeps: [SweepKey: StrokeMask]) {
        guard !base.isEmpty else { return nil }
        self.key = key
        // Decoded pieces carry their key already: the array given is kept then (not copied), and
        // with no sweeps `pieces` shares it too.
        self.base = base.allSatisfy({ $0.key == key }) ? base : Self.keyed(base, key)
        self.sweeps = sweeps.isEmpty ? sweeps : sweeps.filter { !$0.value.isEmpty }
        pieces = Self.visiblePieces(of: self.base, sweeps: self.sweeps)
    }

    /// `pieces`, each given `key` (even one equal to its own, so that they share its storage).
    static func keyed(_ pieces: [Stroke], _ key: StrokeKey) -> [Stroke] {
        pieces.map { piece in
            var piece = piece
            piece.key = key
            return piece
        }
    }

    /// Whether the sweeps hide the whole stroke.
    public var isErasedCompletely: Bool { pieces.isEmpty }

    /// The sweep keys in the order they apply.
    public var sweepKeys: [SweepKey] { sweeps.keys.sorted() }

    /// The group with `mask` stored under `sweepKey` (nil removes that sweep).
    public func settingSweep(_ mask: StrokeMask?, for sweepKey: SweepKey) -> StrokeGroup {
        var sweeps = self.sweeps
        sweeps[sweepKey] = mask
        guard let group = StrokeGroup(key: key, base: base, sweeps: sweeps) else {
            preconditionFailure("a group's base is never empty")
        }
        return group
    }

    /// The group with `passes` added at the end of the sweep under `sweepKey` (a sweep that goes
    /// on as the eraser moves). When that sweep applies last, only the new passes are applied to
    /// the pieces shown now, which is what applying every sweep again would give.
    public func addingPasses(_ passes: [MaskSweep], toSweep sweepKey: SweepKey) -> StrokeGroup {
        let mask = (sweeps[sweepKey] ?? .none).adding(passes)
        guard !passes.isEmpty, sweeps.keys.allSatisfy({ $0 <= sweepKey }) else {
            return settingSweep(mask, for: sweepKey)
        }
        var sweeps = self.sweeps
        sweeps[sweepKey] = mask
        var pieces = self.pieces
        for pass in passes {
            pieces = pieces.flatMap { MaskEraser.apply(pass, to: $0) }
        }
        return StrokeGroup(key: key, base: base, sweeps: sweeps, pieces: pieces)
    }

    /// A group whose pieces were already derived from base and sweeps.
    private init(key: StrokeKey, base: [Stroke], sweeps: [SweepKey: StrokeMask], pieces: [Stroke]) {
        self.key = key
        self.base = base
        self.sweeps = sweeps
        self.pieces = pieces
    }

    /// Two groups are equal when key, base and sweeps are; the pieces follow from them.
    public static func == (lhs: StrokeGroup, rhs: StrokeGroup) -> Bool {
        lhs.key == rhs.key && lhs.base == rhs.base && lhs.sweeps == rhs.sweeps
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(base)
        hasher.combine(sweeps)
    }

    /// Strokes grouped by key, groups sorted by key (z-order), pieces in the order given.
    public static func grouping(_ strokes: [Stroke]) -> [StrokeGroup] {
        var byKey: [StrokeKey: [Stroke]] = [:]
        for stroke in strokes { byKey[stroke.key, default: []].append(stroke) }
        return byKey.keys.sorted().compactMap { key in StrokeGroup(key: key, pieces: byKey[key] ?? []) }
    }

    /// A fingerprint of the whole content (base pieces, paths, ink, transforms, masks, order, and
    /// every sweep with its key): equal groups give equal fingerprints, and any change gives a
    /// different one. A group without sweeps has the fingerprint of its encoding.
    public var fingerprint: StrokeFingerprint {
        var bytes = StrokeGroupCodec.encode(self)
        for sweepKey in sweepKeys {
            bytes.append(contentsOf: sweepKey.rawValue.utf8)
            bytes.append(contentsOf: StrokeGroupCodec.encodeSweep(sweeps[sweepKey] ?? .none))
        }
        return StrokeFingerprint(of: bytes)
    }

    /// The base with each sweep applied in key order, and within a sweep its passes in order.
    private static func visiblePieces(of base: [Stroke], sweeps: [SweepKey: StrokeMask]) -> [Stroke] {
        guard !sweeps.isEmpty else { return base }
        var pieces = base
        for sweepKey in sweeps.keys.sorted() {
            for pass in sweeps[sweepKey]?.sweeps ?? [] {
                pieces = pieces.flatMap { MaskEraser.apply(pass, to: $0) }
            }
        }
        return pieces
    }
}
