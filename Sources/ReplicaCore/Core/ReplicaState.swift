/// Which document: collection and `_id`.
///
/// Both names are hashed once, when the key is made: a local write looks its document up in
/// half a dozen tables keyed by it (the documents, the stored documents' counts, what the
/// observers are told), and hashed the two strings again for each.
public struct DocumentKey: Hashable, Sendable {
    public let collection: String
    public let id: String
    /// The names' hash (the standard library's, seeded per process, so a peer cannot choose
    /// names that collide); the tables hash it again with their own seeds.
    private let namesHash: Int

    public init(collection: String, id: String) {
        self.collection = collection
        self.id = id
        var hasher = Hasher()
        hasher.combine(collection)
        hasher.combine(id)
        namesHash = hasher.finalize()
    }

    public static func == (lhs: DocumentKey, rhs: DocumentKey) -> Bool {
        lhs.namesHash == rhs.namesHash && lhs.collection == rhs.collection && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(namesHash)
    }
}

/// Every document of one replica, in memory and free of SQLite: the CRDT core that the SQLite
/// store persists, and that law and convergence tests drive directly.
///
/// It is a value: copying it before a transaction and restoring the copy is the rollback.
public struct ReplicaState: Sendable {
    public let peerID: PeerID
    public var clock: HybridClock
    /// Every document, by its key: one table, whose keys carry their names' hash, so a write
    /// finds its document with one hash of a number (a table per collection, keyed by the
    /// names, hashed the collection's name and then the id's for every lookup).
    private(set) var documents: [DocumentKey: DocumentState] = [:]
    /// Dots whose stored state changed since the last `takeUnsaved()`.
    private var unsaved = UnsavedDots()
    /// Event blocks of applied deltas to store as they came, with the dots whose current form
    /// each holds (they are not in `unsaved`); `stored` when the caller stored the block already.
    private var unsavedBlocks: [DocumentKey: [(block: ArraySlice<UInt8>, dots: [Dot], stored: Bool)]] = [:]

    public init(peerID: PeerID, clock: HybridClock = HybridClock()) {
        self.peerID = peerID
        self.clock = clock
    }

    public func document(_ key: DocumentKey) -> DocumentState? {
        documents[key]
    }

    /// `body` of the document `key` read where it lies, or nil when there is none.
    ///
    /// Mutating in form only (`body` cannot change the document): the table's getter copies a
    /// document out (a retain and a release of each of its tables), its values' modify accessor
    /// hands over the document in place. Called through the replica's class, a mutating call
    /// reads the state in place too, where a call of a reader copied the whole state out first.
    package mutating func readInPlace<T>(_ key: DocumentKey, _ body: (borrowing DocumentState) -> T) -> T? {
        guard let index = documents.index(forKey: key) else { return nil }
        return Self.borrow(&documents.values[index], body)
    }

    private static func borrow<T>(_ state: inout DocumentState, _ body: (borrowing DocumentState) -> T) -> T {
        body(state)
    }

    /// The ids of the documents of a collection that hold any event (tombstones included), sorted.
    public func documentIDs(in collection: String) -> [String] {
        documents.keys.compactMap { $0.collection == collection ? $0.id : nil }.sorted()
    }

    /// Every collection and document, for comparing replicas in tests.
    public var allDocuments: [DocumentKey: DocumentState] { documents }

    /// Runs `body` on a document, creating it if needed, and remembers what it touched.
    mutating func modify<T>(_ key: DocumentKey, _ body: (inout DocumentState) throws -> (T, [Dot])) rethrows
        -> T
    {
        // Mutated where it lies, through the table's modify accessor: in place, not on a copy,
        // and the key hashed once (taking it out and putting it back hashed it twice).
        var isEmpty = false
        defer {
            // A document compacted down to nothing is kept: its vectors stop dropped events returning.
            if isEmpty {
                documents[key] = nil
            }
        }
        let (result, touched) = try Self.mutate(
            &documents[key, default: DocumentState()], isEmpty: &isEmpty,
            body)
        unsaved.record(touched, for: key)
        return result
    }

