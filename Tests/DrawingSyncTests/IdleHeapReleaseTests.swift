import DrawingSync
import Testing

/// The release of freed heap while the app is idle: once per quiet spell that follows activity,
/// never during activity, never twice for the same activity.
@Suite struct IdleHeapReleaseTests {
    /// Frames every 16 ms for a second, then nothing: one release, 3 s after the last frame.
    @Test func aBurstOfFramesIsFollowedByOneReleaseAfterTheQuietPeriod() {
        var idle = IdleHeapRelease(quietPeriod: 3_000)
        var releases: [Int64] = []
        for now in Int64(0)...10_000 {
            if now <= 1_000, now % 16 == 0 { idle.noteActivity(now: now) }
            if idle.poll(now: now) == .release { releases.append(now) }
        }
        #expect(releases == [3_992])  // the last frame is at 992
    }

    @Test func nothingSinceTheLastReleaseMeansIdleAndNoDeadline() {
        var idle = IdleHeapRelease(quietPeriod: 3_000)
        #expect(idle.poll(now: 50_000) == .idle)
        #expect(idle.deadline == nil)
        idle.noteActivity(now: 0)
        #expect(idle.poll(now: 3_000) == .release)
        #expect(idle.poll(now: 60_000) == .idle)
        #expect(idle.deadline == nil)
    }

    @Test func aLookBeforeTheDeadlineSaysWhenToComeBack() {
        var idle = IdleHeapRelease(quietPeriod: 3_000)
        idle.noteActivity(now: 100)
        #expect(idle.poll(now: 2_000) == .wait(until: 3_100))
        // Activity meanwhile moves the deadline: the driver's timer comes back to it.
        idle.noteActivity(now: 2_500)
        #expect(idle.poll(now: 3_100) == .wait(until: 5_500))
        #expect(idle.poll(now: 5_500) == .release)
    }

    @Test func activityAfterAReleaseEarnsAnotherOne() {
        var idle = IdleHeapRelease(quietPeriod: 3_000)
        var releases: [Int64] = []
        let activity: Set<Int64> = [0, 10_000, 10_500]
        for now in Int64(0)...20_000 {
            if activity.contains(now) { idle.noteActivity(now: now) }
            if idle.poll(now: now) == .release { releases.append(now) }
        }
        #expect(releases == [3_000, 13_500])
    }

    @Test func aClockThatStepsBackDoesNotBringTheDeadlineForward() {
        var idle = IdleHeapRelease(quietPeriod: 3_000)
        idle.noteActivity(now: 5_000)
        idle.noteActivity(now: 4_000)
        #expect(idle.deadline == 8_000)
    }
}
