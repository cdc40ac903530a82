import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct DrawingTests {
    let older = Self.line(y: 0, at: 1_000)
    let newer = Self.line(y: 2, at: 2_000)
    let newest = Self.line(y: 4, at: 3_000)

    static func line(y: Double, at milliseconds: Int64, peer: String = "bbbbbb") -> StrokeGroup {
        let key = Fixtures.key(milliseconds, peer: peer)
        return Fixtures.group([Fixtures.stroke([(0.5, y + 0.5), (3.5, y + 0.5)], key: key)])
    }

    @Test func groupsComeInKeyOrderWhateverOrderTheyWereAddedIn() {
        var drawing = Drawing(groups: [newest, older])
        drawing.insert(newer)
        #expect(drawing.groups == [older, newer, newest])
        #expect(drawing.keys == [older.key, newer.key, newest.key])
        #expect(drawing[newer.key] == newer)
    }

    /// The kept order stays the sorted order through any mix of adds, replacements and removals.
    @Test func keyOrderSurvivesSeededEdits() {
        var generator = SplitMix64(seed: 11)
        var drawing = Drawing()
        var reference: [StrokeKey: StrokeGroup] = [:]
        for step in 0..<600 {
            let milliseconds = Int64.random(in: 0..<80, using: &generator) * 10
            let group = Self.line(
                y: Double(step % 7), at: 1_000 + milliseconds,
                peer: ["aaaaaa", "b", "zz"].randomElement(using: &generator) ?? "b")
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                for key in drawing.keys.shuffled(using: &generator).prefix(20) {
                    drawing.removeGroup(for: key)
                    reference[key] = nil
                }
            case 1...3:
                drawing.setGroup(nil, for: group.key)
                reference[group.key] = nil
            default:
                drawing.insert(group)
                reference[group.key] = group
            }
            #expect(drawing.keys == reference.keys.sorted())
        }
        #expect(drawing.groups.map(\.key) == drawing.keys)
    }

    @Test func everyChangeMovesTheRevisionOnAndTheJournalNamesItsKeys() {
        var drawing = Drawing(groups: [older])
        let start = drawing.revision
        #expect(drawing.changedKeys(since: start) == [])
        drawing.insert(newer)
        drawing.removeGroup(for: older.key)
        #expect(drawing.revision == start + 2)
        #expect(drawing.changedKeys(since: start) == [older.key, newer.key])
        #expect(drawing.changedKeys(since: start + 1) == [older.key])
        // Not a revision this drawing has had.
        #expect(drawing.changedKeys(since: start + 3) == nil)
    }

    @Test func anEditThatChangesNothingKeepsTheRevision() {
        var drawing = Drawing(groups: [older])
        let revision = drawing.revision
        let reinserted = drawing.insert(older)
        let removed = drawing.removeGroup(for: newer.key)
        // A group under another group's key would make the map and the group disagree.
        let misfiled = drawing.setGroup(newer, for: older.key)
        #expect(!reinserted && removed == nil && !misfiled)
        #expect(drawing.revision == revision)
        #expect(drawing.groups == [older])
    }

    @Test func aReaderFurtherBehindThanTheJournalIsToldToCompare() {
        var drawing = Drawing()
        let start = drawing.revision
        for index in 0..<(Drawing.journalLimit + 1) {
            drawing.insert(Self.line(y: 1, at: 10_000 + Int64(index)))
        }
        #expect(drawing.changedKeys(since: start) == nil)
        #expect(drawing.additions(since: start) == nil)
        #expect(drawing.changedKeys(since: start + 1)?.count == Drawing.journalLimit)
    }

    @Test func additionsAreOnlyNewGroupsInKeyOrder() {
        var drawing = Drawing(groups: [newer])
        let start = drawing.revision
        drawing.insert(newest)
        drawing.insert(older)
        #expect(drawing.additions(since: start) == [older, newest])
        // A change of a group that was there is not an addition.
        drawing.insert(Self.line(y: 9, at: 2_000))
        #expect(drawing.additions(since: start) == nil)
    }

    /// Many groups added at once (a slice of a staged open) are one step: a reader behind by it
    /// learns every key and bounds, however many, and the keys stay in order.
    @Test func groupsAddedTogetherAreOneStepOfTheJournal() {
        var generator = SplitMix64(seed: 23)
        let groups = (0..<300).map { index in
            Self.line(y: Double(Int.random(in: 0..<200, using: &generator)), at: Int64(index) * 10)
        }.shuffled(using: &generator)
        var drawing = Drawing(groups: Array(groups.prefix(50)))
        let start = drawing.revision
        let added = drawing.insert(contentsOf: Array(groups[50...]) + [groups[0]])
        #expect(added)
        #expect(drawing.revision == start + 1)
        #expect(drawing == Drawing(groups: groups))
        #expect(drawing.keys == groups.map(\.key).sorted())
        #expect(drawing.changedKeys(since: start) == Set(groups[50...].map(\.key)))
        #expect(drawing.additions(since: start) == groups[50...].sorted { $0.key < $1.key })
        #expect(drawing.changedRegions(since: start)?.count == 250)
        for group in groups[50...] {
            #expect(drawing.groups(in: SpatialIndex.bounds(of: group)!).contains(group))
        }
        // Keys held already are left as they are.
        let addedAgain = drawing.insert(contentsOf: [groups[3]])
        #expect(!addedAgain)
        #expect(drawing.revision == start + 1)
        // The ranks stay right for what comes after: removals, and a query in key order.
        for group in groups.prefix(20) { drawing.removeGroup(for: group.key) }
        let rest = groups.dropFirst(20).sorted { $0.key < $1.key }
        let everywhere = CellRect(x: -10_000, y: -10_000, width: 20_000, height: 20_000)
        #expect(drawing.groups(in: everywhere) == rest.filter { SpatialIndex.bounds(of: $0) != nil })
        #expect(drawing == Drawing(groups: rest))
    }
}

