import ByteCoding

/// Why bytes from a peer or the database could not be decoded. The decoder never trusts a count
/// or a length it has not checked against the bytes that are actually there.
public enum BinaryDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(offset: Int)
    case invalid(what: String, offset: Int)
    case nestedTooDeep(offset: Int, limit: Int)
    case trailingBytes(offset: Int)
    case wrongFormat(expected: String)

    public var description: String {
        switch self {
        case .truncated(let offset): return "the data ends early (at byte \(offset))"
        case .invalid(let what, let offset): return "invalid \(what) at byte \(offset)"
        case .nestedTooDeep(let offset, let limit):
            return "values nested deeper than \(limit) levels at byte \(offset)"
        case .trailingBytes(let offset):
            return "unexpected bytes after the end of the data (from byte \(offset))"
        case .wrongFormat(let expected): return "this is not \(expected)"
        }
    }
}

extension BinaryDecodingError: ByteCodingFailure {
    /// The case for a failed read, worded as the replica's decoder always worded it.
    public init(_ error: ByteCodingError) {
        switch error {
        case .truncated(_, let offset, _, _):
            self = .truncated(offset: offset)
        case .overlongVarint(_, let offset), .varintOverflow(_, let offset):
            self = .invalid(what: "varint", offset: offset)
        case .countOverLimit(_, let offset, let count, _),
            .countExceedsRemaining(_, let offset, let count, _, _):
            self = .invalid(what: "count \(count)", offset: offset)
        case .invalidUTF8(_, let offset):
            self = .invalid(what: "UTF-8 string", offset: offset)
        }
    }
}
