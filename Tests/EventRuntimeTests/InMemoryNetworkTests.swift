import EventRuntime
import Glibc
import MonotonicTime
import Testing

/// In-memory connections behave as a socket pair on the loop: bytes in order and from the loop,
/// the end of the stream after them, and a dial to nobody refused.
@Suite struct InMemoryNetworkTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// A listener that keeps what it accepts, and a client connected to it.
    private func connectedPair() throws -> (server: () -> (any Connection)?, client: InMemoryConnection) {
        var accepted: (any Connection)?
        let listener = try network.listen(on: .tcp(host: "127.0.0.1", port: 0)) { accepted = $0 }
        guard case .tcp(_, let port) = listener.endpoint, port != 0 else {
            throw SocketError(operation: "port 0 was not resolved", code: 0)
        }
        let client = try network.connect(to: listener.endpoint).get()
        return ({ accepted }, client)
    }

    @Test func bytesArriveInOrderFromTheLoopNotInsideTheWrite() throws {
        let (server, client) = try connectedPair()
        var received: [UInt8] = []
        server()?.onBytes = { received += $0 }
        client.write([1, 2])
        client.write([3])
        #expect(received.isEmpty)
        loop.runDueTimers()
        #expect(received == [1, 2, 3])
    }

    @Test func closingAfterFlushingDeliversTheBytesThenTheEnd() throws {
        let (server, client) = try connectedPair()
        var log: [String] = []
        server()?.onBytes = { log.append("bytes \(Array($0))") }
        server()?.onClosed = { log.append("closed \(String(describing: $0))") }
        var clientHeard = false
        client.onClosed = { _ in clientHeard = true }
        client.write([9])
        client.closeAfterFlushing()
        loop.runDueTimers()
        #expect(log == ["bytes [9]", "closed nil"])
        #expect(client.isClosed && !clientHeard, "the closing side is told nothing")
    }

    @Test func aDialToAnEndpointNobodyListensOnIsRefused() {
        var outcomes: [Int32] = []
        for endpoint in [SocketEndpoint.tcp(host: "127.0.0.1", port: 7), .unix(path: "/nowhere.sock")] {
            network.dial(endpoint) { outcome in
                if case .failure(let error as SocketError) = outcome { outcomes.append(error.code) }
            }
        }
        #expect(outcomes.isEmpty, "a dial completes from the loop")
        loop.runDueTimers()
        #expect(outcomes == [ECONNREFUSED, ENOENT])
    }

    @Test func aClosedListenerFreesItsEndpoint() throws {
        let endpoint = SocketEndpoint.unix(path: "/a.sock")
        let listener = try network.listen(on: endpoint) { _ in }
        #expect(throws: SocketError.self) { try network.listen(on: endpoint) { _ in } }
        listener.close()
        #expect(throws: SocketError.self) { try network.connect(to: endpoint).get() }
        _ = try network.listen(on: endpoint) { _ in }
    }
}
