import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore

/// The write without DQL (`upsert(_:into:wall:)`, `unset(_:in:wall:)`) against the statements it
/// stands for: two replicas with the same peer id, one running the DQL upsert of the nested
/// document (and the DQL UNSET), the other the entries, must hold the same events (dots,
/// timestamps, contexts), return the same results, leave the same unsaved events and patches
/// for the observers, and send a peer the same delta, whatever came before: deletes, a
/// register written where a map was, concurrent writes of another peer merged in.
@Suite struct DocumentEntryWriteTests {
    static let local = PeerID(0x0A11_CE00_0000_0001)
    static let other = PeerID(0x0B0B_0000_0000_0002)
    static let key = DocumentKey(collection: "drawings", id: "d")

    static let firstLevel = ["strokes", "sweeps", "name"]
    static let secondLevel = ["k0", "k1", "k2", "k3"]
    static let thirdLevel = ["s0", "s1"]

    static func randomPath(_ rng: inout SplitMix64) -> [String] {
        var path = [firstLevel[Int(rng.next() % 3)]]
        if rng.next() % 4 != 0 { path.append(secondLevel[Int(rng.next() % 4)]) }
        if path.count == 2, rng.next() % 3 == 0 { path.append(thirdLevel[Int(rng.next() % 2)]) }
        return path
    }

    static func randomValue(_ rng: inout SplitMix64) -> DocumentValue {
        switch rng.next() % 10 {
        case 0: return .number(Double(rng.next() % 3))
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .object([:])
        case 3: return .object(["x": .string("v\(rng.next() % 2)")])
        default: return .string("v\(rng.next() % 3)")
        }
    }

    /// One to four entries, none at or below another.
    static func randomEntries(_ rng: inout SplitMix64) -> [DocumentEntry] {
        var entries: [DocumentEntry] = []
        for _ in 0..<(1 + rng.next() % 4) {
            let path = randomPath(&rng)
            guard !entries.contains(where: { $0.path.starts(with: path) || path.starts(with: $0.path) })
            else {
                continue
            }
            entries.append(DocumentEntry(path: path, value: randomValue(&rng)))
        }
        return entries
    }

    /// The document a DQL upsert of `entries` takes: each value nested at its path, with `_id`.
    static func nested(_ entries: [DocumentEntry], id: String) -> DocumentValue {
        func place(
            _ value: DocumentValue, at path: ArraySlice<String>, in object: inout [String: DocumentValue]
        ) {
            guard let first = path.first else { return }
            if path.count == 1 {
                object[first] = value
                return
            }
            var inner = object[first]?.objectValue ?? [:]
            place(value, at: path.dropFirst(), in: &inner)
            object[first] = .object(inner)
        }
        var document: [String: DocumentValue] = ["_id": .string(id)]
        for entry in entries { place(entry.value, at: entry.path[...], in: &document) }
        return .object(document)
    }

