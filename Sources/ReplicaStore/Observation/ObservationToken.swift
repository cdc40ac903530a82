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

/// What one commit changed, for the sync layer: the documents, and whether the writes were made
/// here (a local `write`) or arrived from a peer (`apply`).
public struct ReplicaCommit: Equatable, Sendable {
    public var documents: [DocumentKey]
    public var isLocal: Bool

    public init(documents: [DocumentKey], isLocal: Bool) {
        self.documents = documents
        self.isLocal = isLocal
    }
}
