import EventRuntime
import MonotonicTime
import Testing

/// Time moves only when the test moves it, and timers fire in deadline order.
@Suite struct ManualEventLoopTests {
    private let loop = ManualEventLoop(now: SyncInstant(milliseconds: 1_000))

    @Test func timersFireInDeadlineOrderThenInTheOrderTheyWereScheduled() {
        var fired: [String] = []
        loop.schedule(at: SyncInstant(milliseconds: 1_300)) { fired.append("c") }
        loop.schedule(at: SyncInstant(milliseconds: 1_100)) { fired.append("a") }
        loop.schedule(at: SyncInstant(milliseconds: 1_300)) { fired.append("d") }
        loop.schedule(at: SyncInstant(milliseconds: 1_200)) { fired.append("b") }
        loop.advance(by: .milliseconds(500))
        #expect(fired == ["a", "b", "c", "d"])
        #expect(loop.now == SyncInstant(milliseconds: 1_500))
    }

    @Test func aTimerRunsAtItsOwnDeadlineAndSeesThatTime() {
        var seen: [Int64] = []
        loop.schedule(at: loop.now + .milliseconds(250)) { [loop] in
            seen.append(loop.now.milliseconds)
            loop.schedule(at: loop.now + .milliseconds(250)) { seen.append(loop.now.milliseconds) }
        }
        loop.advance(by: .milliseconds(100))
        #expect(seen.isEmpty, "time stood still until the test moved it past the deadline")
        loop.advance(by: .seconds(1))
        #expect(seen == [1_250, 1_500])
    }

    @Test func aCancelledTimerNeverFires() {
        var fired = false
        let timer = loop.schedule(at: loop.now + .milliseconds(10)) { fired = true }
        loop.cancel(timer)
        loop.advance(by: .seconds(1))
        #expect(!fired)
        #expect(loop.nextDeadline == nil)
    }

    @Test func runUntilJumpsFromDeadlineToDeadlineAndGivesUpAtTheTimeout() {
        var ticks = 0
        func tick() {
            ticks += 1
            loop.schedule(at: loop.now + .seconds(1)) { tick() }
        }
        tick()
        #expect(loop.run(until: { ticks == 5 }, timeout: .seconds(20)))
        #expect(loop.now == SyncInstant(milliseconds: 5_000))
        #expect(!loop.run(until: { ticks == 100 }, timeout: .seconds(10)))
        #expect(loop.now == SyncInstant(milliseconds: 15_000))
    }

    @Test func aDescriptorIsReadableOrWritableOnlyWhenTheTestSaysSo() {
        var events: [String] = []
        loop.register(7) { events.append("read") }
        #expect(!loop.fireWritable(7))
        loop.setWritable(7) { events.append("write") }
        #expect(loop.fireReadable(7) && loop.fireWritable(7))
        loop.unregister(7)
        #expect(!loop.fireReadable(7) && !loop.isRegistered(7))
        #expect(events == ["read", "write"])
    }

    @Test func oneTurnWaitsForTheNearestDeadlineAndLeavesWhatItSchedulesForTheNext() {
        var fired: [String] = []
        loop.schedule(at: loop.now + .milliseconds(3)) { [loop] in
            fired.append("due")
            loop.schedule(at: loop.now) { fired.append("next turn") }
        }
        loop.runOnce(maximumWait: .milliseconds(5))
        #expect(fired == ["due"] && loop.now == SyncInstant(milliseconds: 1_003))
        loop.runOnce(maximumWait: .milliseconds(5))
        #expect(fired == ["due", "next turn"] && loop.now == SyncInstant(milliseconds: 1_003))
        loop.runOnce(maximumWait: .milliseconds(5))
        #expect(loop.now == SyncInstant(milliseconds: 1_008), "with nothing due, a turn waits its maximum")
    }
}

/// Many timers scheduled and cancelled in a seeded random order fire exactly as a plain list
/// sorted by deadline, then by the order scheduled, says they should (the loops keep them in a
/// heap that drops cancelled ones lazily and is rebuilt when they pile up).
@Suite struct TimerOrderTests {
    @Test(arguments: [1, 7, 42])
    func manyTimersScheduledAndCancelledFireInDeadlineThenScheduleOrder(seed: UInt64) {
        let loop = ManualEventLoop(now: SyncInstant(milliseconds: 0))
        var random = SplitMix(seed: seed)
        var live: [(timer: EventLoopTimer, deadline: Int64, order: Int)] = []
        var fired: [Int] = []
        for order in 0..<2_000 {
            let deadline = Int64(random.next() % 500)
            let timer = loop.schedule(at: SyncInstant(milliseconds: deadline)) { fired.append(order) }
            live.append((timer, deadline, order))
            if random.next() % 3 != 0, !live.isEmpty {
                let index = Int(random.next() % UInt64(live.count))
                loop.cancel(live.remove(at: index).timer)
            }
        }
        let expected: [(deadline: Int64, order: Int)] = live.map { ($0.deadline, $0.order) }
        let order = expected.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }.map(\.order)
        #expect(loop.nextDeadline?.milliseconds == expected.map(\.deadline).min())
        loop.advance(by: .seconds(1))
        #expect(fired == order)
        #expect(loop.nextDeadline == nil)
    }
}

/// SplitMix64: a seeded generator for the test above.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
