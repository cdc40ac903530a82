#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking pipe a signal handler writes a byte into, so the poll loop wakes up: the
/// only thing a handler can safely do to reach the loop.
final class SignalPipe {
    /// Readable after the handler wrote; the loop polls it.
    let readDescriptor: Int32
    /// What the handler writes to.
    let writeDescriptor: Int32

    init() throws(TerminationSignalsError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw .cannotCreatePipe(errno: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Every byte written since the last call, oldest first.
    func drain() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        return bytes
    }
}
