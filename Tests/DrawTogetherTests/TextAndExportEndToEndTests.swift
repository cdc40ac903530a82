import Foundation
import TestSupport
import Testing

/// The text tool, clear and the in-app export, driven in tmux as a person would.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TextAndExportEndToEndTests {
    func startPair() throws -> (AppInstance, AppInstance, TemporaryDirectory) {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let a = try AppInstance(runtimeDirectory: runtime.path)
        try a.waitUntilReady()
        let b = try AppInstance(runtimeDirectory: runtime.path, sharing: a.store)
        try b.waitUntilReady()
        for app in [a, b] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        return (a, b, runtime)
    }

    @Test func textTypedInOneTerminalShowsInTheOtherWhileTypedAndOnceEnded() throws {
        let (a, b, _) = try startPair()
        try a.tmux.sendKeys("t")
        try a.tmux.waitUntil { $0.last?.contains("text") == true }
        try a.tmux.mousePress(x: 5, y: 2)
        try a.tmux.mouseRelease(x: 5, y: 2)
        // Letters are text now: `e` and `x` pick no eraser, `q` does not quit.
        try a.tmux.sendLiteral("hello qex")
        try a.tmux.waitUntil { $0[2].hasPrefix("     hello qex") }
        // B sees it while A types (presence), before anything is stored.
        try b.tmux.waitUntil { $0[2].hasPrefix("     hello qex") }
        try a.tmux.sendKeys("BSpace", "BSpace", "BSpace", "BSpace", "Enter")
        try a.tmux.sendLiteral("世界")
        try a.tmux.waitUntil { $0[3].hasPrefix("     世界") }
        try b.tmux.waitUntil { $0[2].hasPrefix("     hello") && $0[3].hasPrefix("     世界") }
        // Esc ends the text: it is committed, and B's replica holds it.
        try a.tmux.sendKeys("Escape")
        try b.tmux.waitUntil { _ in
            try b.exportText(replica: a.store.path + "/default/replica-2").standardOutput
                == "\n\n     hello\n     世界\n"
        }
        // A second Esc leaves the text tool; keys are commands again.
        try a.tmux.sendKeys("Escape")
        try a.tmux.waitUntil { $0.last?.contains("pen") == true }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
        let first = try a.exportText(replica: a.store.path + "/default/replica-1")
        #expect(first.standardOutput == "\n\n     hello\n     世界\n")
    }

    @Test func aClearInOneTerminalEmptiesTheOtherAndUndoBringsItBack() throws {
        let (a, b, _) = try startPair()
        try a.drag([(4, 3), (12, 3), (20, 3)])
        try b.tmux.waitUntil { screen in [4, 12, 20].allSatisfy { b.hasInk(x: $0, y: 3, in: screen) } }
        try b.tmux.waitUntil { _ in
            AppInstance.hasInk(try b.exportText(replica: a.store.path + "/default/replica-2").standardOutput)
        }
        try a.tmux.sendKeys("o")
        try a.tmux.waitForText("c clear")
        try a.tmux.sendKeys("c")
        try a.tmux.waitForText("clear every stroke of")
        try a.tmux.sendKeys("y")
        try a.tmux.waitForText("cleared 1 stroke for everyone")
        try b.tmux.waitUntil { screen in ![4, 12, 20].contains { b.hasInk(x: $0, y: 3, in: screen) } }
        try a.tmux.sendKeys("u")
        try b.tmux.waitUntil { screen in [4, 12, 20].allSatisfy { b.hasInk(x: $0, y: 3, in: screen) } }
        #expect(try a.quit() == 0)
        #expect(try b.quit() == 0)
    }

    @Test func exportFromInsideTheAppWritesTheFileAndSaysWhere() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(2, 1), (10, 1)])
        try app.tmux.sendKeys("t")
        try app.tmux.mousePress(x: 2, y: 3)
        try app.tmux.mouseRelease(x: 2, y: 3)
        try app.tmux.sendLiteral("a<b")
        try app.tmux.sendKeys("Escape", "Escape")
        try app.tmux.waitUntil { $0.last?.contains("pen") == true }

        try app.tmux.sendKeys("E")
        try app.tmux.waitForText("export to: drawing-1.svg_")
        try app.tmux.sendKeys("Enter")
        let svgPath = app.store.path + "/drawing-1.svg"
        try app.tmux.waitForText("exported svg to")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(svg.contains(">a&lt;b</text>"))
        #expect(svg.contains("<polyline"))

        // The ending picks the format; text is the same as `drawtogether export --format text`.
        try app.tmux.sendKeys("E")
        try app.tmux.waitForText("export to:")
        try app.tmux.sendKeys("BSpace", "BSpace", "BSpace")
        try app.tmux.sendLiteral("txt")
        try app.tmux.sendKeys("Enter")
        try app.tmux.waitForText("exported text to")
        let text = try String(contentsOfFile: app.store.path + "/drawing-1.txt", encoding: .utf8)
        #expect(text.contains("a<b"))
        // The replica has it once the debounced flush ran (on a loaded machine, after the prompt).
        try app.tmux.waitUntil { _ in
            try app.exportText(replica: app.store.path + "/default/replica-1").standardOutput == text
        }

        // A path that cannot be written says so, and nothing is lost.
        try app.tmux.sendKeys("E")
        try app.tmux.waitForText("export to:")
        for _ in 0..<("drawing-1.svg".count) { try app.tmux.sendKeys("BSpace") }
        try app.tmux.sendLiteral("/nonexistent-dir/x.svg")
        try app.tmux.sendKeys("Enter")
        try app.tmux.waitForText("cannot write")
        #expect(try app.quit() == 0)
    }
}
