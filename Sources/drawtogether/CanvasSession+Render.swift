import ReplicaSync
import StrokeKit
import TerminalCanvas

/// Painting a frame: canvas, presence, status bar, overlays.
extension CanvasSession {
    var glyphs: ChromeGlyphs { screen.supportsUnicode ? .unicode : .ascii }

    func render() {
        // Switching drawings changes what the peers should show of this one at once (its cursor
        // leaves their canvas), without waiting for the pointer to move.
        if let published = sync?.ownPresence, published.drawingID != coordinator.drawingID { publishPresence() }
        let size = screen.size
        var grid: CellGrid
        if TooSmallView.isTooSmall(width: size.width, height: size.height) {
            grid = CellGrid(width: size.width, height: size.height)
            TooSmallView(glyphs: glyphs).paint(into: &grid)
        } else {
            grid = CanvasView(mode: editor.glyphMode).render(
                editor, document: document, peers: presence, cache: layerCache)
            statusBar.paint(into: &grid, row: size.height - 1)
            if let message {
                // Right-aligned above the status bar, on as many lines as it needs (up to three):
                // the end of a message is often what to do, so it must not be cut off.
                let lines = Self.messageLines(message, width: grid.width - 2, maxLines: min(3, size.height - 2))
                for (index, line) in lines.enumerated() {
                    let text = " " + line + " "
                    let width = min(text.unicodeScalars.count, grid.width)
                    let y = size.height - 1 - lines.count + index
                    grid.put(String(text.unicodeScalars.prefix(width)), x: grid.width - width, y: y, attributes: .reverse)
                }
            }
            if showHelp { helpOverlay.paint(into: &grid) }
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

    /// A message broken into lines of at most `width` characters at spaces (a longer word is
    /// cut), at most `maxLines` of them; when it still does not fit, the last line ends in "…".
    static func messageLines(_ message: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in message.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var word = word
            while word.unicodeScalars.count > width {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                lines.append(String(word.unicodeScalars.prefix(width)))
                word = String(word.unicodeScalars.dropFirst(width))
            }
            if current.isEmpty {
                current = word
            } else if current.unicodeScalars.count + 1 + word.unicodeScalars.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > maxLines else { return lines }
        var kept = Array(lines.prefix(maxLines))
        let last = kept[maxLines - 1]
        kept[maxLines - 1] = String(last.unicodeScalars.prefix(max(0, width - 1))) + "…"
        return kept
    }

    var helpOverlay: HelpOverlayView {
        HelpOverlayView(text: keysHelp, glyphs: glyphs, firstLine: helpFirstLine)
    }

    var statusBar: StatusBarView {
        let tool = editor.tool
        return StatusBarView(
            drawingName: drawingDeleted ? "\(drawingName) (deleted)" : drawingName, tool: tool, colorNumber: editor.settings.colourSlot,
            colorValue: editor.settings.colour, brushSize: editor.settings.size(for: tool),
            peersOnline: peersOnline, sync: syncStatus, glyphs: glyphs)
    }

    /// Distinct peers: two instances that both found each other hold two connections.
    var peersOnline: Int {
        Set(sync?.status.peers.map(\.peerID) ?? []).count
    }

    /// In sync, syncing, offline, or the last refusal with its reason.
    var syncStatus: SyncStatus {
        Self.syncStatus(
            flushError: coordinator.lastFlushError.map { "\($0)" }, node: sync?.status,
            hasUnflushedEdits: !coordinator.unflushedKeys.isEmpty)
    }

    /// The status bar's sync state. A peer that left leaves "offline"; only a refusal (wrong
    /// token, other database, protocol error) is an error, in a few words: its full reason was
    /// shown in the message line when it happened. And only one on a connection this peer dialled
    /// and keeps redialling: someone who dialled in with a wrong token and went away says nothing
    /// about this peer's own settings, so it stays in the message line.
    static func syncStatus(flushError: String?, node status: SyncNodeStatus?, hasUnflushedEdits: Bool)
        -> SyncStatus
    {
        if let flushError { return .error(reason: "not saved: \(flushError)") }
        guard let status else { return .offline }
        if status.peers.isEmpty {
            if let refusal = status.lastRefusal, refusal.dialled { return .error(reason: refusal.reason.shortMessage) }
            return .offline
        }
        if hasUnflushedEdits || status.pendingDeltaCount > 0 || !status.isCaughtUp { return .syncing }
        return .inSync
    }

    /// The cursors and strokes in progress of the other peers looking at this drawing, as the
    /// canvas draws them (a peer on another drawing is online but not here).
    var presence: [PeerPresence] {
        let here = PresenceUpdate.onCanvas(
            peers.values, drawingID: coordinator.drawingID, excluding: replica.peerID.rawValue)
        return here.map { update in
            PeerPresence(
                name: update.displayName, colour: update.colour,
                cursor: CanvasCell(x: Int(update.cursor.x), y: Int(update.cursor.y)),
                strokeInProgress: update.strokeInProgress.map { CanvasCell(x: Int($0.x), y: Int($0.y)) },
                inkTool: ToolKind(presenceName: update.tool)?.inkTool ?? .pen,
                width: update.widthSixteenths > 0 ? Double(update.widthSixteenths) / 16 : nil)
        }
    }

    /// Tells the other peers where this one's cursor is and what it is drawing.
    func publishPresence() {
        guard let sync else { return }
        sync.publish(
            presence: PresenceUpdate(
                peerID: replica.peerID.rawValue, displayName: displayName, drawingID: coordinator.drawingID,
                cursor: .init(x: Int32(clamping: editor.cursor.x), y: Int32(clamping: editor.cursor.y)),
                tool: editor.tool.name, colour: editor.settings.colour,
                strokeInProgress: editor.inProgressCells.map { .init(x: Int32(clamping: $0.x), y: Int32(clamping: $0.y)) },
                widthSixteenths: UInt16(clamping: Int(((editor.inProgressStroke?.ink.width ?? 0) * 16).rounded()))))
    }
}
