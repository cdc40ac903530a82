import DrawingSync
import FoundationEssentials
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TerminalCanvas

/// `drawtogether [open] [DRAWING]`: the interactive canvas, syncing as configured.
enum OpenCommand {
    static func run(configuration: Configuration, drawing named: String?) throws -> Int32 {
        // Before the replica loads: the heap as a drawing's process keeps it (it releases it when
        // idle), grown by what the open of a large drawing will fill, its pages made on the other core.
        HeapRelease.prefault(forStoreBytes: configuration.replicaLocation.likelyStoredBytes)
        // Everything that can fail without a terminal fails before curses takes the screen.
        let resources = try ResourceDirectory.locate()
        let palette = try Palette(text: resources.text("palette.txt"))
        let keysHelp = try resources.text("help/keys.txt")
        // A name given (`--name`, DRAWTOGETHER_NAME) is saved for the store; without one, the
        // saved name, else the login and the replica's short id.
        let savedName = LastDrawing.displayName(location: configuration.replicaLocation)
        let chosen = configuration.displayName ?? savedName.read()
        // The same for the cursor colour; one given must be a palette colour (else nothing
        // starts), a saved one the palette no longer has is forgotten.
        let savedColour = LastDrawing.cursorColour(location: configuration.replicaLocation)
        let cursorColour =
            try configuration.cursorColour.map { try CursorColourChoice.resolve($0, palette: palette) }
            ?? savedColour.read().flatMap { try? CursorColourChoice.resolve($0, palette: palette) }
        let wiring = try PeerWiring(
            configuration: configuration, role: .peer,
            displayName: { chosen ?? displayName(peerID: $0) })
        let name = chosen ?? displayName(peerID: wiring.replica.peerID)
        if let given = configuration.displayName { savedName.write(given) }  // the store exists now
        if let given = configuration.cursorColour { savedColour.write(given.lowercased()) }
        let drawings = try DrawingList(replica: wiring.replica)
        // Drawings kept in the trash long enough go for good.
        try drawings.purgeTrash(now: ReplicaConfiguration.systemWallClock())
        let lastDrawing = LastDrawing(location: configuration.replicaLocation)
        // Unnamed: the last drawing this store had open, while it still exists (a deleted one is
        // not silently made again).
        let drawing = named ?? lastDrawing.read().flatMap { drawings.find($0)?.id } ?? Command.defaultDrawing
        // Sync starts before the session (which holds the node's reports until it is there): a
        // drawing this replica does not have may be a relay's, by name, under another id; it is
        // opened, not made anew beside it, once the relay's listing is in (or no relay answers).
        let hold = SyncCallbackHold(wiring.node)
        _ = try wiring.start(
            discovery: configuration.discovery,
            relaySubscriptions: CanvasSession.relaySubscriptions(holding: drawings.heldIDs))
        if drawings.find(drawing) == nil, drawings.findInTrash(drawing) == nil, !wiring.relayTargets.isEmpty {
            drawings.setListed(CanvasSession.listedDrawings(wiring.awaitRelayListing(timeout: .seconds(3))))
        }
        if drawings.find(drawing) == nil, let trashed = drawings.findInTrash(drawing),
            drawings.isOnlyListed(trashed.id)
        {
            // Only in the relay's trash: asked for by name, it is wanted back, and it can be put
            // back once its document is here.
            wiring.node.subscribeOnRelays(CanvasSession.relaySubscriptions(holding: [trashed.id]))
            wiring.loop.run(until: { drawings.heldIDs.contains(trashed.id) }, timeout: .seconds(5))
        }
        let entry = try drawings.openOrCreate(drawing)
        lastDrawing.write(entry.id)
        let signals = try TerminationSignals()
        // Before the screen: curses then leaves Ctrl-Z to us (see `SuspendSignal`).
        let suspend = try SuspendSignal()
        let screen = try TerminalScreen(options: TerminalScreen.Options(mouseTracking: .anyMotion))
        defer { screen.restore() }
        let resize = try ResizeSignal()
        let session = try CanvasSession(
            loop: wiring.loop, replica: wiring.replica, screen: screen, drawings: drawings, drawing: entry,
            palette: palette, keysHelp: keysHelp, displayName: name,
            dialsRemote: !configuration.peers.isEmpty || !configuration.servers.isEmpty,
            relays: wiring.relayTargets,
            wallClock: ReplicaConfiguration.systemWallClock)
        session.onDrawingOpened = { lastDrawing.write($0) }
        session.chosenCursorColour = cursorColour
        let whereabouts = WhereaboutsFile(location: configuration.replicaLocation)
        session.onWhereaboutsChanged = { whereabouts.write($0) }
        defer { whereabouts.remove() }
        session.attach(sync: wiring.node)
        hold.replay(on: wiring.node)
        session.subscribeOnRelays()
        let code = session.run(signals: signals, resize: resize, suspend: suspend)
        session.flushNow()
        // The node's callbacks and the session's timers may still fire while the goodbyes go out.
        withExtendedLifetime(session) { wiring.shutdown() }
        return code
    }

    /// The name other peers see next to this cursor: the user's login and this replica's short id.
    static func displayName(peerID: PeerID) -> String {
        let user = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "peer"
        return "\(user.prefix(4))-\(peerID.shortHex.prefix(3))"
    }
}
