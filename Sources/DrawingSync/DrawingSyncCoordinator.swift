import ReplicaCore
import ReplicaStore
import StrokeKit

/// The open drawing and the loop between it and the replica: the one owner of the drawing while
/// it is open.
///
/// Local edits change `drawing` inside `edit(now:_:)`, which learns from the drawing's journal
/// which keys they touched and restarts a 100 ms quiet period; when it is over, `tick(now:)`
/// flushes the keys edited since the last flush as one transaction (an upsert of the entries
/// of the strokes as drawn and the sweeps that are new, as `INSERT ... ON ID CONFLICT DO
/// UPDATE_LOCAL_DIFF` writes them, and an unset of removed groups and undone sweeps). An observer of the drawing's document brings every change — local or from a
/// peer — back as patches and puts them straight into `drawing`, except for keys with unflushed
/// local edits, so a remote change arriving inside the quiet period cannot undo a local erase or
/// delete (a remote sweep is still added beside local sweeps, see `rebase`); it never writes
/// anything itself, so nothing echoes.
public final class DrawingSyncCoordinator {
    /// What a change from the replica did to the drawing.
    public struct RemoteChange: Sendable {
        /// Per key the new group, or nil when the group is gone.
        public var groups: [StrokeKey: StrokeGroup?]
        /// Entries that could not be read; they are not shown.
        public var problems: [StoredGroupProblem]
    }

    public static let collection = "drawings"

    public let drawingID: String
    /// The drawing's document, its names hashed once for every flush's write.
    private let documentKey: DocumentKey
    /// The drawing as the canvas shows it: synchronized groups plus unflushed local edits.
    public internal(set) var drawing = Drawing()
    public internal(set) var model = DrawingModel()
    /// Keys edited locally since the last flush.
    public private(set) var unflushedKeys: Set<StrokeKey> = []
    /// Transactions this coordinator has committed (a remote change never causes one).
    public private(set) var transactionCount = 0
    /// The last failed flush; cleared by the next successful one.
    public private(set) var lastFlushError: (any Error)?

    /// Called after a change from the replica altered `drawing`.
    public var onRemoteChange: ((RemoteChange) -> Void)?

    let replica: Replica
    private var debouncer: FlushDebouncer
    private var observation: ObservationToken?
    /// A staged open: the stored entries not decoded yet (nil once everything is).
    var pending: PendingEntries?
    /// The region a staged open decodes first; nil: everything at once.
    let firstRegion: CellRect?
    /// The bounds cache the open found, until the first look at the document has sorted the
    /// strokes by it (the pending entries then keep the bounds of theirs).
    var openedCache: BoundsCacheTable?
    /// Whether the cache on disk says what the drawing holds now (nothing to write on close).
    var boundsCacheIsCurrent = false
    /// What the open did, for the bench and the tests.
    public internal(set) var openStatistics = OpenStatistics()
    /// How many times freed heap was given back to the system (`HeapRelease`): after a staged
    /// open's last slice, after a whole open of a large drawing, after each flush of very many
    /// entries, and when the app asked (`releaseHeap()`).
    public internal(set) var heapReleases = 0

    /// Starts observing the drawing; `drawing` holds its current content when this returns.
    ///
    /// With `firstRegion` (the cells the first frame shows, and those an edit there can reach),
    /// the open is staged: only the groups whose cached bounds meet it, and those the cache does
    /// not know, are decoded now; the rest wait for `loadSlice(maximumGroups:)`, `load(under:)`
    /// or `finishLoading()` (see `DrawingSyncCoordinator+Loading`). Without it everything is
    /// decoded now.
    public init(replica: Replica, drawingID: String, quietPeriod: Int64 = 100, firstRegion: CellRect? = nil) {
        self.replica = replica
        self.drawingID = drawingID
        documentKey = DocumentKey(collection: Self.collection, id: drawingID)
        self.firstRegion = firstRegion
        debouncer = FlushDebouncer(quietPeriod: quietPeriod)
        if firstRegion != nil {
            openedCache = try? DrawingBoundsCache.readTable(inStore: replica.directory, drawingID: drawingID)
        }
        observation = replica.observeDocument(drawingID, in: Self.collection) { [weak self] observation in
            self?.receive(observation)
        }
    }

    deinit {
        observation?.cancel()
    }

    /// When the driver must call `tick(now:)`, if edits are waiting.
    public var deadline: Int64? { debouncer.deadline }

