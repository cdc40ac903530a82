import FoundationEssentials
import ReplicaCore
import StrokeKit

/// `drawtogether list`: the drawings in the replica — id, name, number of strokes, and who is on
/// each as the running instances of the store see it (`Whereabouts`).
enum ListCommand {
    static func run(configuration: Configuration) throws -> Int32 {
        let replica = try configuration.replicaLocation.openForReading()
        let result = try replica.execute("SELECT * FROM drawings")
        let known = Whereabouts.known(in: WhereaboutsFile(location: configuration.replicaLocation).directory)
        let header = ["ID", "NAME", "STROKES", "PEOPLE"]
        try CommandOutput.printStandardOutput(
            table(header: header, rows: rows(result.documents, known: known)) + "\n")
        return 0
    }

    /// One row a drawing, in the order the replica lists them. Presence is known only to running
    /// instances: with none running, PEOPLE is `?` (not known), not empty (nobody there).
    static func rows(_ documents: [[String: DocumentValue]], known: Whereabouts.Known) -> [[String]] {
        documents.map { document -> [String] in
            // Names come from peers: a newline or an escape sequence in one is shown, not obeyed.
            let rawID = document["_id"]?.stringValue ?? "?"
            let id = DisplayText.escaped(rawID)
            var name = DisplayText.escaped(document["name"]?.stringValue ?? "")
            if case .number = document["trashed"] { name += " (in the trash)" }
            let strokes = document["strokes"]?.objectValue?.count ?? 0
            let people =
                known.instances == 0
                ? "?" : known.names(on: rawID).map(DisplayText.escaped).joined(separator: ", ")
            return [id, name, String(strokes), people]
        }
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
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }
}

extension String {
    /// The text without the spaces at its end (a row whose last columns are empty).
    fileprivate var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
