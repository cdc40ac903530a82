import EventRuntime
import MonotonicTime
import ReplicaSync
import StrokeKit
import TerminalCanvas

/// Painting a frame: canvas, presence, status bar, overlays.
extension CanvasSession {
    var glyphs: ChromeGlyphs { screen.supportsUnicode ? .unicode : .ascii }

    func render() {
        // Switching drawings changes what the peers should show of this one at once (its cursor
        // leaves their canvas), without waiting for the pointer to move.
        if let published = sync?.ownPresence, published.drawingID != coordinator.drawingID {
            publishPresence()
        }
        let size = screen.size
        // The node's status is assembled from every connection on each call: once per frame.
        let node = sync?.status
        let syncStatus = syncStatus(node: node)
        var grid: CellGrid
        if screenIsTooSmall {
            grid = CellGrid(width: size.width, height: size.height)
            TooSmallView(glyphs: glyphs).paint(into: &grid)
        } else {
            loadOnScreen()
            let here = presence
            grid = CanvasView(mode: editor.glyphMode).render(
                editor, drawing: coordinator.drawing, peers: here, finishedStrokes: settleHandover(),
                cache: layerCache)
            EdgeMarkersView(glyphs: glyphs).paint(
                into: &grid, viewport: editor.viewport, peers: here, inkExtent: inkExtent)
            statusBar(node: node, sync: syncStatus).paint(into: &grid, row: size.height - 1)
            if let exportPrompt {
                exportPrompt.paint(into: &grid, row: size.height - 2, glyphs: glyphs)
            } else if let message {
                // Above the status bar, on up to three lines: the end often says what to do.
                MessageLineView(message: message, glyphs: glyphs).paint(into: &grid, row: size.height - 2)
            } else if showsHint {
                FirstScreenHint(glyphs: glyphs).paint(into: &grid, row: size.height - 2)
            }
            if let helpFirstLine { helpOverlay(firstLine: helpFirstLine).paint(into: &grid) }
            paletteOverlay?.paint(into: &grid)
            menu?.paint(into: &grid, glyphs: glyphs)
        }
        screen.draw(grid)
        noteActivity()
        // Nothing announces the last acknowledgement, so look again shortly while syncing.
        if case .syncing = syncStatus, statusRefreshTimer == nil {
            statusRefreshTimer = loop.schedule(at: loop.now + .milliseconds(250)) { [weak self] in
                self?.statusRefreshTimer = nil
                self?.setNeedsRender()
            }
        }
    }

    /// The smallest rectangle holding the drawing's ink, worked out again only when the drawing
    /// or the glyph mode changed: when strokes were only added since (a new stroke, a peer's
    /// commit), from those alone, as the layer cache extends its layer; otherwise from them all.
    var inkExtent: CellRect? {
        let drawing = coordinator.drawing
        let mode = editor.glyphMode
        if let cached = inkExtentCache, cached.mode == mode,
            let added = drawing.additions(since: cached.revision)
        {
            let extent =
                switch (cached.extent, Raster.extent(of: added, mode: mode)) {
                case (let old?, let new?): old.union(new)
                case (let old, let new): old ?? new
                }
            inkExtentCache = (drawing.revision, mode, extent)
            return extent
        }
        let extent = Raster.extent(of: drawing.groups, mode: mode)
        inkExtentCache = (drawing.revision, mode, extent)
        return extent
    }

    /// The first-screen hint: on an empty drawing nobody has drawn on yet, with nothing open over it.
    var showsHint: Bool {
        if coordinator.strokeCount > 0 { hintDismissed = true }
        return !hintDismissed && helpFirstLine == nil && menu == nil && paletteOverlay == nil
    }

    func helpOverlay(firstLine: Int) -> HelpOverlayView {
        HelpOverlayView(text: keysHelp, glyphs: glyphs, firstLine: firstLine)
    }

    /// The status bar for the node's `status` (nil without a sync node) and the state it gives.
    func statusBar(node status: SyncNodeStatus?, sync: SyncStatus) -> StatusBarView {
        let tool = editor.tool
        // People are the peers with a presence (those reached through a relay included; the
        // relay itself has none). With nobody's presence yet, the connections count, so a
        // headless peer or a relay alone still shows as online. Distinct peers: two instances
        // that both found each other hold two connections.
        let own = replica.peerID.rawValue
        let people = Set(peers.keys).subtracting([own])
        let online = people.isEmpty ? Set(status?.peers.map(\.peerID) ?? []).subtracting([own]) : people
        let elsewhere = online.filter {
            (peers[$0]?.drawingID ?? coordinator.drawingID) != coordinator.drawingID
        }
        var bar = StatusBarView(
            drawingName: drawingDeleted ? "\(drawingName) (deleted)" : drawingName, tool: tool,
            colorNumber: editor.settings.colourOutsidePalette == nil ? editor.settings.colourSlot : 0,
            colorValue: editor.settings.colour, brushSize: editor.settings.size(for: tool),
            peersOnline: online.count - elsewhere.count, sync: sync, glyphs: glyphs,
            colorName: editor.settings.colourOutsidePalette == nil
                ? palette.name(slot: editor.settings.colourSlot) : nil,
            cursor: editor.cursor,
            viewOrigin: editor.viewport.origin == CanvasCell(x: 0, y: 0) ? nil : editor.viewport.origin)
        bar.peersElsewhere = elsewhere.count
        bar.isPenDown = editor.isPenDown
        bar.following = followedPeerName
        // Pen sizes finer than the glyphs can show draw alike: the bar says as what.
        if tool == .pen || tool == .marker, let size = bar.brushSize, size < editor.glyphMode.thinnestLine {
            bar.brushDrawnAs = editor.glyphMode.thinnestLine
        }
        // Blocks are the default and need no word (ASCII is the terminal's, not a choice).
        bar.glyphMode = editor.glyphMode == .braille ? "braille" : nil
        bar.relay = Self.relayName(status: status, relays: relays)
        return bar
    }

