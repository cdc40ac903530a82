import CEpoll
import Glibc

/// `epoll(7)`, level-triggered, so a descriptor is reported as `poll(2)` would report it: until
/// it is read (or written) it stays ready. Owns the epoll descriptor. The interest of each
/// descriptor is kept so that asking for what is already asked (a flush that stops asking for
/// room to write, every time) makes no system call.
///
/// A descriptor epoll refuses (a regular file: EPERM) is reported ready on every wait, as
/// `poll(2)` reports such a file.
final class EpollReadinessWaiter: ReadinessWaiter {
    private let epoll: Int32
    private var interest: [Int32: Bool] = [:]
    private var alwaysReady: [Int32: Bool] = [:]
    private var events: [epoll_event]

    /// `epoll_create1` failed; `code` is its errno.
    struct CreationError: Error {
        var code: Int32
    }

    init(capacity: Int = 256) throws(CreationError) {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw CreationError(code: errno) }
        epoll = descriptor
        events = Array(repeating: epoll_event(), count: capacity)
    }

    deinit {
        close(epoll)
    }

    func watch(_ descriptor: Int32, writable: Bool, anew: Bool) {
        if !anew, alwaysReady[descriptor] != nil {
            alwaysReady[descriptor] = writable
            return
        }
        if anew { alwaysReady[descriptor] = nil }
        let known = interest[descriptor]
        // A registration is always told to the kernel: closing a descriptor took it out of the
        // set, and the number may now be another file's.
        guard anew || known != writable else { return }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.fd = descriptor
        var result = epoll_ctl(epoll, known == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, descriptor, &event)
        if result != 0, errno == EEXIST {
            // The kernel still holds it (a duplicate kept the file open): change it instead.
            result = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event)
        } else if result != 0, errno == ENOENT {
            // Closed (which took it out of the set) and reused without being forgotten.
            result = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
        }
        if result == 0 {
            interest[descriptor] = writable
        } else {
            // What epoll cannot watch (a regular file, a descriptor already closed) is ready on
            // every turn, as poll(2) reports it; its callback finds out what that means.
            interest[descriptor] = nil
            alwaysReady[descriptor] = writable
        }
    }

    func forget(_ descriptor: Int32) {
        alwaysReady[descriptor] = nil
        guard interest.removeValue(forKey: descriptor) != nil else { return }
        // Fails harmlessly when the descriptor was closed first (closing took it out of the set).
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
    }

    func wait(milliseconds: Int32) -> [ReadyDescriptor] {
        var ready = alwaysReady.sorted { $0.key < $1.key }.map {
            ReadyDescriptor(descriptor: $0.key, writable: $0.value, readable: true)
        }
        let timeout = ready.isEmpty ? milliseconds : 0
        let count = events.withUnsafeMutableBufferPointer {
            epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeout)
        }
        guard count > 0 else { return ready }
        for event in events.prefix(Int(count)) {
            let flags = event.events
            ready.append(
                ReadyDescriptor(
                    descriptor: event.data.fd, writable: flags & EPOLLOUT.rawValue != 0,
                    readable: flags & ~EPOLLOUT.rawValue != 0))
        }
        return ready
    }
}
