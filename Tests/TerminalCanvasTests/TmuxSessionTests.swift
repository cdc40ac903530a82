import Foundation
import TestSupport
import Testing

/// Exercises the tmux harness against shell commands (the app's own end-to-end tests come
/// once the executable has a canvas). Skipped where tmux is missing; CI installs it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TmuxSessionTests {
    /// Shows every byte typed, control characters as `^[`, after printing `ready`.
    private static let byteEcho = ["sh", "-c", "stty -echo -icanon; echo ready; exec cat -v"]

    @Test func typedTextReachesTheProgramAndItsOutputIsCaptured() throws {
        let session = try TmuxSession(["sh", "-c", "echo ready; exec cat"], width: 40, height: 6)
        try session.waitForText("ready")
        try session.sendLiteral("hello tmux")
        try session.sendKeys("Enter")
        // The terminal echoes the line, then cat prints it back.
        let screen = try session.waitUntil { $0.filter { $0 == "hello tmux" }.count == 2 }
        #expect(screen.count == 6)
    }

    @Test func mouseHelpersSendOneBasedSGRReports() throws {
        let session = try TmuxSession(Self.byteEcho, width: 60, height: 5)
        try session.waitForText("ready")
        try session.mousePress(x: 9, y: 4)
        try session.mouseDrag(x: 10, y: 4)
        try session.mouseRelease(x: 10, y: 4)
        try session.mouseMove(x: 0, y: 0)
        try session.waitForText("^[[<0;10;5M^[[<32;11;5M^[[<0;11;5m^[[<35;1;1M")
    }

    @Test func theProgramGetsAnXtermTypeAndAUTF8Locale() throws {
        let session = try TmuxSession(
            ["sh", "-c", "echo \"$TERM $LANG $EXTRA\"; exec cat"], environment: ["EXTRA": "it's set"])
        try session.waitForText("xterm-256color C.UTF-8 it's set")
    }

    @Test func theProgramStartsWithNoSignalBlocked() throws {
        // Test threads block SIGINT, SIGTERM and SIGHUP; an app inheriting that could not be stopped.
        let session = try TmuxSession([
            "sh", "-c", "awk '/SigBlk/ { print \"mask=\" $2 }' /proc/self/status; exec cat",
        ])
        try session.waitForText("mask=0000000000000000")
    }

    @Test func aTimeoutReportsTheLastScreen() throws {
        let session = try TmuxSession(["sh", "-c", "echo marker-on-screen; exec cat"], width: 30, height: 4)
        try session.waitForText("marker-on-screen")
        do {
            try session.waitUntil(timeout: .milliseconds(200)) { _ in false }
            Issue.record("waitUntil returned although the condition never held")
        } catch let error as TmuxSessionError {
            #expect(error.description.contains("  0|marker-on-screen"))
        }
    }

    @Test func killingTheSessionStopsItsServer() throws {
        let session = try TmuxSession(["sh", "-c", "echo up; exec cat"], width: 20, height: 3)
        try session.waitForText("up")
        session.kill()
        #expect(throws: TmuxSessionError.self) { try session.capture() }
    }
}
