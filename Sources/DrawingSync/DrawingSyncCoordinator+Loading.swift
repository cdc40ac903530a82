import ReplicaCore
import StrokeKit

/// A staged open: the groups under the first frame are decoded first, the rest later, a slice at
/// a time, while the drawing is already shown and edited.
///
/// The rule that keeps it right: a key is in the model and in `drawing` together or in neither
/// (it is then pending, its stored entries kept as read). Local edits can only reach groups in
/// `drawing` (the caller loads the region an edit can reach first, `load(under:)`) or new keys,
/// so a flush, which diffs only the keys edited since the last one, never meets a pending key,
/// and the comparison of every key an overlong edit falls back to sees only loaded ones. A change
/// from the replica to a pending key loads that key first, then applies to it as to any other,
/// so the pending entries are always exactly what the replica held when they were read.
extension DrawingSyncCoordinator {
    /// What a staged open decoded when, and what the bounds cache gave it.
    public struct OpenStatistics: Equatable, Sendable {
        /// Stored strokes when the drawing was opened.
        public var storedStrokes = 0
        /// Strokes whose bounds the cache knew for their stored value.
        public var cachedBounds = 0
        /// Strokes decoded before the open returned (the first frame's, and those of unknown bounds).
        public var decodedFirst = 0
        /// Strokes decoded later.
        public var decodedLater = 0
    }

    /// Whether some stored groups are not decoded yet.
    public var isLoading: Bool { pending != nil }

    /// How many strokes the drawing holds, pending ones included.
    public var strokeCount: Int { drawing.count + (pending?.count ?? 0) }

    /// Decodes every pending group whose bounds meet `rect`, so that what the region shows, and
    /// what an edit in it can reach, is in `drawing`. Asking again for a region asked for
    /// recently costs nothing. Returns whether anything was decoded.
    @discardableResult
    public func load(under rect: CellRect) -> Bool {
        guard let entries = pending?.take(meeting: rect) else { return false }
        return loadTaken(entries)
    }

    /// Decodes up to `maximumGroups` pending groups, those meeting `preferred` first; returns
    /// whether any are left.
    @discardableResult
    public func loadSlice(maximumGroups: Int, preferring preferred: CellRect? = nil) -> Bool {
        loadSlice(step: maximumGroups, preferring: preferred) { false }
    }

    /// Decodes pending groups `step` at a time (those meeting `preferred` first) for as long as
    /// `shouldContinue` says after each step; they enter the drawing `insertionBatch` at a time
    /// (each batch one step of its journal), within the loop, so what `shouldContinue` measures
    /// includes putting them in. Returns whether any are left.
    @discardableResult
    public func loadSlice(step: Int, preferring preferred: CellRect? = nil, while shouldContinue: () -> Bool)
        -> Bool
    {
        let wasLoading = isLoading
        var groups: [StrokeGroup] = []
        repeat {
            guard let entries = pending?.takeNext(max(step, 1), preferring: preferred) else { break }
            groups += decodeTaken(entries)
            if groups.count >= Self.insertionBatch {
                drawing.insert(contentsOf: groups)
                groups.removeAll(keepingCapacity: true)
            }
        } while pending != nil && shouldContinue()
        drawing.insert(contentsOf: groups)
        if wasLoading, !isLoading { releaseHeap() }
        return isLoading
    }

    /// How many decoded groups a slice puts into the drawing at once. Putting a group in costs
    /// about three quarters of decoding it (a slot, its rank among every key, its tiles), so a
    /// slice that decoded until its deadline and only then put everything in ran some 70% over
    /// it (6–8 ms of a 4 ms budget at 100,000 strokes); a batch this size keeps the merge of the
    /// key order, which grows with the drawing, to a few per slice.
    static let insertionBatch = 256

    /// Decodes everything still pending (before an edit of the whole drawing, say a clear).
    public func finishLoading() {
        // The keys first: holding a copy of the pending entries while taking from them would
        // copy them all.
        guard let keys = pending?.rawKeys, let entries = pending?.take(keys) else {
            return
        }
        loadTaken(entries)
    }

    /// The latest stroke or sweep key of peer `suffix` among the pending entries, found without
    /// decoding anything, so a key clock never hands out a key a pending group has.
    public func latestPendingKey(ofPeer suffix: String) -> StrokeKey? {
        pending?.latestKey(ofPeer: suffix)
    }

