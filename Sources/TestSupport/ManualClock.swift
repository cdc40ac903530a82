/// A wall clock (Unix milliseconds) the test moves by hand; hand `{ clock.now }` to whatever
/// reads the time.
public final class ManualClock {
    public var now: Int64

    public init(_ now: Int64 = 1_000) {
        self.now = now
    }
}
