/// Why bytes could not be read. Every case names the field being read and the byte offset where
/// reading it failed, so each codec can turn it into its own error without losing either.
public enum ByteCodingError: Error, Equatable, Sendable {
    /// The bytes end inside a field: `needed` more were wanted at `offset`, `available` were left.
    case truncated(field: String, offset: Int, needed: Int, available: Int)
    /// A varint with a zero final byte after others: one value, one encoding, so this is refused.
    /// `offset` is where the varint starts.
    case overlongVarint(field: String, offset: Int)
    /// A varint with more than 64 bits of payload; `offset` is where it starts.
    case varintOverflow(field: String, offset: Int)
    /// A count or length above the limit the codec allows; `offset` is where its prefix starts.
    case countOverLimit(field: String, offset: Int, count: UInt64, limit: Int)
    /// A count of items, each at least `minimumBytes` long (1 for a length in bytes), that the
    /// `remaining` bytes after the prefix cannot hold; `offset` is where the prefix starts.
    case countExceedsRemaining(field: String, offset: Int, count: UInt64, minimumBytes: Int, remaining: Int)
    /// A length-prefixed string that is not valid UTF-8; `offset` is where its prefix starts.
    case invalidUTF8(field: String, offset: Int)

    /// What was being read.
    public var field: String {
        switch self {
        case .truncated(let field, _, _, _), .overlongVarint(let field, _), .varintOverflow(let field, _),
            .countOverLimit(let field, _, _, _), .countExceedsRemaining(let field, _, _, _, _),
            .invalidUTF8(let field, _):
            field
        }
    }

    /// The byte offset the case describes.
    public var offset: Int {
        switch self {
        case .truncated(_, let offset, _, _), .overlongVarint(_, let offset), .varintOverflow(_, let offset),
            .countOverLimit(_, let offset, _, _), .countExceedsRemaining(_, let offset, _, _, _),
            .invalidUTF8(_, let offset):
            offset
        }
    }
}

extension ByteCodingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated(let field, let offset, let needed, let available):
            "\(field) needs \(needed) bytes at byte \(offset) but only \(available) remain"
        case .overlongVarint(let field, let offset):
            "\(field) at byte \(offset) is a number not written in its shortest form"
        case .varintOverflow(let field, let offset):
            "\(field) at byte \(offset) is a number longer than 64 bits"
        case .countOverLimit(let field, let offset, let count, let limit):
            "\(field) at byte \(offset) says \(count), more than the limit of \(limit)"
        case .countExceedsRemaining(let field, let offset, let count, let minimumBytes, let remaining):
            "\(field) at byte \(offset) says \(count) of at least \(minimumBytes) bytes each but only "
                + "\(remaining) bytes remain"
        case .invalidUTF8(let field, let offset):
            "\(field) at byte \(offset) is not valid UTF-8"
        }
    }
}

/// A codec's own error type, which a `ByteReader` throws directly: the reader builds the
/// `ByteCodingError` and the codec says, once, which of its cases that is.
public protocol ByteCodingFailure: Error {
    init(_ error: ByteCodingError)
}

extension ByteCodingError: ByteCodingFailure {
    /// The error itself, for readers that want the plain `ByteCodingError` (tests, tools).
    public init(_ error: ByteCodingError) {
        self = error
    }
}
