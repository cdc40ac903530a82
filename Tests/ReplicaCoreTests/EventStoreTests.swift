import TestSupport
import Testing

@testable import ReplicaCore

/// `EventStore` keeps a peer's events in an array by counter, marks them removed in place and
/// keeps far counters in a sparse map: seeded random inserts (dense, with gaps, and far past the
/// arrays), removals and drops, checked after every step against a dictionary of whole events.
@Suite struct EventStoreTests {
    static let peers = [PeerID(0x11), PeerID(0x22), PeerID(0x33)]

    func randomEvent(_ dot: Dot, _ rng: inout SplitMix64) -> DocumentEvent {
        let kind = DocumentEvent.Kind(rawValue: UInt8(rng.next() % 3))!
        var context = VersionVector()
        for peer in Self.peers where rng.next() % 2 == 0 { context[peer] = rng.next() % 50 }
        let values: [DocumentValue?] = [
            nil, .null, .bool(true), .number(2.5), .string("QUJD"), .array([.null]),
        ]
        var event = DocumentEvent(
            dot: dot,
            timestamp: HybridTimestamp(
                milliseconds: Int64(rng.next() % 1000), counter: UInt32(rng.next() % 9)),
            path: (0..<Int(rng.next() % 3)).map { _ in ["a", "b"][Int(rng.next() % 2)] }, kind: kind,
            value: values[Int(rng.next() % 6)], context: context, isRemoved: rng.next() % 4 == 0)
        // Hand-made forms too: a removed event that still names a value comes back as it went in.
        if rng.next() % 8 == 0 { event.value = .string("kept") }
        return event
    }

    func expect(_ store: EventStore, holds model: [Dot: DocumentEvent]) {
        #expect(store.count == model.count)
        var inOrder: [DocumentEvent] = []
        store.forEachInDotOrder { inOrder.append($0) }
        #expect(inOrder == model.keys.sorted().map { model[$0]! })
        for peer in Self.peers {
            var run: [DocumentEvent] = []
            store.forEach(of: peer, in: 3...40) { run.append($0) }
            let expected = model.keys.filter { $0.peer == peer && (3...40).contains($0.counter) }.sorted()
            #expect(run == expected.map { model[$0]! })
            for counter in UInt64(0)...45 {
                let dot = Dot(peer: peer, counter: counter)
                let event = model[dot]
                #expect(store[dot] == event)
                #expect(store.isRemoved(at: dot) == event?.isRemoved)
                #expect(store.kind(at: dot) == event?.kind)
                #expect(store.path(at: dot) == event?.path)
                #expect(store.timestamp(at: dot) == event?.timestamp)
                #expect(store.kindAndValue(at: dot)?.value == event?.value)
            }
        }
    }

    @Test(arguments: UInt64(1)...30)
    func aStoreHoldsWhatADictionaryOfEventsHolds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var store = EventStore()
        var model: [Dot: DocumentEvent] = [:]
        for _ in 0..<150 {
            let peer = Self.peers[Int(rng.next() % 3)]
            // Mostly the next counters, sometimes a gap; now and then one far past the array.
            let counter = rng.next() % 20 == 0 ? 10_000 + rng.next() % 5 : rng.next() % 45
            let dot = Dot(peer: peer, counter: counter)
            switch rng.next() % 4 {
            case 0, 1:
                guard model[dot] == nil else { break }
                let event = randomEvent(dot, &rng)
                store.insert(event)
                model[dot] = event
            case 2:
                #expect(store.markRemoved(dot) == (model[dot] != nil))
                model[dot] = model[dot]?.removed
            default:
                store.drop(dot)
                model[dot] = nil
            }
            expect(store, holds: model)
        }
    }
}
