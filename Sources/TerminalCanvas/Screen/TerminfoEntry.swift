import CNcurses

/// What the terminfo database says about a terminal type, read without starting curses (for
/// `drawtogether doctor`): how many colours it has and whether it reports the mouse.
public struct TerminfoEntry: Equatable, Sendable {
    public let name: String
    /// The `colors` capability; 0 when the entry names none (a monochrome terminal).
    public let colours: Int
    /// Whether the entry has `kmous`, the key ncurses reads mouse reports as. Without it ncurses
    /// never turns mouse reporting on, so only the keyboard draws.
    public let reportsMouse: Bool

    public init(name: String, colours: Int, reportsMouse: Bool) {
        self.name = name
        self.colours = colours
        self.reportsMouse = reportsMouse
    }

    /// The entry for `name`, or nil when the terminfo database has none. It becomes ncurses'
    /// current terminal; the process should not start curses on another terminal afterwards.
    public static func load(_ name: String) -> TerminfoEntry? {
        guard !name.isEmpty, cn_load_terminfo(name) == 1 else { return nil }
        return TerminfoEntry(
            name: name, colours: max(0, Int(tigetnum("colors"))),
            reportsMouse: cn_terminfo_has_string("kmous") == 1)
    }
}
