import DrawingSync
import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import StrokeKit
import TerminalCanvas

/// One interactive drawing in the terminal: the event loop's view of the canvas.
///
/// Everything runs on the loop's thread: terminal input, the termination and resize signals,
/// the coordinator's flush deadline, and (through the sync node's sockets) changes from peers.
/// The coordinator owns the open drawing: an edit is the editor changing it inside
/// `coordinator.edit` (then a debounced flush into the replica), and a change in the replica comes
/// back through the coordinator's observer straight into it; every path ends in `render()`.
final class CanvasSession {
    let loop: PollEventLoop
    let replica: Replica
    let screen: TerminalScreen
    let drawings: DrawingList
    let keysHelp: String
    let palette: Palette
    let displayName: String
    /// The cursor colour chosen with `--cursor-colour`, sent with the presence; nil: none chosen.
    var chosenCursorColour: UInt8?
    let wallClock: () -> Int64
    /// A `--peer` or `--server` is configured: with nobody connected the status is "offline"
    /// rather than "alone".
    let dialsRemote: Bool
    /// The `--server` relays: the status bar names the one this peer is on.
    let relays: [SocketEndpoint]
    /// The first-screen hint is shown until the first stroke (or a drawing that has one).
    var hintDismissed = false

    var coordinator: DrawingSyncCoordinator
    var drawingName: String
    /// The open drawing was deleted on another peer (drawing on it brings it back).
    var drawingDeleted = false
    var editor: CanvasEditor
    var decoder = InputDecoder()
    /// Between Ctrl-Z and the stop: the terminal is the shell's, the peers are catching up.
    var isSuspending = false
    var hasQuit = false
    /// The drawing's raster layer, reused by frames that only move cursors or strokes in progress.
    var layerCache = CanvasLayerCache()
    /// The help's first line shown (it scrolls when taller than the terminal); nil: help closed.
    var helpFirstLine: Int?
    var menu: DrawingsMenu?
    /// The `E` prompt, while it asks where to export the drawing.
    var exportPrompt: ExportPrompt?
    /// The palette overlay (`C`), while it is open.
    var paletteOverlay: PaletteOverlay?
    /// A line of feedback shown above the status bar until `messageExpiry`.
    var message: String?
    var messageTimer: EventLoopTimer?
    var sync: SyncNode?
    var peers: [UInt64: PresenceUpdate] = [:]
    /// Peers' strokes past pen up, shown until their commit arrives.
    var handover = StrokeHandover()
    var handoverTimer: EventLoopTimer?
    /// The peer `f` last jumped to, so the next `f` goes to the one after it.
    var lastJumpedPeer: UInt64?
    /// The peer whose cursor the view follows (`F`); nil: following nobody.
    var followedPeer: UInt64?
    /// A press went to an overlay (and may have closed it): the rest of that button hold is
    /// swallowed, so it draws nothing on the canvas under the overlay.
    var swallowsPointerUntilRelease = false
    /// The tool to go back to when the right button (erasing while held) comes up.
    var toolBeforeRightButton: ToolKind?
    /// Told the id of every drawing switched to (the store remembers the last one).
    var onDrawingOpened: ((String) -> Void)?
    /// Told who is on which drawing whenever that changes (for `drawtogether list`).
    var onWhereaboutsChanged: ((Whereabouts) -> Void)? {
        didSet { lastWhereabouts = nil }
    }
    var lastWhereabouts: Whereabouts?
    /// The drawing's ink extent for a revision and glyph mode, for the edge markers.
    var inkExtentCache: (revision: UInt64, mode: GlyphMode, extent: CellRect?)?
    var flushTimer: EventLoopTimer?
    /// Consecutive reads that found the terminal readable but delivered nothing: a hang-up.
    var emptyReads = 0
    var exitCode: Int32 = 0
    var renderScheduled = false
    /// The one pending look at the sync status while it says "syncing".
    var statusRefreshTimer: EventLoopTimer?
    /// The next slice of a staged open, while groups are still to be decoded.
    var loadingTimer: EventLoopTimer?
    /// When to give freed heap back while nobody draws (see `CanvasSession+Memory`).
    var idleRelease = IdleHeapRelease()
    var idleReleaseTimer: EventLoopTimer?

