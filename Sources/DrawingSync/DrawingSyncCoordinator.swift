import ReplicaStore
import StrokeKit

/// The loop between one drawing on the canvas and the replica.
///
/// Local edits go in through `edit(_:now:)` and restart a 100 ms quiet period; when it is over,
/// `tick(now:)` flushes the keys edited since the last flush as one transaction (an
/// `INSERT ... ON ID CONFLICT DO UPDATE_LOCAL_DIFF` of the changed groups and an `UNSET` of the
/// removed ones). A store observer on the drawing's document brings every change — local or from
/// a peer — back; it only ever changes `groups` for keys without unflushed local edits, so a
/// remote change arriving inside the quiet period cannot undo a local erase or delete, and it
/// never writes anything itself, so nothing echoes.
public final class DrawingSyncCoordinator {
    /// What a change from the replica did to the canvas.
    public struct RemoteChange: Sendable {
        /// Per key the new group, or nil when the group is gone.
        public var groups: [StrokeKey: StrokeGroup?]
        /// Entries that could not be read; they are not shown.
        public var problems: [StoredGroupProblem]
    }

    public static let collection = "drawings"

    public let drawingID: String
    /// The drawing as the canvas shows it: synchronized groups plus unflushed local edits.
    public private(set) var groups: [StrokeKey: StrokeGroup] = [:]
    public private(set) var model = DrawingModel()
    /// Keys edited locally since the last flush.
    public private(set) var unflushedKeys: Set<StrokeKey> = []
    /// Transactions this coordinator has committed (a remote change never causes one).
    public private(set) var transactionCount = 0
    /// The last failed flush; cleared by the next successful one.
    public private(set) var lastFlushError: (any Error)?

    /// Called after a change from the replica altered `groups`.
    public var onRemoteChange: ((RemoteChange) -> Void)?

    private let replica: Replica
    private var debouncer: FlushDebouncer
    private var observation: ObservationToken?

    /// Starts observing the drawing; `groups` holds its current content when this returns.
    public init(replica: Replica, drawingID: String, quietPeriod: Int64 = 100) throws {
        self.replica = replica
        self.drawingID = drawingID
        debouncer = FlushDebouncer(quietPeriod: quietPeriod)
        observation = try replica.observe(
            .select(DQLSelect(projection: .allFields, collection: Self.collection, filter: Self.idFilter)),
            arguments: ["id": .string(drawingID)]
        ) { [weak self] result, changedPaths in
            self?.receive(result, strokeKeys: changedPaths.flatMap(Self.strokeKeys(changedAt:)))
        }
    }

    deinit {
        observation?.cancel()
    }

    /// The groups in key order (z-order).
    public var drawing: [StrokeGroup] {
        groups.keys.sorted().compactMap { groups[$0] }
    }

    /// When the driver must call `tick(now:)`, if edits are waiting.
    public var deadline: Int64? { debouncer.deadline }

    /// Local edits: per key the group as it is now, or nil for a group that is gone.
    public func edit(_ edits: [StrokeKey: StrokeGroup?], now: Int64) {
        guard !edits.isEmpty else { return }
        for (key, group) in edits {
            groups[key] = group
            unflushedKeys.insert(key)
        }
        debouncer.edited(now: now)
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
        let keys = unflushedKeys
        unflushedKeys.removeAll()
        debouncer.reset()
        let changes = model.changes(current: groups, among: keys)
        guard !changes.isEmpty else { return }
        let pending = model.persistPending(changes)
        do {
            try replica.write { transaction in
                if !changes.upserts.isEmpty {
                    var strokes: [String: DocumentValue] = [:]
                    for (key, encoded) in changes.upserts { strokes[key.rawValue] = .string(encoded.value) }
                    try transaction.execute(
                        Self.upsert,
                        arguments: ["doc": .object(["_id": .string(drawingID), "strokes": .object(strokes)])])
                }
                if !changes.removals.isEmpty {
                    let unset = DQLUpdate(
                        collection: Self.collection,
                        actions: changes.removals.sorted().map { .unset(DQLPath(["strokes", $0.rawValue])) },
                        filter: Self.idFilter)
                    try transaction.execute(.update(unset), arguments: ["id": .string(drawingID)])
                }
            }
        } catch {
            model.rollback(pending)
            unflushedKeys.formUnion(keys)
            lastFlushError = error
            throw error
        }
        model.applyRemoves(changes.removals)
        transactionCount += 1
        lastFlushError = nil
    }

    /// Stops observing; call `flush()` first to keep pending edits.
    public func close() {
        observation?.cancel()
        observation = nil
    }

    /// Takes in the observed document: only the entries of `strokeKeys` when the replica said
    /// where it changed, else the whole map. The replica patches the observed result from the
    /// paths a commit wrote, so a one-stroke change costs the same in a drawing of ten strokes and
    /// of ten thousand.
    private func receive(_ result: QueryResult, strokeKeys: Set<String>?) {
        let map = result.documents.first?["strokes"]?.objectValue ?? [:]
        let update: DrawingModel.StoreUpdate
        if let strokeKeys {
            var entries: [String: DocumentValue?] = [:]
            for key in strokeKeys { entries[key] = .some(map[key]) }
            update = model.update(entries: entries)
        } else {
            update = model.update(fromStrokesMap: map)
        }
        var change = RemoteChange(groups: [:], problems: update.problems)
        for (key, group) in update.changed where !unflushedKeys.contains(key) && groups[key] != group {
            groups[key] = group
            change.groups[key] = .some(group)
        }
        if !change.groups.isEmpty || !change.problems.isEmpty { onRemoteChange?(change) }
    }

    /// The `strokes` entries that events at `paths` can have changed; nil when the whole map may
    /// have (the document, or the map itself, was written or removed).
    static func strokeKeys(changedAt paths: Set<[String]>) -> Set<String>? {
        var keys: Set<String> = []
        for path in paths {
            guard let field = path.first else { return nil }
            guard field == "strokes" else { continue }  // the name and other fields
            guard path.count >= 2 else { return nil }
            keys.insert(path[1])
        }
        return keys
    }

    private static let idFilter = DQLFilter(id: .parameter(name: "id", position: DQLPosition(line: 1, column: 1)))
    private static let upsert = DQLStatement.insert(
        DQLInsert(
            collection: collection,
            documents: [.parameter(name: "doc", position: DQLPosition(line: 1, column: 1))],
            onConflict: .updateLocalDiff))
}
