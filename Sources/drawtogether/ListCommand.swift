import Foundation
import ReplicaCore
import StrokeKit

/// `drawtogether list`: the drawings in the replica — id, name and number of strokes.
enum ListCommand {
    static func run(configuration: Configuration) throws -> Int32 {
        let replica = try configuration.replicaLocation.openForReading()
        let result = try replica.execute("SELECT * FROM drawings")
        let rows = result.documents.map { document -> [String] in
            // Names come from peers: a newline or an escape sequence in one is shown, not obeyed.
            let id = DisplayText.escaped(document["_id"]?.stringValue ?? "?")
            let name = DisplayText.escaped(document["name"]?.stringValue ?? "")
            let strokes = document["strokes"]?.objectValue?.count ?? 0
            return [id, name, String(strokes)]
        }
        try CommandOutput.printStandardOutput(table(header: ["ID", "NAME", "STROKES"], rows: rows) + "\n")
        return 0
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded. Widths are
    /// terminal columns, so a name with wide characters (CJK, emoji) keeps the next column in line.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].terminalColumns }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1
                    ? text : text + String(repeating: " ", count: widths[column] - text.terminalColumns)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