    /// Writes the bounds cache of this drawing beside the replica, unless it says what the
    /// drawing holds already. The open after this one reads it.
    public func saveBoundsCache() throws(DrawingBoundsCacheError) {
        guard !replica.isReadOnly, !boundsCacheIsCurrent else { return }
        var cache = DrawingBoundsCache(drawingID: drawingID)
        for (key, encoded) in model.synced {
            cache.set(DrawingBoundsCache.entry(for: encoded), for: key.rawValue)
        }
        for (rawKey, entry) in pending?.boundsCacheEntries() ?? [] { cache.set(entry, for: rawKey) }
        try cache.write(inStore: replica.directory)
        boundsCacheIsCurrent = true
    }

    /// The first look at the document of a staged open: strokes the cache places outside
    /// `firstRegion` wait; the others (and every stroke the cache does not know) are decoded.
    ///
    /// The document's entries are read one at a time from the replica's state (a dictionary of
    /// every stroke is never built): those that wait go straight into the pending entries, the
    /// others into the model's first update.
    func beginStagedOpen(_ document: ObservedDocument, firstRegion: CellRect) {
        // The strokes decoded now, and beside each its rank in key order where the cache knew
        // it. Two arrays, not one of pairs: a pair holding an entry is copied and moved through
        // the runtime's generic tuple witnesses, a few milliseconds at 100,000 strokes.
        var now: [DrawingModel.NewEntry] = []
        var nowRanks: [Int32] = []
        var later = openedCache.map { PendingEntries(table: $0) }
        var statistics = OpenStatistics()
        if openedCache != nil { model.reserveCapacity(document.entryCapacity(ofMap: "strokes")) }
        // Read once: the property read in the loop copied the table out of the coordinator for
        // every stroke (a retain and a release of each of its arrays).
        let cache = openedCache
        func take(_ rawKey: String, _ value: DocumentValue) {
            statistics.storedStrokes += 1
            var rank = Int32.max
            if let bytes = value.base64Bytes, let entry = cache?.entry(of: rawKey, storedBytes: bytes) {
                statistics.cachedBounds += 1
                if !entry.bounds.intersects(firstRegion),
                    later?.add(rawKey, value: value, rank: entry.rank) == true
                {
                    return
                }
                rank = entry.rank
            }
            now.append(DrawingModel.NewEntry(rawKey: rawKey, base: value))
            nowRanks.append(rank)
        }
        // Each stroke is looked up in the cache `cacheAhead` strokes after the processor was
        // asked for the slot its lookup reads first, in the order the replica gives them.
        var ahead: [(rawKey: String, value: DocumentValue)] = []
        ahead.reserveCapacity(Self.cacheAhead)
        var next = 0
        document.forEachEntry(ofMap: "strokes") { rawKey, value in
            guard let cache else { return take(rawKey, value) }
            cache.prefetch(rawKey)
            if ahead.count < Self.cacheAhead {
                ahead.append((rawKey, value))
                return
            }
            let (oldKey, oldValue) = ahead[next]
            ahead[next] = (rawKey, value)
            next = (next + 1) % Self.cacheAhead
            take(oldKey, oldValue)
        }
        for offset in 0..<ahead.count {
            let (rawKey, value) = ahead[(next + offset) % ahead.count]
            take(rawKey, value)
        }
        var sweepsNow: [String: DocumentValue] = [:]
        document.forEachEntry(ofMap: "sweeps") { rawKey, map in
            if later?.holds(rawKey) == true {
                later?.addSweeps(rawKey, map: map)
            } else {
                sweepsNow[rawKey] = map
            }
        }
        if !sweepsNow.isEmpty {
            for index in now.indices {
                now[index].sweepMap = sweepsNow.removeValue(forKey: now[index].rawKey)
            }
        }
        // Nothing to write on close when the cache knew every stroke, and nothing more.
        boundsCacheIsCurrent =
            statistics.cachedBounds == statistics.storedStrokes
            && openedCache?.count == statistics.storedStrokes
        // The pending entries keep the cache's table until the last of them is taken.
        openedCache = nil
        // Moved out, not copied: a copy left behind would make the first take copy every rank.
        pending = later.take().flatMap { $0.isEmpty ? nil : $0 }
        // In key order, so the drawing's index is built from groups already sorted (those the
        // cache did not know come last, in the order read, for it to sort). The ranks are sorted
        // with their places, each pair one word (a rank is never negative), and the entries moved
        // out in that order: sorting the entries themselves, then mapping them out, copied each
        // twice.
        var order = nowRanks.indices.map { UInt64(UInt32(bitPattern: nowRanks[$0])) << 32 | UInt64($0) }
        order.sort()
        var entries: [DrawingModel.NewEntry] = []
        entries.reserveCapacity(order.count)
        for word in order { entries.append(now[Int(word & 0xFFFF_FFFF)].take()) }
        now = []  // its emptied entries freed before the groups are made
        let taken = model.takeNew(entries)
        if !sweepsNow.isEmpty {
            // Sweeps under a key with no stroke: kept apart by the model, shown by nothing.
            var orphans = DrawingModel.StoredEntries()
            for (rawKey, map) in sweepsNow { orphans.sweepMaps[rawKey] = .some(map) }
            _ = model.update(orphans)
        }
        statistics.decodedFirst = taken.groups.count
        openStatistics = statistics
        drawing = Drawing(groups: taken.groups)
        if pending != nil { drawing.reserveCapacity(statistics.storedStrokes) }
    }

