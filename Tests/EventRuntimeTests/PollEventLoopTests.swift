import EventRuntime
import MonotonicTime
import Testing

/// The real loop schedules by the clock it is given.
@Suite struct PollEventLoopTests {
    @Test func aTimerIsDueByTheInjectedClockNotTheSystemOne() throws {
        let loop = try PollEventLoop(clock: MonotonicClock { SyncInstant(milliseconds: 5_000) })
        var fired: [Int64] = []
        loop.schedule(at: SyncInstant(milliseconds: 4_999)) { fired.append(loop.now.milliseconds) }
        loop.schedule(at: SyncInstant(milliseconds: 5_001)) { fired.append(-1) }
        loop.runOnce(maximumWait: .zero)
        #expect(fired == [5_000])
    }
}
