import Foundation
import ReplicaSync

/// A test double for a replica: per document, a last-write-wins map ordered by (Lamport clock,
/// peer id), and a version vector of the highest counter seen per peer. Deltas are JSON.
final class InMemorySyncReplica: SyncReplica {
    struct Entry: Codable, Equatable {
        var value: String
        var clock: UInt64
        var peer: UInt64
        var counter: UInt64
    }

    struct Document: Codable, Equatable {
        var entries: [String: Entry] = [:]
        var versions: [UInt64: UInt64] = [:]
    }

    /// "collection/id" -> document.
    private(set) var documents: [String: Document] = [:]
    let peerID: UInt64
    private var counter: UInt64 = 0
    private var clock: UInt64 = 0
    /// How many deltas changed something, and how many entries they carried in total.
    private(set) var appliedDeltaCount = 0
    /// Thrown by every apply while set: a local store that cannot write (a full disk).
    var applyFailure: (any Error)?
    private(set) var receivedEntryCount = 0
    /// How often a delta was computed for a remote: zero means no content could have left.
    private(set) var changesComputedCount = 0

    /// While set, a delta that changed something is answered `.deferred` with a new ticket (a
    /// relay that acknowledges after its database's COMMIT); the tickets given out, in order.
    var defersAcknowledgements = false
    private(set) var deferredTickets: [UInt64] = []

    /// Subscriptions this replica is still "reading" (`prepare` says no while they are here), and
    /// every subscription `prepare` was asked about, in order.
    var unprepared: Set<SyncSubscription> = []
    private(set) var preparesAsked: [SyncSubscription] = []

    init(peerID: UInt64) {
        self.peerID = peerID
    }

    func write(collection: String = "drawings", document: String, key: String, value: String) {
        counter += 1
        clock += 1
        let path = "\(collection)/\(document)"
        var doc = documents[path] ?? Document()
        doc.entries[key] = Entry(value: value, clock: clock, peer: peerID, counter: counter)
        doc.versions[peerID] = counter
        documents[path] = doc
    }

    /// The visible content: path -> key -> value.
    var contents: [String: [String: String]] {
        documents.mapValues { $0.entries.mapValues(\.value) }
    }

    func encodedVersions(for subscription: SyncSubscription) throws -> [UInt8] {
        try encode(matching(subscription).mapValues(\.versions))
    }

    func encodedChanges(for subscription: SyncSubscription, since remoteVersions: [UInt8]) throws -> [UInt8]?
    {
        changesComputedCount += 1
        let remote = try JSONDecoder().decode([String: [UInt64: UInt64]].self, from: Data(remoteVersions))
        var delta: [String: Document] = [:]
        for (path, document) in matching(subscription) {
            let known = remote[path] ?? [:]
            let missing = document.entries.filter { $0.value.counter > known[$0.value.peer, default: 0] }
            let newerVersions = document.versions.contains { $0.value > known[$0.key, default: 0] }
            if !missing.isEmpty || newerVersions {
                delta[path] = Document(entries: missing, versions: document.versions)
            }
        }
        return delta.isEmpty ? nil : try encode(delta)
    }

    func applyEncodedChanges(_ delta: [UInt8], for subscription: SyncSubscription) throws -> SyncApplyOutcome
    {
        if let applyFailure { throw applyFailure }
        let incoming = try JSONDecoder().decode([String: Document].self, from: Data(delta))
        var changed = false
        for (path, remoteDocument) in incoming {
            var document = documents[path] ?? Document()
            for (key, entry) in remoteDocument.entries {
                receivedEntryCount += 1
                clock = max(clock, entry.clock)
                if let current = document.entries[key],
                    (current.clock, current.peer) >= (entry.clock, entry.peer)
                {
                    continue
                }
                document.entries[key] = entry
                changed = true
            }
            for (peer, counter) in remoteDocument.versions where counter > document.versions[peer, default: 0]
            {
                document.versions[peer] = counter
                changed = true
            }
            documents[path] = document
        }
        if changed { appliedDeltaCount += 1 }
        if changed, defersAcknowledgements {
            deferredTickets.append(UInt64(deferredTickets.count + 100))
            return .deferred(ticket: deferredTickets[deferredTickets.count - 1])
        }
        return changed ? .changed : .unchanged
    }

    func prepare(_ subscription: SyncSubscription) -> Bool {
        preparesAsked.append(subscription)
        return !unprepared.contains(subscription)
    }

    /// Each document's `name` and `trashed` entries (the trash time as decimal text).
    func listing(of collection: String) -> [String: SyncListingEntry]? {
        var listing: [String: SyncListingEntry] = [:]
        for (path, document) in matching(SyncSubscription(collection: collection)) {
            listing[String(path.dropFirst(collection.count + 1))] = SyncListingEntry(
                name: document.entries["name"]?.value,
                trashedAt: document.entries["trashed"].flatMap { Int64($0.value) })
        }
        return listing
    }

    private func matching(_ subscription: SyncSubscription) -> [String: Document] {
        documents.filter { path, _ in
            if let id = subscription.documentID { return path == "\(subscription.collection)/\(id)" }
            return path.hasPrefix(subscription.collection + "/")
        }
    }

    private func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(value))
    }
}