    /// How many strokes the staged open keeps between asking for a stroke's slot in the bounds
    /// cache and looking the stroke up there (`BoundsCacheTable.prefetch`).
    static let cacheAhead = 8

    /// Before patches from the replica apply: a pending key whose entries they change is loaded
    /// first (then changed as any other); one they restate unchanged (a patch of a whole map
    /// names every key) is left out of them and stays pending.
    func loadBeforeChanging(_ entries: inout DrawingModel.StoredEntries) {
        // Sorted out on a copy that ends before the pending entries are taken from (a copy held
        // meanwhile would copy them all).
        guard let (changed, unchanged) = pending.map({ Self.sortOut($0, by: entries) }) else { return }
        for rawKey in unchanged {
            entries.bases[rawKey] = nil
            entries.sweepMaps[rawKey] = nil
        }
        if !changed.isEmpty, let taken = pending?.take(changed) { loadTaken(taken) }
    }

    /// The pending keys `entries` change, and those they name with their pending entries.
    private static func sortOut(_ pending: PendingEntries, by entries: DrawingModel.StoredEntries)
        -> (changed: [String], unchanged: [String])
    {
        var changed: [String] = []
        var unchanged: [String] = []
        func consider(_ rawKey: String) {
            guard let base = pending.value(of: rawKey) else { return }
            let newBase = entries.bases[rawKey] ?? (entries.replacesAllBases ? nil : base)
            let oldSweeps = pending.sweepMaps[rawKey]
            let newSweeps = entries.sweepMaps[rawKey] ?? (entries.replacesAllSweeps ? nil : oldSweeps)
            if newBase == base, newSweeps == oldSweeps, entries.sweeps[rawKey] == nil {
                unchanged.append(rawKey)
            } else {
                changed.append(rawKey)
            }
        }
        if entries.replacesAllBases || entries.replacesAllSweeps {
            for rawKey in pending.rawKeys { consider(rawKey) }
        } else {
            for rawKey in Set(entries.bases.keys).union(entries.sweepMaps.keys).union(entries.sweeps.keys) {
                consider(rawKey)
            }
        }
        return (changed, unchanged)
    }

    /// Puts entries taken from the pending ones into the model and, in one step, the drawing.
    /// An entry that cannot be read is left out, as at an open of the whole drawing.
    @discardableResult
    private func loadTaken(_ entries: [DrawingModel.NewEntry]) -> Bool {
        let wasLoading = isLoading
        let inserted = drawing.insert(contentsOf: decodeTaken(entries))
        // The last of the pending entries and their tables just went.
        if wasLoading, !isLoading { releaseHeap() }
        return inserted
    }

    /// Puts entries taken from the pending ones into the model; returns their groups, which the
    /// caller puts into the drawing before anything else can look at either.
    private func decodeTaken(_ entries: [DrawingModel.NewEntry]) -> [StrokeGroup] {
        if pending?.isEmpty == true { pending = nil }
        guard !entries.isEmpty else { return [] }
        // A pending key is in neither the model nor the drawing (see the rule above).
        let taken = model.takeNew(entries)
        openStatistics.decodedLater += taken.groups.count
        return taken.groups
    }
}