    init(
        loop: PollEventLoop, replica: Replica, screen: TerminalScreen, drawings: DrawingList,
        drawing: DrawingList.Entry, palette: Palette, keysHelp: String, displayName: String,
        dialsRemote: Bool = false, relays: [SocketEndpoint] = [], wallClock: @escaping () -> Int64
    ) throws {
        self.dialsRemote = dialsRemote
        self.relays = relays
        self.loop = loop
        self.replica = replica
        self.screen = screen
        self.drawings = drawings
        self.palette = palette
        self.keysHelp = keysHelp
        self.displayName = displayName
        self.wallClock = wallClock
        drawingName = drawing.name
        let keyClock = StrokeKeyClock(peerShortID: StrokeKeyClock.shortID(forPeerID: replica.peerID.rawValue))
        let editor = CanvasEditor(
            palette: palette.colours, keyClock: keyClock,
            viewport: CanvasViewport(screenWidth: screen.size.width, screenHeight: screen.size.height),
            glyphMode: screen.supportsUnicode ? .block : .ascii)
        self.editor = editor
        // Staged: the groups on screen are decoded now, the rest after the first frame.
        coordinator = DrawingSyncCoordinator(
            replica: replica, drawingID: drawing.id, firstRegion: editor.reachOnScreen)
        screen.colourReductions = palette.reductions
        observeOwnKeys(coordinator.drawing.keys)
        observePendingKeys()
        attachCoordinator()
        drawings.onChange = { [unowned self] entries in drawingsChanged(entries) }
    }

    /// Runs until the user quits or a termination signal arrives; returns the exit code.
    func run(signals: TerminationSignals, resize: ResizeSignal, suspend: SuspendSignal) -> Int32 {
        loop.register(screen.inputDescriptor) { [unowned self] in readInput() }
        loop.register(signals.fileDescriptor) { [unowned self] in
            if !signals.takeSignals().isEmpty { quit() }
        }
        loop.register(resize.fileDescriptor) { [unowned self] in
            if resize.takeResize() { readInput(afterResize: true) }
        }
        loop.register(suspend.fileDescriptor) { [unowned self] in
            if suspend.takeSuspend(), !isSuspending { suspendToShell(suspend) }
        }
        render()
        scheduleLoading()
        loop.run()
        for descriptor in [
            screen.inputDescriptor, signals.fileDescriptor, resize.fileDescriptor, suspend.fileDescriptor,
        ] {
            loop.unregister(descriptor)
        }
        return exitCode
    }

    /// Ctrl-Z: gives the terminal back to the shell, saves what is pending (a suspended job may
    /// never be resumed), lets the peers take it (up to a second), stops, and on `fg` takes the
    /// terminal again and repaints it. The terminal comes first: a shell may already be taking it
    /// back (see `ignoringBackgroundStops`). Without the wait, a peer would not see the last
    /// stroke for as long as this one stays in the shell.
    func suspendToShell(_ suspend: SuspendSignal) {
        suspend.ignoringBackgroundStops { screen.suspend() }
        isSuspending = true
        // Keys typed meanwhile wait in the terminal; curses must not read (and so redraw) now.
        loop.unregister(screen.inputDescriptor)
        flushNow()
        sync?.localCommitted()  // the replica's forward to the node is only scheduled
        stopWhenPeersHaveIt(suspend, deadline: loop.now + .seconds(1))
    }

    private func stopWhenPeersHaveIt(_ suspend: SuspendSignal, deadline: SyncInstant) {
        // Quitting meanwhile (a signal): shut down instead of stopping half way through it.
        guard !hasQuit else { return }
        if let status = sync?.status, !status.peersHaveEverything, loop.now < deadline {
            loop.schedule(at: loop.now + .milliseconds(20)) { [unowned self] in
                stopWhenPeersHaveIt(suspend, deadline: deadline)
            }
            return
        }
        suspend.stopProcess()
        isSuspending = false
        loop.register(screen.inputDescriptor) { [unowned self] in readInput() }
        if screen.resume() { handle(.resize) }
        render()
    }

    /// Saves what is pending and stops the loop.
    func quit() {
        hasQuit = true
        flushNow()
        saveBoundsCache()
        loop.stop()
    }

    /// Writes pending edits at once, a stroke still being drawn included (quitting, suspending,
    /// switching drawings).
    func flushNow() {
        apply(.liftPen)
        if let flushTimer { loop.cancel(flushTimer) }
        flushTimer = nil
        do {
            try coordinator.flush()
        } catch {
            show("could not save: \(UserMessage.message(for: error))")
        }
    }

    // MARK: The coordinator

    func attachCoordinator() {
        coordinator.onRemoteChange = { [unowned self] change in
            if let problem = change.problems.first { show(problem.description) }
            observeOwnKeys(change.groups.keys)
            setNeedsRender()
        }
    }

