import DrawingSync
import FoundationEssentials
import ReplicaCore
import StrokeKit

/// `drawtogether export DRAWING --format text|ansi|svg|json [-o FILE]`.
enum ExportCommand {
    enum ExportError: Error, CustomStringConvertible {
        case noSuchDrawing(String, known: [String])

        var description: String {
            switch self {
            case .noSuchDrawing(let name, let known):
                let list =
                    known.isEmpty
                    ? "the replica has no drawings yet" : "drawings: " + known.joined(separator: ", ")
                return "no drawing '\(name)' in the replica (\(list)); 'drawtogether list' shows them"
            }
        }
    }

    static func run(configuration: Configuration, drawing: String, format: ExportFormat, output: String?)
        throws -> Int32
    {
        let replica = try configuration.replicaLocation.openForReading()
        let documents = try replica.execute("SELECT * FROM drawings").documents
        guard
            let document = documents.first(where: { $0["_id"]?.stringValue == drawing })
                ?? documents.first(where: { $0["name"]?.stringValue == drawing })
        else {
            throw ExportError.noSuchDrawing(drawing, known: documents.compactMap { $0["_id"]?.stringValue })
        }
        var model = DrawingModel()
        let update = model.update(fromDocument: document)
        for problem in update.problems { printError("drawtogether: warning: \(problem)") }
        let exportFormat = DrawingExportFormat(rawValue: format.rawValue) ?? .text
        let groups = model.drawing()
        let svg: SVGExportOptions = configuration.exportTheme == .light ? .light : .dark
        let mode: GlyphMode = configuration.exportGlyphs == .braille ? .braille : .block
        let text = DrawingExporter.export(groups, as: exportFormat, mode: mode, svg: svg)
        let clipping = OriginClipping(of: groups)
        if exportFormat == .text || exportFormat == .ansi,
            let warning = clipping.warning(format: exportFormat.rawValue)
        {
            // Text starts at the canvas origin by design; say so rather than drop ink silently.
            let keeps = "--format svg or --format json includes \(clipping.total == 1 ? "it" : "them")"
            printError("drawtogether: warning: \(warning); \(keeps)")
        }
        if let output {
            try CommandOutput.write(text, toFile: output)
        } else {
            try CommandOutput.printStandardOutput(text)
        }
        return 0
    }
}
