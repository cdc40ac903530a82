import Glibc

/// A `Transport` for the nodes of one test: listeners and dials meet in memory, on the test's
/// `ManualEventLoop`, under the same endpoints the sockets would use. A dial to an endpoint that
/// nobody listens on fails as a socket's would (`ECONNREFUSED`, or `ENOENT` for a Unix path).
public final class InMemoryNetwork: Transport {
    private unowned let loop: any EventLoop
    private var listeners: [SocketEndpoint: (any Connection) -> Void] = [:]
    private var nextPort: UInt16 = 40_000

    public init(loop: any EventLoop) {
        self.loop = loop
    }

    public func listen(on endpoint: SocketEndpoint, onAccept: @escaping (any Connection) -> Void) throws
        -> any Listener
    {
        var bound = endpoint
        if case .tcp(let host, 0) = endpoint {
            nextPort += 1
            bound = .tcp(host: host, port: nextPort)
        }
        guard listeners[bound] == nil else {
            throw SocketError(operation: "binding \(bound)", code: EADDRINUSE)
        }
        listeners[bound] = onAccept
        return InMemoryListener(endpoint: bound) { [weak self] in self?.listeners[bound] = nil }
    }

    /// A bound socket is real; an in-memory network cannot serve it.
    public func serve(_ socket: ListeningSocket, onAccept: @escaping (any Connection) -> Void) throws
        -> any Listener
    {
        throw SocketError(
            operation: "serving the bound socket \(socket.endpoint) in memory", code: EOPNOTSUPP)
    }

    public func dial(
        _ endpoint: SocketEndpoint, onOutcome: @escaping (Result<any Connection, any Error>) -> Void
    ) {
        loop.schedule(at: loop.now) { [weak self] in
            guard let self else { return }
            switch self.connect(to: endpoint) {
            case .success(let connection): onOutcome(.success(connection))
            case .failure(let error): onOutcome(.failure(error))
            }
        }
    }

    /// Connects at once: the test's own end, for sending a node whatever bytes it likes.
    public func connect(to endpoint: SocketEndpoint) -> Result<InMemoryConnection, SocketError> {
        guard let accept = listeners[endpoint] else {
            let code = if case .unix = endpoint { ENOENT } else { ECONNREFUSED }
            return .failure(SocketError(operation: "connecting to \(endpoint)", code: code))
        }
        let (dialled, accepted) = InMemoryConnection.pair(on: loop)
        accept(accepted)
        return .success(dialled)
    }
}

/// A listener of an `InMemoryNetwork`.
private final class InMemoryListener: Listener {
    let endpoint: SocketEndpoint
    /// Memory has no descriptor limit: never called.
    var onAcceptingPaused: (SocketError?) -> Void = { _ in }
    private var onClose: (() -> Void)?

    init(endpoint: SocketEndpoint, onClose: @escaping () -> Void) {
        self.endpoint = endpoint
        self.onClose = onClose
    }

    func close() {
        onClose?()
        onClose = nil
    }
}
