import DrawingSync
import EventRuntime
import MonotonicTime

/// Giving freed heap back to the system once the session has been quiet a while (see
/// `IdleHeapRelease`): every frame counts as activity, since every change ends in one.
extension CanvasSession {
    /// A frame was drawn: the quiet period starts again, and a look at the deadline is due.
    func noteActivity() {
        idleRelease.noteActivity(now: loop.now.milliseconds)
        if idleReleaseTimer == nil { scheduleIdleRelease() }
    }

    private func scheduleIdleRelease() {
        guard let deadline = idleRelease.deadline else { return }
        idleReleaseTimer = loop.schedule(at: SyncInstant(milliseconds: deadline)) { [unowned self] in
            idleReleaseTimer = nil
            switch idleRelease.poll(now: loop.now.milliseconds) {
            case .release: coordinator.releaseHeap()
            case .wait: scheduleIdleRelease()
            case .idle: break
            }
        }
    }
}