    /// A local edit: `body` changes the drawing (the editor's gestures, undo); the keys it
    /// touched wait for the next flush, and the quiet period starts again if there were any.
    @discardableResult
    public func edit<Result>(now: Int64, _ body: (inout Drawing) throws -> Result) rethrows -> Result {
        let start = drawing.revision
        defer {
            // An edit longer than the journal (an undo of a wide erase) is found by comparison.
            let keys = drawing.changedKeys(since: start) ?? model.keysDiffering(from: drawing)
            if !keys.isEmpty {
                unflushedKeys.formUnion(keys)
                debouncer.edited(now: now)
            }
        }
        return try body(&drawing)
    }

    /// Flushes when the quiet period is over. A failed flush is kept and retried after another
    /// quiet period; its error is in `lastFlushError` and is thrown.
    public func tick(now: Int64) throws {
        guard debouncer.poll(now: now) == .flush else { return }
        do {
            try flush()
        } catch {
            debouncer.retry(now: now)
            throw error
        }
    }

    /// Writes every unflushed edit now, as one transaction.
    public func flush() throws {
        // After the flush's own maps are gone: what it freed is what a large flush gives back.
        if HeapRelease.follows(try writeUnflushed()) { releaseHeap() }
    }

    /// `flush()` but for the heap: returns how many entries it wrote.
    private func writeUnflushed() throws -> Int {
        let keys = unflushedKeys
        unflushedKeys.removeAll()
        debouncer.reset()
        let changes = model.changes(current: drawing, among: keys)
        guard !changes.isEmpty else { return 0 }
        boundsCacheIsCurrent = false
        let pending = model.persistPending(changes)
        do {
            try replica.write { transaction in try Self.write(changes, of: documentKey, in: transaction) }
        } catch {
            model.rollback(pending)
            unflushedKeys.formUnion(keys)
            lastFlushError = error
            throw error
        }
        model.applyRemoves(changes.removals)
        transactionCount += 1
        lastFlushError = nil
        return changes.entryCount
    }

    /// Gives the heap malloc keeps free back to the system (see `HeapRelease`), with the pages
    /// the replica's SQLite cache holds from the work just done (a whole read or a large write)
    /// freed first, so that their memory goes back too. The coordinator does this after its own
    /// large work; the app also asks for it when it has been idle a while (`IdleHeapRelease`).
    public func releaseHeap() {
        replica.releaseCachedPages()
        if HeapRelease.release() { heapReleases += 1 }
    }

    /// Stops observing; call `flush()` first to keep pending edits.
    public func close() {
        observation?.cancel()
        observation = nil
    }

    /// Takes in the observed document: all of it at first, then the stroke and sweep entries each
    /// commit changed, so a one-stroke change costs the same in a drawing of ten strokes and of
    /// ten thousand.
    private func receive(_ observation: DocumentObservation) {
        let update: DrawingModel.StoreUpdate
        switch observation {
        case .initial(let document):
            if let firstRegion {
                beginStagedOpen(document, firstRegion: firstRegion)
                return
            }
            // After the update's map of every stroke is gone (see `flush`).
            if HeapRelease.follows(takeWholeDocument(document)) { releaseHeap() }
            return
        case .changed(let patches):
            var entries = Self.storedEntries(in: patches)
            // A key still pending goes into the model and the drawing before its change does.
            loadBeforeChanging(&entries)
            update = model.update(entries)
        }
        if !update.changed.isEmpty { boundsCacheIsCurrent = false }
        var change = RemoteChange(groups: [:], problems: update.problems)
        for (key, remote) in update.changed {
            var group = remote
            if unflushedKeys.contains(key) {
                guard let rebased = Self.rebase(drawing[key], onto: remote, from: update.previous[key]) else {
                    continue
                }
                group = rebased
            }
            if drawing.setGroup(group, for: key) { change.groups[key] = .some(group) }
        }
        if !change.groups.isEmpty || !change.problems.isEmpty { onRemoteChange?(change) }
    }

    /// Builds the model and the drawing from the whole document at once (one sort, not one
    /// insertion into the key order per stroke); returns how many strokes it took in.
    private func takeWholeDocument(_ document: ObservedDocument) -> Int {
        let update = model.update(fromDocument: document.fields)
        drawing = Drawing(groups: update.changed.values.compactMap { $0 })
        return update.changed.count
    }

