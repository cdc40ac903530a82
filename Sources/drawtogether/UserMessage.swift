import ReplicaCore
import ReplicaStore
import ReplicaSync

/// The one place that words a failure for the person at the terminal: what happened (the
/// library's description, which carries the context) and, for the failures this program knows
/// how to fix, what to do, naming its own flags. Libraries never give command-line advice.
///
/// One rule for every message, on standard error and in the canvas's message line alike: it
/// starts with a lower-case letter (a name or an acronym keeps its capitals) and ends without a
/// full stop; a second clause follows after "; ".
enum UserMessage {
    /// The whole message for an error.
    static func message(for error: any Error) -> String {
        let text: String
        switch error {
        case let error as ReplicaError:
            text = join(error.description, advice(for: error))
        case let reason as SyncCloseReason:
            text = message(for: reason)
        default:
            text = FileSystemFailure.message(error) ?? String(describing: error)
        }
        return sentence(text)
    }

    /// Why a sync session ended, with what to check when the fix is a setting.
    static func message(for reason: SyncCloseReason) -> String {
        switch reason {
        case .databaseMismatch: sentence(join(reason.message, "use the same --database-id on both"))
        case .authenticationFailed: sentence(join(reason.message, "check --token on both"))
        case .replicaFailed:
            sentence(
                join(
                    reason.message,
                    "the failure is in this machine's store, not the peer's: check its free disk space and "
                        + "permissions (see --store)"))
        default: sentence(reason.message)
        }
    }

    /// A session with `peer` ended with a reason worth a line: the peer refused, or (a local
    /// replica failure) this side could not keep what the peer sent, which is no fault of the peer.
    static func ending(with peer: String, _ reason: SyncCloseReason) -> String {
        if case .replicaFailed = reason {
            return "could not store what \(peer) sent: \(message(for: reason))"
        }
        return "\(peer) refused: \(message(for: reason))"
    }

    /// What to do about a store failure; nil when there is nothing a user can do.
    private static func advice(for error: ReplicaError) -> String? {
        switch error {
        case .storeInUse:
            return "close that instance, or choose another store with --store"
        case .notAReplica:
            return "move it away or choose another store with --store"
        case .damaged(let path, _):
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                .joined(separator: "/")
            return "move its directory \(directory.isEmpty ? "." : directory) away and start again: a new "
                + "replica is made, which gets the drawings back from its peers; or restore the directory from a copy"
        case .unsupportedSchemaVersion:
            return "use a newer drawtogether"
        case .cannotWrite:
            return "nothing of this change was saved; free some space on that disk (or raise the file size "
                + "limit, or make the store writable) and try again, or choose another store with --store"
        case .cannotOpenStore:
            return
                "check the permissions of that directory and the folders above it, or choose another store "
                + "with --store"
        case .readOnly, .documentExists, .missingArgument, .invalidValue, .unsupportedStatement,
            .malformedDelta:
            return nil
        }
    }

    /// Why `E` wrote no file, with what to do in the app rather than on the command line.
    static func exportFailure(_ error: any Error) -> String {
        guard let failure = error as? CommandOutput.Failure else {
            return "could not export: \(message(for: error))"
        }
        return sentence(join(failure.what, "nothing was written; press E and type another path"))
    }

    /// Two clauses of one message.
    private static func join(_ what: String, _ advice: String?) -> String {
        advice.map { "\(what); \($0)" } ?? what
    }

    /// Applies the rule: a leading capital that starts an ordinary word is lowered (`The` becomes
    /// `the`, `DQL` and `SQLite` stay), and a full stop at the end goes.
    static func sentence(_ text: String) -> String {
        var characters = Array(text)
        while characters.last == "." || characters.last == " " { characters.removeLast() }
        if characters.count > 1, characters[0].isUppercase, characters[1].isLowercase {
            characters[0] = Character(characters[0].lowercased())
        }
        return String(characters)
    }
}
