import DrawingSync
import ReplicaCore
import ReplicaStore
import TestSupport
import Testing

/// The original app's DrawingListProviderTests, plus rename, delete and open-or-create.
@Suite struct DrawingListTests {
    func replica() throws -> (Replica, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "drawinglist")
        return (try Replica(directory: directory.path), directory)
    }

    @Test func theListIsEmptyInitially() throws {
        let (replica, directory) = try replica()
        #expect(try DrawingList(replica: replica).entries.isEmpty)
        withExtendedLifetime(directory) {}
    }

    @Test func createInsertsADocumentWithTheName() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try list.create(id: "d1", name: "Test Drawing")
        let result = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string("d1")])
        #expect(result.documents.count == 1)
        #expect(result.documents.first?["name"] == .string("Test Drawing"))
        #expect(list.entries == [.init(id: "d1", name: "Test Drawing")])
        withExtendedLifetime(directory) {}
    }

    @Test func theObserverPicksUpDrawingsWrittenElsewhere() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        var deliveries: [[DrawingList.Entry]] = []
        list.onChange = { deliveries.append($0) }
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: [
                "doc": .object([
                    "_id": .string("test-id"), "name": .string("Remote Drawing"), "strokes": .object([:]),
                ])
            ])
        #expect(deliveries.last == [.init(id: "test-id", name: "Remote Drawing")])
        withExtendedLifetime(directory) {}
    }

    @Test func renameAndDeleteChangeTheList() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try list.create(id: "a", name: "Alpha")
        try list.create(id: "b", name: "Beta")
        try list.rename(id: "a", to: "Zulu")
        #expect(list.entries.map(\.name) == ["Beta", "Zulu"])
        try list.delete(id: "b", now: 1_000)
        #expect(list.entries.map(\.id) == ["a"])
        #expect(list.trash == [.init(id: "b", name: "Beta", trashedAt: 1_000)])
        withExtendedLifetime(directory) {}
    }

    /// Drawings a relay lists show beside the replica's own, in the list or the trash; for one
    /// the replica holds, its own entry counts; holding it ends its being only listed.
    @Test func listedDrawingsShowBesideTheHeldOnes() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        var deliveries = 0
        list.onChange = { _ in deliveries += 1 }
        try list.create(id: "a", name: "Alpha")
        list.setListed([
            .init(id: "a", name: "Old alpha"), .init(id: "b", name: "Beta"),
            .init(id: "c", name: "Gamma", trashedAt: 5),
        ])
        #expect(list.entries == [.init(id: "a", name: "Alpha"), .init(id: "b", name: "Beta")])
        #expect(list.trash == [.init(id: "c", name: "Gamma", trashedAt: 5)])
        #expect(list.heldIDs == ["a"])
        #expect(list.isOnlyListed("b") && list.isOnlyListed("c") && !list.isOnlyListed("a"))
        #expect(list.find("Beta")?.id == "b")
        let before = deliveries
        list.setListed([.init(id: "b", name: "Beta"), .init(id: "c", name: "Gamma", trashedAt: 5)])
        #expect(deliveries == before + 1)
        try list.create(id: "b", name: "Beta here")
        #expect(!list.isOnlyListed("b"))
        #expect(list.entries.map(\.name) == ["Alpha", "Beta here"])
        withExtendedLifetime(directory) {}
    }

    /// A drawing in the trash keeps everything it had; restoring brings it all back, and only
    /// `deleteForever` (or the purge, after the trash's time) removes the document.
    @Test func theTrashKeepsADrawingUntilRestoredOrDeletedForGood() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try list.create(id: "a", name: "Alpha")
        try replica.execute(
            "UPDATE drawings SET strokes.`k1` = :v WHERE _id = :id",
            arguments: ["id": .string("a"), "v": .string("s")])
        try list.delete(id: "a", now: 5_000)
        #expect(list.entries.isEmpty && list.findInTrash("Alpha")?.id == "a" && list.find("a") == nil)
        // Its name is not free while it is there.
        #expect(throws: DrawingListError.nameInTrash("Alpha")) { try list.create(named: "Alpha") }
        try list.restore(id: "a")
        #expect(list.entries == [.init(id: "a", name: "Alpha")] && list.trash.isEmpty)
        let strokes = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string("a")]
        )
        .documents.first?["strokes"]?.objectValue
        #expect(strokes == ["k1": .string("s")])

        try list.create(id: "b", name: "Beta")
        try list.delete(id: "a", now: 5_000)
        try list.delete(id: "b", now: 9_000)
        #expect(list.trash.map(\.id) == ["b", "a"])  // the latest deleted first
        // Asked for by name, a drawing in the trash comes back rather than a new one.
        #expect(try list.openOrCreate("Beta") == .init(id: "b", name: "Beta"))
        #expect(list.entries.map(\.id) == ["b"])
        #expect(try list.purgeTrash(now: 5_000 + DrawingList.trashKeepsMilliseconds) == 0)
        #expect(try list.purgeTrash(now: 5_001 + DrawingList.trashKeepsMilliseconds) == 1)
        #expect(list.trash.isEmpty)
        #expect(
            try replica.execute("SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string("a")])
                .documents.isEmpty)
        try list.delete(id: "b", now: 10_000)
        try list.deleteForever(id: "b")
        #expect(list.entries.isEmpty && list.trash.isEmpty)
        withExtendedLifetime(directory) {}
    }

    @Test func namesStayUniqueAndANewDrawingGetsAFreeID() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try list.create(id: "d1", name: "Plan")
        // The id "d1" is taken by a drawing since renamed: the name is free, the id gets a suffix.
        #expect(try list.create(named: "d1") == .init(id: "d1-2", name: "d1"))
        #expect(throws: DrawingListError.nameTaken("Plan")) { try list.create(named: "Plan") }
        #expect(throws: DrawingListError.nameTaken("d1")) { try list.rename(id: "d1", toUniqueName: "d1") }
        try list.rename(id: "d1", toUniqueName: "Plan")  // its own name again: fine
        try list.rename(id: "d1", toUniqueName: "Plan v2")
        #expect(list.entries.map(\.name) == ["Plan v2", "d1"])
        #expect(DrawingListError.nameTaken("Plan").description.contains("choose another name"))
        withExtendedLifetime(directory) {}
    }

    @Test func openOrCreateFindsByIdThenNameAndCreatesOtherwise() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try list.create(id: "x1", name: "Notes")
        #expect(try list.openOrCreate("x1").id == "x1")
        #expect(try list.openOrCreate("Notes").id == "x1")
        let created = try list.openOrCreate("sketch")
        #expect(created == .init(id: "sketch", name: "sketch"))
        #expect(list.entries.count == 2)
        withExtendedLifetime(directory) {}
    }

    @Test func aDocumentWithoutANameIsListedAsUntitled() throws {
        let (replica, directory) = try replica()
        let list = try DrawingList(replica: replica)
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: ["doc": .object(["_id": .string("abcdefghijk")])])
        #expect(list.entries.first?.name == "Untitled (abcdefgh)")
        withExtendedLifetime(directory) {}
    }
}
