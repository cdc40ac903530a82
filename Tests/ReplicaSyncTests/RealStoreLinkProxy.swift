import EventRuntime

/// A forwarder on the test's in-memory network standing for one network link: peers dial the
/// proxy, the proxy dials the target, and bytes flow both ways until the test cuts the link.
/// While cut, it drops every connection and refuses new ones (accepts and closes them at once).
final class RealStoreLinkProxy {
    private let network: InMemoryNetwork
    private let target: SocketEndpoint
    private var listener: (any Listener)?
    private var pairs: [(any Connection, InMemoryConnection)] = []
    private(set) var isCut = false
    private(set) var port: UInt16 = 0

    init(network: InMemoryNetwork, forwardingTo targetPort: UInt16) throws {
        self.network = network
        target = .tcp(host: "127.0.0.1", port: targetPort)
        let listener = try network.listen(on: .tcp(host: "127.0.0.1", port: 0)) { [unowned self] client in
            accept(client)
        }
        guard case .tcp(_, let port) = listener.endpoint else {
            throw SocketError(operation: "starting the link proxy", code: 0)
        }
        self.listener = listener
        self.port = port
    }

    deinit {
        cut()
        listener?.close()
    }

    /// Drops every forwarded connection; new ones are refused until `restore()`.
    func cut() {
        isCut = true
        for (client, upstream) in pairs { close(client, upstream) }
        pairs = []
    }

    func restore() {
        isCut = false
    }

    private func accept(_ client: any Connection) {
        guard !isCut, case .success(let upstream) = network.connect(to: target) else {
            client.close()
            return
        }
        pairs.append((client, upstream))
        client.onBytes = { upstream.write(Array($0)) }
        upstream.onBytes = { client.write(Array($0)) }
        // End of stream or an error on one side ends the whole forwarded connection.
        client.onClosed = { [unowned self] _ in drop(client) }
        upstream.onClosed = { [unowned self] _ in drop(client) }
    }

    private func drop(_ client: any Connection) {
        guard let index = pairs.firstIndex(where: { $0.0 === client }) else { return }
        let (client, upstream) = pairs.remove(at: index)
        close(client, upstream)
    }

    private func close(_ client: any Connection, _ upstream: InMemoryConnection) {
        for end in [client, upstream as any Connection] {
            // Forget the callbacks (they hold the other end) before closing.
            end.onBytes = { _ in }
            end.onClosed = { _ in }
            end.close()
        }
    }
}
