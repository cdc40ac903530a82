/// Where a peer listens: a Unix socket path, or a TCP host and port.
public enum SocketEndpoint: Hashable, Sendable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: UInt16)

    /// Parses `HOST:PORT` (IPv4 address or name, port 0 for "any free port").
    public static func tcp(parsing text: String) throws(SocketEndpointError) -> SocketEndpoint {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else { throw .missingPort(text) }
        let host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]) else { throw .invalidPort(text) }
        return .tcp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): "\(host):\(port)"
        }
    }

}

/// A `HOST:PORT` that cannot be used.
public enum SocketEndpointError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingPort(String)
    case invalidPort(String)
    case unknownHost(String)
    case pathTooLong(String)

    public var description: String {
        switch self {
        case .missingPort(let text): "'\(text)' has no port; write HOST:PORT, e.g. 127.0.0.1:7420"
        case .invalidPort(let text): "'\(text)' has an invalid port; use a number from 0 to 65535"
        case .unknownHost(let host): "the host '\(host)' could not be resolved to an IPv4 address"
        case .pathTooLong(let path): "the socket path '\(path)' is longer than Unix sockets allow"
        }
    }
}
