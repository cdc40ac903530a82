import ReplicaSync
import StrokeKit
import TerminalCanvas

/// Painting a frame: canvas, presence, status bar, overlays.
extension CanvasSession {
    var glyphs: ChromeGlyphs { screen.supportsUnicode ? .unicode : .ascii }

    func render() {
        let size = screen.size
        var grid: CellGrid
        if TooSmallView.isTooSmall(width: size.width, height: size.height) {
            grid = CellGrid(width: size.width, height: size.height)
            TooSmallView(glyphs: glyphs).paint(into: &grid)
        } else {
            grid = CanvasView(mode: editor.glyphMode).render(editor, document: document, peers: presence)
            statusBar.paint(into: &grid, row: size.height - 1)
            if let message {
                let text = " " + message + " "
                let width = min(text.unicodeScalars.count, grid.width)
                grid.put(String(text.unicodeScalars.prefix(width)), x: grid.width - width, y: size.height - 2, attributes: .reverse)
            }
            if showHelp { HelpOverlayView(text: keysHelp, glyphs: glyphs).paint(into: &grid) }
            menu?.paint(into: &grid, glyphs: glyphs)
        }
        screen.draw(grid)
        // Nothing announces the last acknowledgement, so look again shortly while syncing.
        if case .syncing = syncStatus, statusRefreshTimer == nil {
            statusRefreshTimer = loop.schedule(at: loop.now + .milliseconds(250)) { [weak self] in
                self?.statusRefreshTimer = nil
                self?.setNeedsRender()
            }
        }
    }

    var statusBar: StatusBarView {
        let tool = editor.tool
        return StatusBarView(
            drawingName: drawingName, tool: tool, colorNumber: editor.settings.colourSlot,
            colorValue: editor.settings.colour, brushSize: editor.settings.size(for: tool),
            peersOnline: peersOnline, sync: syncStatus, glyphs: glyphs)
    }

    /// Distinct peers: two instances that both found each other hold two connections.
    var peersOnline: Int {
        Set(sync?.status.peers.map(\.peerID) ?? []).count
    }

    /// In sync, syncing, offline, or the last refusal with its reason.
    var syncStatus: SyncStatus {
        if let error = coordinator.lastFlushError { return .error(reason: "not saved: \(error)") }
        guard let sync else { return .offline }
        let status = sync.status
        if status.peers.isEmpty {
            if let refusal = status.lastRefusal { return .error(reason: refusal.reason.message) }
            return .offline
        }
        if !coordinator.unflushedKeys.isEmpty || status.pendingDeltaCount > 0 || !status.isCaughtUp {
            return .syncing
        }
        return .inSync
    }

    /// The other peers' cursors and strokes in progress, as the canvas draws them.
    var presence: [PeerPresence] {
        peers.values.sorted { $0.peerID < $1.peerID }.map { update in
            PeerPresence(
                name: update.displayName, colour: update.colour,
                cursor: CanvasCell(x: Int(update.cursor.x), y: Int(update.cursor.y)),
                strokeInProgress: update.strokeInProgress.map { CanvasCell(x: Int($0.x), y: Int($0.y)) })
        }
    }

    /// Tells the other peers where this one's cursor is and what it is drawing.
    func publishPresence() {
        guard let sync else { return }
        sync.publish(
            presence: PresenceUpdate(
                peerID: replica.peerID.rawValue, displayName: displayName,
                cursor: .init(x: Int32(clamping: editor.cursor.x), y: Int32(clamping: editor.cursor.y)),
                tool: editor.tool.name, colour: editor.settings.colour,
                strokeInProgress: editor.inProgressCells.map { .init(x: Int32(clamping: $0.x), y: Int32(clamping: $0.y)) }))
    }
}
