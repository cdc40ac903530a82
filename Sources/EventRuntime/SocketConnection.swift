import Glibc
import MonotonicTime

/// One connected, non-blocking socket on an event loop: reads whatever arrives, buffers what
/// cannot be written yet, and closes once the buffer is flushed when asked to.
final class SocketConnection: Connection {
    let descriptor: Int32
    let remoteAddress: SocketEndpoint?
    /// Weak: a connect in progress is held only by the loop's write callback, so a loop torn down
    /// then takes the connection with it, and the connection's `deinit` must not call into it.
    private weak let loop: (any EventLoop)?
    private var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    /// Reused by every read: a presence update per mouse move must not allocate and zero 64 KiB.
    /// Shared by the transport's connections (they are read one at a time, on the loop), so a
    /// relay's idle client costs no 64 KiB of its own.
    private let incoming: ReceiveBuffer
    private var closesWhenFlushed = false
    private(set) var isClosed = false
    /// Set while closing: the connection keeps itself alive until its goodbye is out.
    private var selfWhileClosing: SocketConnection?
    /// Bytes as they arrive.
    var onBytes: (ArraySlice<UInt8>) -> Void = { _ in }
    /// The peer closed or the socket failed (nil error: an orderly end of stream).
    var onClosed: (SocketError?) -> Void = { _ in }

    /// Called once the descriptor is closed (the transport resumes listeners that ran out).
    var onDescriptorReleased: () -> Void = {}

    init(
        descriptor: Int32, loop: any EventLoop, remoteAddress: SocketEndpoint? = nil,
        buffer: ReceiveBuffer = ReceiveBuffer()
    ) {
        self.descriptor = descriptor
        incoming = buffer
        self.loop = loop
        self.remoteAddress = remoteAddress
        loop.register(descriptor) { [unowned self] in readAvailable() }
    }

    deinit {
        if !isClosed { close() }
    }

    /// Bytes waiting in the write buffer.
    var bufferedByteCount: Int { outgoing.count - outgoingOffset }

    func write(_ bytes: [UInt8]) {
        guard !isClosed, !closesWhenFlushed else { return }
        outgoing += bytes
        flush()
    }

    /// Stops reading, sends what is buffered, then closes.
    func closeAfterFlushing() {
        guard !isClosed, !closesWhenFlushed else { return }
        closesWhenFlushed = true
        selfWhileClosing = self
        flush()
    }

    /// Closes at once, dropping unsent bytes; no callback.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop?.unregister(descriptor)
        Glibc.close(descriptor)
        selfWhileClosing = nil
        onDescriptorReleased()
    }

    private func readAvailable() {
        let capacity = incoming.bytes.count
        while !isClosed {
            // A slice handed out before and still held makes this copy the buffer, not reuse it.
            let count = recv(descriptor, &incoming.bytes, capacity, 0)
            if count > 0 {
                if !closesWhenFlushed { onBytes(incoming.bytes[0..<count]) }
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            if count < 0, errno == EINTR { continue }
            let error = count == 0 ? nil : SocketError.system("reading")
            close()
            // A connection this side is closing only drains; its owner already knows.
            if !closesWhenFlushed { onClosed(error) }
            return
        }
    }

    private func flush() {
        while outgoingOffset < outgoing.count {
            let written = outgoing[outgoingOffset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                outgoingOffset += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                loop?.setWritable(descriptor) { [unowned self] in flush() }
                return
            }
            let error = SocketError.system("writing")
            close()
            if !closesWhenFlushed { onClosed(error) }
            return
        }
        outgoing.removeAll(keepingCapacity: outgoing.count <= 1 << 20)
        outgoingOffset = 0
        loop?.setWritable(descriptor, nil)
        if closesWhenFlushed {
            // Half-close and drain instead of closing: closing with unread input would send a
            // reset that can destroy the goodbye before the peer reads it.
            shutdown(descriptor, Int32(SHUT_WR))
            guard let loop else { return close() }
            loop.schedule(at: loop.now + .seconds(2)) { [weak self] in self?.close() }
        }
    }
}

/// The bytes one read lands in, shared by the connections of one transport.
final class ReceiveBuffer {
    var bytes = [UInt8](repeating: 0, count: 65_536)
}
