import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import Testing

/// The original app's DittoDrawingModelTests, for stroke keys instead of creation dates.
@Suite struct DrawingModelTests {
    typealias F = StrokeFixtures

    /// A model that has synchronized these groups.
    func model(syncing groups: StrokeGroup...) -> DrawingModel {
        var model = DrawingModel()
        _ = model.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: groups.map {
                    ($0.key.rawValue, DocumentValue.string(EncodedGroup($0).value))
                }))
        return model
    }

    /// A stroke stored as text (a tool wrote it through DQL, or a peer's delta carried text) and
    /// as the bytes the replica holds are one value: the same group, and a change from one form
    /// to the other changes nothing; text that is not base64 is reported.
    @Test func aStrokeStoredAsTextOrAsBytesIsTheSameGroup() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        let b = F.group(F.masked(F.stroke(at: 5, key: F.key(1))))
        let encoded = [a, b].map { EncodedGroup($0) }
        var asText = DrawingModel()
        var asBytes = DrawingModel()
        _ = asText.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: encoded.map { ($0.key.rawValue, DocumentValue.string($0.value)) }))
        let first = asBytes.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: encoded.map { ($0.key.rawValue, DocumentValue.base64($0.storedBytes)) })
        )
        #expect(first.problems.isEmpty && first.changed.count == 2)
        #expect(asText.drawing() == asBytes.drawing())
        #expect(
            asText.synced[a.key] == asBytes.synced[a.key] && asText.synced[b.key] == asBytes.synced[b.key])
        let again = asText.update(
            fromStrokesMap: Dictionary(
                uniqueKeysWithValues: encoded.map { ($0.key.rawValue, DocumentValue.base64($0.storedBytes)) })
        )
        #expect(again.changed.isEmpty && again.problems.isEmpty)
        let broken = asBytes.update(fromStrokesMap: [a.key.rawValue: .string("not base64")])
        #expect(broken.problems.count == 1)
        // The last good version stays; the whole map no longer holds b.
        #expect(asBytes.drawing() == [a])
    }

    @Test func drawingRebuildsInKeyOrder() {
        let a = F.group(F.stroke(at: 10, key: F.key(0)))
        let b = F.group(F.stroke(at: 50, key: F.key(1_000)))
        let c = F.group(F.stroke(at: 90, key: F.key(2_000)))
        var model = DrawingModel()
        _ = model.update(fromStrokesMap: F.strokesMap(c, a, b))
        #expect(model.drawing().map { $0.pieces[0].path[0].point.x } == [10, 50, 90])
    }

    @Test func newStrokesAreUpsertsAndNewKeys() {
        var model = DrawingModel()
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        let b = F.group(F.stroke(at: 2, key: F.key(1)))
        let changes = model.changes(current: F.canvas(a, b))
        #expect(changes.upserts.count == 2)
        #expect(changes.removals.isEmpty)
        #expect(changes.newKeys == [a.key, b.key])
    }

    @Test func unchangedKnownStrokesAreNeitherWrittenNorReencoded() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        var model = model(syncing: a)
        let changes = model.changes(current: F.canvas(a))
        #expect(changes.isEmpty)
        #expect(changes.newKeys.isEmpty)
        #expect(model.encodeCount == 0)
    }

    @Test func addingAMaskReencodesUnderTheSameKey() {
        let plain = F.stroke(at: 1, key: F.key(0))
        var model = model(syncing: F.group(plain))
        let stored = model.synced[plain.key]!.value
        let changes = model.changes(current: F.canvas(F.group(F.masked(plain))))
        #expect(changes.upserts.count == 1)
        #expect(changes.upserts[plain.key]!.value != stored)
        #expect(changes.newKeys.isEmpty)
        #expect(changes.removals.isEmpty)
    }

    @Test func changingAMaskReencodes() {
        let plain = F.stroke(at: 1, key: F.key(0))
        var model = model(syncing: F.group(F.masked(plain, radius: 0.5)))
        let stored = model.synced[plain.key]!.value
        let changes = model.changes(current: F.canvas(F.group(F.masked(plain, radius: 1))))
        #expect(changes.upserts[plain.key]!.value != stored)
    }

    @Test func removingAMaskReencodes() throws {
        let plain = F.stroke(at: 1, key: F.key(0))
        var model = model(syncing: F.group(F.masked(plain)))
        let changes = model.changes(current: F.canvas(F.group(plain)))
        #expect(changes.upserts[plain.key] != nil)
        #expect(
            try StrokeGroupCodec.decode(Base64.decode(changes.upserts[plain.key]!.value)).pieces[0].mask
                .isEmpty)
    }

    @Test func recolouringReencodes() {
        let plain = F.stroke(at: 1, key: F.key(0))
        var model = model(syncing: F.group(plain))
        let changes = model.changes(current: F.canvas(F.group(F.stroke(at: 1, key: F.key(0), colour: 196))))
        #expect(changes.upserts.count == 1)
    }

    @Test func missingStrokesAreRemovals() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        let b = F.group(F.stroke(at: 2, key: F.key(1)))
        var model = model(syncing: a, b)
        let changes = model.changes(current: F.canvas(a))
        #expect(changes.upserts.isEmpty)
        #expect(changes.removals == [b.key])
    }

    @Test func mixedMaskRemoveAndAdd() {
        let a = F.stroke(at: 1, key: F.key(0))
        let b = F.group(F.stroke(at: 2, key: F.key(1)))
        let c = F.group(F.stroke(at: 3, key: F.key(2)))
        var model = model(syncing: F.group(a), b)
        let changes = model.changes(current: F.canvas(F.group(F.masked(a)), c))
        #expect(changes.upserts.count == 2)
        #expect(changes.upserts[a.key] != nil)
        #expect(changes.removals == [b.key])
        #expect(changes.newKeys == [c.key])
    }

    @Test func anEmptyCanvasRemovesEverything() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        var model = model(syncing: a)
        let changes = model.changes(current: Drawing())
        #expect(changes.upserts.isEmpty)
        #expect(changes.removals == [a.key])
    }

    @Test func persistPendingPreventsWritingTheSameEntriesTwice() {
        var model = DrawingModel()
        let canvas = F.canvas(F.group(F.stroke(at: 1, key: F.key(0))))
        let first = model.changes(current: canvas)
        #expect(first.newKeys.count == 1)
        _ = model.persistPending(first)
        let second = model.changes(current: canvas)
        #expect(second.isEmpty)
        #expect(second.newKeys.isEmpty)
    }

    @Test func rollbackLetsTheNextFlushFindTheChangesAgain() {
        let a = F.stroke(at: 1, key: F.key(0))
        var model = model(syncing: F.group(a))
        let canvas = F.canvas(F.group(F.masked(a)), F.group(F.stroke(at: 2, key: F.key(1))))
        let first = model.changes(current: canvas)
        let pending = model.persistPending(first)
        model.rollback(pending)
        let again = model.changes(current: canvas)
        #expect(again == first)
        #expect(model.synced[a.key]!.group == F.group(a))
    }

    @Test func applyRemovesForgetsOnlyThoseKeys() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        let b = F.group(F.stroke(at: 2, key: F.key(1)))
        var model = model(syncing: a, b)
        model.applyRemoves([a.key])
        #expect(model.synced[a.key] == nil)
        #expect(model.synced[b.key]?.group == b)
    }

    @Test func storeUpdateFingerprintsPlainAndMaskedGroupsDifferently() {
        let a = F.stroke(at: 1, key: F.key(0))
        let b = F.stroke(at: 1, key: F.key(1))
        let model = model(syncing: F.group(a), F.group(F.masked(b)))
        #expect(model.synced[a.key]!.fingerprint != model.synced[b.key]!.fingerprint)
    }

    @Test func aTwoPieceGroupIsOneEntryWithItsOwnFingerprint() {
        let key = F.key(0)
        let single = F.group(F.stroke(at: 1, key: key))
        let split = F.group(F.stroke(at: 1, key: key), F.stroke(at: 20, key: key))
        let one = model(syncing: single)
        let two = model(syncing: split)
        #expect(two.synced.count == 1)
        #expect(two.synced[key]!.fingerprint != one.synced[key]!.fingerprint)
        #expect(two.drawing()[0].pieces.map { $0.path[0].point.x } == [1, 20])
    }

    @Test func anEmptyStoreMapClearsTheModel() {
        var model = model(syncing: F.group(F.stroke(at: 1, key: F.key(0))))
        let update = model.update(fromStrokesMap: [:])
        #expect(model.synced.isEmpty)
        #expect(update.changed.count == 1)
    }

    @Test func aSplitIsOneUpsertUnderTheOriginalKey() throws {
        let key = F.key(0)
        var model = model(syncing: F.group(F.stroke(at: 1, key: key)))
        let split = F.group(F.stroke(at: 1, key: key), F.stroke(at: 20, key: key))
        let changes = model.changes(current: F.canvas(split))
        #expect(Array(changes.upserts.keys) == [key])
        #expect(changes.removals.isEmpty && changes.newKeys.isEmpty)
        #expect(try StrokeGroupCodec.decode(Base64.decode(changes.upserts[key]!.value)).pieces.count == 2)
    }

    @Test func deletingOnePieceOfASplitRewritesTheGroup() throws {
        let key = F.key(0)
        var model = model(syncing: F.group(F.stroke(at: 1, key: key), F.stroke(at: 20, key: key)))
        let changes = model.changes(current: F.canvas(F.group(F.stroke(at: 1, key: key))))
        #expect(changes.removals.isEmpty)
        #expect(try StrokeGroupCodec.decode(Base64.decode(changes.upserts[key]!.value)).pieces.count == 1)
    }

    @Test func deletingAllPiecesOfASplitRemovesTheKey() {
        let key = F.key(0)
        var model = model(syncing: F.group(F.stroke(at: 1, key: key), F.stroke(at: 20, key: key)))
        #expect(model.changes(current: Drawing()).removals == [key])
    }

    @Test func strokesSharingAKeyAreEncodedTogetherInOrder() {
        let key = F.key(0)
        let groups = StrokeGroup.grouping([F.stroke(at: 10, key: key), F.stroke(at: 90, key: key)])
        var model = DrawingModel()
        let changes = model.changes(current: F.canvas(groups[0]))
        #expect(changes.upserts.count == 1 && changes.newKeys.count == 1)
        let decoded = try? StrokeGroupCodec.decode(Base64.decode(changes.upserts[key]!.value))
        #expect(decoded?.pieces.map { $0.path[0].point.x } == [10, 90])
    }

    @Test func onlyTheKeysAskedAboutAreCompared() {
        var model = DrawingModel()
        var canvas = Drawing()
        for index in 0..<1_000 {
            canvas.insert(F.group(F.stroke(at: Double(index % 50), key: F.key(Int64(index)))))
        }
        _ = model.persistPending(model.changes(current: canvas))
        let before = model.encodeCount
        let edited = F.key(500)
        canvas.insert(F.group(F.masked(canvas[edited]!.pieces[0])))
        let changes = model.changes(current: canvas, among: [edited])
        #expect(model.encodeCount - before == 1)
        #expect(Array(changes.upserts.keys) == [edited])
    }

    @Test func unreadableEntriesAreReportedAndLeftOut() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        let b = F.group(F.stroke(at: 2, key: F.key(1)))
        var model = DrawingModel()
        var map = F.strokesMap(a)
        map["not-a-key"] = .string("AAAA")
        map[F.key(5).rawValue] = .number(3)
        map[F.key(6).rawValue] = .string("not valid base64!@#")
        map[F.key(7).rawValue] = .string(EncodedGroup(b).value)
        let update = model.update(fromStrokesMap: map)
        #expect(model.drawing() == [a])
        #expect(update.problems.count == 4)
    }

    @Test func aCorruptValueOverAKnownStrokeKeepsTheLastGoodVersion() {
        let a = F.group(F.stroke(at: 1, key: F.key(0)))
        var model = model(syncing: a)
        let update = model.update(fromStrokesMap: [a.key.rawValue: .string("aGVsbG8=")])
        #expect(model.drawing() == [a])
        #expect(update.changed.isEmpty)
        #expect(update.problems.count == 1)
    }
}
