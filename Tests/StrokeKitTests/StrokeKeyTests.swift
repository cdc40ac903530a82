import StrokeKitTestSupport
import TestSupport
import Testing

@testable import StrokeKit

@Suite struct StrokeKeyTests {
    @Test func formatsCreationTimeAsISO8601UTCWithMillisecondsAndPeerSuffix() {
        #expect(Fixtures.key(1_774_455_614_127, peer: "3fa2c1").rawValue == "2026-03-25T16:20:14.127Z~3fa2c1")
        #expect(Fixtures.key(0, peer: "a").rawValue == "1970-01-01T00:00:00.000Z~a")
        #expect(Fixtures.key(951_782_400_000, peer: "a").rawValue == "2000-02-29T00:00:00.000Z~a")
        #expect(Fixtures.key(4_107_542_400_000, peer: "a").rawValue == "2100-03-01T00:00:00.000Z~a")
        #expect(
            Fixtures.key(StrokeKey.maximumMilliseconds, peer: "z").rawValue == "9999-12-31T23:59:59.999Z~z")
    }

    @Test func parsesTheExampleKeyFromTheDesign() throws {
        let key = try #require(StrokeKey(rawValue: "2026-03-25T16:20:14.127Z~3fa2c1"))
        #expect(key.creationMilliseconds == 1_774_455_614_127)
        #expect(key.peerSuffix == "3fa2c1")
    }

    /// A key with one byte replaced by any other is either refused or another canonical key:
    /// one whose own text is exactly the changed text, at the time that text says.
    @Test(arguments: [UInt64(4), 5, 6])
    func aChangedByteGivesNoKeyOrACanonicalOne(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let milliseconds = Int64.random(in: 0...StrokeKey.maximumMilliseconds, using: &generator)
            var bytes = Array(Fixtures.key(milliseconds, peer: "q\(seed)z").rawValue.utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                in: 0...127, using: &generator)
            let text = String(decoding: bytes, as: UTF8.self)
            guard let key = StrokeKey(rawValue: text) else { continue }
            #expect(key.rawValue == text)
            let suffix = String(text.dropFirst(UTCTimestamp.length + 1))
            #expect(
                StrokeKey(creationMilliseconds: key.creationMilliseconds, peerSuffix: suffix)?.rawValue
                    == text)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func parsingInvertsFormattingAcrossTheWholeRange(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...StrokeKey.maximumMilliseconds, using: &generator)
            let key = Fixtures.key(milliseconds, peer: "p\(seed)")
            let parsed = try #require(StrokeKey(rawValue: key.rawValue))
            #expect(parsed.creationMilliseconds == milliseconds)
            #expect(parsed == key)
        }
    }

    @Test(arguments: [
        "", "2026-03-25T16:20:14.127Z", "2026-03-25T16:20:14.127Z~", "2026-03-25T16:20:14.127Z-3fa2c1",
        "2026-03-25T16:20:14.12Z~3fa2c1", "2026-03-25 16:20:14.127Z~3fa2c1", "2026-13-25T16:20:14.127Z~a",
        "2026-02-29T16:20:14.127Z~a", "2100-02-29T00:00:00.000Z~a", "2026-04-31T00:00:00.000Z~a",
        "2026-03-25T24:00:00.000Z~a", "2026-03-25T16:60:14.127Z~a", "2026-03-25T16:20:60.127Z~a",
        "2026-03-25T16:20:14.127Z~3FA2C1", "2026-03-25T16:20:14.127Z~3fa 2c1", "2026-03-25T16:20:14.127Z~a~b",
        "2026-03-25T16:20:14.127Z~12345678901234567", "1969-12-31T23:59:59.999Z~a",
        "+026-03-25T16:20:14.127Z~a",
        "2026-03-25T16:20:14.127+00:00~a", "not valid base64!@#",
    ])
    func rejectsMalformedKeys(text: String) {
        #expect(StrokeKey(rawValue: text) == nil)
    }

    @Test func refusesTimesAndSuffixesOutsideTheKeySpace() {
        #expect(StrokeKey(creationMilliseconds: -1, peerSuffix: "a") == nil)
        #expect(StrokeKey(creationMilliseconds: StrokeKey.maximumMilliseconds + 1, peerSuffix: "a") == nil)
        #expect(StrokeKey(creationMilliseconds: 0, peerSuffix: "") == nil)
        #expect(StrokeKey(creationMilliseconds: 0, peerSuffix: "A") == nil)
    }

    @Test func sameTimeAndPeerGiveTheSameKey() {
        #expect(Fixtures.key(1_700_000_000_000) == Fixtures.key(1_700_000_000_000))
        #expect(Fixtures.key(1_700_000_000_000).rawValue == Fixtures.key(1_700_000_000_000).rawValue)
    }

    @Test func hundredTimesOneMillisecondApartGiveHundredDistinctKeys() {
        let keys = (0..<100).map { Fixtures.key(1_700_000_000_000 + Int64($0)) }
        #expect(Set(keys).count == 100)
        #expect(Set(keys.map(\.rawValue)).count == 100)
    }

    @Test func keysSortInCreationOrder() {
        let keys = [3000, 1000, 2000].map { Fixtures.key(Int64($0) * 1000) }
        #expect(keys.sorted().map(\.creationMilliseconds) == [1_000_000, 2_000_000, 3_000_000])
    }

    /// `<` is exactly the byte order of the raw keys (what the replica's map and every peer sort by).
    @Test func orderMatchesTheBytesOfTheRawKeys() {
        var generator = SplitMix64(seed: 7)
        let suffixes = ["a", "ab", "b", "a0", "z", "0", "00", "zz9", "abcdef0123456789"]
        let keys = (0..<400).map { _ in
            Fixtures.key(
                Int64.random(in: 1_000...1_010, using: &generator),
                peer: suffixes.randomElement(using: &generator) ?? "a")
        }
        for a in keys.prefix(60) {
            for b in keys.suffix(60) {
                #expect((a < b) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8))
            }
        }
    }

    @Test func keyOrderIsTimeOrderThenPeerForSeededTimes() {
        var generator = SplitMix64(seed: 42)
        let keys = (0..<500).map { _ in
            Fixtures.key(
                Int64.random(in: 0...StrokeKey.maximumMilliseconds, using: &generator),
                peer: ["a", "b", "c9"].randomElement(using: &generator) ?? "a")
        }
        let sorted = keys.sorted()
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            #expect(
                earlier.creationMilliseconds < later.creationMilliseconds
                    || (earlier.creationMilliseconds == later.creationMilliseconds
                        && earlier.peerSuffix <= later.peerSuffix)
            )
            #expect(earlier.rawValue <= later.rawValue)
        }
    }

    @Test func twoPeersInTheSameMillisecondGetDifferentKeys() {
        #expect(
            Fixtures.key(1_700_000_000_000, peer: "aaaaaa") != Fixtures.key(1_700_000_000_000, peer: "bbbbbb")
        )
    }
}
