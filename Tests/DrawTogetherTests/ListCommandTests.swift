import Foundation
import Glibc
import ReplicaCore
import StrokeKit
import TestSupport
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

@Suite struct WhereaboutsTests {
    static let ana = Whereabouts.Person(peerID: 0xA, name: "ana", drawingID: "drawing-1")
    static let bob = Whereabouts.Person(
        peerID: 0xFFFF_FFFF_FFFF_FFF0, name: "bob \u{1B}[2J", drawingID: "sketch")

    @Test func aFileReadsBackAsWritten() throws {
        let whereabouts = Whereabouts(people: [Self.bob, Self.ana])
        #expect(whereabouts.people == [Self.ana, Self.bob])
        #expect(Whereabouts(json: whereabouts.json(pid: 42)) == whereabouts)
        #expect(Whereabouts(json: "{\"people\": [{\"peer\": \"zz\"}]}") == nil)
        #expect(Whereabouts(json: "not json") == nil)
    }

    /// Only the files of running instances count, each person once, and a file that is not one
    /// is skipped.
    @Test func theRunningInstancesFilesAreReadAndTheOthersLeftOut() throws {
        let directory = try TemporaryDirectory(prefix: "whereabouts")
        let running = WhereaboutsFile(directory: directory.path, pid: 100)
        running.write(Whereabouts(people: [Self.ana, Self.bob]))
        // Another running instance of the store sees ana too; a killed one saw someone else.
        WhereaboutsFile(directory: directory.path, pid: 101).write(Whereabouts(people: [Self.ana]))
        WhereaboutsFile(directory: directory.path, pid: 102).write(
            Whereabouts(people: [.init(peerID: 7, name: "gone", drawingID: "drawing-1")]))
        try "garbage".write(toFile: directory.path + "/who-is-where-103", atomically: true, encoding: .utf8)
        let known = Whereabouts.known(in: directory.path) { [100, 101, 103].contains($0) }
        #expect(known.instances == 2)
        #expect(known.people == [Self.ana, Self.bob])
        #expect(known.names(on: "sketch") == [Self.bob.name])
        running.remove()
        #expect(Whereabouts.known(in: directory.path) { $0 == 100 }.instances == 0)
        #expect(Whereabouts.isRunning(getpid()))
    }

    @Test func listShowsStrokesAndPeopleOrThatTheyAreNotKnown() {
        let known = Whereabouts.Known(instances: 1, people: [Self.ana, Self.bob])
        let documents: [[String: DocumentValue]] = [
            ["_id": .string("drawing-1"), "name": .string("Notes"), "strokes": .object(["k": .string("x")])],
            ["_id": .string("sketch"), "name": .string("Sketch")],
            ["_id": .string("empty"), "name": .string("Empty")],
            ["_id": .string("old"), "name": .string("Old"), "trashed": .number(1_000)],
        ]
        let rows = ListCommand.rows(documents, known: known)
        #expect(rows[0] == ["drawing-1", "Notes", "1", "ana"])
        // A peer's name is shown escaped, never obeyed.
        #expect(rows[1] == ["sketch", "Sketch", "0", "bob \\u{1B}[2J"])
        #expect(rows[2] == ["empty", "Empty", "0", ""])
        #expect(rows[3] == ["old", "Old (in the trash)", "0", ""])
        #expect(
            ListCommand.table(header: ["ID", "NAME", "STROKES", "PEOPLE"], rows: [rows[2]])
                == "ID     NAME   STROKES  PEOPLE\nempty  Empty  0")
        // With no instance running nobody's whereabouts are known.
        let unknown = ListCommand.rows(documents, known: .init(instances: 0, people: []))
        #expect(unknown.map(\.last) == ["?", "?", "?", "?"])
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct ListPeopleEndToEndTests {
    func list(_ app: AppInstance) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_STORE"] = nil
        return try runProcess(
            AppInstance.binary, ["list", "--store", app.store.path], environment: environment)
    }

    /// `list` says who is on each drawing while instances run: this store's own user and the
    /// peer it sees, on the drawing each has open; with none running, `?` (not known).
    @Test func listShowsWhoIsOnEachDrawingWhileInstancesRun() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let ana = try AppInstance(runtimeDirectory: runtime.path, extraArguments: ["--name", "ana"])
        try ana.waitUntilReady()
        let bob = try AppInstance(runtimeDirectory: runtime.path, extraArguments: ["--name", "bob"])
        try bob.waitUntilReady()
        try ana.drag([(4, 3), (12, 3)])
        try bob.createDrawing("sketch")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        var output = ""
        var rows: [[String]] = []
        let expected = [["drawing-1", "drawing-1", "1", "ana"], ["sketch", "sketch", "0", "bob"]]
        repeat {
            let result = try list(ana)
            output = result.standardOutput + result.standardError
            rows = result.standardOutput.split(separator: "\n").map {
                $0.split(separator: " ").map(String.init)
            }
            if expected.allSatisfy(rows.contains) { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while clock.now < deadline
        #expect(rows.first == ["ID", "NAME", "STROKES", "PEOPLE"], "\(output)")
        #expect(expected.allSatisfy(rows.contains), "\(output)")
        #expect(try ana.quit() == 0)
        #expect(try bob.quit() == 0)
        let after = try list(ana).standardOutput.split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(after.dropFirst().map(\.last) == [Optional("?"), "?"], "\(after)")
    }
}
