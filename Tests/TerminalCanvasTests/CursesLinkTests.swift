import CNcurses
import Testing

@Suite struct CursesLinkTests {
    /// The wide-character ncurses library links (the shim defines _XOPEN_SOURCE_EXTENDED).
    @Test func linksTheWideCharacterLibrary() {
        let version = String(cString: curses_version())
        #expect(version.hasPrefix("ncurses 6"))
    }
}