    /// Runs `body` on `state` and says afterwards (whether it returns or throws) whether the
    /// document holds nothing to keep.
    private static func mutate<T>(
        _ state: inout DocumentState, isEmpty: inout Bool, _ body: (inout DocumentState) throws -> T
    ) rethrows -> T {
        defer { isEmpty = state.eventCount == 0 && state.compacted.isEmpty }
        return try body(&state)
    }

    /// Drops the causally stable removed events of a document (see `DocumentState.compact`);
    /// `stable` is what every replica that counts has acknowledged of it. Returns the dots dropped.
    @discardableResult
    public mutating func compact(_ key: DocumentKey, stable: VersionVector) -> [Dot] {
        guard documents[key] != nil else { return [] }
        return modify(key) { state in
            let dropped = state.compact(stable: stable)
            return (dropped, [])
        }
    }

    /// Drops a document from memory, leaving nothing to save: for a replica that is a cache of a
    /// durable log (a relay on PostgreSQL), which reads the document again when it is needed.
    public mutating func forget(_ key: DocumentKey) {
        documents[key] = nil
        unsaved.remove(key)
    }

    /// Loads stored events without marking them unsaved (used when opening a store).
    package mutating func load(_ event: DocumentEvent, into key: DocumentKey) {
        documents[key, default: DocumentState()].integrate(event)
    }

    /// Loads the events of a stored resolved state (a snapshot part or a log row) into one
    /// document, without marking them unsaved, trusting each event's stored form (see
    /// `DocumentState.loadResolved`).
    package mutating func loadResolvedEvents(_ events: consuming [DocumentEvent], into key: DocumentKey) {
        var state = documents.removeValue(forKey: key) ?? DocumentState()
        state.loadResolved(contentsOf: events)
        documents[key] = state
    }

    /// What changed in one document since the last `takeUnsaved()`, to be written to disk.
    package struct UnsavedDocument {
        package var key: DocumentKey
        /// The dots of every changed event the document holds, in order, each once (the events
        /// themselves are read where they lie: see `changedPaths(of:)`).
        package var dots: [Dot]
        /// Event blocks received in deltas whose events are to be stored as they came (a block
        /// stored while its delta merged is not here; its dots are).
        package var blocks: [ArraySlice<UInt8>]
        /// The changed events the blocks do not hold in their current form, in dot order.
        package var unencoded: [DocumentEvent]
    }

