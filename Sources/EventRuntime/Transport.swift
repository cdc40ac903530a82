/// How a node reaches its peers: it listens on endpoints and dials them. `SocketTransport` uses
/// Unix and TCP sockets on an event loop; `InMemoryNetwork` joins the nodes of a test in memory.
public protocol Transport: AnyObject {
    /// Binds `endpoint` and hands every accepted connection to `onAccept`.
    func listen(on endpoint: SocketEndpoint, onAccept: @escaping (any Connection) -> Void) throws
        -> any Listener

    /// Serves a socket bound beforehand (`ListeningSocket`); one already served is refused.
    func serve(_ socket: ListeningSocket, onAccept: @escaping (any Connection) -> Void) throws -> any Listener

    /// Starts connecting; `onOutcome` gets the connection or why there is none (right away, or
    /// later from the loop).
    func dial(_ endpoint: SocketEndpoint, onOutcome: @escaping (Result<any Connection, any Error>) -> Void)
}

/// An endpoint being listened on, until `close()`.
public protocol Listener: AnyObject {
    /// The bound address (a TCP port 0 resolved to the real port).
    var endpoint: SocketEndpoint { get }
    /// Called with the error when accepting stops because the process is out of descriptors (the
    /// listener is taken off the loop instead of spinning on it), and with nil when a connection
    /// is accepted again; once per pause.
    var onAcceptingPaused: (SocketError?) -> Void { get set }
    /// Stops accepting and releases the address (a Unix socket's file is removed).
    func close()
}
