import Foundation
import TestSupport
import Testing

/// The marker in a real terminal: `m` selects it, a drag highlights, the pen's ink stays on top,
/// and the highlight is saved and exported.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct MarkerEndToEndTests {
    static let shade: Unicode.Scalar = "\u{2591}"

    static func scalar(x: Int, y: Int, in screen: [String]) -> Unicode.Scalar? {
        guard y < screen.count else { return nil }
        let row = Array(screen[y].unicodeScalars)
        return x < row.count ? row[x] : nil
    }

    @Test func mSelectsTheMarkerWhichHighlightsUnderThePenAndIsExported() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let app = try AppInstance(runtimeDirectory: runtime.path)
        try app.waitUntilReady()
        try app.drag([(5, 3), (20, 3)])
        try app.tmux.waitUntil { screen in app.hasInk(x: 12, y: 3, in: screen) }

        try app.tmux.sendKeys("m")
        try app.tmux.waitUntil { screen in screen.last?.contains("marker") == true }
        try app.drag([(10, 3), (20, 3), (30, 3)])
        // The cursor stays where the button came up, on (30, 3), and shows `+` there.
        let screen = try app.tmux.waitUntil { screen in
            (21...29).allSatisfy { Self.scalar(x: $0, y: 3, in: screen) == Self.shade }
                && Self.scalar(x: 30, y: 3, in: screen) == "+"
        }
        // Where the pen's line is, its ink shows, not the highlight drawn after it.
        #expect((10...20).allSatisfy { app.hasInk(x: $0, y: 3, in: screen) })
        #expect(Self.scalar(x: 31, y: 3, in: screen) != Self.shade)

        let status = try app.quit()
        let after = try app.tmux.capture().joined(separator: "\n")
        #expect(status == 0, "screen: \(after)")
        let export = try app.exportText()
        #expect(export.status == 0)
        let rows = export.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count > 3)
        let row = rows.count > 3 ? Array(rows[3].unicodeScalars) : []
        #expect(row.count == 31)
        #expect(
            row.suffix(10).allSatisfy { $0 == Self.shade }, "row 3: \(String(String.UnicodeScalarView(row)))")
        #expect(AppInstance.hasInk(String(String.UnicodeScalarView(row.prefix(21)))))
    }
}
