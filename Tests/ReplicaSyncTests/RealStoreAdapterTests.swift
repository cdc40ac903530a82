import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaStore
import ReplicaSync
import TestSupport
import Testing

/// `ReplicaSyncAdapter` over real stores: all-or-nothing applies, refusal of a delta with a gap
/// and the session's resend from the receiver's versions, and local commits reaching the node
/// (over an in-memory network in virtual time).
@Suite struct RealStoreAdapterTests {
    private let loop = ManualEventLoop()
    private let network: InMemoryNetwork
    private let drawings = SyncSubscription(collection: "drawings")

    init() {
        network = InMemoryNetwork(loop: loop)
    }

    /// A peer with three separate writes to one document, so its delta holds several events.
    private func writer() throws -> RealStorePeer {
        let peer = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        for index in 0..<3 { try peer.writeStrokes(["stroke-\(index)"]) }
        return peer
    }

    @Test func aDeltaWithAGapIsRefusedWholeAndTheReplicaIsUntouched() throws {
        let a = try writer()
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        let full = try a.replica.changes(collection: "drawings", documentID: nil, since: DocumentVersions())
        var gapped = full
        gapped.documents = full.documents.map {
            .init(documentID: $0.documentID, events: Array($0.events.dropFirst()))
        }

        #expect(try b.adapter.applyEncodedChanges(gapped.encoded(), for: drawings) == .refused)
        #expect(b.adapter.refusedDeltaCount == 1)
        #expect(try b.replica.versions(collection: "drawings", documentID: nil) == DocumentVersions())
        #expect(try b.drawings().isEmpty)

        #expect(try b.adapter.applyEncodedChanges(full.encoded(), for: drawings) == .changed)
        #expect(try b.adapter.applyEncodedChanges(full.encoded(), for: drawings) == .unchanged)
        #expect(try b.drawings() == a.drawings())
    }

    @Test func changesAreNilWhenTheRemoteLacksNothing() throws {
        let a = try writer()
        let versions = try a.adapter.encodedVersions(for: drawings)
        #expect(try a.adapter.encodedChanges(for: drawings, since: versions) == nil)
        #expect(try a.adapter.encodedChanges(for: drawings, since: DocumentVersions().encoded()) != nil)
    }

    /// A relay answers its subscribers from remembered versions and deltas between two changes
    /// of the replica; any change (a local write, an applied delta) makes it answer afresh.
    @Test func versionsAndChangesAskedAgainFollowEveryChangeOfTheReplica() throws {
        let a = try writer()
        let empty = DocumentVersions().encoded()
        let before = try a.adapter.encodedVersions(for: drawings)
        let firstDelta = try a.adapter.encodedChanges(for: drawings, since: empty)
        #expect(try a.adapter.encodedChanges(for: drawings, since: empty) == firstDelta)
        #expect(try a.adapter.encodedChanges(for: drawings, since: before) == nil)

        try a.writeStrokes(["stroke-later"])
        let after = try a.adapter.encodedVersions(for: drawings)
        #expect(after != before)
        #expect(after == (try a.replica.versions(collection: "drawings", documentID: nil).encoded()))
        let later = try #require(try a.adapter.encodedChanges(for: drawings, since: before))
        #expect(try ReplicaDelta(decoding: later).documents.flatMap(\.events).count == 1)
        #expect(try a.adapter.encodedChanges(for: drawings, since: empty) != firstDelta)

        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        #expect(try b.adapter.encodedChanges(for: drawings, since: empty) == nil)
        #expect(try b.adapter.applyEncodedChanges(later, for: drawings) == .refused)
        let whole = try #require(try a.adapter.encodedChanges(for: drawings, since: empty))
        #expect(try b.adapter.applyEncodedChanges(whole, for: drawings) == .changed)
        #expect(try b.adapter.encodedVersions(for: drawings) == after)
        #expect(try b.adapter.encodedChanges(for: drawings, since: empty) != nil)
    }

