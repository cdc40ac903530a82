import StrokeKit
import Testing

@testable import drawtogether

@Suite struct ListCommandTests {
    @Test func columnsLineUpAfterNamesWithWideCharacters() {
        let table = ListCommand.table(
            header: ["ID", "NAME", "STROKES"],
            rows: [["a1", "☕ coffee", "3"], ["b2", "設計図 ノート", "12"], ["c3", "plain", "0"]])
        #expect(
            table == """
                ID  NAME           STROKES
                a1  ☕ coffee      3
                b2  設計図 ノート  12
                c3  plain          0
                """)
        // In a terminal the last column (STROKES and the counts) starts at the same place on every line.
        let starts = table.split(separator: "\n").map { line in
            line.dropLast(line.split(separator: " ").last?.count ?? 0).terminalColumns
        }
        #expect(starts == [19, 19, 19, 19])
    }
}
