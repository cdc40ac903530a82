/// Why a peer ends a connection, as a number on the wire; the text travels beside it.
public enum GoodbyeCode: UInt8, Sendable, Equatable {
    case normal = 0
    case protocolVersionMismatch = 1
    case databaseMismatch = 2
    case authenticationFailed = 3
    case protocolViolation = 4
    case timedOut = 5
    case replicaFailed = 6
    case shuttingDown = 7
    /// Too many failed handshakes from the sender's address: try again later (protocol 3).
    case throttled = 8
}