    @Test func aDeltaCarryingADocumentOutsideItsSubscriptionIsRejected() throws {
        let a = try writer()
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        let delta = try a.adapter.encodedChanges(for: drawings, since: DocumentVersions().encoded()) ?? []
        let oneDocument = SyncSubscription(collection: "drawings", documentID: "drawing-2")
        #expect(throws: ReplicaSyncAdapterError.self) {
            try b.adapter.applyEncodedChanges(delta, for: oneDocument)
        }
        #expect(throws: ReplicaSyncAdapterError.self) {
            try b.adapter.applyEncodedChanges([1, 2, 3], for: drawings)
        }
        #expect(try b.drawings().isEmpty)
    }

    @Test func aRefusedDeltaIsResentFromTheReceiversVersionsUntilBothConverge() throws {
        let a = try writer()
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        let gappy = GapInjectingReplica(base: a.adapter)
        var pair = SessionPair(initiator: gappy, acceptor: b.adapter, subscriptions: [drawings])
        pair.runUntilQuiet()
        #expect(gappy.gapsInjected == 1)
        #expect(b.adapter.refusedDeltaCount == 1)
        #expect(try b.drawings() == a.drawings())
        #expect(pair.sessions.allSatisfy { $0.isCaughtUp && $0.pendingDeltaCount == 0 })
    }

    @Test func aWriteMadeWhileApplyingARemoteDeltaReachesThePeer() throws {
        let a = try RealStorePeer(loop: loop, transport: network, peer: 0xA1)
        let b = try RealStorePeer(loop: loop, transport: network, peer: 0xB2)
        // An observer that answers a remote change with a local write, inside the apply (as a
        // front end reacting to a peer might): the adapter must not re-enter the session.
        var answered = false
        let token = b.replica.onCommit { commit in
            guard !commit.isLocal, !answered else { return }
            answered = true
            try? b.writeStrokes(["answer"])
        }
        b.node.connect(to: try a.node.listen(on: .unix(path: "/sockets/a.sock")))
        try a.writeStrokes(["question"])
        #expect(converge([a, b], on: loop, extra: { (try? a.strokeCount()) == 2 }))
        #expect(answered)
        token.cancel()
        a.node.shutdown()
        b.node.shutdown()
    }
}

/// Wraps an adapter and, once, drops the first event of every document from an outgoing delta:
/// the receiver then sees a gap, as after a lost or misordered message.
final class GapInjectingReplica: SyncReplica {
    let base: ReplicaSyncAdapter
    private(set) var gapsInjected = 0

    init(base: ReplicaSyncAdapter) {
        self.base = base
    }

    func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        try base.encodedVersions(for: subscription)
    }

    func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws -> [UInt8]?
    {
        guard let bytes = try base.encodedChanges(for: subscription, since: remoteVersions) else {
            return nil
        }
        var delta = try ReplicaDelta(decoding: bytes)
        guard gapsInjected == 0, delta.eventCount > 1 else { return bytes }
        gapsInjected += 1
        delta.documents = delta.documents.map {
            .init(documentID: $0.documentID, events: Array($0.events.dropFirst()))
        }
        return delta.encoded()
    }

    func applyEncodedChanges(_ delta: [UInt8], for subscription: SyncSubscription) throws -> SyncApplyOutcome
    {
        try base.applyEncodedChanges(delta, for: subscription)
    }

    func listing(of collection: String) -> [String: SyncListingEntry]? {
        base.listing(of: collection)
    }
}

/// Two sessions joined in memory, frames delivered in order until none is left.
struct SessionPair {
    var sessions: [SyncSession]
    private var queues: [[[UInt8]]] = [[], []]
    private let now = SyncInstant(milliseconds: 1_000)

    init(initiator: any SyncReplica, acceptor: any SyncReplica, subscriptions: [SyncSubscription]) {
        var generator = SplitMix64(seed: 5)
        sessions = [(SyncRole.initiator, initiator, UInt64(1)), (.acceptor, acceptor, 2)].map {
            role, replica, peer in
            SyncSession(
                configuration: SyncSessionConfiguration(
                    databaseID: "default", peerID: peer, displayName: "peer \(peer)", token: "t",
                    encrypts: false,
                    subscriptions: subscriptions),
                role: role, replica: replica, secrets: HandshakeSecrets(using: &generator),
                now: SyncInstant(milliseconds: 1_000))
        }
        for side in 0..<2 { handle(sessions[side].start(now: now), from: side) }
    }

    mutating func runUntilQuiet() {
        var steps = 0
        while steps < 10_000, let side = (0..<2).first(where: { !queues[$0].isEmpty }) {
            let frame = queues[side].removeFirst()
            handle(sessions[side].receive(frame, now: now), from: side)
            steps += 1
        }
    }

    private mutating func handle(_ actions: [SyncAction], from side: Int) {
        for case .send(let bytes) in actions { queues[1 - side].append(bytes) }
    }
}