    /// The relay of the `--server` list this peer is connected to, as the user wrote it
    /// (`relay-b:7420`); nil when there is no list or none of it is connected.
    static func relayName(status: SyncNodeStatus?, relays: [SocketEndpoint]) -> String? {
        guard let peers = status?.peers else { return nil }
        return peers.lazy.compactMap(\.dialled).first { relays.contains($0) }?.description
    }

    /// In sync, syncing, alone, offline, or the last refusal with its reason.
    func syncStatus(node status: SyncNodeStatus?) -> SyncStatus {
        Self.syncStatus(
            flushError: coordinator.lastFlushError.map { "\($0)" }, node: status,
            hasUnflushedEdits: !coordinator.unflushedKeys.isEmpty, dialsRemote: dialsRemote)
    }

    /// The status bar's sync state. With nobody connected it is "alone" unless a `--peer` or
    /// `--server` is configured (`dialsRemote`): only a peer or relay that cannot be reached makes
    /// it "offline", since being alone is not a fault. Only a refusal (wrong
    /// token, other database, protocol error) is an error, in a few words: its full reason was
    /// shown in the message line when it happened. And only one on a connection this peer dialled
    /// and keeps redialling: someone who dialled in with a wrong token and went away says nothing
    /// about this peer's own settings, so it stays in the message line.
    static func syncStatus(
        flushError: String?, node status: SyncNodeStatus?, hasUnflushedEdits: Bool, dialsRemote: Bool = false
    )
        -> SyncStatus
    {
        if let flushError { return .error(reason: "not saved: \(flushError)") }
        guard let status else { return dialsRemote ? .offline : .alone }
        if let problem = status.relayProblem, !status.peers.isEmpty {
            return .error(reason: "relay: \(DisplayText.excerpt(problem, limit: 40))")
        }
        if status.peers.isEmpty {
            if let refusal = status.lastRefusal, refusal.dialled {
                return .error(reason: refusal.reason.shortMessage)
            }
            return dialsRemote ? .offline : .alone
        }
        if hasUnflushedEdits || !status.isInSync { return .syncing }
        return .inSync
    }

    /// The cursors and strokes in progress of the other peers looking at this drawing, as the
    /// canvas draws them (a peer on another drawing is online but not here).
    var presence: [PeerPresence] {
        let here = PresenceUpdate.onCanvas(
            peers.values, drawingID: coordinator.drawingID, excluding: replica.peerID.rawValue)
        return here.map { update in
            PeerPresence(
                name: DisplayText.escaped(update.displayName), colour: update.colour,
                cursor: CanvasCell(x: Int(update.cursor.x), y: Int(update.cursor.y)),
                strokeInProgress: update.strokeInProgress.map { CanvasCell(x: Int($0.x), y: Int($0.y)) },
                inkTool: ToolKind(presenceName: update.tool)?.inkTool ?? .pen,
                width: update.widthSixteenths > 0 ? Double(update.widthSixteenths) / 16 : nil,
                cursorColour: update.cursorColour.flatMap { $0 == Ink.defaultInkColour ? nil : $0 }
                    ?? Self.cursorColour(peerID: update.peerID, palette: palette.colours),
                textInProgress: update.textInProgress)
        }
    }

    /// A peer's cursor colour: a palette colour other than default ink picked by its peer id,
    /// which its replica keeps, so the same person has the same colour in every session (and on
    /// every viewer with this palette).
    static func cursorColour(peerID: UInt64, palette: [UInt8]) -> UInt8? {
        let choices = palette.filter { $0 != Ink.defaultInkColour }
        guard !choices.isEmpty else { return nil }
        // Mixed first (SplitMix64's finalizer), so ids that differ only in some bits still
        // spread over the colours.
        var mixed = peerID
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return choices[Int(mixed % UInt64(choices.count))]
    }

    /// Tells the other peers where this one's cursor is and what it is drawing.
    func publishPresence() {
        guard let sync else { return }
        var presence =
            PresenceUpdate(
                peerID: replica.peerID.rawValue, displayName: displayName, drawingID: coordinator.drawingID,
                cursor: .init(x: Int32(clamping: editor.cursor.x), y: Int32(clamping: editor.cursor.y)),
                tool: editor.tool.name, colour: editor.settings.colour,
                // Text in progress is sent as its origin, with its characters below.
                strokeInProgress: (editor.inProgressText.map { [$0.origin] } ?? editor.inProgressCells).map {
                    .init(x: Int32(clamping: $0.x), y: Int32(clamping: $0.y))
                },
                widthSixteenths: UInt16(
                    clamping: Int(((editor.inProgressStroke?.ink.width ?? 0) * 16).rounded())),
                strokeKey: editor.inProgressStroke?.key.rawValue ?? "",
                textInProgress: editor.inProgressText?.text ?? "")
        presence.cursorColour = chosenCursorColour
        sync.publish(presence: presence)
    }
}
