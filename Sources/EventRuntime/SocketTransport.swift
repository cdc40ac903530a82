import Glibc

/// Unix and TCP sockets on an event loop: non-blocking accepts and connects, each connection a
/// `SocketConnection` watched by the loop.
public final class SocketTransport: Transport {
    private let loop: any EventLoop

    public init(loop: any EventLoop) {
        self.loop = loop
    }

    public func listen(on endpoint: SocketEndpoint, onAccept: @escaping (any Connection) -> Void) throws
        -> any Listener
    {
        try serve(ListeningSocket(binding: endpoint), onAccept: onAccept)
    }

    public func serve(_ socket: ListeningSocket, onAccept: @escaping (any Connection) -> Void) throws
        -> any Listener
    {
        guard let descriptor = socket.take() else {
            throw SocketError(operation: "serving \(socket.endpoint) a second time", code: EBADF)
        }
        loop.register(descriptor) { [unowned loop] in
            while let accepted = Socket.accept(descriptor) {
                onAccept(SocketConnection(descriptor: accepted, loop: loop))
            }
        }
        return SocketListener(descriptor: descriptor, endpoint: socket.endpoint, loop: loop)
    }

    public func dial(
        _ endpoint: SocketEndpoint, onOutcome: @escaping (Result<any Connection, any Error>) -> Void
    ) {
        do {
            let (descriptor, inProgress) = try Socket.connect(to: endpoint)
            let socket = SocketConnection(descriptor: descriptor, loop: loop)
            guard inProgress else { return onOutcome(.success(socket)) }
            loop.setWritable(descriptor) { [unowned loop] in
                loop.setWritable(descriptor, nil)
                let code = Socket.pendingError(descriptor)
                guard code == 0 else {
                    socket.close()
                    let error = SocketError(operation: "connecting to \(endpoint)", code: code)
                    return onOutcome(.failure(error))
                }
                onOutcome(.success(socket))
            }
        } catch {
            onOutcome(.failure(error))
        }
    }
}

/// A listening descriptor served by a `SocketTransport`.
private final class SocketListener: Listener {
    let endpoint: SocketEndpoint
    private let descriptor: Int32
    /// Weak, as a `SocketConnection`'s: a listener closed after its loop has nothing to unregister.
    private weak let loop: (any EventLoop)?
    private var isClosed = false

    init(descriptor: Int32, endpoint: SocketEndpoint, loop: any EventLoop) {
        self.descriptor = descriptor
        self.endpoint = endpoint
        self.loop = loop
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop?.unregister(descriptor)
        _ = Glibc.close(descriptor)
        if case .unix(let path) = endpoint { _ = unlink(path) }
    }
}
