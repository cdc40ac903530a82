/// TerminalCanvas: input decoding, tools, the cell renderer and the ncurses screen.
public enum TerminalCanvas {}
