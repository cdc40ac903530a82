import Glibc

/// A socket bound and listening, not yet served by a node.
///
/// Binding is separate from serving so a process can claim its address before it does anything
/// else: `serve --listen` on a port already in use then fails before it creates a replica.
/// `SyncNode.listen(on:)` takes the socket over; one that is never taken over is closed when it
/// goes away.
public final class ListeningSocket {
    /// The bound address (a TCP port 0 resolved to the real port).
    public let endpoint: SocketEndpoint
    private var descriptor: Int32?

    public init(binding endpoint: SocketEndpoint) throws {
        let descriptor = try Socket.listen(on: endpoint)
        var bound = endpoint
        if case .tcp(let host, _) = endpoint, let port = Socket.boundPort(descriptor) {
            bound = .tcp(host: host, port: port)
        }
        self.endpoint = bound
        self.descriptor = descriptor
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Hands the descriptor to its new owner, once.
    func take() -> Int32? {
        defer { descriptor = nil }
        return descriptor
    }
}
