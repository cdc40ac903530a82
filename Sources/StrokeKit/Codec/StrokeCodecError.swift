import ByteCoding

/// Why bytes (or base64 text) are not a stroke group. Every hostile input ends here, never in a
/// crash; each case says where decoding stopped.
public enum StrokeCodecError: Error, Equatable, Sendable {
    /// A character that is not base64, or padding in the wrong place, at a character offset.
    case invalidBase64(position: Int)
    /// The bytes end inside a field.
    case truncated(field: String, offset: Int)
    /// The first byte names an encoding this build does not know.
    case unsupportedVersion(UInt8)
    /// A variable-length integer that is longer than 64 bits or not in its shortest form.
    case malformedVarint(field: String, offset: Int)
    /// The key is not a valid creation key.
    case invalidKey(offset: Int)
    /// A count that the remaining bytes cannot possibly hold.
    case countTooLarge(field: String, count: UInt64, remainingBytes: Int)
    /// A list that must not be empty (pieces, path points, sweeps, sweep points).
    case emptyList(field: String)
    /// A tool number this build does not know.
    case unknownTool(UInt8, piece: Int)
    /// Flag bits that no version-1 encoder sets.
    case reservedFlags(UInt8, piece: Int)
    /// The transform flag with a zero offset: an encoder leaves the flag off then, so accepting it
    /// would give one group two encodings.
    case zeroTransform(piece: Int)
    /// A value outside what the model allows (coordinates, widths, radii, time offsets).
    case valueOutOfRange(field: String, value: Int64)
    /// Bytes left over after a complete group.
    case trailingBytes(count: Int)
    /// A version-2 piece whose body is not as long as its length says.
    case pieceLength(piece: Int, declared: Int, used: Int)
    /// A version-2 path piece whose anchor is not its first point.
    case anchorMismatch(piece: Int)
    /// A version-2 group of paths alone: an encoder writes those as version 1.
    case pathsInKindsVersion
    /// Text that is not UTF-8, holds what a cell cannot show, or ends in an empty line.
    case invalidText(piece: Int, offset: Int)

    /// What went wrong, for a person reading a log.
    public var message: String {
        switch self {
        case .invalidBase64(let position):
            "not valid base64 at character \(position)"
        case .truncated(let field, let offset):
            "the data ends at byte \(offset), inside \(field)"
        case .unsupportedVersion(let version):
            "stroke encoding version \(version) is not supported by this build (it reads versions "
                + "\(StrokeGroupCodec.readableVersions.map(String.init).joined(separator: " and "))); update drawtogether"
        case .malformedVarint(let field, let offset):
            "malformed number for \(field) at byte \(offset)"
        case .invalidKey(let offset):
            "the creation key at byte \(offset) is not a valid key"
        case .countTooLarge(let field, let count, let remaining):
            "\(field) says \(count) but only \(remaining) bytes remain"
        case .emptyList(let field):
            "\(field) is empty"
        case .unknownTool(let tool, let piece):
            "piece \(piece) uses unknown tool \(tool)"
        case .reservedFlags(let flags, let piece):
            "piece \(piece) sets reserved flag bits \(flags)"
        case .zeroTransform(let piece):
            "piece \(piece) sets the transform flag but moves by nothing"
        case .valueOutOfRange(let field, let value):
            "\(field) \(value) is out of range"
        case .trailingBytes(let count):
            "\(count) unexpected bytes after the stroke group"
        case .pieceLength(let piece, let declared, let used):
            "piece \(piece) says it takes \(declared) bytes but takes \(used)"
        case .anchorMismatch(let piece):
            "piece \(piece) is anchored away from its first point"
        case .pathsInKindsVersion:
            "a version 2 group holds only paths (those are written as version 1)"
        case .invalidText(let piece, let offset):
            "piece \(piece) has text at byte \(offset) that a cell cannot show"
        }
    }
}

extension StrokeCodecError: CustomStringConvertible {
    public var description: String { "stroke group cannot be decoded: \(message)" }
}

extension StrokeCodecError: ByteCodingFailure {
    /// The codec's case for a failed read. The key is the codec's only text and its only length
    /// with a limit, so a length over a limit and invalid UTF-8 would both mean an invalid key.
    public init(_ error: ByteCodingError) {
        switch error {
        case .truncated(let field, let offset, _, _):
            self = .truncated(field: field, offset: offset)
        case .overlongVarint(let field, let offset), .varintOverflow(let field, let offset):
            self = .malformedVarint(field: field, offset: offset)
        case .countOverLimit(_, let offset, _, _), .invalidUTF8(_, let offset):
            self = .invalidKey(offset: offset)
        case .countExceedsRemaining(let field, _, let count, _, let remaining):
            self = .countTooLarge(field: field, count: count, remainingBytes: remaining)
        }
    }
}
