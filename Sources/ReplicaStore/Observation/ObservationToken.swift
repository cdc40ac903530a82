import ReplicaCore

/// Keeps an observer (or a commit handler) registered; `cancel()` or releasing the token ends it.
public final class ObservationToken {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    public func cancel() {
        let action = cancellation
        cancellation = nil
        action?()
    }

    deinit {
        cancel()
    }
}

/// What one commit changed: the documents and the paths within them, and whether the writes were
/// made here (a local `write`) or arrived from a peer (`apply`).
public struct ReplicaCommit: Equatable, Sendable {
    /// Per changed document, the paths of the events the commit wrote or removed. Every change a
    /// reader can see lies at one of these paths or below it, except that a map above them may
    /// appear or disappear with its first or last entry. A listed path may show no change at all
    /// (an event replaced by an equal value), so readers compare. The sets may be empty when no
    /// handler asked for the paths (`Replica.onCommit(includingPaths:_:)`).
    public var changedPaths: [DocumentKey: Set<[String]>]
    public var isLocal: Bool

    public init(changedPaths: [DocumentKey: Set<[String]>], isLocal: Bool) {
        self.changedPaths = changedPaths
        self.isLocal = isLocal
    }
}
