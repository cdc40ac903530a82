import Foundation
import TestSupport
import Testing

@testable import drawtogether

@Suite struct CursorColourOptionTests {
    @Test func cursorColourIsAnOpenFlagAndAnEnvironmentSetting() throws {
        let parsed = try CommandLineArguments.parse(["open", "--cursor-colour", "blue"])
        #expect(parsed.options.cursorColour == "blue")
        #expect(throws: CommandLineError.self) {
            try CommandLineArguments.parse(["list", "--cursor-colour", "blue"])
        }
        #expect(Configuration.Variable.settings.contains("DRAWTOGETHER_CURSOR_COLOUR"))
    }

    @Test func aPaletteNameIsAColourAutoIsNoneAndAnythingElseIsRefused() throws {
        let palette = try Palette(
            text: String(contentsOfFile: AppInstance.resources + "/palette.txt", encoding: .utf8))
        #expect(try CursorColourChoice.resolve("blue", palette: palette) == 33)
        #expect(try CursorColourChoice.resolve("Magenta", palette: palette) == 164)
        #expect(try CursorColourChoice.resolve("auto", palette: palette) == nil)
        // Default ink is each viewer's own foreground: no colour to tell a cursor by.
        for refused in ["default", "pink", ""] {
            #expect(throws: CursorColourError.self) {
                try CursorColourChoice.resolve(refused, palette: palette)
            }
        }
        let message = UserMessage.message(for: CursorColourError.unknown("pink", choices: ["red", "blue"]))
        #expect(
            message
                == "no cursor colour 'pink'; use one of red, blue or auto (a colour picked from your peer id)"
        )
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct FollowAndCursorColourEndToEndTests {
    static let colours = ["NO_COLOR": ""]

    /// The colour a viewer draws the peer's cursor cell in, once that cell shows the cursor.
    static func cursorColour(on viewer: AppInstance, x: Int, y: Int, being expected: Int? = nil) throws
        -> Int?
    {
        var seen: Int?
        try viewer.tmux.waitUntil { screen in
            guard screen.count > y, screen[y].contains("test-") else { return false }
            let cell = try viewer.tmux.captureStyled()[x, y]
            seen = cell.foreground
            return cell.reverse && seen != nil && (expected == nil || seen == expected)
        }
        return seen
    }

    /// Without a choice a peer's cursor has the colour its peer id picks; `--cursor-colour` makes
    /// it the one chosen on the viewer's screen, and the store keeps it for the next start.
    @Test func aChosenCursorColourShowsOnThePeerAndIsKeptForTheStore() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        var alice = try AppInstance(runtimeDirectory: runtime.path, environment: Self.colours)
        try alice.waitUntilReady()
        let viewer = try AppInstance(runtimeDirectory: runtime.path, environment: Self.colours)
        try viewer.waitUntilReady()
        try alice.tmux.waitUntil { $0.last?.contains("1 peer") == true }
        try alice.tmux.mouseMove(x: 30, y: 9)
        let picked = try #require(try Self.cursorColour(on: viewer, x: 30, y: 9))
        // A palette colour other than the one its id picked.
        let choices: [(String, Int)] = [("blue", 33), ("magenta", 164)]
        let (name, chosen) = try #require(choices.first { $0.1 != picked })
        #expect(try alice.quit() == 0)

        alice = try AppInstance(
            runtimeDirectory: runtime.path, sharing: alice.store, extraArguments: ["--cursor-colour", name],
            environment: Self.colours)
        try alice.waitUntilReady()
        try alice.tmux.waitUntil { $0.last?.contains("1 peer") == true }
        try alice.tmux.mouseMove(x: 30, y: 9)
        #expect(try Self.cursorColour(on: viewer, x: 30, y: 9, being: chosen) == chosen)
        #expect(try alice.quit() == 0)

        // Kept for the store: no flag this time.
        alice = try AppInstance(
            runtimeDirectory: runtime.path, sharing: alice.store, environment: Self.colours)
        try alice.waitUntilReady()
        try alice.tmux.waitUntil { $0.last?.contains("1 peer") == true }
        try alice.tmux.mouseMove(x: 40, y: 7)
        #expect(try Self.cursorColour(on: viewer, x: 40, y: 7, being: chosen) == chosen)
        #expect(try alice.quit() == 0)
        #expect(try viewer.quit() == 0)
    }

    /// `F` follows a peer: when it draws beyond this terminal's edge the view pans after its
    /// cursor (its ink comes into view), the status bar says whom it follows, and Esc stops it.
    @Test func followingAPeerPansTheViewAfterItsCursorUntilEsc() throws {
        let runtime = try TemporaryDirectory(prefix: "drawtogether-run")
        let follower = try AppInstance(runtimeDirectory: runtime.path, width: 120)
        try follower.waitUntilReady()
        let bob = try AppInstance(
            runtimeDirectory: runtime.path, extraArguments: ["--name", "bob"], width: 260)
        try bob.waitUntilReady()
        for app in [follower, bob] { try app.tmux.waitUntil { $0.last?.contains("1 peer") == true } }
        try bob.tmux.mouseMove(x: 20, y: 5)
        try follower.tmux.waitForText("+bob")
        try follower.tmux.sendKeys("F")
        try follower.tmux.waitUntil {
            $0.last?.contains("follow") == true && $0.last?.contains("bob") == true
        }

        // Bob draws from column 130 to 250, all of it right of the follower's 120 columns.
        try bob.drag(stride(from: 130, through: 250, by: 10).map { ($0, 5) })
        // Until the view holds bob's last cursor (column 250) off its outermost cells, it moves on.
        let panned = try follower.tmux.waitUntil { screen in
            screen.count > 5 && (0..<120).contains { follower.hasInk(x: $0, y: 5, in: screen) }
                && screen.last.flatMap(Self.viewOrigin).map { (132...249).contains($0) } == true
        }
        let origin = try #require(panned.last.flatMap(Self.viewOrigin))
        #expect(panned.last?.contains("following bob") == true, "\(panned.last ?? "")")

        try follower.tmux.sendKeys("Escape")
        try follower.tmux.waitUntil { screen in
            screen.last?.contains("bob") == false && screen.contains { $0.contains("stopped following bob") }
        }
        // No longer following: bob moving back to the left edge of his screen leaves the view
        // where it is (an edge arrow with his name points to him).
        try bob.tmux.mouseMove(x: 10, y: 10)
        let after = try follower.tmux.waitUntil { screen in
            screen.count > 10 && screen[10].contains("bob")
        }
        #expect(after.last.flatMap(Self.viewOrigin) == origin)
        #expect(try follower.quit() == 0)
        #expect(try bob.quit() == 0)
    }

    /// The x of `view X,Y` on a status bar.
    static func viewOrigin(_ bar: String) -> Int? {
        guard let range = bar.range(of: #"view \d+"#, options: .regularExpression) else { return nil }
        return Int(bar[range].dropFirst(5))
    }
}