    /// A remote change of a group with unflushed local edits: nil keeps the local group as it
    /// is (a local removal, a new stroke: the flush writes them over the remote change). The
    /// local edits of a group that was there are carried over onto the remote group: the sweeps
    /// added or taken out, and a stroke as drawn that was rewritten (a move: the flush writes it,
    /// and it wins as the later write of that register). So a peer's sweep arriving inside the
    /// quiet period is kept (the flush must not unset what it never took out), a moved stroke
    /// keeps a peer's erasure, which moves with it, and a remote removal of the stroke wins.
    static func rebase(_ local: StrokeGroup?, onto remote: StrokeGroup?, from old: StrokeGroup?)
        -> StrokeGroup??
    {
        guard let local, let old else { return nil }
        guard let remote else { return .some(nil) }
        let base = local.base == old.base ? remote.base : local.base
        var sweeps = remote.sweeps
        for (sweepKey, mask) in local.sweeps where old.sweeps[sweepKey] != mask { sweeps[sweepKey] = mask }
        for sweepKey in old.sweeps.keys where local.sweeps[sweepKey] == nil { sweeps[sweepKey] = nil }
        return .some(StrokeGroup(key: remote.key, base: base, sweeps: sweeps))
    }

    /// The `strokes` and `sweeps` entries the patches set, each with its value now or nil; a
    /// patch of the document or of a whole map stands for every entry of that map.
    static func storedEntries(in patches: [DocumentPatch]) -> DrawingModel.StoredEntries {
        var entries = DrawingModel.StoredEntries()
        for patch in patches {
            let path = patch.path
            switch (path.first, path.count) {
            case (nil, _):
                let fields = patch.value?.objectValue
                entries = DrawingModel.StoredEntries(
                    strokes: fields?["strokes"]?.objectValue ?? [:],
                    sweeps: fields?["sweeps"]?.objectValue ?? [:])
            case ("strokes", 1):
                entries.bases = (patch.value?.objectValue ?? [:]).mapValues { Optional($0) }
                entries.replacesAllBases = true
            case ("strokes", 2):
                entries.bases[path[1]] = .some(patch.value)
            case ("strokes", _):
                // Something written inside an entry: the entry is a map, not an encoded group.
                entries.bases[path[1]] = .some(.object([:]))
            case ("sweeps", 1):
                entries.sweepMaps = (patch.value?.objectValue ?? [:]).mapValues { Optional($0) }
                entries.sweeps = [:]
                entries.replacesAllSweeps = true
            case ("sweeps", 2):
                entries.sweepMaps[path[1]] = .some(patch.value)
                entries.sweeps[path[1]] = nil
            case ("sweeps", 3):
                entries.sweeps[path[1], default: [:]][path[2]] = .some(patch.value)
            case ("sweeps", _):
                // Something written inside a sweep: it is a map, not an encoded sweep.
                entries.sweeps[path[1], default: [:]][path[2]] = .some(.object([:]))
            default:
                continue  // the name and other fields
            }
        }
        return entries
    }

    /// One flush's writes: the entries of the strokes as drawn and of the sweeps that are new or
    /// changed (as an `INSERT ... ON ID CONFLICT DO UPDATE_LOCAL_DIFF` of the document nesting
    /// them would write them), then an UNSET of removed groups (their stroke and their sweeps) and
    /// removed sweeps. The entries go to the replica as paths and values (`upsert(_:into:id:)`),
    /// with no DQL argument dictionary built and taken apart again.
    private static func write(
        _ changes: DrawingModel.Changes, of documentKey: DocumentKey, in transaction: ReplicaTransaction
    ) throws {
        var entries: [DocumentEntry] = []
        entries.reserveCapacity(changes.baseWrites.count)
        for key in changes.baseWrites {
            if let encoded = changes.upserts[key] {
                entries.append(
                    DocumentEntry(path: ["strokes", key.rawValue], value: .base64(encoded.storedBytes)))
            }
        }
        for (key, sweepKeys) in changes.sweepWrites {
            guard let values = changes.upserts[key]?.sweepValues else { continue }
            var written = false
            for sweepKey in sweepKeys {
                guard let value = values[sweepKey] else { continue }
                entries.append(
                    DocumentEntry(path: ["sweeps", key.rawValue, sweepKey.rawValue], value: .string(value)))
                written = true
            }
            // The nested document said `sweeps.key = {}` for a group none of whose sweeps has a
            // value: that still makes the group's sweep map.
            if !written {
                entries.append(DocumentEntry(path: ["sweeps", key.rawValue], value: .object([:])))
            }
        }
        if !entries.isEmpty { try transaction.upsert(entries, into: documentKey) }
        var unset: [[String]] = []
        for key in changes.removals.sorted() {
            unset += [["strokes", key.rawValue], ["sweeps", key.rawValue]]
        }
        for key in changes.sweepRemovals.keys.sorted() {
            for sweepKey in (changes.sweepRemovals[key] ?? []).sorted() {
                unset.append(["sweeps", key.rawValue, sweepKey.rawValue])
            }
        }
        guard !unset.isEmpty else { return }
        try transaction.unset(unset, in: documentKey)
    }
}
