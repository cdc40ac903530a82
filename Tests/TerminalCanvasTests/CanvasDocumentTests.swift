import StrokeKit
import TerminalCanvas
import TestSupport
import Testing

@Suite struct CanvasDocumentTests {
    let older = CanvasFixtures.group(through: [(0, 0), (3, 0)], at: 1_000)
    let newer = CanvasFixtures.group(through: [(0, 2), (3, 2)], at: 2_000)
    let newest = CanvasFixtures.group(through: [(0, 4), (3, 4)], at: 3_000)

    @Test func groupsComeInKeyOrderWhateverOrderTheyWereAddedIn() {
        var document = CanvasDocument(groups: [newest, older])
        document.insert(newer)
        #expect(document.groups == [older, newer, newest])
        #expect(document.keys == [older.key, newer.key, newest.key])
        #expect(document[newer.key] == newer)
    }

    /// The kept order stays the sorted order through any mix of adds, replacements, removals and
    /// replica content.
    @Test func keyOrderSurvivesSeededEditsAndReplicaReplacements() {
        var generator = SplitMix64(seed: 11)
        var document = CanvasDocument()
        var reference: [StrokeKey: StrokeGroup] = [:]
        for step in 0..<600 {
            let milliseconds = Int64.random(in: 0..<80, using: &generator) * 10
            let group = CanvasFixtures.group(
                through: [(step % 7, 1), (step % 7 + 2, 1)], at: 1_000 + milliseconds,
                peer: ["aaaaaa", "b", "zz"].randomElement(using: &generator) ?? "b")
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                let groups = Array(reference.values.shuffled(using: &generator).prefix(20)) + [group]
                _ = document.takeChangedKeys()  // flushed: the replica's content replaces it all
                document.replaceFromReplica(groups)
                reference = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
            case 1...3:
                document.setGroup(nil, for: group.key)
                reference[group.key] = nil
            default:
                document.insert(group)
                reference[group.key] = group
            }
            #expect(document.keys == reference.keys.sorted())
        }
        #expect(document.groups.map(\.key) == document.keys)
    }

    @Test func changesFromTheReplicaApplyByKeyAndKeepLocalEdits() {
        var document = CanvasDocument(groups: [older, newer])
        document.setGroup(nil, for: newer.key)  // a local erase, not yet taken
        let moved = CanvasFixtures.group(through: [(5, 5), (6, 5)], at: 1_000)
        document.applyFromReplica([older.key: moved, newer.key: newer, newest.key: newest])
        #expect(document.groups == [moved, newest])
        #expect(document.changedKeys == [newer.key])
        document.applyFromReplica([newest.key: StrokeGroup?.none], keepingLocal: [])
        #expect(document.keys == [older.key])
        document.applyFromReplica([older.key: StrokeGroup?.none], keepingLocal: [older.key])
        #expect(document.keys == [older.key])
    }

    @Test func localEditsMarkTheirKeysUntilTheCoordinatorTakesThem() {
        var document = CanvasDocument(groups: [older])
        #expect(document.changedKeys.isEmpty)
        document.insert(newer)
        document.removeGroup(for: older.key)
        #expect(document.takeChangedKeys() == [older.key, newer.key])
        #expect(document.takeChangedKeys().isEmpty)
    }

    @Test func anEditThatChangesNothingMarksNothing() {
        var document = CanvasDocument(groups: [older])
        let reinserted = document.insert(older)
        let removed = document.removeGroup(for: newer.key)
        // A group under another group's key would make the map and the group disagree.
        let misfiled = document.setGroup(newer, for: older.key)
        #expect(!reinserted && removed == nil && !misfiled)
        #expect(document.changedKeys.isEmpty)
        #expect(document.groups == [older])
    }

    @Test func contentFromTheReplicaMarksNothing() {
        var document = CanvasDocument(groups: [older])
        document.replaceFromReplica([newer, newest])
        #expect(document.groups == [newer, newest])
        #expect(document.changedKeys.isEmpty)
    }

    @Test func keysNamedByTheCoordinatorKeepTheirLocalStateIncludingAbsence() {
        var document = CanvasDocument(groups: [older, newer])
        _ = document.takeChangedKeys()
        let redrawn = CanvasFixtures.group(through: [(5, 2)], at: 2_000)
        // `older` was removed locally and is still being flushed; `newer` is locally different.
        document.replaceFromReplica([older, redrawn, newest], keepingLocal: [newer.key, newest.key])
        #expect(document.groups == [older, newer])
    }

    @Test func keysNotYetTakenAreKeptEvenIfTheCoordinatorForgetsThem() {
        var document = CanvasDocument(groups: [older, newer])
        document.removeGroup(for: older.key)
        // An inbound change during the debounce window must not bring back the erased stroke.
        document.replaceFromReplica([older, newer, newest])
        #expect(document.groups == [newer, newest])
        #expect(document.changedKeys == [older.key])
    }
}
