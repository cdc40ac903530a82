import Foundation
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct ExportJSONTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func seededRandomDrawingsSurviveARoundTrip(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<10 {
            var byKey: [StrokeKey: StrokeGroup] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let group = Fixtures.randomGroup(using: &generator)
                byKey[group.key] = group
            }
            let groups = Array(byKey.values)
            let text = DrawingJSON.encode(groups)
            let decoded = try DrawingJSON.decode(text)
            #expect(decoded == groups.sorted { $0.key < $1.key })
            // The decoded drawing writes the very same bytes again.
            #expect(DrawingJSON.encode(decoded) == text)
        }
    }

    @Test func theDocumentLayoutIsFixed() {
        var stroke = Fixtures.stroke([(1.5, 2.25), (-3, 4.0625)], width: 2.5, colour: 196, tool: .marker)
        stroke.mask = Fixtures.mask(radius: 1.25, [(2, 3), (2.5, 3.5)])
        stroke.transform = StrokeTransform(dx: -4, dy: 10.5)
        let dot = Fixtures.stroke([(0, 0)], colour: 15)
        let expected = """
            {
              "format": "drawtogether-drawing",
              "version": 1,
              "groups": [
                {
                  "key": "2026-03-25T16:20:14.127Z~3fa2c1",
                  "pieces": [
                    {
                      "tool": "marker",
                      "colour": 196,
                      "width": 2.5,
                      "createdAt": 1774455614127,
                      "transform": {"dx": -4, "dy": 10.5},
                      "points": [[1.5, 2.25, 0], [-3, 4.0625, 10]],
                      "mask": [{"radius": 1.25, "path": [[2, 3], [2.5, 3.5]]}]
                    },
                    {
                      "tool": "pen",
                      "colour": 15,
                      "width": 0.25,
                      "createdAt": 1774455614127,
                      "transform": {"dx": 0, "dy": 0},
                      "points": [[0, 0, 0]],
                      "mask": []
                    }
                  ]
                }
              ]
            }

            """
        #expect(DrawingJSON.encode([Fixtures.group([stroke, dot])]) == expected)
    }

    @Test func anEmptyDrawingHasNoGroups() throws {
        let text = DrawingJSON.encode([])
        #expect(
            text == "{\n  \"format\": \"drawtogether-drawing\",\n  \"version\": 1,\n  \"groups\": []\n}\n")
        #expect(try DrawingJSON.decode(text) == [])
    }

    @Test func theOutputDoesNotDependOnTheOrderOfTheGroups() {
        var generator = SplitMix64(seed: 21)
        let drawing = Fixtures.smallDrawing(using: &generator)
        let text = DrawingJSON.encode(drawing)
        for _ in 0..<5 { #expect(DrawingJSON.encode(drawing.shuffled(using: &generator)) == text) }
    }

    @Test func anyFieldOrderAndWhitespaceIsRead() throws {
        let text = """
             { "groups" : [ { "pieces" : [ { "points" : [ [ 1 , 2 , 0 ] , [ 3e0 , 4.5 , 7 ] ] ,
            \t"createdAt" : 5 , "width" : 1 , "colour" : 46 , "tool" : "pen" } ] ,
            \r\n "key" : "2026-03-25T16:20:14.127Z\\u007e3fa2c1" } ] ,
              "version" : 1 , "format" : "drawtogether-drawing" }\u{20}
            """
        let groups = try DrawingJSON.decode(text)
        let expected = Stroke(
            key: Fixtures.key(), ink: Ink(tool: .pen, colour: 46, width: 1),
            path: [StrokePoint(x: 1, y: 2), StrokePoint(x: 3, y: 4.5, timeOffsetMilliseconds: 7)],
            createdAtMilliseconds: 5)
        #expect(groups.map(\.pieces) == [[try #require(expected)]])
        // Left out, the transform is none and nothing is masked.
        #expect(groups.first?.pieces.first?.transform == .identity)
        #expect(groups.first?.pieces.first?.mask == StrokeMask.none)
    }

    @Test func coordinatesOffTheGridAreSnappedToIt() throws {
        let text = DrawingJSON.encode([Fixtures.group([Fixtures.stroke([(1, 1)])])])
            .replacingFirst("[[1, 1, 0]]", with: "[[1.01, 0.97, 0]]")
        let point = try DrawingJSON.decode(text).first?.pieces.first?.path.first?.point
        #expect(point == CanvasPoint(x: 1, y: 1))
    }

    @Test func groupsComeBackInKeyOrder() throws {
        let late = Fixtures.group([Fixtures.stroke([(0, 0)], key: Fixtures.key(9000))])
        let early = Fixtures.group([Fixtures.stroke([(1, 1)], key: Fixtures.key(1000))])
        let text = DrawingJSON.encode([late, early])
        #expect(try DrawingJSON.decode(text).map(\.key) == [early.key, late.key])
    }
}

extension String {
    /// The text with the first occurrence of `target` replaced (tests edit valid documents).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
