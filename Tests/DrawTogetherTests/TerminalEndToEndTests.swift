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

    @Test func theHelpOverlayListsEveryKey() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.tmux.sendKeys("?")
        // Every key's line shows (the screen may arrive in pieces, so wait for all of them).
        try app.tmux.waitUntil { screen in
            let text = screen.joined(separator: "\n")
            return ["mask eraser", "undo", "redo", "quit", "braille", "drawings"].allSatisfy { text.contains($0) }
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
}
