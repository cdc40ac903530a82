import Glibc

/// A non-blocking, close-on-exec pipe whose read end a poll loop watches: writing a byte to it
/// wakes the loop. The event loop uses one to hear from other threads; signal handlers use one
/// because a write to a pipe is the only thing a handler can safely do to reach the loop.
public final class WakePipe {
    /// Readable once something was written; the loop polls it.
    public let readDescriptor: Int32
    /// What a waker (another thread, a signal handler) writes to.
    public let writeDescriptor: Int32

    /// `pipe(2)` failed; `code` is its errno (EMFILE: too many open files).
    public struct CreationError: Error, Equatable, Sendable {
        public var code: Int32
    }

    public init() throws(CreationError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw CreationError(code: errno) }
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

    /// Writes one byte; a full pipe already means "wake up", so a failed write is fine.
    public func wake(_ byte: UInt8 = 1) {
        var byte = byte
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads every byte written since the last call, oldest first, without allocating; returns
    /// how many there were.
    @discardableResult
    public func drain(_ body: (UInt8) -> Void = { _ in }) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var total = 0
            while true {
                let count = read(readDescriptor, buffer.baseAddress, buffer.count)
                guard count > 0 else { return total }
                total += count
                for byte in buffer.prefix(count) { body(byte) }
            }
        }
    }
}
