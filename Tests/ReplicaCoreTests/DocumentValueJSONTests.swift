import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

@Suite struct DocumentValueJSONTests {
    // MARK: Reading

    @Test func readsEveryKindOfValue() throws {
        let text = """
            { "_id": "drawing-1", "n": -12.5e1, "ok": true, "no": false, "none": null,
              "list": [1, "two", [], {}], "strokes": { "k~1": "AAE=" } }
            """
        #expect(
            try DocumentValue(json: text)
                == .object([
                    "_id": .string("drawing-1"), "n": .number(-125), "ok": .bool(true), "no": .bool(false),
                    "none": .null, "list": .array([.number(1), .string("two"), .array([]), .object([:])]),
                    "strokes": .object(["k~1": .string("AAE=")]),
                ]))
        #expect(try DocumentValue(json: "  42 \n") == .number(42))
        #expect(try DocumentValue(json: "0.5") == .number(0.5))
        #expect(try DocumentValue(json: "-0") == .number(0))
        #expect(try DocumentValue(json: "1E-2") == .number(0.01))
    }

    @Test func decodesEveryEscapeIncludingSurrogatePairs() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC \ud83d\ude00 \u0000""#
        #expect(try DocumentValue(json: text) == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t Aé€ 😀 \u{0}"))
    }

    // MARK: Errors with positions

    @Test(arguments: [
        ("", 1, 1, "expected a JSON value, found end of JSON text"),
        ("{\"a\": 1 x}", 1, 9, "expected ',' or '}', found 'x'"),
        ("[1, 2,]", 1, 7, "expected a JSON value, found ']'"),
        ("{\"a\": 1,}", 1, 9, "expected a key in double quotes, found '}'"),
        ("{\n  \"a\" 1\n}", 2, 7, "expected ':', found '1'"),
        ("[1] [2]", 1, 5, "expected end of JSON text, found '['"),
        ("01", 1, 2, "expected end of JSON text, found '1'"),
        ("+1", 1, 1, "expected a JSON value, found '+'"),
        ("1.", 1, 3, "expected a digit, found end of JSON text"),
        ("-", 1, 2, "expected a digit"),
        ("1e400", 1, 1, "too large"),
        ("tru", 1, 4, "expected 'true'"),
        ("\"open", 1, 6, "to close the string"),
        ("\"a\\x\"", 1, 3, "invalid escape '\\x'"),
        ("\"\\u12G4\"", 1, 2, "invalid escape '\\u12G4'"),
        ("\"\\ud83d\"", 1, 2, "surrogate pair"),
        ("\"\\ude00\\ud83d\"", 1, 2, "surrogate pair"),
        ("\"\\ud83d\\u0041\"", 1, 2, "surrogate pair"),
        ("\"tab\there\"", 1, 5, "control character U+0009"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "key \"a\" appears twice"),
        ("// comment\n1", 1, 1, "found '/'"),
        ("[\"é😀\", x]", 1, 8, "found 'x'"),
        ("\u{1}", 1, 1, "found control character \\u{01}"),
    ])
    func malformedJSONReportsPosition(text: String, line: Int, column: Int, message: String) {
        do {
            let value = try DocumentValue(json: text)
            Issue.record("accepted \(text) as \(value)")
        } catch {
            #expect(error.position == JSONPosition(line: line, column: column), "\(text)")
            #expect(error.description.hasPrefix("JSON line \(line), column \(column): "), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func depthLimitStopsDeepNestingWithoutOverflow() throws {
        let limit = DocumentValue.defaultJSONDepthLimit
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try DocumentValue(json: deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONError.tooDeep(limit: limit, position: JSONPosition(line: 1, column: limit + 1))) {
            try DocumentValue(json: tooDeep)
        }
        let hostile = String(repeating: "{\"a\":", count: 200_000)
        #expect(
            throws: JSONError.tooDeep(limit: limit, position: JSONPosition(line: 1, column: 5 * limit + 1))
        ) {
            try DocumentValue(json: hostile)
        }
    }

    @Test func sizeLimitRejectsLongTextBeforeReadingIt() {
        #expect(throws: JSONError.tooLarge(size: 12, limit: 10)) {
            try DocumentValue(json: "\"0123456789\"", maximumSize: 10)
        }
        #expect(
            JSONError.tooLarge(size: 12, limit: 10).description == "JSON text is 12 bytes; the limit is 10")
    }

    // MARK: Printing

    @Test func printsCompactlyWithSortedKeysAndIntegralNumbersWithoutFraction() {
        let value = DocumentValue.object([
            "b": .array([.number(1), .number(-2.5), .number(1e300), .number(0.1), .null]),
            "a": .bool(true), "c": .object([:]), "d": .array([]), "": .string(""),
        ])
        #expect(value.jsonString() == #"{"":"","a":true,"b":[1,-2.5,1e+300,0.1,null],"c":{},"d":[]}"#)
        #expect(DocumentValue.number(3).jsonString() == "3")
        #expect(DocumentValue.number(-0.0).jsonString() == "0")
        #expect(DocumentValue.number(9_007_199_254_740_992).jsonString() == "9007199254740992")
        #expect(DocumentValue.number(.nan).jsonString() == "null")
        #expect(DocumentValue.number(-.infinity).jsonString() == "null")
    }

    @Test func printsPrettyWithTwoSpaceIndentation() {
        let value = DocumentValue.object([
            "name": .string("n"), "list": .array([.number(1), .object(["x": .null])]),
            "empty": .object([:]),
        ])
        #expect(
            value.jsonString(pretty: true) == """
                {
                  "empty": {},
                  "list": [
                    1,
                    {
                      "x": null
                    }
                  ],
                  "name": "n"
                }
                """)
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = DocumentValue.string("\"\\/\n\r\t\u{08}\u{0C}\u{1}\u{1F}é😀")
        #expect(value.jsonString() == #""\"\\/\n\r\t\b\f\u0001\u001Fé😀""#)
    }

    // MARK: Round trips

    @Test func seededRandomValuesRoundTripCompactAndPretty() throws {
        var generator = SplitMix64(seed: 0x15_0A_2026)
        for _ in 0..<500 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let compact = value.jsonString()
            #expect(try DocumentValue(json: compact) == value, "\(compact)")
            #expect(try DocumentValue(json: value.jsonString(pretty: true)) == value)
            // Printing is deterministic: the text of the parsed value is the same text.
            #expect(try DocumentValue(json: compact).jsonString() == compact)
        }
    }

    static func randomValue(depth: Int, using generator: inout SplitMix64) -> DocumentValue {
        switch Int.random(in: 0..<(depth < 4 ? 8 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
        case 3:
            let bits = Double(bitPattern: generator.next())
            return .number(bits.isFinite ? bits : 0.5)
        case 4: return .string(randomString(using: &generator))
        case 5, 6:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    randomValue(depth: depth + 1, using: &generator)
                })
        default:
            var entries: [String: DocumentValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                entries[randomString(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(entries)
        }
    }

    static func randomString(using generator: inout SplitMix64) -> String {
        let pieces: [String] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "€", "😀",
            "~", "2026-03-25T16:20:14.127Z~3fa2c1", "\u{7F}", "\u{2028}",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            if Bool.random(using: &generator), let piece = pieces.randomElement(using: &generator) {
                text += piece
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator)) {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
