/// Why a value in the `strokes` or `sweeps` map could not be turned back into a stroke group or
/// one of its sweeps.
public enum StoredGroupProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The map key is not a stroke key (`2026-03-25T16:20:14.127Z~3fa2c1`).
    case malformedKey(String)
    /// The value is not a string.
    case notAString(key: String)
    /// The value does not decode.
    case undecodable(key: String, reason: String)
    /// The value decodes to a group under another key.
    case keyMismatch(key: String, encodedKey: String)
    /// A sweep's key is not a sweep key.
    case malformedSweepKey(key: String, sweepKey: String)
    /// The sweeps of a stroke are not a map of strings, or a sweep is not a string.
    case sweepNotAString(key: String, sweepKey: String?)
    /// A sweep's value does not decode.
    case undecodableSweep(key: String, sweepKey: String, reason: String)

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
        case .malformedSweepKey(let key, let sweepKey):
            return
                "ignored an erasure of stroke \(key.prefix(40)): '\(sweepKey.prefix(40))' is not a sweep key"
        case .sweepNotAString(let key, let sweepKey?):
            return
                "ignored erasure \(sweepKey.prefix(40)) of stroke \(key.prefix(40)): its value is not an encoded sweep"
        case .sweepNotAString(let key, nil):
            return "ignored the erasures of stroke \(key.prefix(40)): they are not a map of encoded sweeps"
        case .undecodableSweep(let key, let sweepKey, let reason):
            return "ignored erasure \(sweepKey) of stroke \(key): \(reason)"
        }
    }
}
