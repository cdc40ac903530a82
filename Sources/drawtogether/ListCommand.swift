import Foundation
import ReplicaStore

/// `drawtogether list`: the drawings in the replica — id, name and number of strokes.
enum ListCommand {
    static func run(configuration: Configuration) throws -> Int32 {
        let replica = try configuration.replicaLocation.openForReading()
        let result = try replica.execute("SELECT * FROM drawings")
        let rows = result.documents.map { document -> [String] in
            let id = document["_id"]?.stringValue ?? "?"
            let name = document["name"]?.stringValue ?? ""
            let strokes = document["strokes"]?.objectValue?.count ?? 0
            return [id, name, String(strokes)]
        }
        print(table(header: ["ID", "NAME", "STROKES"], rows: rows))
        return 0
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
