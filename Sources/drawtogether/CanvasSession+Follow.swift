import ReplicaSync
import TerminalCanvas

/// Following a peer (`F`): the view keeps the peer's cursor on screen as it moves, until the
/// user pans (keys, wheel, `0`), presses Esc or `F` again, or the peer leaves this drawing.
extension CanvasSession {
    /// `F`: starts following the peer `f` last went to (when still here), else the first on this
    /// drawing in peer id order; while following, stops.
    func toggleFollowing() {
        if followedPeer != nil {
            stopFollowing(saying: "stopped following")
            return
        }
        let here = PresenceUpdate.onCanvas(
            peers.values, drawingID: coordinator.drawingID, excluding: replica.peerID.rawValue)
        guard let peer = here.first(where: { $0.peerID == lastJumpedPeer }) ?? here.first else {
            show("nobody else is on this drawing to follow")
            return
        }
        followedPeer = peer.peerID
        lastJumpedPeer = peer.peerID
        // A keyboard pen is lifted, so the view moving under it draws nothing.
        if editor.isPenDown { apply(.liftPen) }
        keepFollowedPeerInView(peer)
        show("following \(peer.displayName): pan or Esc to stop")
    }

    /// Ends following with a notice naming the peer (`reason` before the name).
    func stopFollowing(saying reason: String) {
        guard let peerID = followedPeer else { return }
        followedPeer = nil
        show("\(reason) \(peers[peerID]?.displayName ?? "the peer")")
    }

    /// A peer's presence moved: when it is the one followed, the view comes after its cursor;
    /// when that peer went to another drawing, following ends.
    func followedPeerMoved(_ update: PresenceUpdate) {
        guard update.peerID == followedPeer else { return }
        guard update.drawingID == coordinator.drawingID else {
            stopFollowing(saying: "stopped following (gone to another drawing):")
            return
        }
        keepFollowedPeerInView(update)
    }

    /// When the peer's cursor is off screen (or on its outermost cells), the view moves so that
    /// it is in the middle: a few large moves rather than one every cell as the peer draws on.
    func keepFollowedPeerInView(_ peer: PresenceUpdate) {
        let viewport = editor.viewport
        let x = Int(peer.cursor.x) - viewport.origin.x
        let y = Int(peer.cursor.y) - viewport.origin.y
        let inside = x >= 1 && y >= 1 && x < viewport.screenWidth - 1 && y < viewport.canvasRows - 1
        guard !inside else { return }
        let dx = x - viewport.screenWidth / 2
        let dy = y - viewport.canvasRows / 2
        apply(.panBy(dx: dx, dy: dy))
        setNeedsRender()
    }

    /// The followed peer's name for the status bar; nil when following nobody.
    var followedPeerName: String? {
        followedPeer.map { DisplayText.escaped(peers[$0]?.displayName ?? "?") }
    }
}
