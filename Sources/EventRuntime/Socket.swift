import Glibc

/// Thin, throwing wrappers over the socket calls; descriptors come back non-blocking and
/// close-on-exec, and their owner closes them.
enum Socket {
    /// A listening socket bound to the endpoint (an existing Unix socket file is replaced).
    static func listen(on endpoint: SocketEndpoint) throws -> Int32 {
        let descriptor = try open(for: endpoint)
        do {
            switch endpoint {
            case .unix(let path):
                unlink(path)
            case .tcp:
                enable(SO_REUSEADDR, level: SOL_SOCKET, on: descriptor)
            }
            try withAddress(of: endpoint) { address, length in
                guard bind(descriptor, address, length) == 0 else {
                    throw SocketError.system("binding \(endpoint)")
                }
            }
            guard Glibc.listen(descriptor, 64) == 0 else {
                throw SocketError.system("listening on \(endpoint)")
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Starts connecting; `inProgress` means wait for writability, then check `pendingError`.
    static func connect(to endpoint: SocketEndpoint) throws -> (descriptor: Int32, inProgress: Bool) {
        let descriptor = try open(for: endpoint)
        do {
            var inProgress = false
            try withAddress(of: endpoint) { address, length in
                if Glibc.connect(descriptor, address, length) != 0 {
                    guard errno == EINPROGRESS else { throw SocketError.system("connecting to \(endpoint)") }
                    inProgress = true
                }
            }
            if case .tcp = endpoint { enable(TCP_NODELAY, level: Int32(IPPROTO_TCP), on: descriptor) }
            return (descriptor, inProgress)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The result of a non-blocking connect, once the socket became writable.
    static func pendingError(_ descriptor: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        return code
    }

    /// What one `accept` gave.
    enum Accepted {
        case connection(Int32, remote: SocketEndpoint?)
        /// Nothing is waiting (or the waiting peer went away before it was accepted).
        case none
        /// The process or the system is out of descriptors (`EMFILE`, `ENFILE`, or no memory for
        /// one): the pending connection stays queued until a descriptor is free.
        case outOfDescriptors(SocketError)
    }

    /// Accepts one pending connection.
    static func accept(_ listener: Int32) -> Accepted {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        guard descriptor >= 0 else {
            let code = errno
            if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                return .outOfDescriptors(SocketError(operation: "accepting a connection", code: code))
            }
            // EAGAIN, or a connection reset or aborted while queued: nothing to accept now.
            return code == EINTR || code == ECONNABORTED || code == EPROTO ? accept(listener) : .none
        }
        configure(descriptor)
        var remote: SocketEndpoint?
        if address.sin_family == sa_family_t(AF_INET) {
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            if inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil {
                let host = String(
                    decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                remote = .tcp(host: host, port: UInt16(bigEndian: address.sin_port))
            }
            enable(TCP_NODELAY, level: Int32(IPPROTO_TCP), on: descriptor)
        }
        return .connection(descriptor, remote: remote)
    }

    /// The port a TCP listener was given (for port 0).
    static func boundPort(_ descriptor: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return status == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    private static func open(for endpoint: SocketEndpoint) throws -> Int32 {
        let family: Int32
        switch endpoint {
        case .unix: family = AF_UNIX
        case .tcp: family = AF_INET
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError.system("creating a socket for \(endpoint)") }
        configure(descriptor)
        return descriptor
    }

    private static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    private static func enable(_ option: Int32, level: Int32, on descriptor: Int32) {
        var one: Int32 = 1
        setsockopt(descriptor, level, option, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func withAddress(
        of endpoint: SocketEndpoint, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Void
    ) throws {
        switch endpoint {
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard bytes.count < capacity else { throw SocketEndpointError.pathTooLong(path) }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
            }
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        case .tcp(let host, let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = try resolve(host)
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// An IPv4 address, numeric or by name (a name lookup blocks briefly, once per connect).
    private static func resolve(_ host: String) throws -> in_addr {
        var address = in_addr()
        let name = host.isEmpty || host == "*" ? "0.0.0.0" : host
        if inet_pton(AF_INET, name, &address) == 1 { return address }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &results) == 0 else {
            throw SocketEndpointError.unknownHost(host)
        }
        defer { freeaddrinfo(results) }
        guard let found = results?.pointee.ai_addr else { throw SocketEndpointError.unknownHost(host) }
        return found.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
    }
}
