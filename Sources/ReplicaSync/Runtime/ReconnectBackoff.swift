import MonotonicTime

/// Delays between reconnect attempts: exponential from 100 ms to 5 s, each drawn at random from
/// the upper half of its step so many peers restarted together do not retry in lockstep.
public struct ReconnectBackoff: Sendable {
    public var minimum: Duration = .milliseconds(100)
    public var maximum: Duration = .seconds(5)
    private var failures = 0

    public init() {}

    /// The delay before the next attempt; each call counts one more failure.
    public mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator)
        -> Duration
    {
        let ceiling = min(maximum.wholeMilliseconds, minimum.wholeMilliseconds << min(failures, 20))
        failures += 1
        return .milliseconds(Int64.random(in: (ceiling / 2)...ceiling, using: &generator))
    }

    /// A connection got through: start again from the minimum.
    public mutating func reset() {
        failures = 0
    }
}
