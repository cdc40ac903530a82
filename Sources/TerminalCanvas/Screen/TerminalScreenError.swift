/// Why the terminal screen could not start.
public enum TerminalScreenError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is a file or a pipe, not a terminal.
    case notATerminal(descriptor: Int32)
    /// terminfo has no entry for the terminal type (or `TERM` is not set).
    case unknownTerminal(type: String)
    /// A screen is already running in this process; curses has one screen per process.
    case alreadyActive
    /// Duplicating or opening a descriptor for curses failed.
    case cannotOpenDescriptor(Int32, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let descriptor):
            let stream =
                descriptor == 0
                ? "standard input" : descriptor == 1 ? "standard output" : "descriptor \(descriptor)"
            return "\(stream) is not a terminal: the drawing screen needs an interactive terminal "
                + "(for scripts use 'drawtogether export', 'list' or 'sync')"
        case .unknownTerminal(let type):
            return "unknown terminal type '\(type)': set TERM to a type your system knows, "
                + "for example TERM=xterm-256color"
        case .alreadyActive:
            return "a terminal screen is already open in this process"
        case .cannotOpenDescriptor(let descriptor, let code):
            return "cannot open descriptor \(descriptor) for the terminal (errno \(code))"
        }
    }
}
