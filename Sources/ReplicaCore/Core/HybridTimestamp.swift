/// A hybrid logical clock reading: wall milliseconds, and a counter that orders readings taken
/// within one millisecond (or while the wall clock lags behind a timestamp already seen).
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64
    public var counter: UInt32

    public init(milliseconds: Int64, counter: UInt32) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    public static let zero = HybridTimestamp(milliseconds: 0, counter: 0)

    public var description: String { "\(milliseconds).\(counter)" }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
    }
}
