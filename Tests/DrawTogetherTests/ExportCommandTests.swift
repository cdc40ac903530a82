import DrawingSync
import Foundation
import ReplicaCore
import ReplicaStore
import StrokeKit
import TestSupport
import Testing

@Suite struct ExportCommandTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let sampleURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/sample-drawing.json")

    /// A store whose replica holds the sample drawing as "sample" (named "Sample house").
    func storeWithSample() throws -> (TemporaryDirectory, [StrokeGroup]) {
        let groups = try DrawingJSON.decode(String(contentsOf: Self.sampleURL, encoding: .utf8))
        return (try store(holding: groups, id: "sample", name: "Sample house"), groups)
    }

    /// A store whose replica holds one drawing of these groups.
    func store(holding groups: [StrokeGroup], id: String, name: String) throws -> TemporaryDirectory {
        let store = try TemporaryDirectory()
        let directory = store.path + "/default/replica-1"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let replica = try Replica(directory: directory)
        var strokes: [String: DocumentValue] = [:]
        for group in groups { strokes[group.key.rawValue] = .string(EncodedGroup(group).value) }
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: [
                "doc": .object(["_id": .string(id), "name": .string(name), "strokes": .object(strokes)])
            ])
        return store
    }

    func run(_ arguments: [String], store: TemporaryDirectory) throws -> ProcessResult {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }
        return try runProcess(
            binary, arguments + ["--store", store.path], environment: environment,
            currentDirectory: store.path)
    }

    /// A line drawn with the keyboard from `from` to `to`.
    static func line(_ from: (Double, Double), _ to: (Double, Double), at milliseconds: Int64) throws
        -> StrokeGroup
    {
        let key = try #require(StrokeKey(creationMilliseconds: milliseconds, peerSuffix: "a1b2c3"))
        let path = [
            StrokePoint(x: from.0, y: from.1, timeOffsetMilliseconds: 0),
            StrokePoint(x: to.0, y: to.1, timeOffsetMilliseconds: 10),
        ]
        let ink = Ink(tool: .pen, colour: 15, width: 0.25)
        let stroke = try #require(Stroke(key: key, ink: ink, path: path, createdAtMilliseconds: milliseconds))
        return try #require(StrokeGroup(key: key, pieces: [stroke]))
    }

    @Test func textExportIsTheRasterOfTheStoredDrawing() throws {
        let (store, groups) = try storeWithSample()
        let result = try run(["export", "sample", "--format", "text"], store: store)
        #expect(result.status == 0)
        #expect(result.standardOutput == DrawingExporter.export(groups, as: .text))
        #expect(result.standardOutput.contains("█") || result.standardOutput.contains("▀"))
        #expect(result.standardError.isEmpty)
    }

    @Test func textAndANSIExportWarnAboutInkLeftOfOrAboveTheOrigin() throws {
        let groups = [
            try Self.line((1, 1), (8, 1), at: 1_774_455_614_000),
            try Self.line((-9, 2), (-2, 2), at: 1_774_455_615_000),
            try Self.line((3, -5), (3, 4), at: 1_774_455_616_000),
        ]
        let store = try store(holding: groups, id: "panned", name: "Panned")
        for format in ["text", "ansi"] {
            let result = try run(["export", "panned", "--format", format], store: store)
            #expect(result.status == 0)
            let expected = DrawingExporter.export(groups, as: DrawingExportFormat(rawValue: format) ?? .text)
            #expect(result.standardOutput == expected)
            #expect(
                result.standardError
                    == "drawtogether: warning: 2 strokes lie left of or above the canvas origin (0,0), where \(format) "
                    + "export starts, and are left out (1 wholly, 1 partly); --format svg or --format json includes them\n"
            )
        }
        for format in ["svg", "json"] {
            let result = try run(["export", "panned", "--format", format], store: store)
            #expect(result.status == 0)
            #expect(result.standardError.isEmpty)
        }
    }

    @Test func aDrawingCanBeNamedByItsName() throws {
        let (store, _) = try storeWithSample()
        let byID = try run(["export", "sample", "--format", "text"], store: store)
        let byName = try run(["export", "Sample house", "--format", "text"], store: store)
        #expect(byName.status == 0)
        #expect(byName.standardOutput == byID.standardOutput)
    }

    @Test func jsonExportToAFileReadsBackToTheSameGroups() throws {
        let (store, groups) = try storeWithSample()
        let file = store.path + "/out.json"
        let result = try run(["export", "sample", "--format", "json", "-o", file], store: store)
        #expect(result.status == 0)
        #expect(try DrawingJSON.decode(String(contentsOfFile: file, encoding: .utf8)) == groups)
    }

    @Test func svgExportIsAStandaloneDocumentWithTheStrokeColours() throws {
        let (store, groups) = try storeWithSample()
        let result = try run(["export", "sample", "--format", "svg"], store: store)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("<svg"))
        #expect(result.standardOutput.contains(XtermPalette.hex(groups[0].pieces[0].ink.colour)))
        // On a dark terminal's background, where the white default pen shows.
        #expect(result.standardOutput.contains(##"fill="#1c1c1c"/>"##))
    }

    @Test func anUnknownDrawingNamesTheOnesThatExist() throws {
        let (store, _) = try storeWithSample()
        let result = try run(["export", "nope", "--format", "text"], store: store)
        #expect(result.status == 1)
        #expect(result.standardError.contains("sample"))
    }

    /// Default ink (colour 1) is white on the dark SVG (the default) and black with --theme light.
    @Test func theSVGThemeSetsTheBackgroundAndTheColourOfDefaultInk() throws {
        let line = CanvasLineFixture.group()
        let store = try store(holding: [line], id: "line", name: "line")
        let dark = try run(["export", "line", "--format", "svg"], store: store)
        #expect(dark.status == 0)
        #expect(
            dark.standardOutput.contains(##"fill="#1c1c1c""##)
                && dark.standardOutput.contains(##"stroke="#ffffff""##))
        let light = try run(["export", "line", "--format", "svg", "--theme", "light"], store: store)
        #expect(light.status == 0)
        #expect(
            light.standardOutput.contains(##"fill="#ffffff""##)
                && light.standardOutput.contains(##"stroke="#000000""##))
        let bad = try run(["export", "line", "--format", "svg", "--theme", "sepia"], store: store)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("unknown export theme 'sepia'; use dark (the default) or light"))
    }
}

/// One default-ink pen stroke across a few cells.
enum CanvasLineFixture {
    static func group() -> StrokeGroup {
        let key = StrokeKey(rawValue: "2026-03-25T16:20:14.127Z~3fa2c1")!
        let ink = Ink(tool: .pen, colour: Ink.defaultInkColour)
        let stroke = Stroke(
            key: key, ink: ink, path: [StrokePoint(x: 1.5, y: 1.5), StrokePoint(x: 6.5, y: 1.5)],
            createdAtMilliseconds: key.creationMilliseconds)!
        return StrokeGroup(key: key, pieces: [stroke])!
    }
}

/// `export --glyphs`, and text strokes on the command line.
@Suite struct ExportGlyphsTests {
    let base = ExportCommandTests()

    @Test func glyphsBrailleExportsBrailleDotsAndTextAsItsCharacters() throws {
        let line = try ExportCommandTests.line((0.5, 0.5), (2.5, 0.5), at: 1_774_455_614_000)
        let key = try #require(StrokeKey(creationMilliseconds: 1_774_455_615_000, peerSuffix: "a1b2c3"))
        let characters = try #require(StrokeText("hi 世界"))
        let stroke = Stroke(
            key: key, text: characters, colour: 196, origin: CanvasPoint(x: 1, y: 1),
            createdAtMilliseconds: key.creationMilliseconds)
        let text = try #require(StrokeGroup(key: key, pieces: [stroke]))
        let store = try base.store(holding: [line, text], id: "d", name: "D")
        let block = try base.run(["export", "d", "--format", "text"], store: store)
        #expect(block.standardOutput == DrawingExporter.export([line, text], as: .text))
        #expect(block.standardOutput.hasSuffix("\n hi 世界\n"))
        let braille = try base.run(["export", "d", "--format", "text", "--glyphs", "braille"], store: store)
        #expect(braille.status == 0)
        #expect(braille.standardOutput == DrawingExporter.export([line, text], as: .text, mode: .braille))
        #expect(braille.standardOutput != block.standardOutput)
        #expect(
            braille.standardOutput.unicodeScalars.first.map { (0x2800...0x28FF).contains($0.value) } == true)
        let svg = try base.run(["export", "d", "--format", "svg"], store: store)
        #expect(svg.standardOutput.contains(">hi世界</text>"))
        let bad = try base.run(["export", "d", "--format", "text", "--glyphs", "dots"], store: store)
        #expect(bad.status == 2)
        #expect(
            bad.standardError.contains("unknown export glyphs 'dots'; use block (the default) or braille"))
    }
}
