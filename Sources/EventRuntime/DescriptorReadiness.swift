import Glibc

/// How a `PollEventLoop` waits for its descriptors: `epoll(7)` (the default on Linux), whose
/// cost per turn follows the descriptors that are ready, or `poll(2)`, which hands the kernel
/// every watched descriptor each turn — a relay of a thousand clients paid for a thousand
/// sockets on every turn.
public enum DescriptorReadiness: Sendable, CaseIterable {
    case epoll
    case poll
}

/// A descriptor that a wait found ready.
struct ReadyDescriptor {
    var descriptor: Int32
    /// Room to write.
    var writable: Bool
    /// Input, the end of the stream, or an error: the read callback finds out which.
    var readable: Bool
}

/// The kernel side of a loop's wait: which descriptors it watches, for input and (when asked)
/// for room to write, and one wait for any of them. The loop keeps the callbacks; this keeps
/// only the interest.
protocol ReadinessWaiter: AnyObject {
    /// Watches `descriptor` for input, and for room to write when `writable` (adds it, or
    /// changes what it is watched for). `anew`: the descriptor is being registered, and may be
    /// a new one under a number that was closed without being forgotten.
    func watch(_ descriptor: Int32, writable: Bool, anew: Bool)
    func forget(_ descriptor: Int32)
    /// Waits up to `milliseconds` for a watched descriptor to be ready; what was ready.
    func wait(milliseconds: Int32) -> [ReadyDescriptor]
}

/// `poll(2)` over every watched descriptor, in descriptor order. The array handed to the
/// kernel is rebuilt only when what is watched changed, not every turn.
final class PollReadinessWaiter: ReadinessWaiter {
    private var interest: [Int32: Bool] = [:]
    private var descriptors: [pollfd] = []
    private var isStale = false

    func watch(_ descriptor: Int32, writable: Bool, anew: Bool) {
        guard interest[descriptor] != writable else { return }
        interest[descriptor] = writable
        isStale = true
    }

    func forget(_ descriptor: Int32) {
        guard interest.removeValue(forKey: descriptor) != nil else { return }
        isStale = true
    }

    func wait(milliseconds: Int32) -> [ReadyDescriptor] {
        if isStale {
            descriptors = interest.sorted { $0.key < $1.key }.map { descriptor, writable in
                pollfd(
                    fd: descriptor, events: Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0), revents: 0)
            }
            isStale = false
        }
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return [] }
        var ready: [ReadyDescriptor] = []
        for index in descriptors.indices where descriptors[index].revents != 0 {
            let events = descriptors[index].revents
            descriptors[index].revents = 0
            ready.append(
                ReadyDescriptor(
                    descriptor: descriptors[index].fd, writable: events & Int16(POLLOUT) != 0,
                    readable: events & ~Int16(POLLOUT) != 0))
        }
        return ready
    }
}
