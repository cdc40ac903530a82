import EventRuntime
import MonotonicTime
import ReplicaStore

/// Runs a replica's background work (`Replica.backgroundStep`: a snapshot part, a compaction,
/// peer versions written) on the event loop when the loop is idle, so a commit costs only its own
/// transaction.
///
/// After a commit that left work, one step runs `idleDelay` after the last commit; while work
/// remains the next step runs on the next turn of the loop (one step per turn, so input and
/// sockets are served between them). A stream of commits postpones the step, but never by more
/// than `maximumDelay` from when the work was first left waiting, so a busy relay still
/// checkpoints. Used on the loop's thread, like the replica.
public final class ReplicaIdleSteps {
    public let replica: Replica
    public let loop: any EventLoop
    public let idleDelay: Duration
    public let maximumDelay: Duration
    /// Steps run since this was made (the tests and the bench read it).
    public private(set) var stepsRun = 0
    private var timer: EventLoopTimer?
    private var deadline: SyncInstant?
    private var waitingSince: SyncInstant?
    private var commitToken: ObservationToken?

    public init(
        replica: Replica, loop: any EventLoop, idleDelay: Duration = .milliseconds(30),
        maximumDelay: Duration = .milliseconds(200)
    ) {
        self.replica = replica
        self.loop = loop
        self.idleDelay = idleDelay
        self.maximumDelay = maximumDelay
        commitToken = replica.onCommit(includingPaths: false) { [weak self] _ in self?.committed() }
        // Peers acknowledging more may let a document compact: that is work too.
        replica.backgroundWorkAppeared = { [weak self] in self?.committed() }
        // Work left by an earlier run of the program (a snapshot due when it stopped).
        committed()
    }

    deinit {
        commitToken?.cancel()
        if let timer { loop.cancel(timer) }
    }

    /// Whether a step is scheduled.
    public var isScheduled: Bool { timer != nil }

    private func committed() {
        guard replica.hasBackgroundWork else { return }
        let now = loop.now
        let since = waitingSince ?? now
        waitingSince = since
        let wanted = min(now + idleDelay, since + maximumDelay)
        schedule(at: wanted)
    }

    private func schedule(at wanted: SyncInstant) {
        if let deadline, deadline == wanted, timer != nil { return }
        if let timer { loop.cancel(timer) }
        deadline = wanted
        timer = loop.schedule(at: wanted) { [weak self] in self?.fire() }
    }

    private func fire() {
        timer = nil
        deadline = nil
        waitingSince = nil
        // A step that did nothing (it failed) waits for the next commit rather than spinning.
        guard replica.backgroundStep() else { return }
        stepsRun += 1
        guard replica.hasBackgroundWork else { return }
        // More to do: the next turn, unless a commit comes first and postpones it.
        waitingSince = loop.now
        schedule(at: loop.now)
    }
}
