import StrokeKit
import StrokeKitTestSupport
import Testing

/// Text strokes in every export format.
@Suite struct ExportTextStrokeTests {
    let groups = [
        Fixtures.group([Fixtures.stroke([(0.5, 0.5), (2.5, 0.5)], key: Fixtures.key(1), width: 1)]),
        Fixtures.group([Fixtures.text("a<b & 世\nend", at: (1, 1), key: Fixtures.key(2), colour: 196)]),
    ]

    @Test func textExportsItsCharacters() {
        #expect(DrawingExporter.export(groups, as: .text) == "███\n a<b & 世\n end\n")
        #expect(DrawingExporter.export(groups, as: .text, mode: .braille) == "⣿⣿⣿\n a<b & 世\n end\n")
    }

    @Test func ansiExportsItsCharactersInTheirColour() {
        let ansi = DrawingExporter.export(groups, as: .ansi)
        #expect(ansi.contains(" \u{1B}[38;5;196ma<b & 世\u{1B}[0m\n"))
    }

    @Test func svgExportsTextElementsEscaped() {
        let svg = DrawingExporter.export(groups, as: .svg)
        #expect(svg.contains(#"<text x="10 20 30 50 70" y="36" "#))
        #expect(svg.contains(">a&lt;b&amp;世</text>"))
        #expect(svg.contains(##"fill="#ff0000""##))
        #expect(!svg.contains("a<b"))
    }

    @Test func jsonRoundTripsText() throws {
        let json = DrawingExporter.export(groups, as: .json)
        #expect(json.contains(#""text": ["a<b & 世", "end"]"#))
        #expect(try DrawingJSON.decode(json) == groups)
    }

    @Test func jsonRoundTripsAKindThisBuildDoesNotKnow() throws {
        let group = try StrokeGroupCodec.decode(TextStrokeCodecTests.groupWithUnknownKind())
        let json = DrawingJSON.encode([group])
        #expect(try DrawingJSON.decode(json) == [group])
    }
}
