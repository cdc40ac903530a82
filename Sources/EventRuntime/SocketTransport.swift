import Glibc
import MonotonicTime

/// Unix and TCP sockets on an event loop: non-blocking accepts and connects, each connection a
/// `SocketConnection` watched by the loop.
///
/// At the open-file limit a listener stops being watched (a listening socket with a queued
/// connection stays readable, so watching it would spin the loop) and is watched again as soon
/// as one of this transport's connections closes, or after `acceptRetryInterval` at the latest
/// (a descriptor may be freed elsewhere in the process).
public final class SocketTransport: Transport {
    private let loop: any EventLoop
    private var listeners: [ObjectIdentifier: Weak<SocketListener>] = [:]
    public var acceptRetryInterval: Duration = .seconds(1)
    /// What every connection of this transport reads into.
    private let receiveBuffer = ReceiveBuffer()

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
        let listener = SocketListener(
            descriptor: descriptor, endpoint: socket.endpoint, loop: loop, transport: self, onAccept: onAccept
        )
        listeners[ObjectIdentifier(listener)] = Weak(listener)
        listener.startWatching()
        return listener
    }

    public func dial(
        _ endpoint: SocketEndpoint, onOutcome: @escaping (Result<any Connection, any Error>) -> Void
    ) {
        do {
            let (descriptor, inProgress) = try Socket.connect(to: endpoint)
            let remote: SocketEndpoint? = if case .tcp = endpoint { endpoint } else { nil }
            let socket = connection(descriptor: descriptor, remote: remote)
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

    func connection(descriptor: Int32, remote: SocketEndpoint?) -> SocketConnection {
        let connection = SocketConnection(
            descriptor: descriptor, loop: loop, remoteAddress: remote, buffer: receiveBuffer)
        connection.onDescriptorReleased = { [weak self] in self?.descriptorReleased() }
        return connection
    }

    /// A descriptor is free: paused listeners try again, from the loop (not inside whatever
    /// closed the connection).
    private func descriptorReleased() {
        listeners = listeners.filter { $0.value.value != nil }
        let paused = listeners.values.compactMap(\.value).filter(\.isPaused)
        guard !paused.isEmpty else { return }
        loop.schedule(at: loop.now) {
            for listener in paused { listener.resume() }
        }
    }

    fileprivate func forget(_ listener: SocketListener) {
        listeners[ObjectIdentifier(listener)] = nil
    }
}

private struct Weak<Value: AnyObject> {
    weak var value: Value?

    init(_ value: Value) {
        self.value = value
    }
}

/// A listening descriptor served by a `SocketTransport`.
private final class SocketListener: Listener {
    let endpoint: SocketEndpoint
    var onAcceptingPaused: (SocketError?) -> Void = { _ in }
    private let descriptor: Int32
    /// Weak, as a `SocketConnection`'s: a listener closed after its loop has nothing to unregister.
    private weak let loop: (any EventLoop)?
    private weak var transport: SocketTransport?
    private let onAccept: (any Connection) -> Void
    private var isClosed = false
    /// Off the loop because the process ran out of descriptors.
    private(set) var isPaused = false
    /// The pause was reported and no connection was accepted since.
    private var reportedPause = false
    private var retryTimer: EventLoopTimer?

    init(
        descriptor: Int32, endpoint: SocketEndpoint, loop: any EventLoop, transport: SocketTransport,
        onAccept: @escaping (any Connection) -> Void
    ) {
        self.descriptor = descriptor
        self.endpoint = endpoint
        self.loop = loop
        self.transport = transport
        self.onAccept = onAccept
    }

    func startWatching() {
        loop?.register(descriptor) { [unowned self] in acceptPending() }
    }

    private func acceptPending() {
        while !isClosed, let transport {
            switch Socket.accept(descriptor) {
            case .connection(let accepted, let remote):
                if reportedPause {
                    reportedPause = false
                    onAcceptingPaused(nil)
                }
                onAccept(transport.connection(descriptor: accepted, remote: remote))
            case .none:
                return
            case .outOfDescriptors(let error):
                pause(error)
                return
            }
        }
    }

    private func pause(_ error: SocketError) {
        guard let loop else { return }
        if !isPaused {
            isPaused = true
            loop.unregister(descriptor)
        }
        if !reportedPause {
            reportedPause = true
            onAcceptingPaused(error)
        }
        if retryTimer == nil, let interval = transport?.acceptRetryInterval {
            retryTimer = loop.schedule(at: loop.now + interval) { [weak self] in
                self?.retryTimer = nil
                self?.resume()
            }
        }
    }

    /// Watches the descriptor again and accepts what is queued (pausing again if still out).
    func resume() {
        guard isPaused, !isClosed else { return }
        isPaused = false
        if let retryTimer { loop?.cancel(retryTimer) }
        retryTimer = nil
        startWatching()
        acceptPending()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if let retryTimer { loop?.cancel(retryTimer) }
        retryTimer = nil
        if !isPaused { loop?.unregister(descriptor) }
        _ = Glibc.close(descriptor)
        transport?.forget(self)
        if case .unix(let path) = endpoint { _ = unlink(path) }
    }
}
