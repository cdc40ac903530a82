import Foundation
import TestSupport

/// One `drawtogether` running in its own tmux pane, with its own replica directory, driven as a
/// person would: mouse reports and keys in, the screen read back.
final class AppInstance {
    let store: TemporaryDirectory
    let tmux: TmuxSession
    let runtimeDirectory: String
    let statusFile: String
    let jobControlShell: Bool
    static let binary = BuiltProducts.executable("drawtogether")

    /// Starts `drawtogether open DRAWING` (`open` alone when `drawing` is nil) with its own store; instances given the same
    /// `runtimeDirectory` find each other by local discovery.
    /// With `jobControlShell`, the pane runs an interactive bash and the app is typed at its
    /// prompt, so Ctrl-Z stops it as a job and `fg` continues it, as in a user's terminal.
    init(
        drawing: String? = "drawing-1", runtimeDirectory: String,
        sharing sharedStore: TemporaryDirectory? = nil,
        extraArguments: [String] = [], width: Int = 80, height: Int = 24, environment: [String: String] = [:],
        jobControlShell: Bool = false, wrapped: Bool = false
    ) throws {
        store = try sharedStore ?? TemporaryDirectory(prefix: "drawtogether-e2e")
        self.runtimeDirectory = runtimeDirectory
        self.jobControlShell = jobControlShell
        var variables = [
            "XDG_RUNTIME_DIR": runtimeDirectory, "HOME": store.path, "USER": "tester",
            "DRAWTOGETHER_RESOURCES": Self.resources,
            // On a busy machine tmux may write a mouse report's ESC and the rest apart; ncurses
            // waits this long for the rest before it takes the ESC for the Esc key.
            "ESCDELAY": "500",
        ]
        variables.merge(environment) { _, new in new }
        // The shell writes the app's exit status to a file: tmux does not always record it.
        statusFile = store.path + "/exit-status-\(UUID().uuidString.prefix(8))"
        let command =
            [Self.binary, "open"] + (drawing.map { [$0] } ?? []) + ["--store", store.path] + extraArguments
        let recordStatus = "\"$0\" \"$@\"; echo $? > \(statusFile).tmp && mv \(statusFile).tmp \(statusFile)"
        guard jobControlShell else {
            tmux = try TmuxSession(
                ["/bin/sh", "-c", "trap : INT; " + recordStatus] + command,
                width: width, height: height, environment: variables, currentDirectory: store.path)
            return
        }
        tmux = try TmuxSession(
            ["/bin/bash", "--norc", "--noprofile", "-i"], width: width, height: height,
            environment: variables.merging(["PS1": "$ "]) { _, new in new }, currentDirectory: store.path)
        try tmux.waitUntil { screen in screen.contains { $0.hasPrefix("$") } }
        // The app itself is the job, as when a person types the command; or, `wrapped`, a shell
        // script that runs it (and so stops first on Ctrl-Z).
        let job = wrapped ? ["/bin/sh", "-c", "\"$0\" \"$@\"; exit $?"] + command : command
        try tmux.sendLiteral(job.map(Self.shellQuoted).joined(separator: " "))
        try tmux.sendKeys("Enter")
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources").path

    /// Waits for the status bar, which is drawn once the canvas is up (on the alternate screen,
    /// so a command line that mentions `open` does not count).
    func waitUntilReady() throws {
        try tmux.waitUntil { screen in
            try screen.last?.contains("pen") == true && tmux.display("#{alternate_on}") == "1"
        }
    }

    /// A left-button drag through the given screen cells.
    func drag(_ cells: [(Int, Int)]) throws {
        guard let first = cells.first, let last = cells.last else { return }
        try tmux.mousePress(x: first.0, y: first.1)
        for cell in cells.dropFirst() { try tmux.mouseDrag(x: cell.0, y: cell.1) }
        try tmux.mouseRelease(x: last.0, y: last.1)
    }

    /// Creates a drawing through the drawings menu (`o`, `n`, the name, Enter) and waits until
    /// the status bar shows it open.
    func createDrawing(_ name: String) throws {
        try tmux.sendKeys("o")
        try tmux.waitForText("n new")
        try tmux.sendKeys("n")
        try tmux.sendLiteral(name)
        try tmux.sendKeys("Enter")
        try tmux.waitUntil { $0.last?.hasPrefix(" \(name)") == true }
    }

    /// The canvas rows of the screen (without the status bar).
    func canvasRows() throws -> [String] {
        Array(try tmux.capture().dropLast())
    }

    /// Whether the screen shows ink (any block or braille glyph) in the cell.
    func hasInk(x: Int, y: Int, in screen: [String]) -> Bool {
        guard y < screen.count else { return false }
        let row = Array(screen[y].unicodeScalars)
        guard x < row.count else { return false }
        let scalar = row[x]
        return "█▀▄#'.".unicodeScalars.contains(scalar) || (0x2801...0x28FF).contains(scalar.value)
    }

    /// Presses q and waits for the program to end; returns its exit status.
    func quit() throws -> Int32 {
        try tmux.sendKeys("q")
        return try waitForExit()
    }

    /// The app's process as the kernel reports it, with `jobControlShell`: its state (`T` while
    /// stopped) and whether its process group holds the terminal. Found as the pane's shell's
    /// child; nil while there is none.
    func job() throws -> (state: Character, inForeground: Bool)? {
        let shell = try tmux.display("#{pane_pid}")
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc")
        where entry.allSatisfy(\.isNumber) {
            // pid (comm) state ppid pgrp session tty_nr tpgid ...: comm may hold spaces.
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 5, fields[1] == shell, let state = fields[0].first else { continue }
            return (state, fields[2] == fields[5])
        }
        return nil
    }

    func waitForExit() throws -> Int32 {
        if jobControlShell {
            // Back at the prompt: ask the shell for the app's exit status.
            try tmux.waitUntil { screen in
                try screen.last { !$0.isEmpty } == "$" && tmux.display("#{alternate_on}") == "0"
            }
            try tmux.sendLiteral("echo $? > \(Self.shellQuoted(statusFile))")
            try tmux.sendKeys("Enter")
        }
        var status: Int32?
        _ = try tmux.waitUntil { _ in
            status = (try? String(contentsOfFile: statusFile, encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        return status ?? -1
    }

    /// Sends a signal to the app itself (not the shell around it).
    func signal(_ signal: Int32) throws {
        let shell = Int32(try tmux.display("#{pane_pid}")) ?? 0
        let children =
            (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) {
            let name = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("drawtogether") { kill(child, signal) }
        }
    }

    /// Whether exported text has ink anywhere.
    static func hasInk(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            "█▀▄".unicodeScalars.contains($0) || (0x2801...0x28FF).contains($0.value)
        }
    }

    /// `drawtogether export` of this instance's replica (run after it quit, or while it runs).
    func exportText(_ drawing: String = "drawing-1", replica: String? = nil) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_RESOURCES"] = Self.resources
        environment["DRAWTOGETHER_STORE"] = nil
        return try runProcess(
            Self.binary, ["export", drawing, "--format", "text", "--store", replica ?? store.path],
            environment: environment,
            currentDirectory: store.path)
    }
}
