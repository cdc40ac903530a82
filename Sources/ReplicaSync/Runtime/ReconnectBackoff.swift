import MonotonicTime

/// Delays between reconnect attempts: exponential from 100 ms to 5 s, each drawn at random from
/// the upper half of its step so many peers restarted together do not retry in lockstep.
///
/// Getting through the handshake is not enough to start again from the minimum: only a session
/// that made progress (a delta applied or acknowledged) resets the backoff. Sessions that keep
/// ending without progress (a peer that refuses after the handshake, a local replica that cannot
/// store what arrives) back off further, to `maximumWithoutProgress`, so neither side resends
/// the same delta in a tight loop.
public struct ReconnectBackoff: Sendable {
    public var minimum: Duration = .milliseconds(100)
    public var maximum: Duration = .seconds(5)
    /// The ceiling once `fruitlessSessionsBeforeLongWait` sessions in a row ended without progress.
    public var maximumWithoutProgress: Duration = .seconds(60)
    public var fruitlessSessionsBeforeLongWait = 2
    private var failures = 0
    private var fruitlessSessions = 0

    public init() {}

    /// The delay before the next attempt; each call counts one more failure.
    public mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator)
        -> Duration
    {
        let cap = fruitlessSessions >= fruitlessSessionsBeforeLongWait ? maximumWithoutProgress : maximum
        let ceiling = min(cap.wholeMilliseconds, minimum.wholeMilliseconds << min(failures, 20))
        failures += 1
        return .milliseconds(Int64.random(in: (ceiling / 2)...ceiling, using: &generator))
    }

    /// A session on this connection ended; only one that made progress starts the delays again
    /// from the minimum.
    public mutating func sessionEnded(madeProgress: Bool) {
        if madeProgress {
            reset()
        } else {
            fruitlessSessions += 1
        }
    }

    /// Start again from the minimum.
    public mutating func reset() {
        failures = 0
        fruitlessSessions = 0
    }
}
