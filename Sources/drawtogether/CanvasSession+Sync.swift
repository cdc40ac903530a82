import DrawingSync
import MonotonicTime
import ReplicaSync
import StrokeKit
import TerminalCanvas

/// The session's side of sync: presence in and out, and status changes worth a redraw.
extension CanvasSession {
    func attach(sync node: SyncNode) {
        sync = node
        // A relay's listing: the drawings this replica does not hold, shown in the menu.
        node.onListingChanged = { [unowned self] in
            drawings.setListed(Self.listedDrawings(node.listing(of: DrawingSyncCoordinator.collection)))
        }
        node.onPresence = { [unowned self] update in
            guard update.peerID != replica.peerID.rawValue else { return }
            // Someone reached through a relay: the connection events name only the relay.
            if peers[update.peerID] == nil, !isConnectedDirectly(update.peerID) {
                show("\(update.displayName) joined")
            }
            peers[update.peerID] = update
            handOver(update)
            // Following pans the view and so publishes this peer's presence: not from inside the
            // node's own work (see `setNeedsRender`), but right after it.
            if update.peerID == followedPeer {
                loop.schedule(at: loop.now) { [unowned self] in
                    if let latest = peers[update.peerID] { followedPeerMoved(latest) }
                }
            }
            reportWhereabouts()
            setNeedsRender()
        }
        node.onPresenceExpired = { [unowned self] peerID in
            if peerID == followedPeer { stopFollowing(saying: "stopped following (left):") }
            if let gone = peers[peerID], !isConnectedDirectly(peerID) { show("\(gone.displayName) left") }
            peers[peerID] = nil
            handover.peerLeft(peerID, now: loop.now.milliseconds, isCommitted: isCommitted)
            reportWhereabouts()
            setNeedsRender()
        }
        node.onEvent = { [unowned self] event in
            if let notice = Self.notice(for: event) { show(notice) }
            setNeedsRender()
        }
        node.onReplicaChanged = { [unowned self] in setNeedsRender() }
        publishPresence()
        reportWhereabouts()
    }

    /// Tells `onWhereaboutsChanged` who is on which drawing (this user included) when that
    /// changed since last time: peers arriving, leaving or changing drawing, not cursors moving.
    /// A peer on no drawing (a relay) is on none of them.
    func reportWhereabouts() {
        guard let onWhereaboutsChanged else { return }
        let own = replica.peerID.rawValue
        var people = [Whereabouts.Person(peerID: own, name: displayName, drawingID: coordinator.drawingID)]
        for update in peers.values where update.peerID != own && !update.drawingID.isEmpty {
            people.append(.init(peerID: update.peerID, name: update.displayName, drawingID: update.drawingID))
        }
        let whereabouts = Whereabouts(people: people)
        guard whereabouts != lastWhereabouts else { return }
        lastWhereabouts = whereabouts
        onWhereaboutsChanged(whereabouts)
    }

    /// Whether the open drawing holds a stroke group.
    func isCommitted(_ key: StrokeKey) -> Bool {
        coordinator.drawing[key] != nil
    }

    /// Feeds a peer's presence to the stroke handover: its stroke in progress on this drawing,
    /// or (on another drawing) none.
    func handOver(_ update: PresenceUpdate) {
        let now = loop.now.milliseconds
        guard update.drawingID == coordinator.drawingID else {
            handover.peerLeft(update.peerID, now: now, isCommitted: isCommitted)
            return
        }
        let stroke = PeerStroke(
            cells: update.strokeInProgress.map { CanvasCell(x: Int($0.x), y: Int($0.y)) },
            colour: update.colour, inkTool: ToolKind(presenceName: update.tool)?.inkTool ?? .pen,
            width: update.widthSixteenths > 0 ? Double(update.widthSixteenths) / 16 : nil,
            text: update.textInProgress)
        handover.peerUpdated(
            update.peerID, key: StrokeKey(rawValue: update.strokeKey), stroke: stroke, now: now,
            isCommitted: isCommitted)
    }

    /// Lets go of finished strokes whose commit arrived or whose time is up, and arranges a
    /// repaint for the next one to time out. Returns the strokes still waiting.
    func settleHandover() -> [PeerStroke] {
        handover.settle(now: loop.now.milliseconds, isCommitted: isCommitted)
        if let handoverTimer { loop.cancel(handoverTimer) }
        handoverTimer = nil
        if let deadline = handover.nextDeadline {
            handoverTimer = loop.schedule(at: SyncInstant(milliseconds: deadline)) { [unowned self] in
                handoverTimer = nil
                setNeedsRender()
            }
        }
        return handover.peersWithStrokesAwaitingCommit.flatMap { handover.strokesAwaitingCommit(of: $0) }
    }

    /// Whether a peer is one of this node's own connections (its joining and leaving are then
    /// said by the connection events), rather than someone reached through a relay.
    func isConnectedDirectly(_ peerID: UInt64) -> Bool {
        sync?.status.peers.contains { $0.peerID == peerID } ?? false
    }

    /// The message-line notice for a sync event: who joined, who left, and a refusal with its
    /// full reason (the status bar keeps only a few words of it).
    static func notice(for event: SyncNodeEvent) -> String? {
        switch event {
        case .connected(let peer, _, _):
            return "\(peer.displayName) joined"
        case .disconnected(let peer, _, let dialled, let reason, let wasEstablished):
            // A stranger's failed handshake is told by `.handshakeFailed`, rate-limited.
            guard dialled || wasEstablished else { return nil }
            if reason.isRefusal { return "\(peer): \(UserMessage.message(for: reason))" }
            // A peer that never got through the handshake never joined, so it cannot leave.
            return wasEstablished && reason != .localShutdown ? "\(peer) left" : nil
        case .handshakeFailed(let address, let reason, let count):
            return SyncEventLog.handshakeFailure(address: address, reason: reason, count: count)
        case .acceptingPaused(let endpoint, let problem):
            return SyncEventLog.acceptingPaused(endpoint: endpoint, problem: problem)
        case .unreachable:
            return nil
        }
    }
}

extension CanvasSession {
    /// What this peer subscribes to on a relay: every drawing its replica holds (so what it
    /// drew offline reaches the relay, and the relay's changes reach it) and the one open;
    /// the others are only listed (`DECISIONS.md`, "A client lists what it does not hold").
    var relaySubscriptions: [SyncSubscription] {
        Self.relaySubscriptions(holding: drawings.heldIDs.union([coordinator.drawingID]))
    }

    static func relaySubscriptions(holding drawingIDs: Set<String>) -> [SyncSubscription] {
        drawingIDs.sorted().map {
            SyncSubscription(collection: DrawingSyncCoordinator.collection, documentID: $0)
        }
    }

    /// A relay's listing as the drawings menu shows it.
    static func listedDrawings(_ listing: [String: SyncListingEntry]) -> [DrawingList.Entry] {
        listing.map { id, entry in
            DrawingList.Entry(
                id: id, name: entry.name ?? "Untitled (\(id.prefix(8)))", trashedAt: entry.trashedAt)
        }.sorted { $0.id < $1.id }
    }

    /// Subscribes on the relays to what `relaySubscriptions` has gained (a drawing created here,
    /// or one opened that was only listed).
    func subscribeOnRelays() {
        sync?.subscribeOnRelays(relaySubscriptions)
    }
}
