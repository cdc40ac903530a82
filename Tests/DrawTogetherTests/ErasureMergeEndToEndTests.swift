import Foundation
import TestSupport
import Testing

/// Two people erase different parts of one stroke while their terminals are apart; after a
/// `sync --once` between them both keep both erasures, on screen and in the export.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct ErasureMergeEndToEndTests {
    static let token = ["DRAWTOGETHER_TOKEN": "a token for the erasure test"]

    /// Each terminal listens on its own port with local discovery off and dials nobody, so the
    /// two only meet through `sync --once`, a third replica that dials both.
    @Test func erasuresMadeApartByTwoTerminalsBothShowAfterSyncOnce() throws {
        let portA = SyncTestSupport.closedPort()
        var portB = SyncTestSupport.closedPort()
        while portB == portA { portB = SyncTestSupport.closedPort() }
        let runtimeA = try TemporaryDirectory(prefix: "drawtogether-run")
        let runtimeB = try TemporaryDirectory(prefix: "drawtogether-run")
        let between = try TemporaryDirectory(prefix: "drawtogether-between")
        let a = try AppInstance(
            runtimeDirectory: runtimeA.path,
            extraArguments: ["--no-discovery", "--listen", "127.0.0.1:\(portA)"],
            environment: Self.token)
        let b = try AppInstance(
            runtimeDirectory: runtimeB.path,
            extraArguments: ["--no-discovery", "--listen", "127.0.0.1:\(portB)"],
            environment: Self.token)
        for app in [a, b] { try app.waitUntilReady() }
        let replicaA = a.store.path + "/default/replica-1"
        let replicaB = b.store.path + "/default/replica-1"
        func syncOnce() throws {
            let result = try runProcess(
                SyncTestSupport.binary,
                [
                    "sync", "--once", "--no-discovery", "--peer", "127.0.0.1:\(portA)", "--peer",
                    "127.0.0.1:\(portB)", "--store", between.path + "/store",
                ],
                environment: SyncTestSupport.environment(home: between, extra: Self.token))
            #expect(result.status == 0, "\(result.standardError)")
        }

        // A draws a line on row 3 from column 4 to 40; once it is stored, sync brings it to B.
        try a.drag([(4, 3), (16, 3), (28, 3), (40, 3)])
        let line = [4, 10, 20, 30, 40]
        try a.tmux.waitUntil { _ in
            let text = try a.exportText(replica: replicaA)
            return line.allSatisfy { Self.exportHasInk(text, x: $0, y: 3) }
        }
        try syncOnce()
        try b.tmux.waitUntil { screen in line.allSatisfy { b.hasInk(x: $0, y: 3, in: screen) } }

        // Apart, A erases through column 10 and B through column 30.
        for (app, column) in [(a, 10), (b, 30)] {
            try app.tmux.sendKeys("e")
            try app.tmux.waitUntil { $0.last?.contains("mask") == true }
            try app.drag([(column, 1), (column, 3), (column, 5)])
        }
        for (app, replica, gap, kept) in [(a, replicaA, 10, 30), (b, replicaB, 30, 10)] {
            try app.tmux.waitUntil { _ in
                let text = try app.exportText(replica: replica)
                return !Self.exportHasInk(text, x: gap, y: 3) && Self.exportHasInk(text, x: kept, y: 3)
            }
        }

        try syncOnce()
        for (app, replica) in [(a, replicaA), (b, replicaB)] {
            do {
                try app.tmux.waitUntil { screen in
                    !app.hasInk(x: 10, y: 3, in: screen) && !app.hasInk(x: 30, y: 3, in: screen)
                        && [4, 20, 40].allSatisfy { app.hasInk(x: $0, y: 3, in: screen) }
                }
                try app.tmux.waitUntil { _ in
                    let text = try app.exportText(replica: replica)
                    return !Self.exportHasInk(text, x: 10, y: 3) && !Self.exportHasInk(text, x: 30, y: 3)
                        && [4, 20, 40].allSatisfy { Self.exportHasInk(text, x: $0, y: 3) }
                }
            } catch {
                let exported = (try? app.exportText(replica: replica).standardOutput) ?? ""
                Issue.record(
                    "\(error)\nexport:\n\(exported)\nscreen:\n\(try app.tmux.capture().joined(separator: "\n"))"
                )
                throw error
            }
        }
        #expect(
            try a.exportText(replica: replicaA).standardOutput
                == b.exportText(replica: replicaB).standardOutput)
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    /// Whether an export's cell (column `x` of row `y`) is inked.
    static func exportHasInk(_ result: ProcessResult, x: Int, y: Int) -> Bool {
        guard result.status == 0 else { return false }
        let rows = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        guard y < rows.count else { return false }
        let row = Array(rows[y].unicodeScalars)
        return x < row.count && AppInstance.hasInk(String(row[x]))
    }
}
