/// Why a session ended, worded for the person looking at the status line on either side.
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

    public var message: String {
        switch self {
        case .protocolVersionMismatch(let local, let remote):
            return "protocol versions differ (this peer speaks \(local), the other \(remote)); "
                + "update both to the same release"
        case .databaseMismatch(let local, let remote):
            return "database ids differ (this peer has '\(local)', the other '\(remote)'); "
                + "use the same --database-id on both"
        case .authenticationFailed:
            return "authentication failed: the peers do not share the same token; check --token on both"
        case .protocolViolation(let error):
            return "protocol error: \(error.message)"
        case .unexpectedMessage(let message, let phase):
            return "protocol error: unexpected \(message) message during \(phase)"
        case .timedOut(let phase):
            return "the peer went quiet during \(phase)"
        case .replicaFailed(let description):
            return "the local replica failed: \(description)"
        case .remoteClosed(let code, let text):
            return code == .normal || code == .shuttingDown
                ? "the peer closed the connection (\(text))" : "the peer refused: \(text)"
        case .transportClosed:
            return "the connection was lost"
        case .localShutdown:
            return "closed by this peer"
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
        }
    }
}
