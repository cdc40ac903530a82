import DrawingSync
import ReplicaCore
import ReplicaStore
import ReplicaSync
import StrokeKit
import Testing

@testable import drawtogether

/// Every failure a user can meet is worded by `UserMessage`: what happened, then what to do with
/// this program's flags, under one rule for capitals and full stops.
@Suite struct UserMessageTests {
    static let replicaErrors: [ReplicaError] = [
        .storeInUse(directory: "/s", holderPID: 42), .storeInUse(directory: "/s", holderPID: nil),
        .notAReplica(path: "/s/replica.sqlite", reason: "file is not a database"),
        .damaged(path: "/s/r/replica.sqlite", detail: "database disk image is malformed"),
        .unsupportedSchemaVersion(path: "/s/replica.sqlite", found: 9, supported: 3),
        .cannotOpenStore(directory: "/s", reason: "cannot create it (Permission denied)"),
        .readOnly(directory: "/s"), .documentExists(collection: "drawings", id: "d1"),
        .missingArgument(name: "id"), .invalidValue(reason: "_id in WHERE must be a string"),
        .unsupportedStatement(reason: "only SELECT can be observed"),
        .malformedDelta(reason: "a dot repeats"),
    ]

    static let closeReasons: [SyncCloseReason] = [
        .protocolVersionMismatch(local: 2, remote: 1), .databaseMismatch(local: "a", remote: "b"),
        .authenticationFailed, .protocolViolation(.frameTooShort(announced: 1)),
        .unexpectedMessage("delta", phase: "the handshake"), .timedOut(phase: "the handshake"),
        .replicaFailed("disk I/O error"), .remoteClosed(.normal, ""), .remoteClosed(.normal, "bye"),
        .remoteClosed(.shuttingDown, "shutting down"), .remoteClosed(.timedOut, "10 s"),
        .remoteClosed(.authenticationFailed, "wrong token"), .transportClosed, .localShutdown,
    ]

    @Test func everyMessageStartsLowerCaseAndEndsWithoutAFullStop() {
        var messages = Self.replicaErrors.map { UserMessage.message(for: $0) }
        messages += Self.closeReasons.map { UserMessage.message(for: $0) }
        let problems: [StoredGroupProblem] = [.notAString(key: "k"), .malformedKey("x")]
        messages += problems.map { UserMessage.message(for: $0) }
        for message in messages {
            #expect(!message.hasSuffix("."), "\(message)")
            let start = Array(message.prefix(2))
            #expect(!(start[0].isUppercase && start[1].isLowercase), "\(message)")
        }
    }

    @Test func libraryTextCarriesNoFlagsAndTheProgramAddsThem() {
        for error in Self.replicaErrors { #expect(!error.description.contains("--"), "\(error)") }
        for reason in Self.closeReasons { #expect(!reason.message.contains("--"), "\(reason)") }
        #expect(
            UserMessage.message(for: ReplicaError.storeInUse(directory: "/s", holderPID: 42))
                == "the replica in /s is in use by process 42; close that instance, or choose another store with --store"
        )
        #expect(
            UserMessage.message(for: ReplicaError.damaged(path: "/s/r/replica.sqlite", detail: "malformed"))
                .hasSuffix(
                    "; move its directory /s/r away and start again: a new replica is made, which gets the "
                        + "drawings back from its peers; or restore the directory from a copy"))
        #expect(
            UserMessage.message(for: ReplicaError.notAReplica(path: "/p", reason: "r"))
                == "/p is not a DrawTogether replica (r); move it away or choose another store with --store")
        #expect(
            UserMessage.message(for: SyncCloseReason.authenticationFailed)
                == "authentication failed: the peers do not share the same token; check --token on both")
        #expect(
            UserMessage.message(for: SyncCloseReason.databaseMismatch(local: "a", remote: "b"))
                == "database ids differ (this peer has 'a', the other 'b'); use the same --database-id on both"
        )
        // Nothing to add where there is nothing a setting fixes.
        #expect(UserMessage.message(for: SyncCloseReason.transportClosed) == "the connection was lost")
    }

    @Test func theRuleKeepsNamesAndAcronyms() {
        #expect(UserMessage.sentence("The store is gone.") == "the store is gone")
        #expect(UserMessage.sentence("DQL line 1: expected FROM") == "DQL line 1: expected FROM")
        #expect(UserMessage.sentence("SQLite error 13.") == "SQLite error 13")
    }
}
