import Testing

@testable import drawtogether

@Suite struct DotEnvTests {
    private func values(_ text: String) throws -> [String: String] {
        try DotEnv(parsing: text).entries.mapValues(\.value)
    }

    @Test func readsPlainExportedQuotedAndCommentedLines() throws {
        let text = """
            # settings for the team
            A=plain value
              export B = spaced # a comment
            C='single # not a comment \\n'
            D="double \\"quoted\\"\\tand\\nescaped"  # trailing comment
            E=
            F=a#b
            \r
            A=later wins\r
            """
        #expect(
            try values(text) == [
                "A": "later wins", "B": "spaced", "C": "single # not a comment \\n",
                "D": "double \"quoted\"\tand\nescaped", "E": "", "F": "a#b",
            ])
    }

    @Test func remembersTheLineOfEachValue() throws {
        let file = try DotEnv(parsing: "\n# c\nKEY=v\r\nOTHER=w")
        #expect(file["KEY"] == DotEnv.Entry(value: "v", line: 3))
        #expect(file["OTHER"] == DotEnv.Entry(value: "w", line: 4))
    }

    @Test func anEmptyFileHasNoEntries() throws {
        #expect(try values("") == [:])
        #expect(try values("\n\n# only comments\n") == [:])
    }

    @Test(arguments: [
        ("A=1\nJUST_A_WORD\n", DotEnv.SyntaxError.missingEquals(line: 2)),
        ("1ABC=x", .invalidKey("1ABC", line: 1)),
        ("MY-KEY=x", .invalidKey("MY-KEY", line: 1)),
        ("=x", .invalidKey("", line: 1)),
        ("A=1\n\nB=\"open\n", .unterminatedQuote("\"", line: 3)),
        ("B='open", .unterminatedQuote("'", line: 1)),
        ("C=\"v\" trailing", .textAfterClosingQuote(line: 1)),
        ("exported=1\nexport", .missingEquals(line: 2)),
    ])
    func malformedLinesReportTheirLineNumber(text: String, expected: DotEnv.SyntaxError) {
        #expect(throws: expected) { try DotEnv(parsing: text) }
        #expect(expected.description.hasPrefix("line \(expected.line): "))
    }

    @Test func aKeyStartingWithExportIsNotTheExportKeyword() throws {
        #expect(try values("exported=1") == ["exported": "1"])
    }
}
