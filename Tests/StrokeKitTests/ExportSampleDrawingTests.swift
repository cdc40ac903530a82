import Foundation
import StrokeKit
import Testing

@Suite struct ExportSampleDrawingTests {
    /// Resources/sample-drawing.json in the source tree (this file is Tests/StrokeKitTests/…).
    static let sampleURL = resource("sample-drawing.json")

    /// A file of Resources/ in the source tree.
    static func resource(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/" + name)
    }

    func sample() throws -> (text: String, groups: [StrokeGroup]) {
        let text = try String(contentsOf: Self.sampleURL, encoding: .utf8)
        return (text, try DrawingJSON.decode(text))
    }

    @Test func theSampleDecodesAndIsInTheExportersOwnForm() throws {
        let (text, groups) = try sample()
        #expect(groups.count >= 24)
        // The file is exactly what the exporter writes for it: deterministic and canonical.
        #expect(DrawingJSON.encode(groups) == text)
    }

    @Test func theSampleShowsTheEraserAndAMovedStroke() throws {
        let pieces = try sample().groups.flatMap(\.pieces)
        #expect(pieces.contains { !$0.mask.isEmpty })
        #expect(pieces.contains { !$0.transform.isIdentity })
        #expect(try sample().groups.contains { $0.pieces.count > 1 })
        #expect(Set(pieces.map(\.key.peerSuffix)).count == 2)
    }

    @Test(arguments: GlyphMode.allCases)
    func theSampleRendersInEveryTextMode(mode: GlyphMode) throws {
        let groups = try sample().groups
        let text = TextExporter.export(groups, mode: mode)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 20)
        #expect(lines.contains { $0.count > 60 })
        #expect(text.unicodeScalars.filter { $0 != " " && $0 != "\n" }.count > 300)
        let ansi = ANSIExporter.export(groups, mode: mode)
        #expect(ansi.contains("\u{1B}[38;5;196m") && ansi.contains("\u{1B}[0m\n"))
    }

    @Test func theSampleIsAPictureWithEveryColourAndMask() throws {
        let groups = try sample().groups
        let svg = SVGExporter.export(groups, options: SVGExportOptions(title: "Sample"))
        #expect(svg.contains(##"fill="#1c1c1c"/>"##))
        let check = XMLCheck(svg)
        #expect(check.problems == [])
        #expect(check.elements.filter { $0 == "polyline" || $0 == "circle" }.count >= groups.count)
        #expect(check.references.count == groups.flatMap(\.pieces).filter { !$0.mask.isEmpty }.count)
        for colour in Set(groups.flatMap(\.pieces).map(\.ink.colour)) {
            #expect(svg.contains(#"="\#(XtermPalette.hex(colour))""#))
        }
    }
}
