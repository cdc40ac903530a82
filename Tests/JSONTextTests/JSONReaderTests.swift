import JSONText
import Testing

@Suite struct JSONReaderTests {
    static let limits = JSONReader.Limits(maximumBytes: 1 << 20, maximumDepth: 8)

    func parse(_ text: String, limits: JSONReader.Limits = limits) throws(JSONSyntaxError) -> JSONNode {
        try JSONReader.parse(text, limits: limits)
    }

    // MARK: Values and offsets

    @Test func readsEveryKindOfValueWithItsOffset() throws {
        let root = try parse(#" {"a": [1, -2.5e3, "x"], "b": true, "c": false, "d": null} "#)
        #expect(root.offset == 1)
        guard case .object(let members) = root.value else {
            Issue.record("not an object: \(root)")
            return
        }
        #expect(members.map(\.key) == ["a", "b", "c", "d"])
        #expect(members.map(\.keyOffset) == [2, 25, 36, 48])
        #expect(
            members[0].value
                == JSONNode(
                    value: .array([
                        JSONNode(value: .number("1"), offset: 8),
                        JSONNode(value: .number("-2.5e3"), offset: 11),
                        JSONNode(value: .string("x"), offset: 19),
                    ]), offset: 7))
        #expect(members[1].value == JSONNode(value: .bool(true), offset: 30))
        #expect(members[2].value == JSONNode(value: .bool(false), offset: 41))
        #expect(members[3].value == JSONNode(value: .null, offset: 53))
    }

    @Test func numbersKeepTheirLiteralSoIntegersStayExact() throws {
        #expect(try parse("99999999999999999999").value == .number("99999999999999999999"))
        #expect(try parse("-0").value == .number("-0"))
        #expect(try parse("1E-2").value == .number("1E-2"))
    }

    @Test func decodesEveryEscapeIncludingSurrogatePairs() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC \ud83d\ude00 \u0000""#
        #expect(try parse(text).value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t Aé€ 😀 \u{0}"))
        #expect(try parse("\"é😀\"").value == .string("é😀"))
    }

    // MARK: Refusals

    @Test(arguments: [
        ("", JSONSyntaxError.unexpected(expected: .value, found: nil, offset: 0)),
        ("[1,]", .unexpected(expected: .value, found: "]", offset: 3)),
        (#"{"a": 1,}"#, .unexpected(expected: .key, found: "}", offset: 8)),
        (#"{"a" 1}"#, .unexpected(expected: .colon, found: "1", offset: 5)),
        (#"{"a": 1 x}"#, .unexpected(expected: .commaOrObjectEnd, found: "x", offset: 8)),
        ("[1 x]", .unexpected(expected: .commaOrArrayEnd, found: "x", offset: 3)),
        ("{} x", .unexpected(expected: .end, found: "x", offset: 3)),
        ("tru", .unexpected(expected: .literal("true"), found: nil, offset: 3)),
        ("nul!", .unexpected(expected: .literal("null"), found: "!", offset: 3)),
        ("// c\n1", .unexpected(expected: .value, found: "/", offset: 0)),
        ("+1", .unexpected(expected: .value, found: "+", offset: 0)),
        ("\"ab", .unexpected(expected: .closingQuote, found: nil, offset: 3)),
        ("\"a\\", .unexpected(expected: .escape, found: nil, offset: 3)),
        (#"{"a": 1, "a": 2}"#, .duplicateKey("a", offset: 9)),
        ("\"a\tb\"", .controlCharacterInString(0x09, offset: 2)),
        (#""\x""#, .invalidEscape(#"\x"#, offset: 1)),
        (#""\é""#, .invalidEscape(#"\é"#, offset: 1)),
        (#""\u12g4""#, .invalidHexEscape(#"\u12g4"#, offset: 1, truncated: false)),
        (#""\u12"#, .invalidHexEscape(#"\u12"#, offset: 1, truncated: true)),
        (#""\ud800""#, .unpairedSurrogate(#"\ud800"#, offset: 1, isHigh: true)),
        (#""\ud800\u0041""#, .unpairedSurrogate(#"\ud800"#, offset: 1, isHigh: true)),
        (#""\udc00\ud800""#, .unpairedSurrogate(#"\udc00"#, offset: 1, isHigh: false)),
        (#""\ud800\u00g1""#, .invalidHexEscape(#"\u00g1"#, offset: 7, truncated: false)),
    ])
    func malformedTextIsRefusedWithWhereAndWhat(text: String, error: JSONSyntaxError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test(arguments: [
        ("[01]", "01", JSONExpectation.commaOrArrayEnd, Unicode.Scalar("1") as Unicode.Scalar?, 2),
        ("01", "01", .end, "1", 1),
        (#"{"a": 01}"#, "01", .commaOrObjectEnd, "1", 7),
        ("[1.]", "1.", .digit, "]", 3),
        ("[-]", "-", .digit, "]", 2),
        ("[1e]", "1e", .digit, "]", 3),
        ("[-.5]", "-.5", .digit, ".", 2),
        ("1.5e+", "1.5e+", .digit, nil, 5),
    ])
    func malformedNumbersNameTheRunAndWhereTheGrammarStopped(
        text: String, literal: String, expected: JSONExpectation, found: Unicode.Scalar?, stop: Int
    ) {
        let start = text.hasPrefix("{") ? 6 : (text.hasPrefix("[") ? 1 : 0)
        #expect(
            throws: JSONSyntaxError.invalidNumber(
                literal: literal, offset: start, stoppedExpecting: expected, found: found, stopOffset: stop)
        ) { try parse(text) }
    }

    @Test func aDuplicateKeyIsRefusedBeforeItsValueIsRead() {
        #expect(throws: JSONSyntaxError.duplicateKey("a", offset: 9)) { try parse(#"{"a": 1, "a": x}"#) }
    }

    @Test func limitsBoundSizeAndDepth() {
        #expect(throws: JSONSyntaxError.inputTooLarge(bytes: 11, limit: 10)) {
            try parse("[1,2,3,4,5]", limits: JSONReader.Limits(maximumBytes: 10, maximumDepth: 8))
        }
        let deepest = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        #expect(throws: Never.self) { try parse(deepest) }
        #expect(throws: JSONSyntaxError.nestedTooDeeply(limit: 8, offset: 8)) {
            try parse("[" + deepest + "]")
        }
        // Far deeper than any stack would allow without the limit.
        let abyss = String(repeating: "{\"a\":", count: 200_000)
        #expect(throws: JSONSyntaxError.nestedTooDeeply(limit: 8, offset: 40)) { try parse(abyss) }
    }

    @Test func everyErrorButSizeHasAnOffset() {
        #expect(JSONSyntaxError.inputTooLarge(bytes: 2, limit: 1).offset == nil)
        #expect(JSONSyntaxError.duplicateKey("a", offset: 9).offset == 9)
        #expect(
            JSONSyntaxError.invalidNumber(
                literal: "01", offset: 1, stoppedExpecting: .end, found: "1", stopOffset: 2
            ).offset == 1)
    }
}
