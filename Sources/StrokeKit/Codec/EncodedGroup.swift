/// A stroke group as it is stored in a drawing: the base64 value of the stroke as drawn (the entry
/// under `strokes.<key>`) and the base64 value of each sweep (the entries
/// under `sweeps.<key>.<sweep key>`). This is the one way between a group and its stored form:
/// encoding is deterministic, so the fingerprint is the fingerprint of the encoded bytes and one
/// encoding serves both.
///
/// It is one reference to a shared, immutable box: a drawing's model keeps one per stroke in a
/// map that has room for a third more keys than it holds, so a map of 100,000 of them is 262,144
/// buckets of a key and a reference (32 bytes) rather than of a key and the whole form (112).
/// The fingerprint is not kept: it is the digest of the value's bytes, and the value says the
/// same thing (two values are equal exactly when their bytes are).
public struct EncodedGroup: Equatable, Sendable {
    private final class Storage: Sendable {
        let group: StrokeGroup
        let value: String
        let sweepValues: [SweepKey: String]

        init(group: StrokeGroup, value: String, sweepValues: [SweepKey: String]) {
            self.group = group
            self.value = value
            self.sweepValues = sweepValues
        }
    }

    private let storage: Storage

    public var group: StrokeGroup { storage.group }
    /// The stored value of the stroke as drawn.
    public var value: String { storage.value }
    /// Per sweep, its stored value.
    public var sweepValues: [SweepKey: String] { storage.sweepValues }
    /// The fingerprint of the stroke as drawn (the bytes of `value`), worked out when asked for.
    public var fingerprint: StrokeFingerprint {
        // The value is always canonical base64: it was encoded here or decoded when it was read.
        StrokeFingerprint(of: (try? Base64.decode(value)) ?? [])
    }

    public var key: StrokeKey { group.key }

    /// Forms are equal when their groups and stored values are (the fingerprint follows from
    /// the value); a form compared with itself or a copy of itself is equal at once.
    public static func == (lhs: EncodedGroup, rhs: EncodedGroup) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.value == rhs.value && lhs.sweepValues == rhs.sweepValues && lhs.group == rhs.group)
    }

    /// Encodes a group: its map values.
    public init(_ group: StrokeGroup) {
        self.init(group, reusing: nil)
    }

    /// Encodes a group, reusing from `known` (an earlier form of the same key) the base's value
    /// when the base is the same and each sweep's value when that sweep is: an erase encodes its
    /// own sweep, never the stroke again.
    public init(_ group: StrokeGroup, reusing known: EncodedGroup?) {
        let value: String
        if let known, known.group.base == group.base {
            value = known.value
        } else {
            value = Base64.encode(StrokeGroupCodec.encode(group))
        }
        var sweepValues: [SweepKey: String] = [:]
        for (sweepKey, mask) in group.sweeps {
            if let known, known.group.sweeps[sweepKey] == mask, let reused = known.sweepValues[sweepKey] {
                sweepValues[sweepKey] = reused
            } else {
                sweepValues[sweepKey] = Base64.encode(StrokeGroupCodec.encodeSweep(mask))
            }
        }
        storage = Storage(group: group, value: value, sweepValues: sweepValues)
    }

    /// Decodes the value stored under `rawKey`, checking that it really belongs there, with the
    /// sweeps already decoded for it (and their stored values). The value is kept as stored: no
    /// re-encoding; when it is the value of `known`, it is
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
        } else {
            let drawn: StrokeGroup
            do {
                drawn = try StrokeGroupCodec.decode(Base64.decode(value))
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
        storage = Storage(
            group: group, value: value,
            sweepValues: sweepValues.isEmpty
                ? sweepValues : sweepValues.filter { group.sweeps[$0.key] != nil })
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
