/// A stroke group as it is stored in a drawing: the bytes of the stroke as drawn (the entry
/// under `strokes.<key>`, a string that is their base64 text, held as the bytes) and the base64
/// value of each sweep (the entries under `sweeps.<key>.<sweep key>`). This is the one way
/// between a group and its stored form: encoding is deterministic, so the fingerprint is the
/// fingerprint of the encoded bytes and one encoding serves both.
///
/// It is one reference to a shared, immutable box, so a copy (the model's table, a flush's
/// changes, an undo's record) is one retain rather than one for each of its six references.
/// The fingerprint is not kept: it is the digest of the stored bytes, and the bytes say the same
/// thing.
public struct EncodedGroup: Equatable, Sendable {
    private final class Storage: Sendable {
        let group: StrokeGroup
        let bytes: [UInt8]
        let sweepValues: [SweepKey: String]

        init(group: StrokeGroup, bytes: [UInt8], sweepValues: [SweepKey: String]) {
            self.group = group
            self.bytes = bytes
            self.sweepValues = sweepValues
        }
    }

    private let storage: Storage

    public var group: StrokeGroup { storage.group }
    /// The stored value of the stroke as drawn: the codec's bytes, which the replica holds as
    /// they are (a string value that is their base64 text, `DocumentValue.base64`).
    public var storedBytes: [UInt8] { storage.bytes }
    /// The stored value as its base64 text, made on each call (for tests and tools; the app
    /// passes `storedBytes`).
    public var value: String { Base64.encode(storage.bytes) }
    /// Per sweep, its stored value.
    public var sweepValues: [SweepKey: String] { storage.sweepValues }
    /// The fingerprint of the stroke as drawn (of `storedBytes`), worked out when asked for.
    public var fingerprint: StrokeFingerprint { StrokeFingerprint(of: storage.bytes) }

    public var key: StrokeKey { group.key }

    /// Forms are equal when their groups and stored values are (the fingerprint follows from
    /// the value); a form compared with itself or a copy of itself is equal at once.
    public static func == (lhs: EncodedGroup, rhs: EncodedGroup) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.storedBytes == rhs.storedBytes && lhs.sweepValues == rhs.sweepValues
                && lhs.group == rhs.group)
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
        storage = Storage(group: group, bytes: bytes, sweepValues: sweepValues)
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
        storage = Storage(
            group: group, bytes: bytes,
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
