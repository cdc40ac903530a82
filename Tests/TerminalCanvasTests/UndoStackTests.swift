import StrokeKit
import TerminalCanvas
import Testing

@Suite struct UndoStackTests {
    @Test func undoRemovesMyStrokeAndRedoBringsItBack() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 1), (5, 1)])
        let drawn = try #require(session.document.groups.first)
        _ = session.takeChangedKeys()

        session.run(.undo)
        #expect(session.document.isEmpty)
        #expect(session.changedKeys == [drawn.key])
        #expect(session.lastFeedback == EditorFeedback(documentChanged: true, message: "undone"))
        #expect(session.ink == ["", "", "", "", "", ""])

        session.run(.redo)
        #expect(session.document.groups == [drawn])
        #expect(session.lastFeedback.message == "redone")
        #expect(session.ink == ["", " ▄▄▄▄▄", "", "", "", ""])
    }

    @Test func undoRestoresWhatAnEraseChangedAndRedoErasesAgain() throws {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(5, 0), (5, 4)])
        let erased = try #require(session.document[line.key])
        session.run(.undo)
        #expect(session.document.groups == [line])
        session.run(.redo)
        #expect(session.document.groups == [erased])
    }

    @Test func undoBringsBackAGroupTheStrokeEraserRemoved() {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.strokeEraser))
        session.press(3, 2)
        session.release(3, 2)
        #expect(session.document.isEmpty)
        session.run(.undo)
        #expect(session.document.groups == [line])
    }

    @Test func undoNeverRemovesStrokesOtherPeersDrewSince() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 1), (5, 1)])
        let mine = try #require(session.document.groups.first)
        _ = session.takeChangedKeys()
        let theirs = CanvasFixtures.group(
            through: [(1, 3), (5, 3)], at: CanvasSession.startMilliseconds + 500)
        session.receiveFromReplica([mine, theirs])

        session.run(.undo)
        #expect(session.document.groups == [theirs])
        #expect(session.run(.undo, then: \.lastFeedback.message) == "nothing to undo")
    }

    @Test func aRemoteChangeAfterMyActionIsNotReverted() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 1), (8, 1)])
        let mine = try #require(session.document.groups.first)
        _ = session.takeChangedKeys()
        // Another peer erases the middle of my stroke; the replica hands us the result.
        let cut = MaskEraser(brush: EraserBrush(radius: 0.5)).erase(
            [mine], along: [CanvasCell(x: 4, y: 1).centre])
        let remote = try #require(cut.first)
        #expect(remote.pieces.count == 2)
        session.receiveFromReplica([remote])

        session.run(.undo)
        #expect(session.document.groups == [remote])
        #expect(session.changedKeys.isEmpty)
        #expect(!session.lastFeedback.documentChanged)
        #expect(
            session.lastFeedback.message
                == "not undone: 1 stroke changed by someone else since, left as is; u again undoes it anyway")
        #expect(session.ink == ["", " ▄▄▄ ▄▄▄▄", "", "", "", ""])
        // Nothing was undone, so there is nothing to redo either.
        session.run(.redo)
        #expect(session.lastFeedback.message == "nothing to redo")
    }

    /// Another peer's erase of the same stroke arrives after mine: undo takes out my sweep
    /// only, and their gap stays; redo puts mine back beside theirs.
    @Test func undoOfAnEraseTakesOutOnlyMySweep() throws {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(3, 0), (3, 4)])
        _ = session.takeChangedKeys()
        let mine = try #require(session.document[line.key])
        let passes = MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
            along: [CanvasCell(x: 8, y: 1).centre, CanvasCell(x: 8, y: 3).centre], near: line)
        let theirs = mine.settingSweep(
            StrokeMask(sweeps: passes),
            for: CanvasFixtures.key(CanvasSession.startMilliseconds + 5, peer: "cccccc"))
        session.receiveFromReplica([theirs])
        #expect(session.ink == ["", "", " ▄▄ ▄▄▄▄ ▄▄", "", "", ""])

        session.run(.undo)
        #expect(session.lastFeedback == EditorFeedback(documentChanged: true, message: "undone"))
        #expect(session.ink == ["", "", " ▄▄▄▄▄▄▄ ▄▄", "", "", ""])
        #expect(session.document[line.key]?.sweeps.count == 1)
        #expect(session.changedKeys == [line.key])

        session.run(.redo)
        #expect(session.document[line.key] == theirs)
        #expect(session.ink == ["", "", " ▄▄ ▄▄▄▄ ▄▄", "", "", ""])
    }

    @Test func undoOfAnEraseOnAStrokeRemovedSinceIsSkipped() {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(3, 0), (3, 4)])
        session.receiveFromReplica([])
        session.run(.undo)
        #expect(session.document.isEmpty)
        // Nothing a second undo could do: the stroke stays removed, and no choice is offered.
        #expect(
            session.lastFeedback.message == "not undone: 1 stroke changed by someone else since, left as is")
        #expect(session.editor.undoStack.leftAloneByLastUndo == nil)
    }

    @Test func anUndoTouchingSeveralGroupsRestoresOnlyThoseNobodyElseChanged() throws {
        let left = CanvasFixtures.group(through: [(2, 0), (2, 4)], at: 1_000)
        let right = CanvasFixtures.group(through: [(6, 0), (6, 4)], at: 2_000)
        var session = CanvasSession(groups: [left, right])
        session.run(.selectTool(.strokeEraser))
        session.mouseStroke([(0, 2), (8, 2)])
        #expect(session.document.isEmpty)
        _ = session.takeChangedKeys()  // the coordinator flushed the removals
        // Meanwhile another peer draws a new stroke under the right one's key (the replica's
        // last write won): my removal of it is no longer mine to undo.
        let redrawn = CanvasFixtures.group(through: [(6, 1), (9, 1)], at: 2_000)
        session.receiveFromReplica([redrawn])

        session.run(.undo)
        #expect(session.document.groups == [left, redrawn])
        let outcome = session.lastFeedback.message
        // The right stroke is there again (the peer's): undoing my removal of it "anyway" would
        // change nothing, so no choice is offered, and a second undo does not touch it.
        #expect(outcome == "undone in part: 1 stroke changed by someone else since, left as is")
        session.run(.undo)
        #expect(session.document.groups == [left, redrawn])
        #expect(session.lastFeedback.message == "nothing to undo")
    }

    /// A second undo of my new stroke after a peer removed it does not bring it back, and says
    /// nothing is offered: a removal wins.
    @Test func aSecondUndoNeverBringsBackAStrokeAPeerRemoved() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 3), (8, 3)])
        let older = try #require(session.document.groups.first)
        session.mouseStroke([(1, 1), (8, 1)])
        _ = session.takeChangedKeys()
        // A peer erased part of the newer stroke and then removed it with the stroke eraser.
        session.receiveFromReplica([older])
        session.run(.undo)
        #expect(session.document.groups == [older])
        #expect(
            session.lastFeedback.message == "not undone: 1 stroke changed by someone else since, left as is")
        // The next undo is of the older stroke, as the message (offering nothing) let expect.
        session.run(.undo)
        #expect(session.document.isEmpty)
    }

    /// A second undo of a change to a stroke puts back the stroke as it was before the change
    /// with the sweeps it has now: the peer's erasure made since stays, and none is brought back.
    @Test func aSecondUndoKeepsThePeersErasures() throws {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        let changed = try #require(
            StrokeGroup(key: line.key, pieces: CanvasFixtures.group(through: [(1, 2), (5, 2)]).pieces))
        var drawing = Drawing()
        drawing.setGroup(changed, for: line.key)
        var stack = UndoStack()
        stack.record(try #require(UndoEntry(changes: [.init(key: line.key, before: line, after: changed)])))
        // A peer erases from the changed stroke: the group now differs from what the action left.
        let passes = MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
            along: [CanvasCell(x: 3, y: 1).centre, CanvasCell(x: 3, y: 3).centre], near: changed)
        let sweepKey = CanvasFixtures.key(CanvasSession.startMilliseconds + 5, peer: "cccccc")
        let erased = changed.settingSweep(StrokeMask(sweeps: passes), for: sweepKey)
        drawing.setGroup(erased, for: line.key)

        let first = stack.undo(in: &drawing)
        #expect(drawing[line.key] == erased)
        #expect(first.message.hasSuffix("; u again undoes it anyway"))
        _ = stack.undo(in: &drawing)
        let forced = try #require(drawing[line.key])
        #expect(forced.base == line.base)
        #expect(forced.sweeps == erased.sweeps)
        // Redo puts back the peer's version.
        _ = stack.redo(in: &drawing)
        #expect(drawing[line.key] == erased)
    }

    /// The second `u` undoes my stroke on top of the other peer's change, rather than reaching
    /// past it to an older stroke of mine; redo then brings back the peer's version.
    @Test func aSecondUndoUndoesTheChangedStrokeAnyway() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 3), (8, 3)])
        let older = try #require(session.document.groups.first)
        session.mouseStroke([(1, 1), (8, 1)])
        let mine = try #require(session.document.groups.first { $0.key != older.key })
        _ = session.takeChangedKeys()
        let cut = MaskEraser(brush: EraserBrush(radius: 0.5)).erase(
            [mine], along: [CanvasCell(x: 4, y: 1).centre])
        let remote = try #require(cut.first)
        session.receiveFromReplica([older, remote])

        session.run(.undo)
        #expect(session.document.count == 2)
        session.run(.undo)
        #expect(session.document.groups == [older])
        #expect(session.lastFeedback.message == "undone")
        #expect(session.lastFeedback.documentChanged)
        session.run(.redo)
        #expect(session.document[remote.key] == remote)
        // The older stroke is still there to undo next.
        session.run(.undo)
        session.run(.undo)
        #expect(session.document.isEmpty)
    }

    @Test func aRedoIsSkippedWhenSomeoneElseChangedTheGroupAfterTheUndo() throws {
        let line = CanvasFixtures.group(through: [(1, 2), (10, 2)])
        var session = CanvasSession(groups: [line])
        session.run(.selectTool(.strokeEraser))
        session.press(3, 2)
        session.release(3, 2)
        session.run(.undo)
        // Someone removes the stroke I had brought back; redo has nothing of mine to redo.
        session.document = Drawing()
        session.run(.redo)
        #expect(session.document.isEmpty)
        #expect(
            session.lastFeedback.message == "not redone: 1 stroke changed by someone else since, left as is")
    }

    @Test func aNewActionClearsTheRedoStack() {
        var session = CanvasSession()
        session.mouseStroke([(1, 1), (5, 1)])
        session.run(.undo)
        #expect(session.editor.undoStack.canRedo)
        session.mouseStroke([(1, 3), (5, 3)])
        #expect(!session.editor.undoStack.canRedo)
        session.run(.redo)
        #expect(session.lastFeedback.message == "nothing to redo")
        #expect(session.document.count == 1)
    }

    @Test func undoWhileDrawingFinishesTheStrokeAndTakesItBack() {
        var session = CanvasSession()
        session.run(.togglePen, .moveCursor(dx: 3, dy: 0), .undo)
        #expect(!session.editor.isPenDown)
        #expect(session.document.isEmpty)
        #expect(session.editor.undoStack.canRedo)
    }

    @Test func undosUnwindInReverseOrderOfTheActions() throws {
        var session = CanvasSession()
        session.mouseStroke([(1, 1), (8, 1)])
        let drawn = try #require(session.document.groups.first)
        session.run(.selectTool(.maskEraser))
        session.mouseStroke([(4, 0), (4, 2)])
        session.run(.undo)
        #expect(session.document.groups == [drawn])
        session.run(.undo)
        #expect(session.document.isEmpty)
        session.run(.redo, .redo)
        #expect(session.document[drawn.key]?.pieces.count == 2)
    }

    @Test func theStackKeepsOnlyTheLatestActions() {
        var stack = UndoStack(limit: 2)
        for milliseconds in [1_000, 2_000, 3_000] as [Int64] {
            let group = CanvasFixtures.group(through: [(0, 0)], at: milliseconds)
            if let entry = UndoEntry(changes: [.init(key: group.key, before: nil, after: group)]) {
                stack.record(entry)
            }
        }
        #expect(stack.undoEntries.map { $0.changes[0].key.creationMilliseconds } == [2_000, 3_000])
    }

    @Test func anEntryThatChangesNothingIsNotMade() {
        let group = CanvasFixtures.group(through: [(0, 0)])
        #expect(UndoEntry(changes: [.init(key: group.key, before: group, after: group)]) == nil)
        #expect(UndoEntry(changes: []) == nil)
    }
}

extension CanvasSession {
    /// Runs a command and reads something afterwards, for one-line expectations.
    mutating func run<Value>(_ command: EditorCommand, then read: (CanvasSession) -> Value) -> Value {
        run(command)
        return read(self)
    }
}
