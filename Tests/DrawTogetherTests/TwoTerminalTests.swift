import Foundation
import TestSupport
import Testing

/// Two instances on one machine, each with its own replica, finding each other by local
/// discovery and syncing live, driven in two tmux panes as two people would.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TwoTerminalTests {
    /// Starts A and B on the same store root, so B takes the next free replica slot.
    func startPair() throws -> (AppInstance, AppInstance, TemporaryDirectory) {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store)
        try b.waitUntilReady()
        // Both show the other online before anyone draws.
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        return (a, b, runtime)
    }

    @Test func aDragInOneTerminalAppearsInTheOtherAndAnEraseCutsItInBoth() throws {
        let (a, b, _) = try startPair()
        // A draws a horizontal line on row 3 from column 4 to 30.
        try a.drag([(4, 3), (12, 3), (20, 3), (30, 3)])
        let line = [4, 10, 17, 24, 30]
        try b.tmux.waitUntil { screen in line.allSatisfy { b.hasInk(x: $0, y: 3, in: screen) } }
        // The screen also shows A's stroke while it is still in progress (presence); erasing needs
        // it committed, so wait until B's replica holds it, as a person would see it stay.
        try b.tmux.waitUntil { _ in
            AppInstance.hasInk(try b.exportText(replica: a.store.path + "/default/replica-2").standardOutput)
        }

        // B picks the mask eraser and sweeps down through column 17.
        try b.tmux.sendKeys("e")
        try b.tmux.waitUntil { $0.last?.contains("mask") == true }
        try b.drag([(17, 1), (17, 3), (17, 5)])
        for app in [a, b] {
            do {
                try app.tmux.waitUntil { screen in
                    !app.hasInk(x: 17, y: 3, in: screen) && app.hasInk(x: 10, y: 3, in: screen)
                        && app.hasInk(x: 24, y: 3, in: screen)
                }
            } catch {
                let other = try (app === a ? b : a).tmux.capture().joined(separator: "\n")
                Issue.record("\(error)\nthe other terminal:\n\(other)")
                throw error
            }
        }

        // Quitting both restores both terminals, and the two replicas export the same drawing.
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
        for app in [a, b] {
            #expect(try app.tmux.display("#{alternate_on} #{mouse_button_flag} #{mouse_any_flag}") == "0 0 0")
        }
        let first = try a.exportText(replica: a.store.path + "/default/replica-1")
        let second = try b.exportText(replica: a.store.path + "/default/replica-2")
        #expect(first.status == 0 && second.status == 0)
        #expect(first.standardOutput == second.standardOutput)
        #expect(AppInstance.hasInk(first.standardOutput))
    }

    /// A stroke drawn just before Ctrl-Z reaches the other peer before this one stops, not only
    /// when it comes back with `fg`.
    @Test func aStrokeDrawnJustBeforeCtrlZReachesThePeerWhileSuspended() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path, jobControlShell: true)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try a.drag([(5, 4), (15, 4), (25, 4)])
        // The terminal drops unread input when it sends SIGTSTP: Ctrl-Z once the line shows.
        try a.tmux.waitUntil { screen in [5, 15, 25].allSatisfy { a.hasInk(x: $0, y: 4, in: screen) } }
        try a.tmux.sendKeys("C-z")  // most likely inside the 100 ms debounce: the suspend saves and sends it
        // The job stopped, as the kernel says (the shell's "Stopped" line can land on the
        // alternate screen and go with it); what it was doing if it did not.
        do {
            try a.tmux.waitUntil { _ in try a.job()?.state == "T" }
        } catch {
            Issue.record("Ctrl-Z did not stop the app: \(String(describing: try? a.job()))")
            throw error
        }
        try b.tmux.waitUntil { _ in
            AppInstance.hasInk(try b.exportText(replica: a.store.path + "/default/replica-2").standardOutput)
        }
        try a.tmux.sendLiteral("fg")
        try a.tmux.sendKeys("Enter")
        try a.waitUntilReady()
        #expect(try b.quit() == 0)
        #expect(try a.quit() == 0)
    }

    @Test func aKeyboardStrokeAppearsInTheOtherTerminal() throws {
        let (a, b, _) = try startPair()
        // B's cursor starts mid-screen (40, 11): pen down, four steps up, pen up.
        try b.tmux.sendKeys("Space")
        for _ in 0..<4 { try b.tmux.sendKeys("k") }
        try b.tmux.sendKeys("Space")
        try a.tmux.waitUntil { screen in (7...11).allSatisfy { a.hasInk(x: 40, y: $0, in: screen) } }
        #expect(try b.quit() == 0)
        #expect(try a.quit() == 0)
    }

    @Test func theOtherPeersCursorShowsWithItsName() throws {
        let (a, b, _) = try startPair()
        try b.tmux.mouseMove(x: 20, y: 6)
        let screen = try a.tmux.waitUntil { screen in screen.count > 6 && screen[6].contains("test-") }
        #expect(screen[6].contains("test-"))
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    /// The canvas rows, without the message line and the status bar (where "<name> joined" and
    /// "<name> left" appear).
    private func canvasShowsNameTag(_ screen: [String]) -> Bool {
        screen.dropLast(2).contains { $0.contains("test-") }
    }

    @Test func whenOnePeerQuitsTheOtherSaysItLeftAndIsAloneWithoutAnError() throws {
        let (a, b, _) = try startPair()
        #expect(try b.quit() == 0)
        // The status bar changes in the same turn as the disconnection a refusal would come
        // from, so once it reads "no peers │ alone" no error can follow. Alone, not offline:
        // nothing configured is out of reach.
        let screen = try a.tmux.waitUntil { screen in
            let bar = screen.last ?? ""
            return bar.contains("no peers") && bar.contains("alone")
        }
        #expect(screen.last?.contains("error") == false, "\(screen.last ?? "")")
        #expect(screen.dropLast().last?.contains("left") == true, "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("closed the connection"))
        #expect(try a.quit() == 0)
    }

    /// A drawing renamed on one peer shows its new name on the other's status bar, and one
    /// deleted there while the other has it open says so instead of silently emptying.
    @Test func aRenameOrDeleteOnOnePeerShowsOnTheOther() throws {
        let (a, b, _) = try startPair()
        // B creates "sketches" (and is on it); A opens it from its own menu once it synced.
        try b.createDrawing("sketches")
        try a.tmux.sendKeys("o")
        try a.tmux.waitUntil { screen in screen.contains { $0.contains("sketches") } }
        try a.tmux.sendKeys("Down", "Enter")
        try a.tmux.waitUntil { $0.last?.hasPrefix(" sketches") == true }
        // B goes back to drawing-1, then renames "sketches" from its menu.
        try b.tmux.sendKeys("o")
        try b.tmux.waitForText("n new")
        try b.tmux.sendKeys("Up", "Enter")
        try b.tmux.waitUntil { $0.last?.hasPrefix(" drawing-1") == true }
        try b.tmux.sendKeys("o")
        try b.tmux.waitForText("n new")
        try b.tmux.sendKeys("Down", "r")
        try b.tmux.sendLiteral(" v2")
        try b.tmux.sendKeys("Enter")
        try a.tmux.waitUntil { $0.last?.hasPrefix(" sketches v2") == true }
        // B deletes it (still selected in its menu) and confirms.
        try b.tmux.sendKeys("d")
        try b.tmux.waitForText("for everyone? y / n")
        try b.tmux.sendKeys("y")
        try a.tmux.waitUntil { screen in
            screen.last?.contains("(deleted)") == true
                && screen.joined().contains("was moved to the trash on another peer")
        }
        // A draws on it anyway: the drawing comes out of the trash, under its name, in B's menu too.
        try a.drag([(5, 5), (15, 5)])
        try a.tmux.waitUntil { screen in
            screen.last?.hasPrefix(" sketches v2 ") == true && screen.last?.contains("deleted") == false
        }
        try b.tmux.waitForText("sketches v2")
        #expect(try a.quit() == 0)
        // B's menu is still open: q there closes the menu, a second q quits.
        try b.tmux.sendKeys("q")
        try b.tmux.waitUntil { screen in !screen.joined().contains("n new") }
        #expect(try b.quit() == 0)
    }

    @Test func aPeerOnAnotherDrawingIsOnlineButNotOnTheCanvas() throws {
        let (a, b, _) = try startPair()
        try b.tmux.mouseMove(x: 20, y: 6)
        try a.tmux.waitUntil { canvasShowsNameTag($0) }
        // B opens a new drawing: its cursor leaves A's canvas at once (not after A's 30 s
        // presence timeout), while A still counts B online, as elsewhere.
        try b.createDrawing("sketches")
        try a.tmux.waitUntil(timeout: .seconds(10)) { screen in
            let bar = screen.last ?? ""
            return !canvasShowsNameTag(screen)
                && (bar.contains("0 peers here, 1 elsewhere") || bar.contains("0+1 peers"))
        }
        // B goes back to drawing-1 through the menu, without moving its pointer: switching
        // publishes its presence, so A shows its cursor again.
        try b.tmux.sendKeys("o")
        try b.tmux.waitForText("n new")
        try b.tmux.sendKeys("Up", "Enter")
        try b.tmux.waitUntil { $0.last?.hasPrefix(" drawing-1") == true }
        try a.tmux.waitUntil(timeout: .seconds(10)) { canvasShowsNameTag($0) }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }
}
