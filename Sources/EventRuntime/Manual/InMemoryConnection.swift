import MonotonicTime

/// One end of an in-memory byte stream between two nodes on a `ManualEventLoop`. What one end
/// writes reaches the other from the loop (never inside the write), in order, as a socket pair
/// would; an end that closes makes the other see the end of the stream after the bytes before it.
public final class InMemoryConnection: Connection {
    public var onBytes: (ArraySlice<UInt8>) -> Void = { _ in }
    public var onClosed: (SocketError?) -> Void = { _ in }
    private unowned let loop: any EventLoop
    private weak var remote: InMemoryConnection?
    private var inbound: [UInt8] = []
    /// The remote's end of stream (nil inside: orderly) waiting behind `inbound`.
    private var inboundEnd: SocketError??
    private var deliveryIsScheduled = false
    /// This side sent its end of stream (`finishSending`, `closeAfterFlushing` or `close`).
    private var finishedSending = false
    private var closesWhenFlushed = false
    /// Set while closing: the end keeps itself alive until the other end has closed too.
    private var selfWhileClosing: InMemoryConnection?
    public private(set) var isClosed = false
    /// Everything this end received, for tests that read the peer's answer.
    public private(set) var received: [UInt8] = []
    /// What the other end looks like to a node (a test sets it to play a remote TCP address).
    public var remoteAddress: SocketEndpoint?

    init(loop: any EventLoop) {
        self.loop = loop
    }

    /// Two connected ends.
    static func pair(on loop: any EventLoop) -> (InMemoryConnection, InMemoryConnection) {
        let a = InMemoryConnection(loop: loop)
        let b = InMemoryConnection(loop: loop)
        a.remote = b
        b.remote = a
        return (a, b)
    }

    public func write(_ bytes: [UInt8]) {
        guard !isClosed, !finishedSending else { return }
        remote?.arrive(bytes)
    }

    /// Ends this side of the stream and keeps reading (a socket's `shutdown(SHUT_WR)`).
    public func finishSending() {
        guard !isClosed, !finishedSending else { return }
        finishedSending = true
        remote?.arrive(end: nil)
    }

    public func closeAfterFlushing() {
        guard !isClosed, !closesWhenFlushed else { return }
        closesWhenFlushed = true
        selfWhileClosing = self
        finishSending()
        // As a socket: stop waiting for the other end after two seconds.
        loop.schedule(at: loop.now + .seconds(2)) { [weak self] in self?.close() }
    }

    public func close() {
        guard !isClosed else { return }
        if !finishedSending {
            finishedSending = true
            remote?.arrive(end: nil)
        }
        isClosed = true
        inbound = []
        selfWhileClosing = nil
    }

    private func arrive(_ bytes: [UInt8]) {
        guard !isClosed, inboundEnd == nil else { return }
        inbound += bytes
        scheduleDelivery()
    }

    private func arrive(end: SocketError?) {
        guard !isClosed, inboundEnd == nil else { return }
        inboundEnd = .some(end)
        scheduleDelivery()
    }

    private func scheduleDelivery() {
        guard !deliveryIsScheduled else { return }
        deliveryIsScheduled = true
        loop.schedule(at: loop.now) { [weak self] in self?.deliver() }
    }

    private func deliver() {
        deliveryIsScheduled = false
        guard !isClosed else { return }
        if !inbound.isEmpty {
            let bytes = inbound
            inbound = []
            received += bytes
            if !closesWhenFlushed { onBytes(bytes[...]) }
        }
        guard !isClosed, let end = inboundEnd else { return }
        // A socket that reads the end of the stream closes; one this side was closing only drained.
        close()
        if !closesWhenFlushed { onClosed(end) }
    }
}
