import TestSupport
import Testing

@testable import ReplicaCore

/// The pointwise maximum of two vectors, whichever way `formUnion` takes to it (sharing the other
/// side's buffer, merging in place, or one new buffer of both when each side has peers the other
/// lacks), and the gap test of a delta's events in dot order against the one that sorts.
@Suite struct VersionVectorTests {
    @Test(arguments: UInt64(1)...8)
    func aUnionIsThePointwiseMaximumOfTheCounters(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let left = Self.randomCounters(&rng)
            let right = Self.randomCounters(&rng)
            var vector = VersionVector(left)
            let shared = vector  // the buffer is shared, as between an event and a node's fact
            vector.formUnion(VersionVector(right))
            #expect(vector == VersionVector(left.merging(right, uniquingKeysWith: max)))
            #expect(shared == VersionVector(left), "the union changed a vector it shared a buffer with")
        }
    }

    @Test(arguments: UInt64(1)...8)
    func aGapInEventsInDotOrderIsFoundAsWhenTheyAreSorted(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let have = VersionVector(Self.randomCounters(&rng))
            var dots: [Dot] = []
            for peer in 1...UInt64(1 + rng.next() % 3) {
                var counter = have[PeerID(peer)] + (rng.next() % 2)
                for _ in 0..<(rng.next() % 4) {
                    counter += 1 + (rng.next() % 6 == 0 ? 1 : 0)
                    dots.append(Dot(peer: PeerID(peer), counter: counter))
                }
            }
            if rng.next() % 4 == 0, dots.count > 1 { dots.swapAt(0, dots.count - 1) }
            let events = dots.map { Self.event($0) }
            #expect(ReplicaState.hasGap(events, after: have) == Self.referenceGap(dots, after: have))
        }
    }

    /// Whether some peer's counters skip one after what `have` holds, taken the plain way.
    private static func referenceGap(_ dots: [Dot], after have: VersionVector) -> Bool {
        var next: [PeerID: UInt64] = [:]
        for dot in dots.sorted() {
            let expected = next[dot.peer] ?? have[dot.peer] + 1
            if dot.counter < expected { continue }
            if dot.counter > expected { return true }
            next[dot.peer] = expected + 1
        }
        return false
    }

    private static func randomCounters(_ rng: inout SplitMix64) -> [PeerID: UInt64] {
        var counters: [PeerID: UInt64] = [:]
        for peer in 1...UInt64(5) where rng.next() % 2 == 0 { counters[PeerID(peer)] = 1 + rng.next() % 9 }
        return counters
    }

    private static func event(_ dot: Dot) -> DocumentEvent {
        DocumentEvent(
            dot: dot, timestamp: HybridTimestamp(milliseconds: 1, counter: 0), path: ["strokes", "k"],
            kind: .value, value: .string("v"), context: VersionVector(), isRemoved: false)
    }
}
