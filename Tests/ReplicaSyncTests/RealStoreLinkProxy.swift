import EventRuntime
import Glibc
import ReplicaSync

/// A TCP forwarder on the test's event loop standing for one network link: peers dial the proxy,
/// the proxy dials the target, and bytes flow both ways until the test cuts the link. While cut,
/// it drops every connection and refuses new ones (accepts and closes them at once).
final class RealStoreLinkProxy {
    /// One direction of a forwarded connection: what is read from `from` is written to `to`.
    private final class Splice {
        let from: Int32
        let to: Int32
        var pending: [UInt8] = []

        init(from: Int32, to: Int32) {
            self.from = from
            self.to = to
        }
    }

    private let loop: PollEventLoop
    private let listener: Int32
    private let target: UInt16
    private var pairs: [(Int32, Int32)] = []
    private var splices: [Int32: Splice] = [:]
    private(set) var isCut = false
    let port: UInt16

    init(loop: PollEventLoop, forwardingTo targetPort: UInt16) throws {
        self.loop = loop
        target = targetPort
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && Glibc.listen(descriptor, 16) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw SocketError(operation: "starting the link proxy", code: errno)
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        Self.makeNonBlocking(listener)
        loop.register(listener) { [unowned self] in acceptAll() }
    }

    deinit {
        cut()
        loop.unregister(listener)
        close(listener)
    }

    /// Drops every forwarded connection; new ones are refused until `restore()`.
    func cut() {
        isCut = true
        for (a, b) in pairs {
            for descriptor in [a, b] {
                loop.unregister(descriptor)
                splices[descriptor] = nil
                close(descriptor)
            }
        }
        pairs = []
    }

    func restore() {
        isCut = false
    }

    private func acceptAll() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard !isCut, let upstream = dialTarget() else {
                close(client)
                continue
            }
            Self.makeNonBlocking(client)
            Self.makeNonBlocking(upstream)
            pairs.append((client, upstream))
            for (from, to) in [(client, upstream), (upstream, client)] {
                let splice = Splice(from: from, to: to)
                splices[from] = splice
                loop.register(from) { [unowned self] in forward(splice) }
            }
        }
    }

    /// A blocking connect: on loopback it completes at once.
    private func dialTarget() -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if connected { return descriptor }
        close(descriptor)
        return nil
    }

    private func forward(_ splice: Splice) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while splices[splice.from] === splice {
            let count = recv(splice.from, &buffer, buffer.count, 0)
            if count > 0 {
                splice.pending += buffer[0..<count]
                flush(splice)
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            // End of stream or an error on one side ends the whole forwarded connection.
            drop(splice.from)
            return
        }
    }

    private func flush(_ splice: Splice) {
        while !splice.pending.isEmpty {
            let written = splice.pending.withUnsafeBytes {
                send(splice.to, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                splice.pending.removeFirst(written)
                continue
            }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                loop.setWritable(splice.to) { [unowned self] in
                    loop.setWritable(splice.to, nil)
                    flush(splice)
                }
                return
            }
            drop(splice.to)
            return
        }
    }

    private func drop(_ descriptor: Int32) {
        guard let index = pairs.firstIndex(where: { $0.0 == descriptor || $0.1 == descriptor }) else {
            return
        }
        let (a, b) = pairs.remove(at: index)
        for end in [a, b] {
            loop.unregister(end)
            splices[end] = nil
            close(end)
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func makeNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
}
