import EventRuntime

/// The kind of connection a peer is on, for the status line.
public enum SyncTransport: String, Sendable {
    case unixSocket = "local"
    case tcp
}

extension SocketEndpoint {
    /// Which kind of transport the endpoint uses.
    public var transport: SyncTransport {
        switch self {
        case .unix: .unixSocket
        case .tcp: .tcp
        }
    }
}
