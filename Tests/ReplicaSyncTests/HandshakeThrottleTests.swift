import MonotonicTime
import ReplicaSync
import Testing

@Suite struct HandshakeThrottleTests {
    @Test func eachFailureBeyondTheFreeOnesDoublesTheWaitUpToTheMaximum() {
        var throttle = HandshakeThrottle()
        var now = SyncInstant(milliseconds: 0)
        var waits: [Int64] = []
        for _ in 0..<10 {
            _ = throttle.recordFailure(of: "203.0.113.9", now: now)
            waits.append(throttle.remainingDelay(for: "203.0.113.9", now: now)?.wholeMilliseconds ?? 0)
            now = now + .seconds(60)
        }
        #expect(waits == [0, 0, 0, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000])
        // Another host is not affected; the wait runs down; a success clears the record.
        #expect(throttle.remainingDelay(for: "198.51.100.1", now: now) == nil)
        _ = throttle.recordFailure(of: "203.0.113.9", now: now)
        #expect(
            throttle.remainingDelay(for: "203.0.113.9", now: now + .seconds(29))?.wholeMilliseconds == 1_000)
        #expect(throttle.remainingDelay(for: "203.0.113.9", now: now + .seconds(30)) == nil)
        throttle.recordSuccess(of: "203.0.113.9")
        #expect(throttle.failures(of: "203.0.113.9") == 0)
    }

    @Test func aHostIsLoggedOncePerIntervalWithTheCountOfWhatWasHeldBack() {
        var throttle = HandshakeThrottle()
        let start = SyncInstant(milliseconds: 0)
        var reports: [Int?] = []
        for step in 0..<25 {
            reports.append(
                throttle.recordFailure(of: "203.0.113.9", now: start + .milliseconds(Int64(step) * 1_000)))
        }
        // At 0 s, 10 s and 20 s: one line each, counting the failures since the last line.
        #expect(reports.compactMap { $0 } == [1, 10, 10])
        #expect(reports.firstIndex { $0 == 10 } == 10)
        // Refusals (a host waiting, a full handshake table) are logged but not counted.
        var other = HandshakeThrottle()
        for _ in 0..<50 { _ = other.recordRefusal(of: "198.51.100.1", now: start) }
        #expect(other.failures(of: "198.51.100.1") == 0)
        #expect(other.remainingDelay(for: "198.51.100.1", now: start) == nil)
    }

    @Test func aBurstFollowedBySilenceIsReportedInFullOneIntervalOn() {
        var throttle = HandshakeThrottle()
        let start = SyncInstant(milliseconds: 0)
        #expect(throttle.recordFailure(of: "203.0.113.9", now: start) == 1)
        for step in 1...40 {
            #expect(
                throttle.recordFailure(of: "203.0.113.9", now: start + .milliseconds(Int64(step) * 100))
                    == nil)
        }
        _ = throttle.recordRefusal(of: "198.51.100.1", now: start + .seconds(1))
        // The second host's first refusal was its line; nothing of it is held back.
        #expect(throttle.nextReportDue == start + .seconds(10))
        #expect(throttle.dueReports(now: start + .milliseconds(9_999)).isEmpty)
        let due = throttle.dueReports(now: start + .seconds(10))
        #expect(due.map(\.host) == ["203.0.113.9"])
        #expect(due.map(\.count) == [40])
        #expect(throttle.nextReportDue == nil)
        #expect(throttle.dueReports(now: start + .seconds(60)).isEmpty)
    }
}
