/// A TCP endpoint as the user writes it: `HOST:PORT`, with IPv6 hosts in brackets (`[::1]:7000`).
///
/// Only the syntax is checked here; whether the host resolves is the transport's business.
struct HostPort: Equatable, Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: UInt16

    /// What is wrong with a written endpoint, phrased to follow "'x' is not a valid address: ".
    enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case missingPort
        case emptyHost
        case unbracketedIPv6
        case badHostCharacter(Character)
        case badPort(String)
        case portZeroNotAllowed
        case notTCPURL
        /// An item of a comma-separated list of server URLs is empty (`tcp://a:7420,,tcp://b:7420`).
        case emptyListItem(item: Int, of: Int)
        /// An item of a comma-separated list of server URLs is not one.
        indirect case badListItem(item: Int, of: Int, text: String, problem: Problem)

        var description: String {
            switch self {
            case .missingPort: return "it has no ':PORT' (write it as HOST:PORT, e.g. 127.0.0.1:7000)"
            case .emptyHost: return "the host is empty (write it as HOST:PORT, e.g. 127.0.0.1:7000)"
            case .unbracketedIPv6: return "write an IPv6 host in brackets, e.g. [::1]:7000"
            case .badHostCharacter(let character):
                return "the host contains '\(DisplayText.escaped(String(character)))'"
            case .badPort(let port):
                return "the port '\(DisplayText.excerpt(port))' is not a number from 1 to 65535"
            case .portZeroNotAllowed: return "port 0 only makes sense for --listen (any free port)"
            case .notTCPURL: return "a server URL has the form tcp://HOST:PORT"
            case .emptyListItem(let item, let count):
                return "item \(item) of \(count) is empty (separate the relays with single commas, "
                    + "e.g. tcp://relay-a:7420,tcp://relay-b:7420)"
            case .badListItem(let item, let count, let text, let problem):
                return "item \(item) of \(count), '\(DisplayText.excerpt(text))', is not valid: \(problem)"
            }
        }
    }

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`. Port 0 ("any free port") is accepted only where `allowsPortZero` says so,
    /// that is for a listening address.
    static func parse(_ text: String, allowsPortZero: Bool = false) throws(Problem) -> HostPort {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .unbracketedIPv6 }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .missingPort }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .missingPort }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else { throw .unbracketedIPv6 }
        }
        guard !host.isEmpty else { throw .emptyHost }
        let allowed: (Character) -> Bool = { character in
            character.isASCII && (character.isLetter || character.isNumber || ".-_:%".contains(character))
        }
        if let bad = host.first(where: { !allowed($0) }) { throw .badHostCharacter(bad) }
        guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt16(port) else {
            throw .badPort(String(port))
        }
        guard number != 0 || allowsPortZero else { throw .portZeroNotAllowed }
        return HostPort(host: String(host), port: number)
    }

    /// `tcp://HOST:PORT`, the form of `--server` and `DRAWTOGETHER_SERVER_URL`.
    static func parse(serverURL text: String) throws(Problem) -> HostPort {
        let scheme = "tcp://"
        guard text.lowercased().hasPrefix(scheme) else { throw .notTCPURL }
        var rest = text.dropFirst(scheme.count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        return try parse(String(rest))
    }

    /// One or more `tcp://HOST:PORT` separated by commas (spaces around them allowed), the
    /// relays of one service in the order they are tried; an address listed twice counts once.
    /// A single URL is refused as `parse(serverURL:)` refuses it; an item of a longer list is
    /// named by its position.
    static func parse(serverURLs text: String) throws(Problem) -> [HostPort] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        guard items.count > 1 else { return [try parse(serverURL: items.first ?? "")] }
        var servers: [HostPort] = []
        for (index, item) in items.enumerated() {
            guard !item.isEmpty else { throw .emptyListItem(item: index + 1, of: items.count) }
            let server: HostPort
            do {
                server = try parse(serverURL: item)
            } catch {
                throw .badListItem(item: index + 1, of: items.count, text: item, problem: error)
            }
            if !servers.contains(server) { servers.append(server) }
        }
        return servers
    }

    var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
