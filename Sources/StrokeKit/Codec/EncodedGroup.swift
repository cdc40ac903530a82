/// A stroke group as it is stored in a drawing: the bytes of the stroke as drawn (the entry
/// under `strokes.<key>`, a string that is their base64 text, held as the bytes) and the base64
/// value of each sweep (the entries under `sweeps.<key>.<sweep key>`). This is the one way
/// between a group and its stored form: encoding is deterministic, so the fingerprint is the
/// fingerprint of the encoded bytes and one encoding serves both.
///
/// Its parts lie in the value itself (64 bytes), not in a box of their own: the model keeps one
/// per stroke in a dense table, and a box was one more block of the heap per stroke (96 bytes
/// with malloc's header, 9.6 MB at 100,000 strokes, for 8 bytes of table). A copy retains its
/// parts, which only a flush's changes and an undo's record make, a few at a time.
/// The fingerprint is not kept: it is the digest of the stored bytes, and the bytes say the same
/// thing.
public struct EncodedGroup: Equatable, Sendable {
    public let group: StrokeGroup
    /// The stored value of the stroke as drawn: the codec's bytes, which the replica holds as
    /// they are (a string value that is their base64 text, `DocumentValue.base64`).
    public let storedBytes: [UInt8]
    /// Per sweep, its stored value.
    public let sweepValues: [SweepKey: String]

    /// The stored value as its base64 text, made on each call (for tests and tools; the app
    /// passes `storedBytes`).
    public var value: String { Base64.encode(storedBytes) }
    /// The fingerprint of the stroke as drawn (of `storedBytes`), worked out when asked for.
    public var fingerprint: StrokeFingerprint { StrokeFingerprint(of: storedBytes) }

    public var key: StrokeKey { group.key }

    /// Forms are equal when their groups and stored values are (the fingerprint follows from
    /// the value); a form compared with a copy of itself is equal at once, its arrays being the
    /// same storage.
    public static func == (lhs: EncodedGroup, rhs: EncodedGroup) -> Bool {
        lhs.storedBytes == rhs.storedBytes && lhs.sweepValues == rhs.sweepValues && lhs.group == rhs.group
    }

    /// Encodes a group: its map values.
    public init(_ group: StrokeGroup) {
        self.init(group, reusing: nil)
    }

    /// Encodes a group, reusing from `known` (an earlier form of the same key) the base's value
    /// when the base is the same and each sweep's value when that sweep is: an erase encodes its
    /// own sweep, never the stroke again.
    public init(_ group: StrokeGroup, reusing known: EncodedGroup?) {
        let bytes =
            if let known, known.group.base == group.base { known.storedBytes } else {
                StrokeGroupCodec.encode(group)
            }
        var sweepValues: [SweepKey: String] = [:]
        for (sweepKey, mask) in group.sweeps {
            if let known, known.group.sweeps[sweepKey] == mask, let reused = known.sweepValues[sweepKey] {
                sweepValues[sweepKey] = reused
            } else {
                sweepValues[sweepKey] = Base64.encode(StrokeGroupCodec.encodeSweep(mask))
            }
        }
        self.group = group
        storedBytes = bytes
        self.sweepValues = sweepValues
    }

    /// Decodes the value stored under `rawKey` as its base64 text (`init(storedBytes:...)`).
    public init(
        storedValue value: String, under rawKey: String, sweeps: [SweepKey: StrokeMask] = [:],
        sweepValues: [SweepKey: String] = [:], known: EncodedGroup? = nil, parsedKey: StrokeKey? = nil
    ) throws(StoredGroupProblem) {
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(value)
        } catch {
            throw .undecodable(key: rawKey, reason: error.message)
        }
        try self.init(
            storedBytes: bytes, under: rawKey, sweeps: sweeps, sweepValues: sweepValues, known: known,
            parsedKey: parsedKey)
    }

    /// Decodes the value stored under `rawKey` (the bytes its base64 text stands for), checking
    /// that it really belongs there, with the sweeps already decoded for it (and their stored
    /// values). The bytes are kept as stored: no encoding again; when they are the value of
    /// `known`, they are not decoded again either.
    /// `parsedKey`, when given, is `rawKey` parsed already (so a reader of 10,000 entries parses
    /// each key once).
    public init(
        storedBytes bytes: [UInt8], under rawKey: String, sweeps: [SweepKey: StrokeMask] = [:],
        sweepValues: [SweepKey: String] = [:], known: EncodedGroup? = nil, parsedKey: StrokeKey? = nil
    ) throws(StoredGroupProblem) {
        guard let key = parsedKey ?? StrokeKey(rawValue: rawKey) else { throw .malformedKey(rawKey) }
        let base: [Stroke]
        if let known, known.key == key, known.storedBytes == bytes {
            base = known.group.base
        } else {
            let drawn: StrokeGroup
            do {
                drawn = try StrokeGroupCodec.decode(bytes)
            } catch {
                throw .undecodable(key: rawKey, reason: error.message)
            }
            guard drawn.key == key else { throw .keyMismatch(key: rawKey, encodedKey: drawn.key.rawValue) }
            // The decoded pieces take this key, equal to theirs: the group, its pieces and the
            // model's maps then share one key's text, and the decoder's copy goes (kept, it is
            // one more block per stroke, 8 MB at 100,000).
            base = StrokeGroup.keyed(drawn.base, key)
        }
        guard let group = StrokeGroup(key: key, base: base, sweeps: sweeps) else {
            throw .undecodable(key: rawKey, reason: "it has no pieces")
        }
        // Most strokes have no sweeps: `filter` of an empty dictionary still costs a new one.
        self.group = group
        storedBytes = bytes
        self.sweepValues =
            sweepValues.isEmpty ? sweepValues : sweepValues.filter { group.sweeps[$0.key] != nil }
    }

    /// Decodes the value stored for one sweep of the group under `rawKey`.
    public static func sweep(storedValue value: String, under rawKey: String, sweepKey rawSweepKey: String)
        throws(StoredGroupProblem) -> (key: SweepKey, mask: StrokeMask)
    {
        guard let sweepKey = SweepKey(rawValue: rawSweepKey) else {
            throw .malformedSweepKey(key: rawKey, sweepKey: rawSweepKey)
        }
        do {
            let mask = try StrokeGroupCodec.decodeSweep(Base64.decode(value))
            return (sweepKey, mask)
        } catch {
            throw .undecodableSweep(key: rawKey, sweepKey: rawSweepKey, reason: error.message)
        }
    }
}
