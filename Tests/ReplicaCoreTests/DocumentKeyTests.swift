import Testing

@testable import ReplicaCore

/// A key hashes its names once, when it is made; it is still equal exactly when both names are,
/// and tables keyed by it find it by its names alone.
@Suite struct DocumentKeyTests {
    @Test func equalExactlyWhenBothNamesAre() {
        let key = DocumentKey(collection: "drawings", id: "sketch")
        #expect(key == DocumentKey(collection: "drawings", id: "sketch"))
        #expect(key.hashValue == DocumentKey(collection: "drawings", id: "sketch").hashValue)
        #expect(key != DocumentKey(collection: "drawings", id: "sketch2"))
        #expect(key != DocumentKey(collection: "drawing", id: "sketch"))
        // The names are hashed apart: moving a character from one to the other is another key.
        #expect(DocumentKey(collection: "ab", id: "c") != DocumentKey(collection: "a", id: "bc"))
    }

    @Test func tablesFindAKeyMadeAgainFromItsNames() {
        var table: [DocumentKey: Int] = [:]
        for index in 0..<500 { table[DocumentKey(collection: "c\(index % 7)", id: "d\(index)")] = index }
        #expect(table.count == 500)
        for index in 0..<500 {
            #expect(table[DocumentKey(collection: "c\(index % 7)", id: "d\(index)")] == index)
        }
        #expect(table[DocumentKey(collection: "c1", id: "d0")] == nil)
        let set: Set = [DocumentKey(collection: "a", id: "b"), DocumentKey(collection: "a", id: "b")]
        #expect(set.count == 1)
    }
}
