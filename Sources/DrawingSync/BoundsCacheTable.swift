import CPrefetch
import Glibc
import StrokeKit

/// The bounds cache as a staged open reads it: the file's entries in key order, in flat arrays,
/// found by the bytes of a key without making a string of it.
///
/// An open looks up every stored stroke once. Read into `DrawingBoundsCache.entries`, that cost
/// a string per key, an insertion into a dictionary of 100,000 keys hashed with the standard
/// library's string hash, and a second such hash for each lookup: about a tenth of a cold open
/// at 100,000 strokes. Here every key is one stretch of `keyBytes`, and a table of ranks is
/// probed by a multiplicative hash of the key's 8-byte words.
///
/// The hash is not keyed, so a peer that chose its stroke keys could make them collide: a key is
/// looked for at most `probeLimit` places from its first, and one that found no free place among
/// them when the table was built is left out of it. A key the table does not find is decoded
/// before the first frame, as a key the cache does not know, so collisions can cost time (no
/// more than an open without a cache) but never show a wrong bound.
struct BoundsCacheTable: Sendable {
    /// Every key's bytes, one after the other, in key order.
    private let keyBytes: [UInt8]
    /// Per rank, where its key ends in `keyBytes` (it starts where the one before ends).
    private let keyEnds: [Int32]
    /// Per rank, the fingerprint of the text the bounds were computed from.
    private let fingerprints: [StrokeFingerprint]
    /// Per rank, the stroke's bounds.
    let bounds: [CellRect]
    /// Open addressing, a power of two long: rank + 1 in the low half, 0 where free, and the
    /// high half of the key's hash in the high half, so a probe tells most other keys apart
    /// without reading theirs.
    private var slots: [UInt64]

    static let probeLimit = 32

    /// How many entries the file held.
    var count: Int { keyEnds.count }

    /// A table of the entries read from the file, in the file's order (key order: their ranks).
    init(keyBytes: [UInt8], keyEnds: [Int32], fingerprints: [StrokeFingerprint], bounds: [CellRect]) {
        self.keyBytes = keyBytes
        self.keyEnds = keyEnds
        self.fingerprints = fingerprints
        self.bounds = bounds
        var capacity = 16
        while capacity < keyEnds.count * 2 { capacity *= 2 }
        slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        keyBytes.withUnsafeBufferPointer { all in
            for rank in keyEnds.indices {
                let key = UnsafeBufferPointer(rebasing: all[Self.range(rank, keyEnds)])
                let hash = Self.hash(key)
                var slot = Int(truncatingIfNeeded: hash) & mask
                for _ in 0..<Self.probeLimit {
                    if slots[slot] == 0 {
                        slots[slot] = hash & Self.tagMask | UInt64(rank + 1)
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// The key of `rank` as text.
    func key(ofRank rank: Int) -> String {
        String(decoding: keyBytes[Self.range(rank, keyEnds)], as: UTF8.self)
    }

    /// The entry of `rank`.
    func entry(ofRank rank: Int) -> DrawingBoundsCache.Entry {
        var entry = DrawingBoundsCache.Entry(fingerprint: fingerprints[rank], bounds: bounds[rank])
        entry.rank = Int32(rank)
        return entry
    }

    /// The rank of `rawKey`, if the table holds it.
    func rank(of rawKey: String) -> Int? {
        if let found = rawKey.utf8.withContiguousStorageIfAvailable({ rank(ofBytes: $0) }) { return found }
        return rank(ofBytes: Array(rawKey.utf8))
    }

    private func rank(ofBytes key: UnsafeBufferPointer<UInt8>) -> Int? {
        keyBytes.withUnsafeBufferPointer { all in
            firstRank(ofBytes: key) { rank in
                let range = Self.range(rank, keyEnds)
                return range.count == key.count
                    && (key.isEmpty
                        || memcmp(all.baseAddress! + range.lowerBound, key.baseAddress!, key.count) == 0)
            }
        }
    }

    /// The high half of a slot: the high half of its key's hash.
    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000

    /// The first rank in `key`'s probe sequence whose key's hash has the same high half as
    /// `key`'s and that `isIt` accepts; nil when none is (or a free place comes first).
    @inline(__always)
    private func firstRank(ofBytes key: UnsafeBufferPointer<UInt8>, where isIt: (Int) -> Bool) -> Int? {
        let hash = Self.hash(key)
        let tag = hash & Self.tagMask
        let mask = slots.count - 1
        var slot = firstSlot(ofHash: hash)
        for _ in 0..<Self.probeLimit {
            let held = slots[slot]
            if held == 0 { return nil }
            let rank = Int(truncatingIfNeeded: held & ~Self.tagMask) - 1
            if held & Self.tagMask == tag, isIt(rank) { return rank }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func rank(ofBytes key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { rank(ofBytes: $0) }
    }

    /// The entry of the stroke stored as `bytes` under `rawKey`, when the table holds one for
    /// exactly those bytes.
    ///
    /// The key's own bytes are not compared: the stored bytes begin with the key they are stored
    /// under (`StrokeGroupCodec`), so the fingerprint of another key's entry cannot be theirs, and
    /// a rank whose hash matches only by chance is passed over by its fingerprint. An open asks
    /// this for every stored stroke, in the replica's order, not the file's: each comparison of
    /// keys read a place in the key table and a place in its bytes, both far from the last.
    func entry(of rawKey: String, storedBytes bytes: [UInt8]) -> DrawingBoundsCache.Entry? {
        var rawKey = rawKey
        let fingerprint = StrokeFingerprint(of: bytes)
        let found = rawKey.withUTF8 { key in
            firstRank(ofBytes: key) { fingerprints[$0] == fingerprint }
        }
        return found.map { entry(ofRank: $0) }
    }

    /// Asks the processor for the slot `entry(of:storedBytes:)` reads first for `rawKey` (a
    /// hint): the 2 MB of slots are read in the replica's order of keys, which the processor
    /// cannot guess, so an open asks some strokes before it looks each up.
    func prefetch(_ rawKey: String) {
        var rawKey = rawKey
        let hash = rawKey.withUTF8 { Self.hash($0) }
        let slot = firstSlot(ofHash: hash)
        slots.withUnsafeBufferPointer { drawtogether_prefetch($0.baseAddress.unsafelyUnwrapped + slot) }
    }

    /// Where the probe for a key of hash `hash` starts.
    @inline(__always)
    private func firstSlot(ofHash hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash) & (slots.count - 1)
    }

    private static func range(_ rank: Int, _ keyEnds: [Int32]) -> Range<Int> {
        (rank == 0 ? 0 : Int(keyEnds[rank - 1]))..<Int(keyEnds[rank])
    }

    /// A multiplicative hash of the key's 8-byte words (little-endian, the last one padded with
    /// zeros) and its length.
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: key.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = key.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= key.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        while offset < key.count {
            word |= UInt64(key[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ word) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ hash >> 32
    }
}