    /// The list of drawings changed, here or on a peer: the open drawing's name follows a rename,
    /// a deletion is said once and shown in the status bar, and an open menu lists what is there.
    func drawingsChanged(_ entries: [DrawingList.Entry]) {
        subscribeOnRelays()
        if let entry = entries.first(where: { $0.id == coordinator.drawingID }) {
            drawingName = entry.name
            if drawingDeleted { show("'\(drawingName)' is back") }
            drawingDeleted = false
        } else if !drawingDeleted {
            drawingDeleted = true
            if drawings.findInTrash(coordinator.drawingID) != nil {
                show(
                    "'\(drawingName)' was moved to the trash on another peer: u in the menu (o) puts it back; "
                        + "drawing here does too")
            } else {
                show(
                    "'\(drawingName)' was deleted on another peer: o opens another; drawing here brings it back"
                )
            }
        }
        menu?.update(items: menuItems(entries))
        setNeedsRender()
    }

    /// After an edit: brings back a drawing a peer deleted and (re)arms the flush deadline.
    func editsMade() {
        hintDismissed = true
        if drawingDeleted { restoreDeletedDrawing() }
        scheduleFlush()
    }

    /// Drawing on a drawing a peer deleted brings it back, under the name it had (the strokes
    /// alone would bring back a document without one).
    private func restoreDeletedDrawing() {
        do {
            if drawings.findInTrash(coordinator.drawingID) != nil {
                try drawings.restore(id: coordinator.drawingID)
            } else {
                try drawings.create(id: coordinator.drawingID, name: drawingName)
            }
            show("'\(drawingName)' is back")
        } catch {
            show("could not bring '\(drawingName)' back: \(UserMessage.message(for: error))")
        }
    }

    func scheduleFlush() {
        if let flushTimer { loop.cancel(flushTimer) }
        flushTimer = nil
        guard let deadline = coordinator.deadline else { return }
        flushTimer = loop.schedule(at: SyncInstant(milliseconds: deadline)) { [unowned self] in
            flushTimer = nil
            do {
                try coordinator.tick(now: loop.now.milliseconds)
            } catch {
                show("could not save, will retry: \(UserMessage.message(for: error))")
            }
            scheduleFlush()
            render()
        }
    }

    /// The drawings as the menu lists them.
    /// Each with its stroke count (read from the replica when the menu opens or the list
    /// changes, not kept up to date stroke by stroke) and the peers whose presence is on it.
    func menuItems(_ entries: [DrawingList.Entry]) -> [DrawingsMenu.Item] {
        var counts: [String: Int] = [:]
        if let documents = try? replica.execute("SELECT * FROM drawings").documents {
            for document in documents {
                guard let id = document["_id"]?.stringValue else { continue }
                counts[id] = document["strokes"]?.objectValue?.count ?? 0
            }
        }
        let others = peers.values.filter { $0.peerID != replica.peerID.rawValue }.sorted {
            $0.peerID < $1.peerID
        }
        return (entries + drawings.trash).map { entry in
            var item = DrawingsMenu.Item(id: entry.id, name: entry.name, inTrash: entry.trashedAt != nil)
            item.strokeCount =
                entry.id == coordinator.drawingID ? coordinator.strokeCount : counts[entry.id]
            item.people = others.filter { $0.drawingID == entry.id }.map {
                PeerPresence(name: $0.displayName, colour: $0.colour, cursor: CanvasCell(x: 0, y: 0)).tag
            }
            return item
        }
    }

    /// A restarted peer must never reuse one of its own keys: the key clock sees every key that
    /// arrives, the keys of the sweeps on those strokes included.
    func observeOwnKeys(_ keys: some Sequence<StrokeKey>) {
        for key in keys {
            editor.keyClock.observe(key)
            for sweepKey in coordinator.drawing[key]?.sweepKeys ?? [] { editor.keyClock.observe(sweepKey) }
        }
    }

    /// The same for the keys of groups a staged open has not decoded yet (read, not decoded).
    func observePendingKeys() {
        if let latest = coordinator.latestPendingKey(ofPeer: editor.keyClock.peerShortID) {
            editor.keyClock.observe(latest)
        }
    }

    /// Draws after the current callback returns. Changes from the replica and the sync node arrive
    /// in the middle of the node's own work, so they must not read its state there and then.
    func setNeedsRender() {
        guard !renderScheduled else { return }
        renderScheduled = true
        loop.schedule(at: loop.now) { [unowned self] in
            renderScheduled = false
            render()
        }
    }

    // MARK: Messages

    /// Shows a line of feedback for a few seconds.
    func show(_ text: String) {
        // Notices carry peers' names and reasons: shown escaped, on one line.
        message = DisplayText.escaped(text)
        if let messageTimer { loop.cancel(messageTimer) }
        messageTimer = loop.schedule(at: loop.now + .seconds(4)) { [unowned self] in
            message = nil
            messageTimer = nil
            setNeedsRender()
        }
    }
}
