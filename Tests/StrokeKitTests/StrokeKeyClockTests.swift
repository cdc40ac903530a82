import StrokeKit
import StrokeKitTestSupport
import Testing

@Suite struct StrokeKeyClockTests {
    @Test func usesTheGivenTimeAndPeer() {
        var clock = StrokeKeyClock(peerShortID: "3fa2c1")
        #expect(
            clock.nextKey(nowMilliseconds: 1_774_455_614_127).rawValue == "2026-03-25T16:20:14.127Z~3fa2c1")
    }

    @Test func bumpsByOneMillisecondWhenTheClockRepeats() {
        var clock = StrokeKeyClock(peerShortID: "ab")
        let keys = (0..<5).map { _ in clock.nextKey(nowMilliseconds: 1_000) }
        #expect(keys.map(\.creationMilliseconds) == [1_000, 1_001, 1_002, 1_003, 1_004])
        #expect(Set(keys).count == 5)
    }

    @Test func neverGoesBackwardsWhenTheWallClockStepsBack() {
        var clock = StrokeKeyClock(peerShortID: "ab")
        let first = clock.nextKey(nowMilliseconds: 5_000)
        let second = clock.nextKey(nowMilliseconds: 1_000)
        #expect(second > first)
        #expect(second.creationMilliseconds == 5_001)
        #expect(clock.nextKey(nowMilliseconds: 9_000).creationMilliseconds == 9_000)
    }

    @Test func neverReusesAnObservedKeyOfItsOwnPeer() {
        var clock = StrokeKeyClock(peerShortID: "ab")
        clock.observe(Fixtures.key(7_000, peer: "ab"))
        clock.observe(Fixtures.key(6_000, peer: "ab"))
        let key = clock.nextKey(nowMilliseconds: 7_000)
        #expect(key.creationMilliseconds == 7_001)
    }

    @Test func otherPeersKeysDoNotMoveTheClock() {
        var clock = StrokeKeyClock(peerShortID: "ab")
        clock.observe(Fixtures.key(90_000, peer: "cd"))
        #expect(clock.nextKey(nowMilliseconds: 1_000).creationMilliseconds == 1_000)
    }

    @Test func normalisesThePeerShortID() {
        #expect(StrokeKeyClock(peerShortID: "3FA2C1").peerShortID == "3fa2c1")
        #expect(StrokeKeyClock(peerShortID: "a-b_c~d").peerShortID == "abcd")
        #expect(StrokeKeyClock(peerShortID: "~~").peerShortID == "0")
        #expect(StrokeKeyClock(peerShortID: String(repeating: "x", count: 40)).peerShortID.count == 16)
    }

    @Test func shortIDOfAPeerIDIsSixHexDigits() {
        #expect(StrokeKeyClock.shortID(forPeerID: 0x3FA2_C1DE_ADBE_EF00) == "3fa2c1")
        #expect(StrokeKeyClock.shortID(forPeerID: 0x0000_0100_0000_0000) == "000001")
    }

    @Test func clampsTimesOutsideTheKeySpace() {
        var clock = StrokeKeyClock(peerShortID: "ab")
        #expect(clock.nextKey(nowMilliseconds: -50).creationMilliseconds == 0)
        #expect(clock.nextKey(nowMilliseconds: .max).creationMilliseconds == StrokeKey.maximumMilliseconds)
    }
}
