import EventRuntime
import MonotonicTime
import ReplicaCore
import ReplicaSync

/// Listings: the name and trash time of every document of a collection, for clients that hold
/// only some of its documents, read from the root, `name` and `trashed` rows alone.
extension RelayReplica {
    /// The listing of a collection, read (light: root, `name` and `trashed` rows only) the first
    /// time it is asked for; until then nil, and the node is told through `onChanged`.
    public func listing(of collection: String) -> [String: SyncListingEntry]? {
        if let listing = listings[collection] { return listing }
        if !pendingListings.contains(collection) {
            pendingListings.append(collection)
            readNext()
        }
        return nil
    }

    /// Reads the events a listing depends on, of a whole collection or one document, and works
    /// out the entries from them alone; documents in memory are not read again for it.
    func readListing(of collection: String, documentID: String?) {
        read { store, answer in
            store.listingEvents(collection: collection, documentID: documentID, completion: answer)
        } then: { [weak self] outcome in
            guard let self else { return }
            guard case .success(let rows) = outcome else {
                // A row this program cannot read: its document keeps the entry it had (or has
                // none) until its next notice.
                if documentID == nil { finishListing(collection, with: [:]) }
                return
            }
            listingReadCount += 1
            listingEventCount += rows.delta.documents.reduce(0) { $0 + $1.events.count }
            var entries: [String: SyncListingEntry] = [:]
            // The join of the document's whole states and events, as in the cache.
            for (id, document) in rows.joinedDocuments {
                entries[id] = SyncListingEntry(document: document)
            }
            guard let documentID else { return finishListing(collection, with: entries) }
            guard listings[collection] != nil, listings[collection]?[documentID] != entries[documentID] else {
                return
            }
            listings[collection]?[documentID] = entries[documentID]
            changedThisTurn.insert(SyncSubscription(collection: collection, documentID: documentID))
            reportLater()
        }
    }

    /// A whole listing read: documents in memory take their entries from the cache (which may
    /// hold rows committed after the read began).
    func finishListing(_ collection: String, with entries: [String: SyncListingEntry]) {
        var listing = entries
        for id in cache.documentIDs(in: collection) {
            let key = DocumentKey(collection: collection, id: id)
            guard isWanted(key), let document = cache.document(key) else { continue }
            listing[id] = SyncListingEntry(document: document)
        }
        pendingListings.removeAll { $0 == collection }
        if listings[collection] != listing {
            listings[collection] = listing
            changedThisTurn.insert(SyncSubscription(collection: collection))
            reportLater()
        }
    }

    /// The entries of documents in memory after new rows entered the cache.
    func refreshEntries(collection: String, documentIDs: [String]) {
        guard listings[collection] != nil else { return }
        for id in documentIDs {
            let key = DocumentKey(collection: collection, id: id)
            guard isWanted(key) else { continue }
            let entry = cache.document(key).flatMap { SyncListingEntry(document: $0) }
            if listings[collection]?[id] != entry {
                listings[collection]?[id] = entry
                changedThisTurn.insert(SyncSubscription(collection: collection, documentID: id))
            }
        }
    }
}
