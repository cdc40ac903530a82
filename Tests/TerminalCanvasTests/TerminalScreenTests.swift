import Foundation
import StrokeKit
import Testing

@testable import TerminalCanvas

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real ncurses adapter on a pseudo-terminal. Serialized: curses has one screen per
/// process.
@Suite(.serialized) struct TerminalScreenTests {
    private func options(
        _ terminal: PseudoTerminal, tracking: TerminalScreen.MouseTracking = .drag,
        environment: [String: String] = [:], type: String = "xterm-256color"
    )
        -> TerminalScreen.Options
    {
        TerminalScreen.Options(
            mouseTracking: tracking, terminalType: type, environment: environment,
            inputDescriptor: terminal.follower, outputDescriptor: terminal.follower)
    }

    @Test func standardInputThatIsNotATerminalIsAClearError() throws {
        var descriptors: [Int32] = [-1, -1]
        #expect(pipe(&descriptors) == 0)
        defer { descriptors.forEach { close($0) } }
        let options = TerminalScreen.Options(inputDescriptor: descriptors[0], outputDescriptor: STDOUT_FILENO)
        #expect(throws: TerminalScreenError.notATerminal(descriptor: descriptors[0])) {
            try TerminalScreen(options: options)
        }
        #expect(
            TerminalScreenError.notATerminal(descriptor: 0).description.hasPrefix(
                "standard input is not a terminal"))
    }

    @Test func anUnknownTerminalTypeIsAnErrorAndNotAnExit() throws {
        let terminal = try PseudoTerminal(width: 40, height: 10)
        #expect(throws: TerminalScreenError.unknownTerminal(type: "no-such-terminal")) {
            try TerminalScreen(options: options(terminal, type: "no-such-terminal"))
        }
        // The failed attempt left nothing behind: a real screen starts afterwards.
        let screen = try TerminalScreen(options: options(terminal))
        screen.restore()
    }

    @Test func startingTurnsOnDragTrackingAndRestoringTurnsItOff() throws {
        let terminal = try PseudoTerminal(width: 40, height: 10)
        let screen = try TerminalScreen(options: options(terminal))
        #expect(screen.size == TerminalSize(width: 40, height: 10))
        #expect(terminal.readOutput { $0.contains("\u{1B}[?1002h") })
        #expect(throws: TerminalScreenError.alreadyActive) { try TerminalScreen(options: options(terminal)) }
        screen.restore()
        screen.restore()  // a second restore is harmless
        #expect(terminal.readOutput { $0.contains("\u{1B}[?1002l") })
        #expect(screen.readInputs().isEmpty)
    }

    @Test func hoverTrackingUsesAnyMotionMode() throws {
        let terminal = try PseudoTerminal(width: 30, height: 8)
        let screen = try TerminalScreen(options: options(terminal, tracking: .anyMotion))
        #expect(terminal.readOutput { $0.contains("\u{1B}[?1003h") })
        screen.restore()
        #expect(terminal.readOutput { $0.contains("\u{1B}[?1003l") })
    }

    @Test func keysAndMouseReportsArriveAsRawInputThatDecodes() throws {
        let terminal = try PseudoTerminal(width: 40, height: 10)
        let screen = try TerminalScreen(options: options(terminal))
        defer { screen.restore() }
        terminal.type("p\u{1B}[<0;3;2M\u{1B}[<32;4;2M\u{1B}[<0;4;2m\u{1B}OA\u{1B}[B")
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while events.count < 6, ContinuousClock.now < deadline, terminal.waitForInput() {
            events += decoder.decode(screen.readInputs())
        }
        #expect(
            events == [
                .command(.selectTool(.pen)), .mouse(MouseEvent(.press, x: 2, y: 1)),
                .mouse(MouseEvent(.drag, x: 3, y: 1)), .mouse(MouseEvent(.release, x: 3, y: 1)),
                .command(.move(.up)), .command(.move(.down)),
            ])
    }

    @Test func drawingSendsTheGridAndLaterOnlyWhatChanged() throws {
        let terminal = try PseudoTerminal(width: 20, height: 6)
        let screen = try TerminalScreen(options: options(terminal))
        defer { screen.restore() }
        var grid = CellGrid(width: 20, height: 6)
        grid.put("hello", x: 2, y: 1, foreground: 196)
        screen.draw(grid)
        #expect(terminal.readOutput { $0.contains("hello") })
        terminal.discardOutput()
        grid.put("Y", x: 6, y: 1, foreground: 196)
        screen.draw(grid)
        #expect(terminal.readOutput { $0.contains("Y") })
        #expect(!terminal.output.contains("hell"))
        #expect(screen.colorSupport == .full)
    }

    /// Curses moves two columns for a wide glyph: the continuation cell is never sent, and a
    /// later narrow glyph over the pair is sent with the other half rewritten.
    @Test func aWideGlyphIsSentOnceAndItsContinuationNever() throws {
        let terminal = try PseudoTerminal(width: 20, height: 6)
        let screen = try TerminalScreen(options: options(terminal))
        defer { screen.restore() }
        var grid = CellGrid(width: 20, height: 6)
        grid.put("設計x", x: 2, y: 1)
        screen.draw(grid)
        // Without a UTF-8 locale each wide glyph is a `?` and a blank, still two columns.
        let expected = screen.supportsUnicode ? "設計x" : "? ? x"
        #expect(terminal.readOutput { $0.contains(expected) }, "\(terminal.output.debugDescription)")
        #expect(!terminal.output.unicodeScalars.contains(Cell.continuationGlyph))
        terminal.discardOutput()
        grid.put("ab", x: 3, y: 1)  // over the right half of 設 and the left half of 計
        #expect(grid.rows[1] == "   ab x")
        screen.draw(grid)
        // Both halves of both old glyphs are rewritten: a blank, `ab`, a blank.
        #expect(terminal.readOutput { $0.contains(" ab ") }, "\(terminal.output.debugDescription)")
        #expect(!terminal.output.unicodeScalars.contains(Cell.continuationGlyph))
    }

    @Test func noColorTurnsColoursOff() throws {
        let terminal = try PseudoTerminal(width: 20, height: 6)
        let screen = try TerminalScreen(options: options(terminal, environment: ["NO_COLOR": "1"]))
        defer { screen.restore() }
        #expect(screen.colorSupport == .none)
    }

    @Test func anEightColourTerminalGetsTheReducedPalette() throws {
        let terminal = try PseudoTerminal(width: 20, height: 6)
        let screen = try TerminalScreen(options: options(terminal, type: "xterm"))
        defer { screen.restore() }
        #expect(screen.colorSupport == .eight)
    }
}

/// `ESCDELAY` from the environment, as ncurses reads it, else the app's short default.
struct EscapeDelayTests {
    @Test func aWholeNumberOfMillisecondsIsTakenAndAnythingElseGivesTheDefault() {
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: nil) == 25)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "500") == 500)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "0") == 0)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "") == 25)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "fast") == 25)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "-1") == 25)
        #expect(TerminalScreen.escapeDelayMilliseconds(environment: "10001") == 25)
    }
}
