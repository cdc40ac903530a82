import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// Markers in every export format: as on the screen, under the ink.
@Suite struct ExportMarkerTests {
    static let yellow: UInt8 = 226
    static let red: UInt8 = 196

    static func marker(_ points: [(Double, Double)], key: StrokeKey = Fixtures.key(2000), width: Double = 1)
        -> Stroke
    {
        Fixtures.stroke(points, key: key, width: width, colour: yellow, tool: .marker)
    }

    let band = Fixtures.group([marker([(1.5, 1.5), (6.5, 1.5)])])
    let pen = Fixtures.group([
        Fixtures.stroke([(2.5, 1.25), (4.5, 1.25)], key: Fixtures.key(1000), colour: red)
    ])

    func sgr(_ codes: String) -> String { "\u{1B}[\(codes)m" }

    @Test func aMarkerAloneStillExportsVisibleText() {
        #expect(TextExporter.export([band]) == "\n ░░░░░░\n")
        #expect(TextExporter.export([band], mode: .braille) == "\n ░░░░░░\n")
        #expect(TextExporter.export([band], mode: .ascii) == "\n ::::::\n")
    }

    @Test func textShowsThePenOverTheMarker() {
        #expect(TextExporter.export([band, pen]) == "\n ░▀▀▀░░\n")
        #expect(TextExporter.export([pen, band], mode: .ascii) == "\n :'''::\n")
    }

    @Test func ansiCarriesTheMarkersBackground() {
        // Row 0 is blank; in row 1 the colours change only where a cell differs from the last.
        let expected =
            "\n " + sgr("38;5;226;48;5;226") + "░" + sgr("38;5;196") + "▀▀▀"
            + sgr("38;5;226") + "░░" + sgr("0") + "\n"
        #expect(ANSIExporter.export([pen, band]) == expected)
    }

    @Test func ansiResetsTheBackgroundForAGapInTheBand() {
        let dashes = Fixtures.group([
            Self.marker([(0.5, 0.5), (1.5, 0.5)], key: Fixtures.key(1000)),
            Self.marker([(4.5, 0.5)], key: Fixtures.key(1000)),
        ])
        // The spaces between the two parts must not show the band's background.
        #expect(
            ANSIExporter.export([dashes])
                == sgr("38;5;226;48;5;226") + "░░" + sgr("49") + "  " + sgr("48;5;226") + "░"
                + sgr("0") + "\n")
    }

    @Test(arguments: [UInt64(11), 12])
    func withoutEscapesTheANSIExportIsTheTextExportWithMarkersToo(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let drawing = Fixtures.smallDrawing(using: &generator).enumerated().map { index, group in
            index % 3 == 0 ? Self.asMarker(group) : group
        }
        for mode in GlyphMode.allCases {
            let ansi = ANSIExporter.export(drawing, mode: mode)
            #expect(ExportANSITests().stripped(ansi) == TextExporter.export(drawing, mode: mode))
            #expect(ansi.contains("48;5;"))
            #expect(ansi.unicodeScalars.contains(mode.markerGlyph))
        }
    }

    /// The group with every piece made a two-cell marker.
    static func asMarker(_ group: StrokeGroup) -> StrokeGroup {
        let pieces = group.pieces.map { piece in
            var piece = piece
            piece.ink = Ink(tool: .marker, colour: piece.ink.colour, width: 2)
            return piece
        }
        return StrokeGroup(key: group.key, pieces: pieces) ?? group
    }

    @Test func svgDrawsEveryMarkerTranslucentUnderEveryPen() throws {
        let laterPen = Fixtures.group([
            Fixtures.stroke([(0, 4), (3, 4)], key: Fixtures.key(3000), colour: 46)
        ])
        let svg = SVGExporter.export([laterPen, band, pen])
        let markerLine = try #require(
            svg.range(of: ##"stroke="#ffff00" stroke-width="1" stroke-opacity="0.4"/>"##))
        let redLine = try #require(svg.range(of: ##"stroke="#ff0000" stroke-width="0.25"/>"##))
        let greenLine = try #require(svg.range(of: ##"stroke="#00ff00" stroke-width="0.25"/>"##))
        // The marker's key lies between the pens', but it is drawn before both; pens keep key order.
        #expect(markerLine.lowerBound < redLine.lowerBound)
        #expect(redLine.lowerBound < greenLine.lowerBound)
        #expect(svg.components(separatedBy: "opacity=").count == 2)
        #expect(XMLCheck(svg).problems == [])
    }

    @Test func aMarkerDotIsATranslucentDiscAndAMaskedMarkerKeepsItsMask() {
        var stroke = Self.marker([(1, 1), (6, 1)], key: Fixtures.key(1000), width: 2)
        stroke.mask = Fixtures.mask(radius: 0.5, [(3, 1)])
        let dot = Self.marker([(3, 4)])
        let svg = SVGExporter.export([Fixtures.group([stroke]), Fixtures.group([dot])])
        #expect(svg.contains(##"<circle cx="3" cy="4" r="0.5" fill="#ffff00" fill-opacity="0.4"/>"##))
        #expect(svg.contains(##"stroke-opacity="0.4" mask="url(#m1)"/>"##))
        let check = XMLCheck(svg)
        #expect(check.problems == [])
        #expect(check.references == ["m1"] && check.ids == ["m1"])
    }
}
