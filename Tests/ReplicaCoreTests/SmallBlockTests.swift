import ByteCoding
import TestSupport
import Testing

@testable import ReplicaCore

/// The block writer for a few events (a local write that replaced a value, a short delta) writes
/// what the writer with sets and dictionaries writes, byte for byte, so rows of either decode the
/// same and the stored format is unchanged.
@Suite struct SmallBlockTests {
    /// Two to `smallBlockEvents` events: random ones, and now and then a value with the removed
    /// form of the value it replaced at the same path, as a local overwrite stores them.
    static func randomBlock(_ rng: inout SplitMix64) -> [DocumentEvent] {
        let count = 2 + Int(rng.next() % UInt64(DocumentEvent.smallBlockEvents - 1))
        var events = (0..<count).map { _ in OneEventBlockTests.randomEvent(&rng) }
        if rng.next() % 3 == 0 {
            var replaced = events[0].removed
            replaced.dot = Dot(peer: events[0].dot.peer, counter: events[0].dot.counter + 1)
            events[1] = replaced
        }
        return events
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aFewEventsAreWrittenAsTheGeneralWriterWritesThemAndReadBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let events = Self.randomBlock(&rng)
            for format in [EventBlockFormat.two, .three] {
                #expect(
                    DocumentEvent.encodedBlock(events, format: format, withTables: false)
                        == DocumentEvent.encodedBlock(events, format: format, withTables: true), "\(events)")
            }
            let row = DocumentEvent.encodedList(events)
            #expect(row == [3, 1] + DocumentEvent.encodedBlock(events, format: .three, withTables: true))
            #expect(try DocumentEvent.decodedList(row) == events)
        }
    }

    @Test func blocksAtTheLimitAndPastItAreWrittenAsTheGeneralWriterWritesThem() {
        var rng = SplitMix64(seed: 9)
        let many = (0..<(DocumentEvent.smallBlockEvents + 3)).map { _ in OneEventBlockTests.randomEvent(&rng)
        }
        // At the small writer's limit it agrees with the general one; past it, the general one writes.
        let atLimit = Array(many.prefix(DocumentEvent.smallBlockEvents))
        var small = ByteWriter()
        DocumentEvent.writeSmallBlock(atLimit, format: .three, to: &small)
        #expect(small.bytes == DocumentEvent.encodedBlock(atLimit, format: .three, withTables: true))
        #expect(
            DocumentEvent.encodedBlock(many, format: .three, withTables: false)
                == DocumentEvent.encodedBlock(many, format: .three, withTables: true))
    }
}
