import Foundation
import TestSupport
import Testing

/// Deleting a drawing moves it to the trash for everyone, and the menu puts it back.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TrashEndToEndTests {
    /// B deletes the drawing A has open (asked first); A sees it deleted, its ink still there.
    /// B's `u` in the menu puts it back: A sees it back, and B opens it with A's stroke in it.
    @Test func aDrawingDeletedOnOnePeerComesBackOnTheOtherWhenPutBack() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try a.createDrawing("sketch")
        try a.drag([(4, 4), (12, 4), (20, 4)])
        // The menu reads the counts when it opens: open it until A's stroke has arrived.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while true {
            try b.tmux.sendKeys("o")
            let screen = try b.tmux.waitForText("n new")
            if screen.contains(where: { $0.contains("sketch  (1 stroke") }) { break }
            #expect(clock.now < deadline, "\(screen.joined(separator: "\n"))")
            guard clock.now < deadline else { return }
            try b.tmux.sendKeys("Escape")
            try b.tmux.waitUntil { screen in !screen.joined().contains("n new") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        try b.tmux.sendKeys("Down", "d")
        try b.tmux.waitForText("move 'sketch' to the trash for everyone? y / n")
        try b.tmux.sendKeys("y")
        try b.tmux.waitUntil { screen in
            screen.contains { $0.contains("moved to the trash: u puts it back") }
                && screen.contains { $0.contains("sketch  (in the trash; 1 stroke") }
        }
        try a.tmux.waitUntil { screen in
            screen.last?.contains("(deleted)") == true && a.hasInk(x: 12, y: 4, in: screen)
        }

        try b.tmux.sendKeys("u")
        try b.tmux.waitForText("'sketch' is back")
        try a.tmux.waitUntil { screen in
            screen.last?.hasPrefix(" sketch ") == true && screen.last?.contains("deleted") == false
                && screen.contains { $0.contains("'sketch' is back") }
        }
        // B opens it: A's stroke is there.
        try b.tmux.sendKeys("Enter")
        try b.tmux.waitUntil { screen in
            screen.last?.hasPrefix(" sketch ") == true && b.hasInk(x: 12, y: 4, in: screen)
        }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}
