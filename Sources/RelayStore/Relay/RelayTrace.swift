import Glibc
import ReplicaCore

/// TEMPORARY measurement aid (issue 10, p99): with `DT_RELAY_TRACE=PATH` the relay
/// appends one line per stage a client's delta passes (`stage peer counter nanoseconds`,
/// CLOCK_MONOTONIC), keyed by the highest dot of each peer in it.
public enum RelayTrace {
    nonisolated(unsafe) static let file: UnsafeMutablePointer<FILE>? = {
        guard let path = getenv("DT_RELAY_TRACE") else { return nil }
        return fopen(String(cString: path) + ".\(getpid())", "w")
    }()

    public static var isOn: Bool { file != nil }

    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func dots(_ events: [DocumentEvent]) -> [PeerID: UInt64] {
        var result: [PeerID: UInt64] = [:]
        for event in events { result[event.dot.peer] = max(result[event.dot.peer] ?? 0, event.dot.counter) }
        return result
    }

    static func dots(_ delta: ReplicaDelta) -> [PeerID: UInt64] {
        dots(delta.documents.flatMap(\.events))
    }

    static func mark(_ stage: String, _ dots: [PeerID: UInt64], at time: UInt64 = now()) {
        guard let file else { return }
        for (peer, counter) in dots { fputs("\(stage) \(peer.rawValue) \(counter) \(time)\n", file) }
    }

    static func statement(_ operation: String) {
        guard let file else { return }
        fputs("stmt \(operation.prefix(while: { $0 != " " })) 0 \(now())\n", file)
    }

    public static func flush() {
        if let file { fflush(file) }
    }
}
