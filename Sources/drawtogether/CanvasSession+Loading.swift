import DrawingSync
import TerminalCanvas

/// The rest of a staged open: the coordinator decodes the groups on screen before the first
/// frame, and the session decodes the others between events, a few milliseconds at a time, the
/// cells a pan can show next first. Before a frame, and before every edit, the groups the frame
/// shows or the edit can reach are decoded at once, so nothing is drawn or edited without them.
extension CanvasSession {
    /// The longest one turn of the loop spends decoding, so input waits no longer than that.
    static let loadingSliceMilliseconds: Int64 = 4
    /// Groups decoded between two looks at the clock.
    static let groupsPerStep = 24

    /// Decodes the next groups on a later turn of the loop, while any are left.
    func scheduleLoading() {
        guard coordinator.isLoading, loadingTimer == nil else { return }
        loadingTimer = loop.schedule(at: loop.now) { [unowned self] in
            loadingTimer = nil
            loadSlice()
        }
    }

    private func loadSlice() {
        let end = loop.now.milliseconds + Self.loadingSliceMilliseconds
        coordinator.loadSlice(step: Self.groupsPerStep, preferring: editor.reachOfNextPan) {
            loop.now.milliseconds < end
        }
        if coordinator.isLoading {
            scheduleLoading()
        } else {
            // The edge markers and the menu's count now see the whole drawing.
            setNeedsRender()
        }
    }

    /// Before an edit: every group the command can reach is decoded (for a clear, all of them).
    func loadReach(of command: EditorCommand) {
        guard coordinator.isLoading else { return }
        if let reach = editor.reach(of: command) {
            coordinator.load(under: reach)
        } else {
            coordinator.finishLoading()
        }
    }

    /// Before a frame or a look at the ink on screen: the groups on screen are decoded.
    func loadOnScreen() {
        guard coordinator.isLoading else { return }
        coordinator.load(under: editor.reachOnScreen)
    }

    /// Keeps where each group's ink is for the next open of this drawing. It only makes that
    /// open faster, so a cache that cannot be written is left for the next time.
    func saveBoundsCache() {
        try? coordinator.saveBoundsCache()
    }
}
