import EventRuntime
import ReplicaSync
import Synchronization

/// What the two peers of the end-to-end figure share across their threads: where B listens, when
/// each stroke key reached B's rebuilt drawing, B's loop (to stop it) and how B ended.
final class PeerLink: Sendable {
    private struct State {
        var endpoint: SocketEndpoint?
        var loop: PollEventLoop?
        var arrivals: [String: UInt64] = [:]
        var failure: String?
        var finished = false
    }

    private let state = Mutex(State())

    func listening(on endpoint: SocketEndpoint, loop: PollEventLoop) {
        state.withLock {
            $0.endpoint = endpoint
            $0.loop = loop
        }
    }

    var endpoint: SocketEndpoint? { state.withLock { $0.endpoint } }

    func arrived(_ keys: [String], at time: UInt64) {
        state.withLock { for key in keys where $0.arrivals[key] == nil { $0.arrivals[key] = time } }
    }

    func arrival(of key: String) -> UInt64? { state.withLock { $0.arrivals[key] } }

    func fail(_ reason: String) {
        state.withLock {
            $0.failure = reason
            $0.finished = true
        }
    }

    func finish() { state.withLock { $0.finished = true } }

    var failure: String? { state.withLock { $0.failure } }
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Stops B's loop (B then says goodbye and finishes).
    func stopPeer() {
        state.withLock { $0.loop }?.stop()
    }
}
