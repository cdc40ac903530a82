import FoundationEssentials
import Glibc

/// A program running in a private tmux server, for end-to-end tests of terminal front ends:
/// type keys, click and drag with SGR mouse sequences, and read the screen back.
///
/// Each session has its own server socket (`tmux -L`), no user configuration (`-f /dev/null`) and
/// a fixed size; the program runs with `TERM=xterm-256color` (so ncurses expects SGR mouse
/// reports) and a UTF-8 locale. The pane stays on screen after the program exits, so a crash
/// leaves its last screen to look at. The server is killed when the value goes away.
public final class TmuxSession: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// The private server's socket name (`tmux -L <name>`).
    public let serverName: String
    private let target = "main"
    private var isRunning = true

    /// True when a `tmux` executable is on the PATH; tests that need it are skipped otherwise.
    public static var isAvailable: Bool { executablePath != nil }

    private static var executablePath: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts `arguments` (a program and its arguments, not a shell line) in a new session of
    /// `width` x `height` cells, with `environment` added to the program's environment.
    public init(
        _ arguments: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws {
        self.width = width
        self.height = height
        serverName = "drawtogether-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        var variables = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        variables.merge(environment) { _, new in new }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var shellLine = (["env"] + assignments + arguments).map(Self.shellQuoted).joined(separator: " ")
        if let currentDirectory { shellLine = "cd \(Self.shellQuoted(currentDirectory)) && \(shellLine)" }
        try tmux([
            "set-option", "-g", "remain-on-exit", "on", ";",
            "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", shellLine,
        ])
    }

    deinit {
        kill()
    }

    /// Sends keys by tmux name (`Enter`, `Escape`, `Up`, `C-c`, or plain text split by tmux).
    public func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", target] + keys)
    }

    /// Sends text byte for byte, as if pasted into the terminal (escape sequences included).
    public func sendLiteral(_ text: String) throws {
        try tmux(["send-keys", "-t", target, "-l", "--", text])
    }

    /// Left button down at a 0-based cell (the wire format is 1-based).
    public func mousePress(x: Int, y: Int) throws {
        try sendLiteral(Self.sgrMouse(code: 0, x: x, y: y, release: false))
    }

    /// Motion with the left button held.
    public func mouseDrag(x: Int, y: Int) throws {
        try sendLiteral(Self.sgrMouse(code: 32, x: x, y: y, release: false))
    }

    /// Left button up.
    public func mouseRelease(x: Int, y: Int) throws {
        try sendLiteral(Self.sgrMouse(code: 0, x: x, y: y, release: true))
    }

    /// Motion with no button held (only reported to programs that asked for any-motion tracking).
    public func mouseMove(x: Int, y: Int) throws {
        try sendLiteral(Self.sgrMouse(code: 35, x: x, y: y, release: false))
    }

    /// The SGR (mode 1006) report for a button code at a 0-based cell.
    public static func sgrMouse(code: Int, x: Int, y: Int, release: Bool) -> String {
        "\u{1B}[<\(code);\(x + 1);\(y + 1)\(release ? "m" : "M")"
    }

    /// Resizes the window; the program gets SIGWINCH.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The visible screen as text, one string a row, trailing spaces trimmed.
    public func capture() throws -> [String] {
        var rows = try tmux(["capture-pane", "-p", "-t", target]).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// The visible screen with colours and attributes (`capture-pane -e`).
    public func captureStyled() throws -> StyledScreen {
        StyledScreen(capture: try tmux(["capture-pane", "-e", "-p", "-t", target]))
    }

    /// A tmux format about the pane, e.g. `#{mouse_any_flag}` to see which mouse mode the
    /// program turned on.
    public func display(_ format: String) throws -> String {
        var text = try tmux(["display-message", "-p", "-t", target, format])
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    /// Polls the screen every 50 ms until `condition` holds, and returns that screen. Throws
    /// `TmuxSessionError.timedOut` with the last screen seen when the deadline passes first.
    @discardableResult
    public func waitUntil(
        timeout: Duration = .seconds(20), _ condition: ([String]) throws -> Bool
    ) throws -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let screen = try capture()
            if try condition(screen) { return screen }
            guard clock.now < deadline else {
                throw TmuxSessionError.timedOut(after: timeout, screen: screen)
            }
            usleep(50_000)
        }
    }

    /// Waits until some row of the screen contains `text`.
    @discardableResult
    public func waitForText(_ text: String, timeout: Duration = .seconds(20)) throws -> [String] {
        try waitUntil(timeout: timeout) { screen in screen.contains { $0.contains(text) } }
    }

    /// Stops the program and the private server. Called by `deinit`; harmless twice.
    public func kill() {
        guard isRunning else { return }
        isRunning = false
        _ = try? tmux(["kill-server"])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executablePath else { throw TmuxSessionError.tmuxNotInstalled }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil  // a test run inside tmux must not talk to the user's server
        let all = ["-L", serverName, "-f", "/dev/null"] + arguments
        // Spawned with every signal at its default and unblocked (test runner threads block
        // SIGHUP, SIGTERM, SIGCHLD and more: a server with that mask never hears its panes die,
        // ignores `kill-server`, and hands the mask to the program under test), and with no
        // descriptor above 2 (the server outlives this client and would keep a concurrent
        // test's pipe from ever reaching end of file): see `SpawnedProcess`.
        let result = try runProcess(executable, all, environment: environment)
        guard result.status == 0 else {
            throw TmuxSessionError.commandFailed(
                arguments: all, status: result.status, standardError: result.standardError)
        }
        return result.standardOutput
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

/// What went wrong driving tmux; a timeout carries the screen as it last was.
public enum TmuxSessionError: Error, CustomStringConvertible {
    case tmuxNotInstalled
    case commandFailed(arguments: [String], status: Int32, standardError: String)
    case timedOut(after: Duration, screen: [String])

    public var description: String {
        switch self {
        case .tmuxNotInstalled:
            return "tmux is not installed (apt-get install tmux)"
        case .commandFailed(let arguments, let status, let standardError):
            return "tmux \(arguments.joined(separator: " ")) exited with \(status): \(standardError)"
        case .timedOut(let duration, let screen):
            let frame = screen.enumerated().map {
                String(repeating: " ", count: max(0, 3 - String($0.offset).count)) + "\($0.offset)|"
                    + $0.element
            }
            return "the screen did not reach the expected state within \(duration); last screen:\n"
                + frame.joined(separator: "\n")
        }
    }
}
