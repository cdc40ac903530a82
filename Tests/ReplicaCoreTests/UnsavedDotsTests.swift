import Testing

@testable import ReplicaCore

/// The unsaved dots by document: the first document written is held apart from the table, and
/// every operation reads as one table would.
@Suite struct UnsavedDotsTests {
    let a = DocumentKey(collection: "drawings", id: "a")
    let b = DocumentKey(collection: "drawings", id: "b")
    let c = DocumentKey(collection: "notes", id: "a")

    func dots(_ counters: UInt64...) -> [Dot] {
        counters.map { Dot(peer: PeerID(7), counter: $0) }
    }

    @Test func oneDocumentIsTakenAloneAndLeavesNothing() {
        var unsaved = UnsavedDots()
        #expect(unsaved.isEmpty)
        unsaved.record([], for: a)
        #expect(unsaved.isEmpty, "nothing touched is nothing unsaved")
        unsaved.record(dots(1), for: a)
        unsaved.record(dots(2, 1), for: a)
        #expect(unsaved[a] == dots(1, 2, 1))
        #expect(unsaved.keys == [a])
        let only = unsaved.takeOnly()
        #expect(only?.key == a && only?.dots == dots(1, 2, 1))
        #expect(unsaved.isEmpty && unsaved.takeOnly() == nil && unsaved[a] == nil)
    }

    @Test func severalDocumentsReadAsOneTable() {
        var unsaved = UnsavedDots()
        unsaved.record(dots(1), for: a)
        unsaved.record(dots(2), for: b)
        unsaved.record(dots(3), for: c)
        unsaved.record(dots(4), for: b)
        #expect(unsaved.takeOnly() == nil, "more than one document is not taken alone")
        #expect(Set(unsaved.keys) == [a, b, c] && unsaved.keys.count == 3)
        #expect(unsaved[a] == dots(1) && unsaved[b] == dots(2, 4) && unsaved[c] == dots(3))
        // Removing the first document held apart keeps the others, one of them now first.
        unsaved.remove(a)
        #expect(unsaved[a] == nil && Set(unsaved.keys) == [b, c])
        unsaved.remove(c)
        #expect(unsaved.keys == [b])
        #expect(unsaved.takeOnly()?.dots == dots(2, 4))
        unsaved.record(dots(5), for: c)
        unsaved.record(dots(6), for: a)
        unsaved.removeAll()
        #expect(unsaved.isEmpty && unsaved.keys.isEmpty && unsaved[c] == nil)
    }
}
