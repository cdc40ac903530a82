import Foundation
import StrokeKit
import Testing

@Suite struct ExportJSONErrorTests {
    /// The position of the first `needle` in a one-line `text`.
    func at(_ needle: String, in text: String, skipping skip: Int = 0) -> DrawingJSON.Position {
        guard let range = text.range(of: needle) else {
            return DrawingJSON.Position(line: 0, column: 0, offset: -1)
        }
        let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound) + skip
        return DrawingJSON.Position(line: 1, column: offset + 1, offset: offset)
    }

    func position(line: Int, column: Int, offset: Int) -> DrawingJSON.Position {
        DrawingJSON.Position(line: line, column: column, offset: offset)
    }

    static let piece =
        #"{"tool": "pen", "colour": 196, "width": 0.25, "createdAt": 1774455614127, "points": [[1, 2, 0]]}"#
    static let key = "2026-03-25T16:20:14.127Z~3fa2c1"

    /// A one-line drawing with one group holding `pieces`.
    func document(pieces: String = piece, key: String = key) -> String {
        #"{"format": "drawtogether-drawing", "version": 1, "groups": [{"key": "\#(key)", "pieces": [\#(pieces)]}]}"#
    }

    func piece(replacing target: String, with replacement: String) -> String {
        document(pieces: Self.piece.replacingOccurrences(of: target, with: replacement))
    }

    @Test func theBaseDocumentIsValid() throws {
        #expect(try DrawingJSON.decode(document()).count == 1)
    }

    @Test func syntaxErrorsSayWhatWasExpectedAndWhere() {
        #expect(
            throws: DrawingJSONError.unexpectedEnd(
                expected: "a value", at: position(line: 1, column: 1, offset: 0))
        ) {
            try DrawingJSON.decode("")
        }
        let trailingComma = #"{"format": "drawtogether-drawing",}"#
        #expect(
            throws: DrawingJSONError.unexpectedCharacter(
                found: "'}'", expected: "a field name in double quotes",
                at: at(",}", in: trailingComma, skipping: 1))
        ) { try DrawingJSON.decode(trailingComma) }
        #expect(
            throws: DrawingJSONError.unexpectedEnd(
                expected: "',' or ']'", at: position(line: 1, column: 6, offset: 5))
        ) {
            try DrawingJSON.decode("[1, 2")
        }
        #expect(
            throws: DrawingJSONError.unexpectedEnd(
                expected: "'true'", at: position(line: 1, column: 4, offset: 3))
        ) {
            try DrawingJSON.decode("tru")
        }
        #expect(throws: DrawingJSONError.trailingContent(at: position(line: 1, column: 4, offset: 3))) {
            try DrawingJSON.decode("{} x")
        }
        #expect(
            throws: DrawingJSONError.unexpectedCharacter(
                found: "'é'", expected: "a value", at: position(line: 1, column: 2, offset: 1))
        ) {
            try DrawingJSON.decode("[é]")
        }
        #expect(throws: DrawingJSONError.duplicateKey("a", at: position(line: 1, column: 10, offset: 9))) {
            try DrawingJSON.decode(#"{"a": 1, "a": 2}"#)
        }
    }

    @Test(arguments: ["01", "1.", "-", "1e", "-.5", "1.5e+"])
    func malformedNumbersAreRefused(literal: String) {
        #expect(throws: DrawingJSONError.invalidNumber(literal, at: position(line: 1, column: 2, offset: 1)))
        {
            try DrawingJSON.decode("[\(literal)]")
        }
    }

    @Test func malformedStringsAreRefused() {
        let start = position(line: 1, column: 3, offset: 2)
        #expect(
            throws: DrawingJSONError.invalidString(
                reason: "a control character must be written as an escape", at: start)
        ) {
            try DrawingJSON.decode("[\"\u{1}\"]")
        }
        #expect(throws: DrawingJSONError.invalidString(reason: #"'\x' is not an escape"#, at: start)) {
            try DrawingJSON.decode(#"["\x"]"#)
        }
        #expect(
            throws: DrawingJSONError.invalidString(reason: "a high surrogate without a low one", at: start)
        ) {
            try DrawingJSON.decode(#"["\ud800"]"#)
        }
        #expect(
            throws: DrawingJSONError.invalidString(reason: "a low surrogate without a high one", at: start)
        ) {
            try DrawingJSON.decode(#"["\udc00\ud800"]"#)
        }
        #expect(throws: DrawingJSONError.invalidString(reason: #"\u needs four hex digits"#, at: start)) {
            try DrawingJSON.decode(#"["\u12g4"]"#)
        }
        #expect(
            throws: DrawingJSONError.unexpectedEnd(
                expected: "'\"' to close the string", at: position(line: 1, column: 5, offset: 4))
        ) {
            try DrawingJSON.decode(#"["ab"#)
        }
    }

    @Test func aSurrogatePairIsOneCharacter() throws {
        // The pair is read as U+1F600; the key it lands in is then refused as a key, naming it.
        let text = document(key: #"2026-03-25T16:20:14.127Z~\ud83d\ude00"#)
        #expect(
            throws: DrawingJSONError.invalidValue(
                path: "groups[0].key",
                reason:
                    "is not a stroke key (a UTC time like 2026-03-25T16:20:14.127Z, '~', then 1-16 characters of 0-9 and a-z)",
                at: at(#""2026"#, in: text))
        ) { try DrawingJSON.decode(text) }
    }

    @Test func limitsBoundSizeAndDepth() {
        #expect(throws: DrawingJSONError.inputTooLarge(bytes: 11, limit: 10)) {
            try DrawingJSON.decode("[1,2,3,4,5]", limits: DrawingJSON.Limits(maximumBytes: 10))
        }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(
            throws: DrawingJSONError.nestedTooDeeply(limit: 32, at: position(line: 1, column: 33, offset: 32))
        ) {
            try DrawingJSON.decode(deep)
        }
        // Far deeper than any stack would allow without the limit.
        let abyss = String(repeating: "[", count: 200_000)
        #expect(throws: DrawingJSONError.self) { try DrawingJSON.decode(abyss) }
    }

    @Test func positionsCountLinesAndCharacters() throws {
        let text =
            "{\n  \"format\": \"drawtogether-drawing\",\n  \"version\": 1,\n  \"groups\": [\n    {\"kéy\": 5}\n  ]\n}"
        let error = try #require(throws: DrawingJSONError.self) { try DrawingJSON.decode(text) }
        #expect(
            error
                == .unknownField(
                    path: "groups[0]", field: "kéy", at: position(line: 5, column: 6, offset: 73)))
        #expect(
            error.description
                == #"line 5, column 6: groups[0] has a field "kéy" that this format does not know"#)
    }

    @Test func anotherKindOfDocumentIsNamedAsSuch() {
        let other = #"{"name": "x", "format": "geojson"}"#
        #expect(throws: DrawingJSONError.unsupportedFormat("geojson", at: at(#""geojson"#, in: other))) {
            try DrawingJSON.decode(other)
        }
        #expect(
            throws: DrawingJSONError.wrongType(
                path: "the document", expected: "an object", found: "an array",
                at: position(line: 1, column: 1, offset: 0))
        ) {
            try DrawingJSON.decode("[]")
        }
        let future = document().replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
        #expect(throws: DrawingJSONError.unsupportedVersion("2", at: at(#"2, "groups"#, in: future))) {
            try DrawingJSON.decode(future)
        }
    }

    @Test func fieldsMustBeKnownAndPresent() {
        let extra = piece(replacing: #""tool": "pen""#, with: #""tool": "pen", "pressure": 1"#)
        #expect(
            throws: DrawingJSONError.unknownField(
                path: "groups[0].pieces[0]", field: "pressure", at: at(#""pressure"#, in: extra))
        ) {
            try DrawingJSON.decode(extra)
        }
        let missing = piece(replacing: #""colour": 196, "#, with: "")
        #expect(
            throws: DrawingJSONError.missingField(
                path: "groups[0].pieces[0]", field: "colour", at: at(#"{"tool"#, in: missing))
        ) {
            try DrawingJSON.decode(missing)
        }
    }

    @Test(arguments: [
        (
            #""colour": 196"#, #""colour": 1.5"#, "groups[0].pieces[0].colour",
            "must be a whole number (no fraction or exponent), not 1.5"
        ),
        (
            #""colour": 196"#, #""colour": 256"#, "groups[0].pieces[0].colour",
            "must be between 0 and 255, not 256"
        ),
        (
            #""width": 0.25"#, #""width": 0"#, "groups[0].pieces[0].width",
            "must be between 0.0625 and 64, not 0"
        ),
        (
            #""width": 0.25"#, #""width": 65"#, "groups[0].pieces[0].width",
            "must be between 0.0625 and 64, not 65"
        ),
        (#""tool": "pen""#, #""tool": "brush""#, "groups[0].pieces[0].tool", "is not a tool (pen or marker)"),
        (#""points": [[1, 2, 0]]"#, #""points": []"#, "groups[0].pieces[0].points", "must not be empty"),
        (
            #"[[1, 2, 0]]"#, #"[[1, 2]]"#, "groups[0].pieces[0].points[0]",
            "must be [x, y, milliseconds], not 2 values"
        ),
        (
            #"[[1, 2, 0]]"#, #"[[1, 2, -1]]"#, "groups[0].pieces[0].points[0][2]",
            "must be between 0 and 2147483647, not -1"
        ),
        (
            #"[[1, 2, 0]]"#, #"[[1e7, 2, 0]]"#, "groups[0].pieces[0].points[0][0]",
            "must be between -1048576 and 1048576, not 1e7"
        ),
        (
            #""createdAt": 1774455614127"#, #""createdAt": 99999999999999999999"#,
            "groups[0].pieces[0].createdAt",
            "must be between -9223372036854775808 and 9223372036854775807, not 99999999999999999999"
        ),
        (
            #"}"#, #", "mask": [{"radius": 100, "path": [[0, 0]]}]}"#, "groups[0].pieces[0].mask[0].radius",
            "must be between 0.0625 and 64, not 100"
        ),
        (
            #"}"#, #", "mask": [{"radius": 1, "path": []}]}"#, "groups[0].pieces[0].mask[0].path",
            "must not be empty"
        ),
        (#"}"#, #", "transform": {"dx": 1}}"#, "", ""),
    ])
    func valuesOutsideTheModelAreRefused(target: String, replacement: String, path: String, reason: String)
        throws
    {
        let text = piece(replacing: target, with: replacement)
        let error = try #require(throws: DrawingJSONError.self) { try DrawingJSON.decode(text) }
        if path.isEmpty {
            #expect(
                error
                    == .missingField(
                        path: "groups[0].pieces[0].transform", field: "dy", at: at(#"{"dx""#, in: text)))
            return
        }
        guard case .invalidValue(let foundPath, let foundReason, let where_) = error else {
            Issue.record("expected an invalid value, got \(error)")
            return
        }
        #expect(foundPath == path)
        #expect(foundReason == reason)
        #expect(where_.line == 1 && where_.column > 1)
    }

    @Test func emptyGroupsBadKeysAndRepeatedKeysAreRefused() {
        let empty = document(pieces: "")
        #expect(
            throws: DrawingJSONError.invalidValue(
                path: "groups[0].pieces", reason: "must not be empty", at: at("[]}", in: empty))
        ) {
            try DrawingJSON.decode(empty)
        }
        let badKey = document(key: "yesterday~me")
        #expect(throws: DrawingJSONError.self) { try DrawingJSON.decode(badKey) }
        let group = #"{"key": "\#(Self.key)", "pieces": [\#(Self.piece)]}"#
        let twice = #"{"format": "drawtogether-drawing", "version": 1, "groups": [\#(group), \#(group)]}"#
        let second = at(#"{"key"#, in: twice).offset + group.utf8.count + 2 + 8
        #expect(
            throws: DrawingJSONError.duplicateGroupKey(
                Self.key, at: position(line: 1, column: second + 1, offset: second))
        ) {
            try DrawingJSON.decode(twice)
        }
    }

    @Test func messagesSayWhatToDo() {
        let version = DrawingJSONError.unsupportedVersion("2", at: position(line: 1, column: 50, offset: 49))
        #expect(version.description.hasPrefix("line 1, column 50: version 2 is not supported"))
        #expect(
            DrawingJSONError.inputTooLarge(bytes: 11, limit: 10).description.contains(
                "more than the 10 bytes"))
        #expect(DrawingJSONError.inputTooLarge(bytes: 11, limit: 10).position == nil)
    }
}
