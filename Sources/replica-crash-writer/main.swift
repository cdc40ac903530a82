// A test helper, not a product: writes numbered strokes into a replica, one transaction each, and
// prints each number only after its commit returned. The persistence test kills it with SIGKILL
// mid-stream and checks that every printed number survived. With `--checkpoint-part-events N` its
// snapshots are written N events a step, one step after each commit as the loop's idle steps
// would run them (1 keeps a checkpoint under way after nearly every commit, so the kill lands
// inside one).
//
// With `--compacting` as well, each commit also erases the stroke written ten commits before, and
// a peer that holds everything is recorded after each commit, so background steps compact the
// document over and over (the kill lands in a compaction's snapshot).
//
// With `--log-checkpoint-pages N`, SQLite's log is checkpointed into the database file by the
// step after each commit once it holds N pages (a small N: the kill often lands in one).
import Glibc
import ReplicaCore
import ReplicaStore

let arguments = CommandLine.arguments
var configuration = ReplicaConfiguration()
var stepsAfterCommits = false
var compacting = false
var options = arguments.dropFirst(2)
var understood = arguments.count >= 2
while understood, let option = options.popFirst() {
    switch option {
    case "--checkpoint-part-events":
        guard let events = options.popFirst().flatMap({ Int($0) }), events > 0 else {
            understood = false
            break
        }
        configuration.checkpointPartEvents = events
        configuration.checkpointMinimumLogEvents = 8
        configuration.compactionMinimumEvents = 8
        stepsAfterCommits = true
    case "--compacting" where stepsAfterCommits:
        compacting = true
    case "--log-checkpoint-pages":
        guard let pages = options.popFirst().flatMap({ Int($0) }), pages > 0 else {
            understood = false
            break
        }
        configuration.logCheckpointPages = pages
        stepsAfterCommits = true
    default:
        understood = false
    }
}
if !understood {
    let usage =
        "usage: replica-crash-writer STORE-DIRECTORY [--checkpoint-part-events N [--compacting]] "
        + "[--log-checkpoint-pages N]\n"
    _ = write(STDERR_FILENO, usage, usage.utf8.count)
    exit(2)
}
do {
    let replica = try Replica(directory: arguments[1], configuration: configuration)
    try replica.execute(
        .insert(
            DQLInsert(
                collection: "drawings",
                documents: [.parameter(name: "doc", position: DQLPosition(line: 1, column: 1))],
                onConflict: .updateLocalDiff)),
        arguments: ["doc": .object(["_id": .string("crash"), "strokes": .object([:])])])
    var counter = 0
    while true {
        counter += 1
        _ = try replica.write { tx in
            try tx.execute(
                .update(
                    DQLUpdate(
                        collection: "drawings",
                        actions: [.set(DQLPath(["strokes", "k\(counter)"]), .number(Double(counter)))]
                            + (compacting && counter > 10
                                ? [.unset(DQLPath(["strokes", "k\(counter - 10)"]))] : []),
                        filter: DQLFilter(id: .string("crash")))))
        }
        let line = "\(counter)\n"
        _ = write(STDOUT_FILENO, line, line.utf8.count)
        if compacting {
            replica.recordPeerVersions(
                try replica.versions(collection: "drawings", documentID: nil), collection: "drawings",
                peer: PeerID(0xFEED))
        }
        if stepsAfterCommits { replica.backgroundStep() }
    }
} catch {
    let message = "replica-crash-writer: \(error)\n"
    _ = write(STDERR_FILENO, message, message.utf8.count)
    exit(1)
}
