/// Holds an injected generator of any type (an existential cannot be passed `inout` as generic).
struct AnyRandomNumberGenerator: RandomNumberGenerator {
    var base: any RandomNumberGenerator

    mutating func next() -> UInt64 {
        base.next()
    }
}
