import ReplicaCore
import ReplicaCoreTestSupport
import Testing

@Suite struct DQLPathTests {
    @Test func plainComponentsPrintBareAndOthersBackquoted() {
        #expect(DQLPath(["strokes", "name_1"]).description == "strokes.name_1")
        #expect(
            DQLPath(["strokes", "2026-03-25T16:20:14.127Z~3fa2c1"]).description
                == "strokes.`2026-03-25T16:20:14.127Z~3fa2c1`")
        #expect(DQLPath(["a`b"]).description == "`a``b`")
    }
}

@Suite struct DQLPathRoundTripTests {
    /// A path printed as DQL parses back to itself, reserved words and non-ASCII names included.
    @Test(arguments: [
        ["name"], ["select"], ["strokes", "é"], ["a b", "x`y"],
        ["strokes", "2026-03-25T16:20:14.127Z~3fa2c1"],
    ])
    func printedPathParsesBack(components: [String]) throws {
        let path = DQLPath(components)
        let statement = try DQLParser.parse("UPDATE drawings UNSET \(path) WHERE _id = :id")
        guard case .update(let update) = statement else {
            Issue.record("not an update: \(statement)")
            return
        }
        #expect(update.actions == [.unset(path)])
    }
}
