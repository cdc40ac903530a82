import DrawingSync
import Foundation
import ReplicaStore
import StrokeKit
import TestSupport
import Testing

@Suite struct ExportCommandTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let sampleURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/sample-drawing.json")

    /// A store whose replica holds the sample drawing as "sample" (named "Sample house").
    func storeWithSample() throws -> (TemporaryDirectory, [StrokeGroup]) {
        let store = try TemporaryDirectory()
        let groups = try DrawingJSON.decode(String(contentsOf: Self.sampleURL, encoding: .utf8))
        let directory = store.path + "/default/replica-1"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let replica = try Replica(directory: directory)
        var strokes: [String: DocumentValue] = [:]
        for group in groups { strokes[group.key.rawValue] = .string(StrokeModel.encode(group).value) }
        try replica.execute(
            "INSERT INTO drawings DOCUMENTS (:doc)",
            arguments: ["doc": .object(["_id": .string("sample"), "name": .string("Sample house"), "strokes": .object(strokes)])])
        return (store, groups)
    }

    func run(_ arguments: [String], store: TemporaryDirectory) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_STORE"] = nil
        environment["DRAWTOGETHER_DATABASE_ID"] = nil
        return try runProcess(binary, arguments + ["--store", store.path], environment: environment, currentDirectory: store.path)
    }

    @Test func textExportIsTheRasterOfTheStoredDrawing() throws {
        let (store, groups) = try storeWithSample()
        let result = try run(["export", "sample", "--format", "text"], store: store)
        #expect(result.status == 0)
        #expect(result.standardOutput == DrawingExporter.export(groups, as: .text))
        #expect(result.standardOutput.contains("█") || result.standardOutput.contains("▀"))
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
    }

    @Test func anUnknownDrawingNamesTheOnesThatExist() throws {
        let (store, _) = try storeWithSample()
        let result = try run(["export", "nope", "--format", "text"], store: store)
        #expect(result.status == 1)
        #expect(result.standardError.contains("sample"))
    }
}
