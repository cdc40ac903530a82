/// How this replica stands with its peers, as the status bar reports it.
public enum SyncStatus: Equatable, Sendable {
    /// Connected, and every peer has everything we have.
    case inSync
    /// Connected, changes still travelling.
    case syncing
    /// Nobody there yet, and nothing configured to reach: local discovery is waiting for another
    /// instance on this machine. Not an error.
    case alone
    /// A configured peer or relay cannot be reached; edits stay local until one is.
    case offline
    /// Sync stopped for a reason the user can act on (a wrong token, a refused connection).
    case error(reason: String)
}
