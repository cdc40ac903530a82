import StrokeKit

/// A stroke group as it is stored in a drawing's `strokes` map: its base64 value and the
/// fingerprint of its content.
public struct EncodedGroup: Equatable, Sendable {
    public let group: StrokeGroup
    public let value: String
    public let fingerprint: StrokeFingerprint

    public var key: StrokeKey { group.key }
}

/// Why a value in the `strokes` map could not be turned back into a stroke group.
public enum StoredGroupProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The map key is not a stroke key (`2026-03-25T16:20:14.127Z~3fa2c1`).
    case malformedKey(String)
    /// The value is not a string.
    case notAString(key: String)
    /// The value does not decode.
    case undecodable(key: String, reason: String)
    /// The value decodes to a group under another key.
    case keyMismatch(key: String, encodedKey: String)

    public var description: String {
        switch self {
        case .malformedKey(let key):
            return "ignored stroke entry '\(key.prefix(40))': not a stroke key"
        case .notAString(let key):
            return "ignored stroke \(key): its value is not an encoded stroke group"
        case .undecodable(let key, let reason):
            return "ignored stroke \(key): \(reason)"
        case .keyMismatch(let key, let encodedKey):
            return "ignored stroke \(key): its value belongs to \(encodedKey)"
        }
    }
}

/// Turns stroke groups into map values and back. Encoding is deterministic, so the fingerprint
/// is the fingerprint of the encoded bytes and one encoding serves both.
public enum StrokeModel {
    /// Encodes a group: its map value and its fingerprint.
    public static func encode(_ group: StrokeGroup) -> EncodedGroup {
        let bytes = StrokeGroupCodec.encode(group)
        return EncodedGroup(
            group: group, value: Base64.encode(bytes), fingerprint: StrokeFingerprint(of: bytes))
    }

    /// Decodes the value stored under `key`, checking that it really belongs there.
    public static func decode(key rawKey: String, value: String) throws(StoredGroupProblem) -> EncodedGroup {
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
        // The value is kept as stored and fingerprinted from its own bytes: no re-encoding.
        return EncodedGroup(group: group, value: value, fingerprint: StrokeFingerprint(of: bytes))
    }
}
