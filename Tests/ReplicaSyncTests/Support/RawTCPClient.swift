import Glibc

/// A test's own TCP connection to a node on loopback: hand-made bytes out, whatever comes back
/// in, read without blocking so the node's loop can run on the same thread.
final class RawTCPClient {
    let descriptor: Int32
    private(set) var received: [UInt8] = []
    private(set) var sawEnd = false

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw RawTCPClientError(code: errno)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    /// Sends what fits now; returns how many bytes went out.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        let written = bytes.withUnsafeBytes {
            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        return max(0, written)
    }

    /// Reads whatever has arrived; true once the node closed its end (or reset it).
    @discardableResult
    func pollClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !sawEnd {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                sawEnd = true
            } else {
                break
            }
        }
        return sawEnd
    }
}

struct RawTCPClientError: Error {
    var code: Int32
}
