import Foundation
import TestSupport
import Testing

/// The app in a real terminal (tmux), driven by mouse reports and keys.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TerminalEndToEndTests {
    @Test func aMouseDragDrawsAndQuitRestoresTheTerminal() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(5, 3), (10, 3), (20, 3), (30, 3)])
        let screen = try app.tmux.waitUntil { screen in
            [5, 12, 19, 27, 30].allSatisfy { app.hasInk(x: $0, y: 3, in: screen) }
        }
        #expect(!app.hasInk(x: 40, y: 3, in: screen))
        let status = try app.quit()
        let after = try app.tmux.capture().joined(separator: "\n")
        #expect(status == 0, "screen: \(after)")
        #expect(try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}") == "0 0 0")
        let export = try app.exportText()
        #expect(export.status == 0)
        let rows = export.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count > 3)
        #expect(rows[3].contains("█") || rows[3].contains("▄") || rows[3].contains("▀"))
    }

    @Test func theKeyboardDrawsWithThePenDown() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        // The cursor starts in the middle of the canvas: (40, 11) on an 80x24 screen.
        try app.tmux.sendKeys("Space")
        for _ in 0..<6 { try app.tmux.sendKeys("l") }
        try app.tmux.sendKeys("Space")
        try app.tmux.waitUntil { screen in (40...45).allSatisfy { app.hasInk(x: $0, y: 11, in: screen) } }
        let status = try app.quit()
        let after = try app.tmux.capture().joined(separator: "\n")
        #expect(status == 0, "screen: \(after)")
        let export = try app.exportText()
        let rows = export.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count >= 12)
        #expect(Array(rows[11].unicodeScalars).count >= 46)
    }

    /// In a terminal shorter than the key list, the help scrolls with the arrow keys (and j k)
    /// down to its last line, and the cursor does not move meanwhile.
    @Test func aHelpTallerThanTheTerminalScrollsToItsLastLine() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, width: 60, height: 12)
        try app.waitUntilReady()
        try app.tmux.sendKeys("?")
        try app.tmux.waitUntil { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("mouse drag") && text.contains("scroll") && !text.contains("quit")
        }
        for _ in 0..<30 { try app.tmux.sendKeys("j") }
        try app.tmux.waitUntil { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("quit") && !text.contains("mouse drag")
        }
        try app.tmux.sendKeys("Up")
        try app.tmux.waitUntil { screen in screen.joined(separator: "\n").contains("↑") }
        try app.tmux.sendKeys("Escape")
        _ = try app.tmux.waitUntil { screen in !screen.joined().contains("scroll") }
        // The keys scrolled the help, not the cursor: a pen stroke starts where it was, mid-screen.
        try app.tmux.sendKeys("Space", "l", "l", "Space")
        try app.tmux.waitUntil { screen in (30...32).allSatisfy { app.hasInk(x: $0, y: 5, in: screen) } }
        #expect(try app.quit() == 0)
    }

    @Test func theHelpOverlayListsEveryKey() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("?")
        // Every key's line shows (the screen may arrive in pieces, so wait for all of them).
        try app.tmux.waitUntil { screen in
            let text = screen.joined(separator: "\n")
            return ["mask eraser", "undo", "redo", "quit", "braille", "drawings"].allSatisfy {
                text.contains($0)
            }
        }
        try app.tmux.sendKeys("Escape")
        _ = try app.tmux.waitUntil { screen in !screen.joined().contains("mask eraser") }
        let status = try app.quit()
        let after = try app.tmux.capture().joined(separator: "\n")
        #expect(status == 0, "screen: \(after)")
    }

    @Test func aTinyTerminalGetsAMessageNotACrash() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, width: 16, height: 5)
        try app.tmux.waitUntil { screen in screen.joined().lowercased().contains("small") }
        try app.tmux.resize(width: 60, height: 12)
        try app.waitUntilReady()
        let status = try app.quit()
        let after = try app.tmux.capture().joined(separator: "\n")
        #expect(status == 0, "screen: \(after)")
    }

    @Test func ctrlCSavesAndRestoresTheTerminal() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(5, 2), (15, 2)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 10, y: 2, in: screen) }
        try app.tmux.sendKeys("C-c")
        _ = try app.waitForExit()
        #expect(try app.tmux.display("#{alternate_on} #{mouse_button_flag}") == "0 0")
        #expect(AppInstance.hasInk(try app.exportText().standardOutput))
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aTerminationSignalSavesAndRestoresTheTerminal(signal: Int32) throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(5, 2), (15, 2)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 10, y: 2, in: screen) }
        try app.signal(signal)
        #expect(try app.waitForExit() == 0)
        #expect(try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}") == "0 0 0")
        #expect(AppInstance.hasInk(try app.exportText().standardOutput))
    }

    @Test func gSwitchesToBrailleAndPanningMovesTheView() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(10, 5), (30, 5)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 20, y: 5, in: screen) }
        try app.tmux.sendKeys("g")
        try app.tmux.waitUntil { screen in
            screen[5].unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }
        }
        // L pans the view right by a quarter screen: the line moves left on screen.
        try app.tmux.sendKeys("L")
        try app.tmux.waitUntil { screen in
            !app.hasInk(x: 30, y: 5, in: screen) && app.hasInk(x: 5, y: 5, in: screen)
        }
        #expect(try app.quit() == 0)
    }

    @Test func theDrawingsMenuCreatesAndOpensANewDrawing() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.createDrawing("sketches")
        try app.drag([(3, 2), (9, 2)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 6, y: 2, in: screen) }
        #expect(try app.quit() == 0)
        #expect(AppInstance.hasInk(try app.exportText("sketches").standardOutput))
        #expect(!AppInstance.hasInk(try app.exportText("drawing-1").standardOutput))
    }

    @Test func aNonUTF8TerminalGetsASCIIGlyphs() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, environment: ["LANG": "C", "LC_ALL": "C"])
        try app.tmux.waitUntil { $0.last?.contains("pen") == true }
        try app.drag([(3, 2), (12, 2)])
        let screen = try app.tmux.waitUntil { screen in screen[2].contains("#") || screen[2].contains(".") }
        #expect(screen.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(try app.quit() == 0)
    }

    @Test func aResizedTerminalRedrawsAtItsNewSize() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.resize(width: 100, height: 30)
        try app.tmux.waitUntil { screen in
            screen.count == 30 && screen[29].contains("pen") && screen[29].contains("alone")
        }
        try app.tmux.resize(width: 40, height: 10)
        try app.tmux.waitUntil { screen in screen.count == 10 && screen[9].contains("pen") }
        #expect(try app.quit() == 0)
    }

    /// Under a wrapper script the shell takes the terminal back as soon as the wrapper stops,
    /// while the app is still giving it up; Ctrl-Z and `fg` must still work, every time.
    @Test func ctrlZAndFgWorkUnderAWrapperScript() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, jobControlShell: true, wrapped: true)
        try app.waitUntilReady()
        for round in 0..<3 {
            try app.tmux.sendKeys("C-z")
            try app.tmux.waitUntil { _ in
                try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}") == "0 0 0"
            }
            try app.tmux.sendLiteral("fg")
            try app.tmux.sendKeys("Enter")
            try app.tmux.waitUntil { screen in
                let modes = try app.tmux.display("#{alternate_on} #{mouse_any_flag}")
                return screen.last?.contains("pen") == true && modes == "1 1"
            }
            // Drawing works after each resume: the app is running, not stopped half way.
            try app.drag([(10, 3 + round * 2), (20, 3 + round * 2)])
            try app.tmux.waitUntil { screen in app.hasInk(x: 15, y: 3 + round * 2, in: screen) }
        }
        #expect(try app.quit() == 0)
    }

    /// Ctrl-Z gives the shell a clean terminal (no alternate screen, no mouse reports) after
    /// saving what was drawn; `fg` brings the canvas back at the terminal's new size, and the
    /// mouse draws again.
    @Test func ctrlZSuspendsToTheShellAndFgResumesDrawing() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path, jobControlShell: true)
        try app.waitUntilReady()
        // Pen down at the cursor (40, 11) and a few steps right; Ctrl-Z while the pen is still
        // down. (Not in one batch: the terminal discards unread input when it sends SIGTSTP.)
        try app.tmux.sendKeys("Space", "l", "l", "l")
        try app.tmux.waitUntil { screen in (40...43).allSatisfy { app.hasInk(x: $0, y: 11, in: screen) } }
        try app.tmux.sendKeys("C-z")
        try app.tmux.waitUntil { screen in
            let modes = try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}")
            return screen.contains { $0.contains("Stopped") } && modes == "0 0 0"
        }
        #expect(AppInstance.hasInk(try app.exportText().standardOutput))

        try app.tmux.resize(width: 100, height: 30)
        try app.tmux.sendLiteral("fg")
        try app.tmux.sendKeys("Enter")
        try app.tmux.waitUntil { screen in
            let modes = try app.tmux.display("#{alternate_on} #{mouse_any_flag}")
            return screen.count == 30 && screen[29].contains("pen") && modes == "1 1"
        }
        try app.drag([(85, 20), (90, 20), (95, 20)])
        try app.tmux.waitUntil { screen in [85, 90, 95].allSatisfy { app.hasInk(x: $0, y: 20, in: screen) } }
        #expect(try app.quit() == 0)
        #expect(try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}") == "0 0 0")
    }
}

@Suite struct NotATerminalTests {
    @Test func openWithoutATerminalSaysSoAndExits() throws {
        let store = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DRAWTOGETHER_RESOURCES"] = AppInstance.resources
        environment["XDG_RUNTIME_DIR"] = store.path
        let result = try runProcess(
            AppInstance.binary, ["open", "--store", store.path, "--no-discovery"], environment: environment,
            currentDirectory: store.path)
        #expect(result.status != 0)
        #expect(result.standardError.contains("terminal"))
    }
}
