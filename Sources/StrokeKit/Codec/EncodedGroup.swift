/// A stroke group as it is stored in a drawing's `strokes` map: its base64 value and the
/// fingerprint of its content. This is the one way between a group and its stored form: encoding
/// is deterministic, so the fingerprint is the fingerprint of the encoded bytes and one encoding
/// serves both.
public struct EncodedGroup: Equatable, Sendable {
    public let group: StrokeGroup
    public let value: String
    public let fingerprint: StrokeFingerprint

    public var key: StrokeKey { group.key }

    /// Encodes a group: its map value and its fingerprint.
    public init(_ group: StrokeGroup) {
        let bytes = StrokeGroupCodec.encode(group)
        self.group = group
        value = Base64.encode(bytes)
        fingerprint = StrokeFingerprint(of: bytes)
    }

    /// Decodes the value stored under `rawKey`, checking that it really belongs there. The value
    /// is kept as stored and fingerprinted from its own bytes: no re-encoding.
    public init(storedValue value: String, under rawKey: String) throws(StoredGroupProblem) {
        guard let key = StrokeKey(rawValue: rawKey) else { throw .malformedKey(rawKey) }
        let bytes: [UInt8]
        let group: StrokeGroup
        do {
            bytes = try Base64.decode(value)
            group = try StrokeGroupCodec.decode(bytes)
        } catch {
            throw .undecodable(key: rawKey, reason: error.message)
        }
        guard group.key == key else { throw .keyMismatch(key: rawKey, encodedKey: group.key.rawValue) }
        self.group = group
        self.value = value
        fingerprint = StrokeFingerprint(of: bytes)
    }
}
