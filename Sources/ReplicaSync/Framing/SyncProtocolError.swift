import ByteCoding

/// Everything that can be wrong with bytes a peer sent: each case carries what was found and what
/// was allowed, so the close reason shown to both users explains itself.
public enum SyncProtocolError: Error, Equatable, Sendable {
    /// A frame announced more bytes than the configured limit; refused before any allocation.
    case frameTooLarge(announced: UInt64, limit: Int)
    /// A frame announced fewer bytes than its own header needs.
    case frameTooShort(announced: UInt32)
    /// The connection ended in the middle of a frame.
    case truncatedFrame(received: Int, expected: Int)
    /// A field ran past the end of its frame.
    case truncatedField(field: String, needed: Int, available: Int)
    /// A length or count field exceeded what the protocol allows for it.
    case fieldTooLarge(field: String, size: Int, limit: Int)
    /// A text field was not valid UTF-8.
    case invalidText(field: String)
    /// A field held a value the protocol does not define.
    case invalidValue(field: String, value: UInt64)
    /// The frame's message type is not one this version knows.
    case unknownMessageType(UInt8)
    /// A message decoded completely but bytes were left over.
    case trailingBytes(messageType: String, count: Int)
    /// An encrypted frame failed authentication: tampered, reordered or not from the peer.
    case decryptionFailed
    /// A frame arrived in the clear after encryption had started.
    case unencryptedFrame(messageType: String)
    /// A message this side would send is over the frame limit.
    case outgoingFrameTooLarge(size: Int, limit: Int)

    /// A sentence for a person: what happened.
    public var message: String {
        switch self {
        case .frameTooLarge(let announced, let limit):
            return "a frame announced \(announced) bytes, more than the limit of \(limit) bytes"
        case .frameTooShort(let announced):
            return "a frame announced \(announced) bytes, too short for a frame header"
        case .truncatedFrame(let received, let expected):
            return "the connection ended inside a frame (\(received) of \(expected) bytes received)"
        case .truncatedField(let field, let needed, let available):
            return "the field \(field) needs \(needed) bytes but only \(available) remain in the frame"
        case .fieldTooLarge(let field, let size, let limit):
            return "the field \(field) is \(size) long, more than the allowed \(limit)"
        case .invalidText(let field):
            return "the field \(field) is not valid UTF-8 text"
        case .invalidValue(let field, let value):
            return "the field \(field) holds the undefined value \(value)"
        case .unknownMessageType(let type):
            return "unknown message type \(type)"
        case .trailingBytes(let messageType, let count):
            return "a \(messageType) message has \(count) unexpected bytes at its end"
        case .decryptionFailed:
            return "an encrypted frame failed authentication"
        case .unencryptedFrame(let messageType):
            return "a \(messageType) message arrived unencrypted on an encrypted connection"
        case .outgoingFrameTooLarge(let size, let limit):
            return "a message of \(size) bytes is over the frame limit of \(limit) bytes"
        }
    }
}

extension SyncProtocolError: ByteCodingFailure {
    /// The case for a failed read of a frame payload.
    public init(_ error: ByteCodingError) {
        switch error {
        case .truncated(let field, _, let needed, let available):
            self = .truncatedField(field: field, needed: needed, available: available)
        case .countOverLimit(let field, _, let count, let limit):
            self = .fieldTooLarge(field: field, size: Int(clamping: count), limit: limit)
        case .countExceedsRemaining(let field, _, let count, let minimumBytes, let remaining):
            let needed = Int(clamping: count).multipliedReportingOverflow(by: minimumBytes)
            self = .truncatedField(
                field: field, needed: needed.overflow ? .max : needed.partialValue, available: remaining)
        case .invalidUTF8(let field, _):
            self = .invalidText(field: field)
        case .overlongVarint(let field, _), .varintOverflow(let field, _):
            // No sync message holds a varint; should one ever, a malformed one is an undefined value.
            self = .invalidValue(field: field, value: 0)
        }
    }
}
