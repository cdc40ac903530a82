import MonotonicTime

/// Failed handshakes per remote host, for a node that accepts connections: each failure makes
/// the next attempt from that host wait longer (a growing delay), and the log hears about a
/// host's failures at most once per `logInterval`, with a count.
///
/// With CPace every connection is at most one guess of the token; this bounds how fast one host
/// can make them. A success from a host clears its record. Pure: time comes in as arguments.
public struct HandshakeThrottle: Sendable {
    /// Failures a host may have without waiting after them (a person mistyping a token).
    public var freeFailures = 3
    /// The wait after the first counted failure; it doubles with each further one.
    public var initialDelay: Duration = .milliseconds(500)
    public var maximumDelay: Duration = .seconds(30)
    /// A host quiet for this long is forgotten.
    public var memory: Duration = .seconds(600)
    public var logInterval: Duration = .seconds(10)
    /// Hosts remembered at most (the oldest is forgotten first).
    public var capacity = 4096

    struct Record: Sendable {
        var failures = 0
        var lastFailure: SyncInstant
        var lastLogged: SyncInstant?
        /// Failures since the last logged line.
        var unlogged = 0
    }

    private var records: [String: Record] = [:]

    public init() {}

    /// How long a new connection from `host` must still wait; nil when it may go ahead.
    public func remainingDelay(for host: String, now: SyncInstant) -> Duration? {
        guard let record = records[host], now.since(record.lastFailure) < memory else { return nil }
        let counted = record.failures - freeFailures
        guard counted > 0 else { return nil }
        let delay = min(maximumDelay, initialDelay * (1 << min(counted - 1, 20)))
        let waited = now.since(record.lastFailure)
        return waited < delay ? delay - waited : nil
    }

    /// Counts a failed handshake; returns how many events to report when the host's log line is
    /// due now, nil while it is still rate-limited.
    public mutating func recordFailure(of host: String, now: SyncInstant) -> Int? {
        var record = records[host] ?? Record(lastFailure: now)
        if now.since(record.lastFailure) >= memory { record = Record(lastFailure: now) }
        record.failures += 1
        record.lastFailure = now
        return log(&record, host: host, now: now)
    }

    /// Notes a connection turned away (while throttled, or over the handshake limit): logged
    /// like a failure, but not counted as one, so a peer retrying while it waits is not kept
    /// out longer by its own retries.
    public mutating func recordRefusal(of host: String, now: SyncInstant) -> Int? {
        var record = records[host] ?? Record(lastFailure: now)
        return log(&record, host: host, now: now)
    }

    private mutating func log(_ record: inout Record, host: String, now: SyncInstant) -> Int? {
        record.unlogged += 1
        var report: Int?
        if record.lastLogged.map({ now.since($0) >= logInterval }) ?? true {
            report = record.unlogged
            record.unlogged = 0
            record.lastLogged = now
        }
        records[host] = record
        if records.count > capacity,
            let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })
        {
            records[oldest.key] = nil
        }
        return report
    }

    /// When the next held-back count falls due: the earliest host with failures or refusals not
    /// yet in a line, one `logInterval` after its last line. Nil when nothing is held back.
    public var nextReportDue: SyncInstant? {
        records.values.filter { $0.unlogged > 0 }.compactMap { $0.lastLogged.map { $0 + logInterval } }.min()
    }

    /// The counts held back whose interval has passed, each host's since its last line; they
    /// count as logged now. A burst followed by silence is thus reported in full, one interval on.
    public mutating func dueReports(now: SyncInstant) -> [(host: String, count: Int)] {
        var due: [(host: String, count: Int)] = []
        for (host, var record) in records where record.unlogged > 0 {
            guard let logged = record.lastLogged, now.since(logged) >= logInterval else { continue }
            due.append((host, record.unlogged))
            record.unlogged = 0
            record.lastLogged = now
            records[host] = record
        }
        return due.sorted { $0.host < $1.host }
    }

    /// A handshake from `host` succeeded.
    public mutating func recordSuccess(of host: String) {
        records[host] = nil
    }

    /// Failures counted for `host` (for tests and the status).
    public func failures(of host: String) -> Int {
        records[host]?.failures ?? 0
    }
}
