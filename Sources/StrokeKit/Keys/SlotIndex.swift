/// Which numbered slot holds each key, for a store that keeps every key in its slot already
/// (`SpatialIndex` keeps each group, key and all, in a slot): an open-addressed table of slot
/// numbers, so the keys are not held a second time.
///
/// A bucket is 8 bytes, the slot and the high half of the key's hash, and the hash is compared
/// before the store is asked whether a slot holds the key. A dictionary from keys to slots holds
/// the 24-byte key beside each slot in every bucket: with at most three quarters of the buckets
/// full, 100,000 groups took 7.3 MB of buckets, and take 1 MB here (at most four fifths full, as
/// `ChildTable`'s index is: 100,020 keys fit in 131,072 buckets). Linear probing, and a
/// removal shifts the entries after it back (no tombstones), so churn never slows a lookup down.
/// The hash is the key's `hashValue` (Swift's hasher, seeded per process), so keys a peer sends
/// cannot be chosen to collide.
@usableFromInline
struct SlotIndex<Key: Hashable>: Sendable {
    /// 0 for an empty bucket; else the hash's high 32 bits, then the slot plus one. The home
    /// bucket of an entry is its hash bits masked, so growing needs no key.
    @usableFromInline var buckets: [UInt64] = []
    /// How many keys are held.
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var mask: Int { buckets.count - 1 }

    @inlinable @inline(__always)
    static func hashBits(of key: Key) -> UInt64 {
        UInt64(UInt(bitPattern: key.hashValue)) >> 32
    }

    @inlinable @inline(__always)
    static func slot(in bucket: UInt64) -> Int32 {
        Int32(truncatingIfNeeded: bucket & 0xFFFF_FFFF) - 1
    }

    /// The bucket holding `key`, given whether a slot holds it.
    @inlinable @inline(__always)
    func bucketIndex(of key: Key, holds: (Int32) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        let bits = Self.hashBits(of: key)
        let mask = self.mask
        return buckets.withUnsafeBufferPointer { buckets in
            var index = Int(truncatingIfNeeded: bits) & mask
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return nil }
                if bucket >> 32 == bits, holds(Self.slot(in: bucket)) { return index }
                index = (index + 1) & mask
            }
        }
    }

    /// The slot holding `key`; `holds` says whether a slot does (it reads the store's key there).
    @inlinable @inline(__always)
    func slot(of key: Key, holds: (Int32) -> Bool) -> Int32? {
        bucketIndex(of: key, holds: holds).map { Self.slot(in: buckets[$0]) }
    }

    /// Records that `slot` (0 or more) holds `key`, which no slot holds yet.
    @inlinable
    mutating func insert(_ slot: Int32, for key: Key) {
        precondition(slot >= 0, "a slot is never negative")
        if !Self.holds(count + 1, inBuckets: buckets.count) { resize(to: max(16, buckets.count * 2)) }
        place(Self.hashBits(of: key) << 32 | UInt64(UInt32(slot) + 1))
        count += 1
    }

    /// Forgets `key`; returns the slot that held it (nil, and nothing changes, if none did).
    @inlinable @discardableResult
    mutating func remove(_ key: Key, holds: (Int32) -> Bool) -> Int32? {
        guard let found = bucketIndex(of: key, holds: holds) else { return nil }
        let slot = Self.slot(in: buckets[found])
        let mask = self.mask
        // Entries after the hole move back into it unless that would put them before their home.
        var hole = found
        var next = (found + 1) & mask
        while buckets[next] != 0 {
            let home = Int(truncatingIfNeeded: buckets[next] >> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
        count -= 1
        return slot
    }

    /// Records that `key`, held in slot `old`, is now held in slot `new` (a store that keeps its
    /// slots dense moves its last entry into a removed one's).
    @inlinable
    mutating func move(_ key: Key, from old: Int32, to new: Int32) {
        guard let found = bucketIndex(of: key, holds: { $0 == old }) else {
            preconditionFailure("the key is not held in that slot")
        }
        buckets[found] = buckets[found] & ~0xFFFF_FFFF | UInt64(UInt32(new) + 1)
    }

    /// Makes room for `count` keys, so filling the index grows it once.
    @inlinable
    mutating func reserveCapacity(_ count: Int) {
        let size = Self.bucketCount(for: count)
        if size > buckets.count { resize(to: size) }
    }

    /// The buckets `count` keys need: a power of two, at least 16, at most four fifths full.
    @inlinable
    static func bucketCount(for count: Int) -> Int {
        var size = 16
        while !holds(count, inBuckets: size) { size *= 2 }
        return size
    }

    /// Whether `buckets` hold `count` keys at most four fifths full: a lookup probes two or three
    /// buckets on average.
    @inlinable @inline(__always)
    static func holds(_ count: Int, inBuckets buckets: Int) -> Bool {
        count * 5 <= buckets * 4
    }

    @inlinable
    mutating func place(_ entry: UInt64) {
        let mask = self.mask
        var index = Int(truncatingIfNeeded: entry >> 32) & mask
        while buckets[index] != 0 { index = (index + 1) & mask }
        buckets[index] = entry
    }

    @inlinable
    mutating func resize(to size: Int) {
        let old = buckets
        buckets = [UInt64](repeating: 0, count: size)
        for entry in old where entry != 0 { place(entry) }
    }
}
