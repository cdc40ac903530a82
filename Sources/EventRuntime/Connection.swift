/// A connected byte stream to one peer, as a sync node uses it: bytes out, bytes and the end in.
/// `SocketConnection` is the real one; `InMemoryConnection` is one end of a test's pair.
public protocol Connection: AnyObject {
    /// Bytes as they arrive (not called once this side is closing).
    var onBytes: (ArraySlice<UInt8>) -> Void { get set }
    /// The peer closed or the stream failed (nil: an orderly end of stream). Not called for a
    /// close this side asked for.
    var onClosed: (SocketError?) -> Void { get set }

    /// Where the other end is: a TCP peer's address and port, nil for a Unix socket (or a test's
    /// in-memory end that was given none).
    var remoteAddress: SocketEndpoint? { get }

    /// Queues bytes for the peer; ignored once closing.
    func write(_ bytes: [UInt8])
    /// Stops reading, sends what is queued, then closes.
    func closeAfterFlushing()
    /// Closes at once, dropping unsent bytes; no callback.
    func close()
}
