import ReplicaCore
import StrokeKit

/// The stored entries of an open drawing that are not decoded yet (a staged open): per raw
/// stroke key its `strokes` value and its `sweeps` map, with the bounds the cache gave it.
///
/// Every key here has known bounds (a key without them is decoded before the first frame), and
/// none is in the coordinator's model or drawing: a key is taken from here and goes into both in
/// one step. Taking returns the entries as `DrawingModel.takeNew(_:)` reads them.
struct PendingEntries: Sendable {
    private(set) var bases: [String: DocumentValue] = [:]
    private(set) var sweepMaps: [String: DocumentValue] = [:]
    /// The keys with their cached bounds; taken from the end. An entry whose key was taken some
    /// other way since is skipped.
    private var located: [(key: String, bounds: CellRect)] = []
    /// Rectangles no pending group meets any more (the last few asked for).
    private var loadedRegions: [CellRect] = []
    /// How far the scan of `located` for a preferred region got.
    private var scan: (region: CellRect, position: Int)?
    /// While strokes are being kept: each one's rank in key order (see `orderByRank`).
    private var ranks: [Int32] = []

    var isEmpty: Bool { bases.isEmpty }
    var count: Int { bases.count }

    /// Makes room for `count` strokes, so a staged open of a large drawing grows its tables once.
    mutating func reserveCapacity(_ count: Int) {
        bases.reserveCapacity(count)
        located.reserveCapacity(count)
        ranks.reserveCapacity(count)
    }

    /// Keeps a stroke for later, with its bounds and its rank in key order (its place in the
    /// bounds cache's file).
    mutating func add(_ rawKey: String, value: DocumentValue, bounds: CellRect, rank: Int32) {
        bases[rawKey] = value
        located.append((rawKey, bounds))
        ranks.append(rank)
    }

    /// Puts the strokes kept so far in key order, so that what no region prefers is taken lowest
    /// key first, by the ranks they were kept with (below `count`): one pass, nothing compared.
    /// In the order they were kept (the document's hash order) the lowest key of every slice lay
    /// near the bottom of the drawing, and the drawing's index renumbers every group above the
    /// lowest key a slice brings (see `SpatialIndex.insertNew`); in key order the slices climb,
    /// and each renumbers only the groups above it. A stroke whose rank is out of range or taken
    /// by another is kept too, and taken last.
    mutating func orderByRank(below count: Int) {
        var placed = [(key: String, bounds: CellRect)?](repeating: nil, count: max(count, 0))
        var rest: [(key: String, bounds: CellRect)] = []
        for (entry, rank) in zip(located, ranks) {
            // Taken from the end: the lowest rank goes to the end.
            let index = count - 1 - Int(rank)
            if placed.indices.contains(index), placed[index] == nil {
                placed[index] = entry
            } else {
                rest.append(entry)
            }
        }
        located = rest
        located.reserveCapacity(rest.count + ranks.count)
        for case let entry? in placed { located.append(entry) }
        ranks = []
    }

    /// Keeps the sweeps of a stroke kept for later.
    mutating func addSweeps(_ rawKey: String, map: DocumentValue) {
        sweepMaps[rawKey] = map
    }

    /// Whether the stroke under `rawKey` is kept for later.
    func holds(_ rawKey: String) -> Bool { bases[rawKey] != nil }

    /// The bounds cache's entries of the strokes kept here: their cached bounds, for exactly the
    /// value stored now (every key here had an entry for its value when it was kept, and a key
    /// whose value changes is taken first).
    func boundsCacheEntries() -> [(key: String, entry: DrawingBoundsCache.Entry)] {
        var entries: [(key: String, entry: DrawingBoundsCache.Entry)] = []
        entries.reserveCapacity(bases.count)
        // `located` lists each key kept once, and may still list keys taken some other way.
        for (rawKey, bounds) in located {
            guard let bytes = bases[rawKey]?.base64Bytes else { continue }
            entries.append(
                (rawKey, DrawingBoundsCache.Entry(fingerprint: StrokeFingerprint(of: bytes), bounds: bounds)))
        }
        return entries
    }

    /// Takes these keys (those still here), in this order.
    mutating func take(_ rawKeys: some Sequence<String>) -> [DrawingModel.NewEntry] {
        var entries: [DrawingModel.NewEntry] = []
        entries.reserveCapacity(rawKeys.underestimatedCount)
        for rawKey in rawKeys {
            guard let value = bases.removeValue(forKey: rawKey) else { continue }
            let map = sweepMaps.isEmpty ? nil : sweepMaps.removeValue(forKey: rawKey)
            entries.append(DrawingModel.NewEntry(rawKey: rawKey, base: value, sweepMap: map))
        }
        if bases.isEmpty { located = [] }
        return entries
    }

    /// Takes up to `limit` keys: those whose bounds meet `preferred` first, then any.
    mutating func takeNext(_ limit: Int, preferring preferred: CellRect? = nil) -> [DrawingModel.NewEntry] {
        var keys: [String] = []
        if let preferred, !loadedRegions.contains(where: { $0.contains(preferred) }) {
            // The scan of a region goes on where the last one stopped: the entries before
            // were taken or do not meet it.
            var position = scan?.region == preferred ? min(scan?.position ?? 0, located.count) : 0
            while position < located.count {
                let entry = located[position]
                position += 1
                guard entry.bounds.intersects(preferred), bases[entry.key] != nil else { continue }
                keys.append(entry.key)
                if keys.count == limit {
                    scan = (preferred, position)
                    return take(keys)
                }
            }
            scan = nil
            remember(preferred)
        }
        while keys.count < limit, let next = located.popLast() {
            if bases[next.key] != nil { keys.append(next.key) }
        }
        return take(keys)
    }

    /// Takes every key whose bounds meet `rect`.
    mutating func take(meeting rect: CellRect) -> [DrawingModel.NewEntry] {
        guard !bases.isEmpty, !loadedRegions.contains(where: { $0.contains(rect) }) else { return [] }
        let keys = located.lazy.filter { $0.bounds.intersects(rect) }.map(\.key)
        let entries = take(Array(keys))
        remember(rect)
        return entries
    }

    /// Notes that no pending group meets `rect` any more.
    private mutating func remember(_ rect: CellRect) {
        loadedRegions.append(rect)
        if loadedRegions.count > 8 { loadedRegions.removeFirst() }
    }

    /// The latest stroke or sweep key of peer `suffix` here. Keys of one peer sort by their
    /// fixed-width timestamps, so only the latest is parsed (and, if it is not a key, the next).
    func latestKey(ofPeer suffix: String) -> StrokeKey? {
        let ending = "~" + suffix
        var refused: Set<String> = []
        while true {
            var latest: String?
            func consider(_ rawKey: String) {
                guard rawKey.hasSuffix(ending), !refused.contains(rawKey) else { return }
                if let current = latest, !current.utf8.lexicographicallyPrecedes(rawKey.utf8) { return }
                latest = rawKey
            }
            for rawKey in bases.keys { consider(rawKey) }
            for map in sweepMaps.values {
                guard let sweeps = map.objectValue else { continue }
                for rawKey in sweeps.keys { consider(rawKey) }
            }
            guard let latest else { return nil }
            if let key = StrokeKey(rawValue: latest) { return key }
            refused.insert(latest)
        }
    }
}

extension CellRect {
    /// Whether every cell of `other` is one of these.
    func contains(_ other: CellRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }
}