    /// Both replicas hold the same events and clock; their unsaved events, the patches an
    /// observer would get from them and the delta a peer would get are the same.
    static func expectSame(_ dql: inout ReplicaState, _ entries: inout ReplicaState) {
        #expect(dql.document(key) == entries.document(key))
        #expect(dql.clock == entries.clock)
        #expect(dql.fields("d") == entries.fields("d"))
        let (left, right) = (dql.takeUnsaved(), entries.takeUnsaved())
        #expect(left.map(\.key) == right.map(\.key))
        #expect(left.map(\.dots) == right.map(\.dots))
        #expect(left.map(\.unencoded) == right.map(\.unencoded))
        for (unsavedLeft, unsavedRight) in zip(left, right) {
            let paths = dql.changedPaths(of: unsavedLeft)
            if unsavedLeft.blocks.isEmpty { #expect(paths == Set(unsavedLeft.unencoded.map(\.path))) }
            #expect(
                dql.patches(of: unsavedLeft.key, changedPaths: paths)
                    == entries.patches(
                        of: unsavedRight.key, changedPaths: entries.changedPaths(of: unsavedRight)))
        }
        let since = DocumentVersions()
        #expect(
            dql.changes(collection: "drawings", documentID: nil, since: since).encoded()
                == entries.changes(collection: "drawings", documentID: nil, since: since).encoded())
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 9, 10])
    func entriesWriteWhatTheDQLUpsertAndUnsetWrite(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var dql = ReplicaState(peerID: Self.local)
        var entries = ReplicaState(peerID: Self.local)
        var remote = ReplicaState(peerID: Self.other)
        var wall: Int64 = 1_000
        var written = 0
        for _ in 0..<400 {
            // Now and then the same millisecond again: the clock's counter moves instead.
            wall += Int64(rng.next() % 3)
            switch rng.next() % 20 {
            case 0..<9:
                let chosen = Self.randomEntries(&rng)
                // The order entries come in is not the order they are written in.
                let shuffled = chosen.shuffled(using: &rng)
                let expected = try dql.execute(
                    Statements.insert(.updateLocalDiff), arguments: ["doc": Self.nested(chosen, id: "d")],
                    wall: wall)
                let result = try entries.upsert(shuffled, into: Self.key, wall: wall)
                #expect(result == expected)
                written += result.affectedCount
            case 9..<12:
                let paths = (0..<(1 + rng.next() % 3)).map { _ in Self.randomPath(&rng) }
                let expected = try dql.execute(
                    Statements.unset(paths), arguments: ["id": .string("d")], wall: wall)
                #expect(try entries.unset(paths, in: Self.key, wall: wall) == expected)
            case 12:
                _ = try dql.execute(Statements.delete(), arguments: ["id": .string("d")], wall: wall)
                _ = try entries.execute(Statements.delete(), arguments: ["id": .string("d")], wall: wall)
            case 13, 14:
                // A register where a map may be, or a map where a register may be.
                let path = Array(Self.randomPath(&rng).prefix(1 + Int(rng.next() % 2)))
                let arguments: [String: DocumentValue] = ["id": .string("d"), "value": .string("r")]
                _ = try dql.execute(Statements.set(path), arguments: arguments, wall: wall)
                _ = try entries.execute(Statements.set(path), arguments: arguments, wall: wall)
            case 15..<18:
                _ = try remote.execute(
                    Statements.insert(.updateLocalDiff),
                    arguments: ["doc": Self.nested(Self.randomEntries(&rng), id: "d")], wall: wall)
            default:
                try dql.pull(from: remote, wall: wall)
                try entries.pull(from: remote, wall: wall)
                try remote.pull(from: dql, wall: wall)
            }
            Self.expectSame(&dql, &entries)
        }
        // The walk wrote something, and came through concurrent writes merged both ways.
        #expect(written > 50)
        #expect(dql.document(Self.key)?.versionVector[Self.other] ?? 0 > 0)
    }

    @Test func anEntryTheNestedDocumentCannotSayIsRefusedAndChangesNothing() throws {
        var state = ReplicaState(peerID: Self.local)
        _ = try state.upsert(
            [DocumentEntry(path: ["strokes", "k"], value: .string("a"))], into: Self.key, wall: 1)
        _ = state.takeUnsaved()
        let before = state
        let refused: [[DocumentEntry]] = [
            [DocumentEntry(path: [], value: .object([:]))],
            [DocumentEntry(path: ["_id"], value: .string("other"))],
            [
                DocumentEntry(path: ["strokes", "k2"], value: .string("b")),
                DocumentEntry(path: ["strokes"], value: .string("c")),
            ],
            [
                DocumentEntry(path: ["strokes", "k2"], value: .string("b")),
                DocumentEntry(path: ["strokes", "k2"], value: .string("c")),
            ],
        ]
        for entries in refused {
            #expect(throws: ReplicaError.self) { _ = try state.upsert(entries, into: Self.key, wall: 5) }
            #expect(state.document(Self.key) == before.document(Self.key))
            #expect(state.clock == before.clock)
            #expect(!state.hasUnsavedChanges)
        }
    }

    @Test func anUnsetRefusesWhatTheDQLUnsetRefuses() throws {
        var state = ReplicaState(peerID: Self.local)
        _ = try state.upsert(
            [DocumentEntry(path: ["strokes", "k"], value: .string("a"))], into: Self.key, wall: 1)
        for paths in [[["strokes", ""]], [["_id"]], [["strokes", "k"], []]] {
            var dql = state
            var entries = state
            let expected = #expect(throws: ReplicaError.self) {
                _ = try dql.execute(Statements.unset(paths), arguments: ["id": .string("d")], wall: 5)
            }
            let actual = #expect(throws: ReplicaError.self) {
                _ = try entries.unset(paths, in: Self.key, wall: 5)
            }
            #expect(actual == expected)
            #expect(entries.document(Self.key) == state.document(Self.key))
        }
    }

    @Test func anUpsertOfNoEntriesMakesTheDocumentAsTheDQLUpsertOfOnlyItsIdDoes() throws {
        var dql = ReplicaState(peerID: Self.local)
        var entries = ReplicaState(peerID: Self.local)
        let expected = try dql.execute(
            Statements.insert(.updateLocalDiff), arguments: ["doc": .object(["_id": .string("d")])], wall: 3)
        #expect(try entries.upsert([], into: Self.key, wall: 3) == expected)
        #expect(expected.affectedCount == 1)
        Self.expectSame(&dql, &entries)
        // Again: the document is there, so nothing is written.
        #expect(try entries.upsert([], into: Self.key, wall: 4) == QueryResult())
    }
}
