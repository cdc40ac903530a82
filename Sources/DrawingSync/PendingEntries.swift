import ReplicaCore
import StrokeKit

/// The stored entries of an open drawing that are not decoded yet (a staged open): per stroke
/// its raw key and `strokes` value, and its `sweeps` map, with the bounds the cache gave it.
///
/// The strokes are kept by their rank in the open's bounds cache (its entries in key order), so
/// keeping one during the first look at the document costs a store into an array, not a
/// dictionary insertion with the key hashed (at 100,000 strokes those insertions were about a
/// tenth of the time before the first frame); the cache's table, kept here until the last
/// stroke is taken, finds a stroke by its key, and its bounds are the cache's own. Without a
/// preferred region they are taken in key order, lowest first.
///
/// Every key here has known bounds (a key without them is decoded before the first frame), and
/// none is in the coordinator's model or drawing: a key is taken from here and goes into both in
/// one step. Taking returns the entries as `DrawingModel.takeNew(_:)` reads them.
struct PendingEntries: Sendable {
    /// The open's bounds cache, whose ranks index `kept`.
    private let table: BoundsCacheTable
    /// By rank: the raw key and stored value of the stroke kept there; nil where none is.
    private var kept: [(key: String, value: DocumentValue)?]
    private(set) var sweepMaps: [String: DocumentValue] = [:]
    /// How many strokes are kept.
    private(set) var count = 0
    /// No stroke is kept below this rank (`takeNext` takes upwards from it).
    private var lowest = 0
    /// Rectangles no pending group meets any more (the last few asked for).
    private var loadedRegions: [CellRect] = []
    /// How far the scan of the ranks for a preferred region got.
    private var scan: (region: CellRect, rank: Int)?

    init(table: BoundsCacheTable) {
        self.table = table
        kept = Array(repeating: nil, count: table.count)
    }

    var isEmpty: Bool { count == 0 }

    /// Keeps a stroke for later under its rank in the cache (`DrawingBoundsCache.Entry.rank`);
    /// false when the rank is not one of the cache's or holds another stroke already, and the
    /// caller decodes the stroke now instead.
    mutating func add(_ rawKey: String, value: DocumentValue, rank: Int32) -> Bool {
        let rank = Int(rank)
        guard kept.indices.contains(rank), kept[rank] == nil else { return false }
        kept[rank] = (rawKey, value)
        count += 1
        return true
    }

    /// Keeps the sweeps of a stroke kept for later.
    mutating func addSweeps(_ rawKey: String, map: DocumentValue) {
        sweepMaps[rawKey] = map
    }

    /// The rank of the stroke kept under `rawKey`, if one is.
    private func rank(of rawKey: String) -> Int? {
        guard count > 0, let rank = table.rank(of: rawKey), kept[rank]?.key == rawKey else { return nil }
        return rank
    }

    /// The stored value of the stroke kept under `rawKey`, if one is.
    func value(of rawKey: String) -> DocumentValue? {
        rank(of: rawKey).flatMap { kept[$0]?.value }
    }

    /// Whether the stroke under `rawKey` is kept for later.
    func holds(_ rawKey: String) -> Bool { rank(of: rawKey) != nil }

    /// The keys of every stroke kept, in key order.
    var rawKeys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        for rank in lowest..<kept.count { if let key = kept[rank]?.key { keys.append(key) } }
        return keys
    }

    /// The bounds cache's entries of the strokes kept here: their cached bounds, for exactly the
    /// value stored now (every key here had an entry for its value when it was kept, and a key
    /// whose value changes is taken first).
    func boundsCacheEntries() -> [(key: String, entry: DrawingBoundsCache.Entry)] {
        var entries: [(key: String, entry: DrawingBoundsCache.Entry)] = []
        entries.reserveCapacity(count)
        for rank in lowest..<kept.count {
            if let key = kept[rank]?.key { entries.append((key, table.entry(ofRank: rank))) }
        }
        return entries
    }

    /// Takes these keys (those still here), in this order.
    mutating func take(_ rawKeys: some Sequence<String>) -> [DrawingModel.NewEntry] {
        var ranks: [Int] = []
        ranks.reserveCapacity(rawKeys.underestimatedCount)
        for rawKey in rawKeys {
            if let rank = rank(of: rawKey) { ranks.append(rank) }
        }
        return take(ranks: ranks)
    }

    /// Takes the strokes of these ranks (each kept), in this order.
    private mutating func take(ranks: [Int]) -> [DrawingModel.NewEntry] {
        var entries: [DrawingModel.NewEntry] = []
        entries.reserveCapacity(ranks.count)
        for rank in ranks {
            guard let (rawKey, value) = kept[rank] else { continue }
            kept[rank] = nil
            count -= 1
            let map = sweepMaps.isEmpty ? nil : sweepMaps.removeValue(forKey: rawKey)
            entries.append(DrawingModel.NewEntry(rawKey: rawKey, base: value, sweepMap: map))
        }
        if count == 0 { (kept, lowest) = ([], 0) }
        return entries
    }

    /// Takes up to `limit` strokes: those whose bounds meet `preferred` first, then any, lowest
    /// key first.
    mutating func takeNext(_ limit: Int, preferring preferred: CellRect? = nil) -> [DrawingModel.NewEntry] {
        var entries: [DrawingModel.NewEntry] = []
        if let preferred, !loadedRegions.contains(where: { $0.contains(preferred) }) {
            // The scan of a region goes on where the last one stopped: the ranks before were
            // taken or do not meet it.
            var ranks: [Int] = []
            var rank = max(scan?.region == preferred ? scan?.rank ?? lowest : lowest, lowest)
            while rank < kept.count {
                let at = rank
                rank += 1
                guard kept[at] != nil, table.bounds[at].intersects(preferred) else { continue }
                ranks.append(at)
                if ranks.count == limit {
                    scan = (preferred, rank)
                    return take(ranks: ranks)
                }
            }
            scan = nil
            remember(preferred)
            entries = take(ranks: ranks)
        }
        var ranks: [Int] = []
        while entries.count + ranks.count < limit, lowest < kept.count {
            if kept[lowest] != nil { ranks.append(lowest) }
            lowest += 1
        }
        return entries + take(ranks: ranks)
    }

    /// Takes every stroke whose bounds meet `rect`.
    mutating func take(meeting rect: CellRect) -> [DrawingModel.NewEntry] {
        guard count > 0, !loadedRegions.contains(where: { $0.contains(rect) }) else { return [] }
        var ranks: [Int] = []
        for rank in lowest..<kept.count where kept[rank] != nil && table.bounds[rank].intersects(rect) {
            ranks.append(rank)
        }
        let entries = take(ranks: ranks)
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
            for rawKey in rawKeys { consider(rawKey) }
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
