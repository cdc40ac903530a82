/// A value that carries the key it is filed under.
public protocol StrokeKeyed {
    var key: StrokeKey { get }
}

extension EncodedGroup: StrokeKeyed {}

/// Values by their own stroke key, for a map that holds one per stroke of a drawing (the model's
/// synchronized forms): the values in one dense array, and a `SlotIndex` from key to place in it,
/// so no key is held beside its value a second time and a bucket is 8 bytes, not a key and a
/// value. 100,000 forms take 0.8 MB of values and 1 MB of buckets, where a dictionary from
/// key to form took 8.4 MB of buckets.
///
/// Reads and writes as a dictionary does; a removal moves the last value into the gap, so the
/// order of `values` is not the order they came in (nor any order to rely on), as a dictionary's
/// is not.
public struct StrokeKeyTable<Value: StrokeKeyed>: Sendable where Value: Sendable {
    /// The values, dense.
    @usableFromInline var dense: [Value] = []
    @usableFromInline var index = SlotIndex<StrokeKey>()

    @inlinable public init() {}

    /// The values, in no order to rely on.
    @inlinable public var values: [Value] { dense }

    @inlinable public var count: Int { dense.count }
    @inlinable public var isEmpty: Bool { dense.isEmpty }
    /// How many values the table holds without growing.
    @inlinable public var capacity: Int { dense.capacity }

    /// Every key, in the order of `values`.
    @inlinable public var keys: LazyMapSequence<[Value], StrokeKey> { dense.lazy.map(\.key) }

    @inlinable
    func place(of key: StrokeKey) -> Int? {
        dense.withUnsafeBufferPointer { dense in
            index.slot(of: key) { dense[Int($0)].key == key }.map(Int.init)
        }
    }

    /// The value filed under `key`; setting nil removes it, and a value set must carry `key`.
    @inlinable
    public subscript(key: StrokeKey) -> Value? {
        get { place(of: key).map { dense[$0] } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Files `value` under `key` (its own key); returns the value it replaced.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: StrokeKey) -> Value? {
        precondition(value.key == key, "a value is filed under its own key")
        if let place = place(of: key) {
            let replaced = dense[place]
            dense[place] = value
            return replaced
        }
        index.insert(Int32(dense.count), for: key)
        dense.append(value)
        return nil
    }

    /// Removes the value filed under `key`; returns it.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: StrokeKey) -> Value? {
        guard let place = place(of: key) else { return nil }
        index.remove(key) { $0 == Int32(place) }
        let removed = dense[place]
        let last = dense.count - 1
        if place != last {
            index.move(dense[last].key, from: Int32(last), to: Int32(place))
            dense.swapAt(place, last)
        }
        dense.removeLast()
        return removed
    }

    /// Makes room for `count` values, so filling the table grows it once.
    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        dense.reserveCapacity(count)
        index.reserveCapacity(count)
    }
}

extension StrokeKeyTable: Sequence {
    public typealias Element = (key: StrokeKey, value: Value)

    @inlinable
    public func makeIterator() -> LazyMapSequence<[Value], Element>.Iterator {
        dense.lazy.map { ($0.key, $0) }.makeIterator()
    }

    @inlinable public var underestimatedCount: Int { dense.count }
}

extension StrokeKeyTable: Equatable where Value: Equatable {
    /// Equal when they file equal values under the same keys, in whatever order.
    public static func == (lhs: StrokeKeyTable, rhs: StrokeKeyTable) -> Bool {
        lhs.count == rhs.count && lhs.dense.allSatisfy { rhs[$0.key] == $0 }
    }
}
