/// Why a session ended: `message` says what happened (the program adds what to do about it, since
/// the flags are its own), `shortMessage` a few words for the status bar.
public enum SyncCloseReason: Error, Equatable, Sendable {
    case protocolVersionMismatch(local: UInt8, remote: UInt8)
    case databaseMismatch(local: String, remote: String)
    /// The other side could not prove it holds the same token (or sent a bad key).
    case authenticationFailed
    /// The other side sent bytes that break the protocol.
    case protocolViolation(SyncProtocolError)
    /// A well-formed message arrived where the protocol does not allow it.
    case unexpectedMessage(String, phase: String)
    case timedOut(phase: String)
    case replicaFailed(String)
    /// The other side said goodbye, with its code and its own explanation.
    case remoteClosed(GoodbyeCode, String)
    /// The connection ended without a goodbye.
    case transportClosed
    case localShutdown
    /// This node turned a connection away before its handshake: its address failed too many
    /// handshakes lately and must wait this much longer.
    case throttled(retryAfter: Duration)
    /// This node turned a connection away before its handshake: `limit` others are in theirs.
    case tooManyHandshakes(limit: Int)

    public var message: String {
        switch self {
        case .protocolVersionMismatch(let local, let remote):
            return "protocol versions differ (this peer speaks \(local), the other \(remote)); "
                + "upgrade the older one so both run the same release"
        case .databaseMismatch(let local, let remote):
            return "database ids differ (this peer has '\(local)', the other '\(remote)')"
        case .authenticationFailed:
            return "authentication failed: the peers do not share the same token"
        case .protocolViolation(let error):
            return "protocol error: \(error.message)"
        case .unexpectedMessage(let message, let phase):
            return "protocol error: unexpected \(message) message during \(phase)"
        case .timedOut(let phase):
            return "the peer went quiet during \(phase)"
        case .replicaFailed(let description):
            return "the local replica failed: \(description)"
        case .remoteClosed(let code, let text):
            switch code {
            // The text of a departure is the peer's own wording ("shutting down"); it adds nothing.
            case .shuttingDown: return "the peer quit"
            case .normal:
                return text.isEmpty
                    ? "the peer closed the connection" : "the peer closed the connection (\(text))"
            case .timedOut: return "the peer stopped waiting for this one (\(text))"
            default: return "the peer refused: \(text)"
            }
        case .transportClosed:
            return "the connection was lost"
        case .localShutdown:
            return "shutting down"
        case .throttled(let retryAfter):
            let seconds = max(1, (retryAfter.wholeMilliseconds + 999) / 1000)
            return "too many failed handshakes from this address; try again in \(seconds) s"
        case .tooManyHandshakes(let limit):
            return "too many connections are in their handshake (the limit is \(limit)); try again later"
        }
    }

    /// A few words for the status bar, where the full `message` does not fit; the full text goes
    /// to the message line.
    public var shortMessage: String {
        switch self {
        case .protocolVersionMismatch: "other version"
        case .databaseMismatch: "other database"
        case .authenticationFailed: "wrong token"
        case .protocolViolation, .unexpectedMessage: "protocol error"
        case .timedOut: "peer went quiet"
        case .replicaFailed: "replica failed"
        case .remoteClosed(let code, _):
            switch code {
            case .normal, .shuttingDown: "peer left"
            case .protocolVersionMismatch: "other version"
            case .databaseMismatch: "other database"
            case .authenticationFailed: "wrong token"
            case .protocolViolation: "protocol error"
            case .timedOut: "peer timed out"
            case .replicaFailed: "peer's replica failed"
            case .throttled: "throttled"
            }
        case .transportClosed: "connection lost"
        case .localShutdown: "shut down"
        case .throttled: "throttled"
        case .tooManyHandshakes: "busy"
        }
    }

    /// Whether the peers cannot sync as configured (wrong token, other database, other protocol
    /// version, a broken peer or replica), as opposed to a peer merely going away: quitting (with
    /// or without a goodbye), going quiet, or giving up on a quiet peer. Only a refusal is worth
    /// an error in the status bar; a departure leaves the peer "offline".
    public var isRefusal: Bool {
        switch self {
        case .protocolVersionMismatch, .databaseMismatch, .authenticationFailed, .protocolViolation,
            .unexpectedMessage, .replicaFailed, .throttled, .tooManyHandshakes:
            true
        case .remoteClosed(let code, _):
            code != .normal && code != .shuttingDown && code != .timedOut
        case .timedOut, .transportClosed, .localShutdown:
            false
        }
    }

    /// The code sent in the goodbye that tells the other side.
    var goodbyeCode: GoodbyeCode {
        switch self {
        case .protocolVersionMismatch: .protocolVersionMismatch
        case .databaseMismatch: .databaseMismatch
        case .authenticationFailed: .authenticationFailed
        case .protocolViolation, .unexpectedMessage: .protocolViolation
        case .timedOut: .timedOut
        case .replicaFailed: .replicaFailed
        case .remoteClosed, .transportClosed: .normal
        case .localShutdown: .shuttingDown
        case .throttled, .tooManyHandshakes: .throttled
        }
    }
}
