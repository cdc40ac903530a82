import Foundation
import StrokeKit
import TestSupport
import Testing

/// A drawing named with emoji and CJK characters, in a real terminal (tmux): the characters take
/// two columns there, and the app must lay out and erase them the same way.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct WideNameEndToEndTests {
    /// The terminal column where each row's last frame edge (`│`) ends, for rows that have one.
    private func rightEdges(_ rows: [String]) -> Set<Int> {
        Set(rows.compactMap { row in row.lastIndex(of: "│").map { row[...$0].terminalColumns } })
    }

    @Test func theMenuFramesAWideNameAndLeavesNothingBehindWhenClosed() throws {
        let name = "☕ 設計図 plan"
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.createDrawing(name)
        // The status bar keeps the space between the name and the separator.
        try app.tmux.waitUntil { $0.last?.hasPrefix(" \(name) │ pen") == true }
        let canvasBefore = try app.canvasRows()

        try app.tmux.sendKeys("o")
        let menu = try app.tmux.waitUntil { screen in
            screen.contains { $0.contains("> \(name) *") } && screen.contains { $0.contains("Esc close") }
        }
        let box = menu.dropLast().filter { $0.contains("│") }
        #expect(box.count >= 4, "\(menu.joined(separator: "\n"))")
        #expect(rightEdges(box).count == 1, "\(menu.joined(separator: "\n"))")
        let corners = menu.filter { $0.contains("┐") || $0.contains("┘") }.map(\.terminalColumns)
        #expect(Set(corners) == rightEdges(box), "\(menu.joined(separator: "\n"))")

        // The rename prompt grows the box with the name; its frame stays straight too.
        try app.tmux.sendKeys("r")
        try app.tmux.sendLiteral(" ノート")
        let prompt = try app.tmux.waitForText("rename to: \(name) ノート_")
        #expect(
            rightEdges(prompt.dropLast().filter { $0.contains("│") }).count == 1,
            "\(prompt.joined(separator: "\n"))")
        try app.tmux.sendKeys("Escape")
        try app.tmux.waitForText("Esc close")

        try app.tmux.sendKeys("Escape")
        let after = try app.tmux.waitUntil { screen in !screen.contains { $0.contains("drawings") } }
        // Only the keyboard cursor is left on the canvas, where it was before the menu opened.
        #expect(Array(after.dropLast()) == canvasBefore, "\(after.joined(separator: "\n"))")
        // (Above the status bar: the first-screen hint, as before the menu opened.)
        #expect(after.dropLast(2).joined().filter { $0 != " " } == "+", "\(after.joined(separator: "\n"))")
        #expect(try app.quit() == 0)
    }
}
