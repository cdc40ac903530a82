import ReplicaSync
import Testing

/// Which presence a canvas shows: only other peers looking at the same drawing.
@Suite struct PresenceUpdateTests {
    private static func presence(_ peer: UInt64, on drawing: String) -> PresenceUpdate {
        PresenceUpdate(
            peerID: peer, displayName: "peer \(peer)", drawingID: drawing, cursor: .init(x: 1, y: 1),
            tool: "pen",
            colour: 2, strokeInProgress: [.init(x: 1, y: 1), .init(x: 2, y: 1)])
    }

    @Test func aCanvasShowsOnlyPeersOnItsDrawingInPeerOrder() {
        let updates = [
            Self.presence(9, on: "drawing-1"), Self.presence(4, on: "sketches"),
            Self.presence(2, on: "drawing-1"),
        ]
        #expect(
            PresenceUpdate.onCanvas(updates, drawingID: "drawing-1", excluding: 1).map(\.peerID) == [2, 9])
        #expect(PresenceUpdate.onCanvas(updates, drawingID: "sketches", excluding: 1).map(\.peerID) == [4])
        #expect(PresenceUpdate.onCanvas(updates, drawingID: "empty", excluding: 1).isEmpty)
    }

    @Test func aPeerThatSwitchedDrawingsLeavesTheCanvasWithItsStrokeInProgress() {
        var byPeer = [UInt64(4): Self.presence(4, on: "drawing-1")]
        #expect(PresenceUpdate.onCanvas(byPeer.values, drawingID: "drawing-1", excluding: 1).count == 1)
        byPeer[4] = Self.presence(4, on: "sketches")
        #expect(PresenceUpdate.onCanvas(byPeer.values, drawingID: "drawing-1", excluding: 1).isEmpty)
    }

    @Test func thisPeersOwnPresenceIsNeverDrawnAsAnotherCursor() {
        let updates = [Self.presence(1, on: "drawing-1"), Self.presence(3, on: "drawing-1")]
        #expect(PresenceUpdate.onCanvas(updates, drawingID: "drawing-1", excluding: 1).map(\.peerID) == [3])
    }
}
