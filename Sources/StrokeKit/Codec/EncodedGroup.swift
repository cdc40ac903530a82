/// A stroke group as it is stored in a drawing: the base64 value of the stroke as drawn (the entry
/// under `strokes.<key>`) with its fingerprint, and the base64 value of each sweep (the entries
/// under `sweeps.<key>.<sweep key>`). This is the one way between a group and its stored form:
/// encoding is deterministic, so the fingerprint is the fingerprint of the encoded bytes and one
/// encoding serves both.
public struct EncodedGroup: Equatable, Sendable {
    public let group: StrokeGroup
    /// The stored value of the stroke as drawn.
    public let value: String
    /// The fingerprint of the stroke as drawn (the bytes of `value`).
    public let fingerprint: StrokeFingerprint
    /// Per sweep, its stored value.
    public let sweepValues: [SweepKey: String]

    public var key: StrokeKey { group.key }

    /// Encodes a group: its map values and its fingerprint.
    public init(_ group: StrokeGroup) {
        self.init(group, reusing: nil)
    }

    /// Encodes a group, reusing from `known` (an earlier form of the same key) the base's value
    /// when the base is the same and each sweep's value when that sweep is: an erase encodes its
    /// own sweep, never the stroke again.
    public init(_ group: StrokeGroup, reusing known: EncodedGroup?) {
        self.group = group
        if let known, known.group.base == group.base {
            value = known.value
            fingerprint = known.fingerprint
        } else {
            let bytes = StrokeGroupCodec.encode(group)
            value = Base64.encode(bytes)
            fingerprint = StrokeFingerprint(of: bytes)
        }
        var sweepValues: [SweepKey: String] = [:]
        for (sweepKey, mask) in group.sweeps {
            if let known, known.group.sweeps[sweepKey] == mask, let reused = known.sweepValues[sweepKey] {
                sweepValues[sweepKey] = reused
            } else {
                sweepValues[sweepKey] = Base64.encode(StrokeGroupCodec.encodeSweep(mask))
            }
        }
        self.sweepValues = sweepValues
    }

    /// Decodes the value stored under `rawKey`, checking that it really belongs there, with the
    /// sweeps already decoded for it (and their stored values). The value is kept as stored and
    /// fingerprinted from its own bytes: no re-encoding; when it is the value of `known`, it is
    /// not decoded again either.
    /// `parsedKey`, when given, is `rawKey` parsed already (so a reader of 10,000 entries parses
    /// each key once).
    public init(
        storedValue value: String, under rawKey: String, sweeps: [SweepKey: StrokeMask] = [:],
        sweepValues: [SweepKey: String] = [:], known: EncodedGroup? = nil, parsedKey: StrokeKey? = nil
    ) throws(StoredGroupProblem) {
        guard let key = parsedKey ?? StrokeKey(rawValue: rawKey) else { throw .malformedKey(rawKey) }
        let base: [Stroke]
        if let known, known.key == key, known.value == value {
            base = known.group.base
            fingerprint = known.fingerprint
        } else {
            let bytes: [UInt8]
            let drawn: StrokeGroup
            do {
                bytes = try Base64.decode(value)
                drawn = try StrokeGroupCodec.decode(bytes)
            } catch {
                throw .undecodable(key: rawKey, reason: error.message)
            }
            guard drawn.key == key else { throw .keyMismatch(key: rawKey, encodedKey: drawn.key.rawValue) }
            base = drawn.base
            fingerprint = StrokeFingerprint(of: bytes)
        }
        guard let group = StrokeGroup(key: key, base: base, sweeps: sweeps) else {
            throw .undecodable(key: rawKey, reason: "it has no pieces")
        }
        self.group = group
        self.value = value
        self.sweepValues = sweepValues.filter { group.sweeps[$0.key] != nil }
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