    /// Every document changed since the last call, each once, in key order.
    ///
    /// A local write changes one document by one or two events: that case sorts nothing and
    /// builds no set, and the tables of unsaved dots keep their storage for the next commit. The
    /// events a received block holds are not copied: only their dots are taken.
    package mutating func takeUnsaved() -> [UnsavedDocument] {
        if !hasUnsavedChanges { return [] }
        // A local write: one document, its events (one, or a value and the removed form of the
        // one it replaced), no received block. The same result as below without the arrays of
        // keys and the closure on the way.
        if unsavedBlocks.isEmpty, let (key, dots) = unsaved.takeOnly() {
            let change = readInPlace(key) { document in
                let held = Self.heldInOrder(dots, in: document)
                var unencoded: [DocumentEvent] = []
                unencoded.reserveCapacity(held.count)
                for dot in held { if let event = document.event(at: dot) { unencoded.append(event) } }
                return UnsavedDocument(key: key, dots: held, blocks: [], unencoded: unencoded)
            }
            return [change ?? UnsavedDocument(key: key, dots: [], blocks: [], unencoded: [])]
        }
        // A live update applied alone: one document, one received block, nothing else.
        if unsaved.isEmpty, unsavedBlocks.count == 1, let (key, held) = unsavedBlocks.first, held.count == 1 {
            unsavedBlocks.removeAll(keepingCapacity: true)
            let dots = readInPlace(key) { Self.heldInOrder(held[0].dots, in: $0) } ?? []
            return [
                UnsavedDocument(
                    key: key, dots: dots, blocks: held[0].stored ? [] : [held[0].block], unencoded: [])
            ]
        }
        var keys = unsaved.keys
        for key in unsavedBlocks.keys where unsaved[key] == nil { keys.append(key) }
        if keys.count > 1 { keys.sort { ($0.collection, $0.id) < ($1.collection, $1.id) } }
        let result = keys.map { key in
            let document = document(key)
            let extra = unsaved[key] ?? []
            let held = unsavedBlocks[key] ?? []
            var unencoded: [DocumentEvent] = []
            unencoded.reserveCapacity(extra.count)
            let blocks = held.compactMap { $0.stored ? nil : $0.block }
            guard let document else {
                return UnsavedDocument(key: key, dots: [], blocks: blocks, unencoded: [])
            }
            let extraDots = Self.heldInOrder(extra, in: document)
            for dot in extraDots { if let event = document.event(at: dot) { unencoded.append(event) } }
            let dots = held.isEmpty ? extraDots : Self.heldInOrder(extra + held.flatMap(\.dots), in: document)
            return UnsavedDocument(key: key, dots: dots, blocks: blocks, unencoded: unencoded)
        }
        unsaved.removeAll()
        unsavedBlocks.removeAll(keepingCapacity: true)
        return result
    }

    /// `dots` sorted, each once, keeping those `document` holds: in the array given (a local
    /// write's one or two dots, handed over by the unsaved table, need no other), where sorting
    /// a copy into a second new array was a third of `takeUnsaved` for an overwrite.
    private static func heldInOrder(_ dots: consuming [Dot], in document: borrowing DocumentState) -> [Dot] {
        var result = dots
        // A local write's one event: the array as it is.
        if result.count == 1 { return document.isRemoved(at: result[0]) != nil ? result : [] }
        result.sort()
        var kept = 0
        for index in result.indices where kept == 0 || result[index] != result[kept - 1] {
            if document.isRemoved(at: result[index]) != nil {
                if kept != index { result[kept] = result[index] }
                kept += 1
            }
        }
        if kept < result.count { result.removeLast(result.count - kept) }
        return result
    }

    /// The paths of an unsaved document's changed events, read in place.
    package func changedPaths(of unsaved: UnsavedDocument) -> Set<[String]> {
        var paths = Set<[String]>(minimumCapacity: unsaved.dots.count)
        guard let document = document(unsaved.key) else { return paths }
        for dot in unsaved.dots { if let path = document.path(at: dot) { paths.insert(path) } }
        return paths
    }

    package var hasUnsavedChanges: Bool { !unsaved.isEmpty || !unsavedBlocks.isEmpty }

    /// Records that `block` holds the current form of `dots` of a document, to be stored as is
    /// (unless `stored`: the caller stored it while the delta merged).
    mutating func keepBlock(
        _ block: ArraySlice<UInt8>, holding dots: [Dot], for key: DocumentKey, stored: Bool
    ) {
        unsavedBlocks[key, default: []].append((block: block, dots: dots, stored: stored))
    }

    /// Forgets what changed in a document since the last `takeUnsaved()`: for a caller that
    /// stores the document's whole state instead (taking a peer's whole state writes a snapshot,
    /// which a log row of the same events would only duplicate).
    package mutating func discardUnsaved(_ key: DocumentKey) {
        unsaved.remove(key)
        unsavedBlocks[key] = nil
    }

    /// A local write context at one wall time; hand the clock back with `finish(_:)`.
    mutating func withAuthor<T>(wall: Int64, _ body: (inout ReplicaState, inout LocalAuthor) throws -> T)
        rethrows -> T
    {
        var author = LocalAuthor(peer: peerID, clock: clock, wall: wall)
        defer { clock = author.clock }
        return try body(&self, &author)
    }
}
