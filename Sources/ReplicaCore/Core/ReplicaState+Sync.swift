extension ReplicaState {
    /// The version vector of every document of a collection, or of one document.
    public func versions(collection: String, documentID: String?) -> DocumentVersions {
        var result = DocumentVersions()
        for id in selectedIDs(collection: collection, documentID: documentID) {
            if let state = document(DocumentKey(collection: collection, id: id)) {
                result.vectors[id] = state.versionVector
            }
        }
        return result
    }

    /// Every event of the selected documents that `since` does not cover.
    public func changes(collection: String, documentID: String?, since: DocumentVersions) -> ReplicaDelta {
        var documents: [ReplicaDelta.DocumentDelta] = []
        for id in selectedIDs(collection: collection, documentID: documentID) {
            guard let state = document(DocumentKey(collection: collection, id: id)) else { continue }
            let events = state.changes(since: since[id])
            if !events.isEmpty { documents.append(.init(documentID: id, events: events)) }
        }
        return ReplicaDelta(collection: collection, documents: documents)
    }

    private func selectedIDs(collection: String, documentID: String?) -> [String] {
        if let documentID { return [documentID] }
        return documentIDs(in: collection)
    }

    /// Merges a delta from another peer, all or nothing: if any document would get a write whose
    /// predecessor from the same peer is missing, nothing is applied and the outcome says what this
    /// replica has, so the sender can resend from there.
    public mutating func apply(_ delta: consuming ReplicaDelta, wall: Int64) throws -> ApplyOutcome {
        try apply(delta, wall: wall, storingNewBlocks: nil)
    }

    /// `apply(_:wall:)`, offering a store the delta's received blocks to write while it merges:
    /// when every document came as a block of events all new here (`newBlocks(of:)`),
    /// `storingNewBlocks` is given them and the clock as it will be after the merge, and says
    /// whether it stores them; the merge then leaves unsaved only what it changed besides their
    /// received forms (see `keepBlock`).
    package mutating func apply(
        _ delta: consuming ReplicaDelta, wall: Int64,
        storingNewBlocks store: (([(key: DocumentKey, block: ArraySlice<UInt8>)], HybridTimestamp) -> Bool)?
    ) throws -> ApplyOutcome {
        // What this replica holds of each document, read once for the check and the blocks
        // (each read copies the document out of the table).
        let held = delta.documents.map { self.held(delta.collection, $0.documentID) }
        if let refused = try refusal(of: delta, held: held) { return refused }
        observeTimestamps(of: delta, wall: wall)
        let stored =
            store.flatMap { store in newBlocks(of: delta, held: held).map { store($0, clock.latest) } }
            ?? false
        return merge(delta, blocksStored: stored)
    }

    /// The version vector of a document as this replica holds it (empty when it holds none).
    private func held(_ collection: String, _ documentID: String) -> VersionVector {
        document(DocumentKey(collection: collection, id: documentID))?.versionVector ?? .empty
    }

    /// Checks a whole delta before anything of it is applied: a malformed event throws, and a
    /// document whose writes would follow one this replica lacks makes the refusal returned. Nil
    /// when the delta can be merged. `held`: the vector held of each of its documents.
    private func refusal(of delta: ReplicaDelta, held: [VersionVector]) throws -> ApplyOutcome? {
        var missing = DocumentVersions()
        for (document, have) in zip(delta.documents, held) {
            try Self.validate(document.events, documentID: document.documentID)
            if Self.hasGap(document.events, after: have) { missing.vectors[document.documentID] = have }
        }
        return missing.vectors.isEmpty ? nil : .refused(collection: delta.collection, have: missing)
    }

    /// The clock observes the latest timestamp of each document of a delta (merging reads no
    /// clock, so this comes before the merge: a store that writes the delta while it merges
    /// writes the clock it will have).
    private mutating func observeTimestamps(of delta: ReplicaDelta, wall: Int64) {
        for document in delta.documents {
            if let latest = Self.latestTimestamp(of: document.events) { clock.observe(latest, wall: wall) }
        }
    }

    /// The received event blocks of a checked delta, one a document, when every document came as
    /// a block and holds only events this replica lacks, in dot order: stored as they came, each
    /// block holds a form of every one of its events, and what the merge then changes of them
    /// (an event removed on arrival) is the merge's to store after it. Nil otherwise.
    package func newBlocks(of delta: ReplicaDelta) -> [(key: DocumentKey, block: ArraySlice<UInt8>)]? {
        newBlocks(of: delta, held: delta.documents.map { held(delta.collection, $0.documentID) })
    }

    /// `newBlocks(of:)`, given the vector held of each of the delta's documents.
    private func newBlocks(of delta: ReplicaDelta, held: [VersionVector]) -> [(
        key: DocumentKey, block: ArraySlice<UInt8>
    )]? {
        var blocks: [(key: DocumentKey, block: ArraySlice<UInt8>)] = []
        for (document, have) in zip(delta.documents, held) where !document.events.isEmpty {
            guard let block = document.encodedBlock else { return nil }
            let allNew = document.events.withUnsafeBufferPointer { events in
                // Counters are contiguous per peer: one above what is held is one not held.
                events.indices.allSatisfy { index in
                    events[index].dot.counter > have[events[index].dot.peer]
                        && (index == 0 || events[index - 1].dot < events[index].dot)
                }
            }
            guard allNew else { return nil }
            blocks.append((DocumentKey(collection: delta.collection, id: document.documentID), block))
        }
        return blocks
    }

    /// Merges a checked delta (`refusal(of:)`). `blocksStored`: its blocks (`newBlocks(of:)`)
    /// are in the store already, so only what the merge changed besides their received forms is
    /// left unsaved.
    ///
    /// The delta is taken: each event's path, context and value are moved out of it into the
    /// document (`DocumentEvent.take`), so a caller that hands over a delta it holds alone copies
    /// no event and releases none afterwards. A delta still held elsewhere is copied first, as
    /// before.
    private mutating func merge(_ delta: consuming ReplicaDelta, blocksStored: Bool) -> ApplyOutcome {
        var newEvents = 0
        var changed: [String] = []
        for position in delta.documents.indices {
            let documentID = delta.documents[position].documentID
            let block = delta.documents[position].encodedBlock
            let key = DocumentKey(collection: delta.collection, id: documentID)
            // The counts are read in the document where it lies: read through the table, each
            // copied the whole document out (a retain and a release of each of its tables).
            let (touchedAny, kept, added) = modify(key) { state -> ((Bool, [Dot]?, Int), [Dot]) in
                let before = state.eventCount
                let count = delta.documents[position].events.count
                var touched: [Dot] = []
                touched.reserveCapacity(count)
                if count > 1 { state.reserve(for: delta.documents[position].events) }
                delta.documents[position].events.withUnsafeMutableBufferPointer { events in
                    state.integrate(taking: events, touched: &touched)
                }
                let added = state.eventCount - before
                guard block != nil, !touched.isEmpty else {
                    return ((!touched.isEmpty, nil, added), touched)
                }
                let (kept, others) = Self.splitByBlock(
                    touched, delta.documents[position].events, newEvents: added, in: state)
                return ((true, kept, added), others)
            }
            if let kept, let block { keepBlock(block, holding: kept, for: key, stored: blocksStored) }
            newEvents += added
            if touchedAny { changed.append(documentID) }
        }
        return .applied(newEvents: newEvents, changedDocumentIDs: changed)
    }

    /// The latest timestamp of `events`, each read in place.
    static func latestTimestamp(of events: [DocumentEvent]) -> HybridTimestamp? {
        events.withUnsafeBufferPointer { events in
            var latest: HybridTimestamp?
            for index in events.indices where latest.map({ events[index].timestamp > $0 }) ?? true {
                latest = events[index].timestamp
            }
            return latest
        }
    }

    /// Which of the dots a delta's document touched its received block holds in their current
    /// form (kept: stored as the block), and the others (encoded anew). The block is kept only
    /// when every event in it was new here and they are in dot order; otherwise nil and every dot.
    static func splitByBlock(
        _ touched: [Dot], _ received: [DocumentEvent], newEvents: Int, in state: DocumentState
    ) -> (kept: [Dot]?, others: [Dot]) {
        // The received events are read through the buffer: only their dots and removed flags are
        // needed (a merge leaves them there when it takes the rest, `DocumentEvent.take`).
        received.withUnsafeBufferPointer { received in
            guard newEvents == received.count,
                received.indices.dropFirst().allSatisfy({ received[$0 - 1].dot < received[$0].dot })
            else { return (nil, touched) }
            var kept: [Dot] = []
            kept.reserveCapacity(received.count)
            var others: [Dot] = []
            // Touched dots mostly follow the received ones in order (each event touched itself):
            // the next received dot is tried first, a binary search finds any other.
            var next = 0
            for dot in touched {
                var low: Int
                if next < received.count, received[next].dot == dot {
                    low = next
                } else {
                    low = 0
                    var high = received.count
                    while low < high {
                        let middle = (low + high) / 2
                        if received[middle].dot < dot { low = middle + 1 } else { high = middle }
                    }
                }
                if low < received.count, received[low].dot == dot { next = low + 1 }
                if low < received.count, received[low].dot == dot,
                    state.isRemoved(at: dot) == received[low].isRemoved
                {
                    kept.append(dot)
                } else {
                    others.append(dot)
                }
            }
            return (kept, others)
        }
    }

    /// Whether some peer's writes in `events` skip a counter after what `have` holds.
    static func hasGap(_ events: [DocumentEvent], after have: VersionVector) -> Bool {
        // A live update is one event: no table, no array of dots.
        if events.count == 1 { return events[0].dot.counter > have[events[0].dot.peer] + 1 }
        if let gap = gapInDotOrder(events, after: have) { return gap }
        var next: [PeerID: UInt64] = [:]
        var dots = events.map(\.dot)
        // A delta lists events in dot order; anything else is sorted first.
        if !zip(dots, dots.dropFirst()).allSatisfy({ $0 < $1 }) { dots.sort() }
        for dot in dots {
            let peer = dot.peer
            let expected = next[peer] ?? have[peer] + 1
            if dot.counter < expected { continue }
            if dot.counter > expected { return true }
            next[peer] = expected + 1
        }
        return false
    }

    /// `hasGap` of events in dot order (as a delta lists them), read in place: each peer's run is
    /// checked against what `have` holds, with no table and no array of dots. Nil when the events
    /// are not in dot order (then `hasGap` sorts them).
    private static func gapInDotOrder(_ events: [DocumentEvent], after have: VersionVector) -> Bool? {
        events.withUnsafeBufferPointer { events in
            var index = 0
            var gap = false
            while index < events.count {
                let peer = events[index].dot.peer
                var expected = have[peer] + 1
                var previous: UInt64 = 0
                while index < events.count, events[index].dot.peer == peer {
                    let counter = events[index].dot.counter
                    if counter <= previous { return nil }
                    previous = counter
                    if counter > expected { gap = true }
                    if counter == expected { expected += 1 }
                    index += 1
                }
                if index < events.count, events[index].dot.peer < peer { return nil }
            }
            return gap
        }
    }

    /// Rejects events no honest peer writes, before anything is applied.
    public static func validate(_ events: [DocumentEvent], documentID: String) throws {
        for event in events {
            let problem: String?
            switch event.kind {
            case _ where event.dot.counter == 0: problem = "has counter 0"
            case _ where event.context.contains(event.dot): problem = "claims to have seen itself"
            case .value where event.path.isEmpty: problem = "writes a value over the whole document"
            case .value where !event.isRemoved && event.value == nil:
                problem = "is a live value write without a value"
            case .value where event.value?.objectValue != nil: problem = "writes an object as a register"
            default: problem = nil
            }
            if let problem {
                throw ReplicaError.malformedDelta(
                    reason: "event \(event.dot) of document '\(documentID)' \(problem)")
            }
        }
    }
}
