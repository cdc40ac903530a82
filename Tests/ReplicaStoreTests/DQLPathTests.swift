import ReplicaStore
import Testing

@Suite struct DQLPathTests {
    @Test func plainComponentsPrintBareAndOthersBackquoted() {
        #expect(DQLPath(["strokes", "name_1"]).description == "strokes.name_1")
        #expect(DQLPath(["strokes", "2026-03-25T16:20:14.127Z~3fa2c1"]).description
            == "strokes.`2026-03-25T16:20:14.127Z~3fa2c1`")
        #expect(DQLPath(["a`b"]).description == "`a``b`")
    }
}
