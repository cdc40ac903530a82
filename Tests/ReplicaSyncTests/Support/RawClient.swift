import EventRuntime
import Glibc
import ReplicaSync

/// A bare TCP client for sending hostile bytes to a node and collecting what it answers.
final class RawClient {
    let descriptor: Int32
    private(set) var received: [UInt8] = []
    private(set) var ended = false

    init(port: UInt16, loop: PollEventLoop) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else { throw SocketError(operation: "raw connect", code: errno) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        loop.register(descriptor) { [unowned self, unowned loop] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 {
                    received += buffer[0..<count]
                } else {
                    if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                        ended = true
                        loop.unregister(descriptor)
                    }
                    return
                }
            }
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Ends this side of the stream (the node then sees end of stream).
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The goodbye among the frames received, if any.
    var goodbye: SyncMessage? {
        var decoder = FrameDecoder()
        decoder.append(received)
        while let frame = try? decoder.nextFrame() {
            if let message = try? SyncMessage(frame: frame), message.kind == .goodbye { return message }
        }
        return nil
    }
}
