import DrawingSync
import Testing

@Suite struct FlushDebouncerTests {
    /// The timeline from the issue: edits at 0 and 50 ms flush once, at 150 ms, and not at 100 ms.
    @Test func editsAtZeroAndFiftyFlushOnceAtOneHundredFifty() {
        var debouncer = FlushDebouncer(quietPeriod: 100)
        var flushes: [Int64] = []
        let edits: Set<Int64> = [0, 50]
        for now in Int64(0)...400 {
            if edits.contains(now) { debouncer.edited(now: now) }
            if debouncer.poll(now: now) == .flush { flushes.append(now) }
        }
        #expect(flushes == [150])
    }

    @Test func nothingPendingMeansIdleAndNoDeadline() {
        var debouncer = FlushDebouncer()
        #expect(debouncer.poll(now: 1_000) == .idle)
        #expect(debouncer.deadline == nil)
    }

    @Test func pollBeforeTheDeadlineSaysWhenToComeBack() {
        var debouncer = FlushDebouncer(quietPeriod: 100)
        #expect(debouncer.edited(now: 10) == .wait(until: 110))
        #expect(debouncer.poll(now: 60) == .wait(until: 110))
        #expect(debouncer.deadline == 110)
        #expect(debouncer.poll(now: 110) == .flush)
        #expect(debouncer.poll(now: 111) == .idle)
    }

    @Test func aFailedFlushIsRetriedAfterAnotherQuietPeriod() {
        var debouncer = FlushDebouncer(quietPeriod: 100)
        debouncer.edited(now: 0)
        #expect(debouncer.poll(now: 100) == .flush)
        debouncer.retry(now: 100)
        #expect(debouncer.poll(now: 150) == .wait(until: 200))
        #expect(debouncer.poll(now: 200) == .flush)
    }

    @Test func aSteadyStreamOfEditsKeepsPostponingTheFlush() {
        var debouncer = FlushDebouncer(quietPeriod: 100)
        var flushed = false
        for now in stride(from: Int64(0), through: 1_000, by: 60) {
            debouncer.edited(now: now)
            if debouncer.poll(now: now + 59) == .flush { flushed = true }
        }
        #expect(!flushed)
        #expect(debouncer.poll(now: 1_060 + 100) == .flush)
    }
}