/// The drawing's groups live in its spatial index alone: a group whose sweeps hide all of it is
/// still held (an undo of the sweep brings it back) but lies under no rectangle, and many groups
/// in one query come back in key order (found through the index's bitmap of ranks).
@Suite struct DrawingIndexStorageTests {
    @Test func aCompletelyErasedGroupIsHeldButFoundNowhere() throws {
        let line = DrawingTests.line(y: 2, at: 1_000)
        let hidden = line.settingSweep(
            Fixtures.mask(radius: 10, [(0, 2), (4, 2)]), for: Fixtures.key(5_000, peer: "cccccc"))
        #expect(hidden.isErasedCompletely)
        var drawing = Drawing(groups: [hidden])
        let everywhere = CellRect(x: -100, y: -100, width: 200, height: 200)
        #expect(drawing.count == 1 && drawing.keys == [line.key] && drawing[line.key] == hidden)
        #expect(drawing.groups(in: everywhere).isEmpty)
        #expect(drawing.spatialIndex.bounds(of: line.key) == nil)
        drawing.insert(line)
        #expect(drawing.groups(in: everywhere) == [line])
        drawing.removeGroup(for: line.key)
        #expect(drawing.isEmpty && drawing.groups(in: everywhere).isEmpty && drawing.lastKey == nil)
    }

    @Test func aLargeQueryComesBackInKeyOrderAfterEditsBelowTheTop() {
        var random = SplitMix64(seed: 21)
        var drawing = Drawing()
        var reference: [StrokeKey: StrokeGroup] = [:]
        for step in 0..<2_000 {
            let group = DrawingTests.line(
                y: Double(Int.random(in: 0..<30, using: &random)),
                at: 1_000 + Int64.random(in: 0..<600, using: &random))
            if step % 5 == 4 {
                drawing.removeGroup(for: group.key)
                reference[group.key] = nil
            } else {
                drawing.insert(group)
                reference[group.key] = group
            }
        }
        let rect = CellRect(x: 0, y: 0, width: 10, height: 40)
        let expected = reference.values.filter { SpatialIndex.bounds(of: $0)?.intersects(rect) == true }
            .sorted { $0.key < $1.key }
        #expect(expected.count > drawing.count / 16)
        #expect(drawing.groups(in: rect) == expected)
        #expect(drawing.lastKey == reference.keys.max())
    }
}
