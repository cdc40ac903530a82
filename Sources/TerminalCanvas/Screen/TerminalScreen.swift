@preconcurrency import CNcurses
import StrokeKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Curses is one screen per process; this flag refuses a second `TerminalScreen` while one is up.
private let screenIsActive = Mutex(false)

/// The ncurses adapter: owns the terminal while the app runs, draws `CellGrid`s onto it, reads
/// raw input, and gives the terminal back as it found it.
///
/// Every curses call of the app lives in this type (and its extensions). It is driven from the
/// app's one event loop: input is read without blocking, because the loop itself waits on
/// `inputDescriptor` with `poll`.
public final class TerminalScreen {
    /// Which mouse motion the terminal reports besides presses and releases.
    public enum MouseTracking: Equatable, Sendable {
        /// Motion while a button is held (`ESC[?1002h`): drags, the least traffic.
        case drag
        /// Every motion (`ESC[?1003h`): hover too, for showing the cursor to peers.
        case anyMotion

        var mode: Int { self == .drag ? 1002 : 1003 }
    }

    /// How to start the screen; the defaults are the process's own terminal.
    public struct Options: Sendable {
        public var mouseTracking: MouseTracking
        /// The terminfo type; nil reads `TERM` from `environment`.
        public var terminalType: String?
        public var environment: [String: String]
        public var inputDescriptor: Int32
        public var outputDescriptor: Int32

        public init(
            mouseTracking: MouseTracking = .drag, terminalType: String? = nil,
            environment: [String: String] = processEnvironment,
            inputDescriptor: Int32 = STDIN_FILENO, outputDescriptor: Int32 = STDOUT_FILENO
        ) {
            self.mouseTracking = mouseTracking
            self.terminalType = terminalType
            self.environment = environment
            self.inputDescriptor = inputDescriptor
            self.outputDescriptor = outputDescriptor
        }

        /// The process's environment as `environ` holds it (the default `environment`).
        public static var processEnvironment: [String: String] {
            var variables: [String: String] = [:]
            var entry = environ
            while let pointer = entry.pointee {
                let text = String(cString: pointer)
                if let equals = text.firstIndex(of: "=") {
                    variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
                }
                entry += 1
            }
            return variables
        }
    }

    /// The locale's character set is UTF-8: block, braille and box glyphs can be shown. When
    /// false the caller should draw with ASCII glyphs.
    public let supportsUnicode: Bool
    public let colorSupport: ColorSupport
    /// The system colour (0–15) each palette colour is shown in on a 16- or 8-colour terminal,
    /// so the pens stay distinct there (see `ColorSupport.shown`). Setting it repaints.
    public var colourReductions: [UInt8: UInt8] = [:] {
        didSet { previousFrame = nil }
    }
    public let mouseTracking: MouseTracking
    /// The descriptor to wait on for input (readable: call `readInputs()`).
    public let inputDescriptor: Int32
    public internal(set) var size: TerminalSize

    let outputDescriptor: Int32
    let screen: OpaquePointer
    let inputFile: UnsafeMutablePointer<FILE>
    let outputFile: UnsafeMutablePointer<FILE>
    var isActive = true
    var isSuspended = false
    /// The frame on the terminal, to send only the cells that changed; nil forces a full paint.
    var previousFrame: CellGrid?
    var colorPairs: [ColorPairKey: Int16] = [:]
    var nextColorPair: Int16 = 1
    let defaultColorsWork: Bool

    struct ColorPairKey: Hashable {
        var foreground: Int16?
        var background: Int16?
    }

    /// Takes over the terminal. Throws before touching curses when the descriptors are not a
    /// terminal, and instead of exiting (as `initscr` would) when the terminal type is unknown.
    public init(options: Options = Options()) throws(TerminalScreenError) {
        for descriptor in [options.inputDescriptor, options.outputDescriptor] where isatty(descriptor) == 0 {
            throw .notATerminal(descriptor: descriptor)
        }
        let claimed = screenIsActive.withLock { active in
            defer { active = true }
            return !active
        }
        guard claimed else { throw .alreadyActive }
        var succeeded = false
        defer { if !succeeded { screenIsActive.withLock { $0 = false } } }

        let type = options.terminalType ?? options.environment["TERM"] ?? ""
        guard !type.isEmpty else { throw .unknownTerminal(type: "(TERM is not set)") }
        // Duplicates, so closing curses' FILE streams never closes the caller's descriptors.
        let input = try Self.openStream(duplicating: options.inputDescriptor, mode: "r")
        let output: UnsafeMutablePointer<FILE>
        do {
            output = try Self.openStream(duplicating: options.outputDescriptor, mode: "w")
        } catch {
            fclose(input)
            throw error
        }

        var originalModes = termios()
        let haveOriginalModes = tcgetattr(options.outputDescriptor, &originalModes) == 0

        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        supportsUnicode = codeset.uppercased().filter { $0 != "-" } == "UTF8"

        // A lone Esc is a command key: do not wait ncurses' default second for more. `ESCDELAY`
        // in the environment (ncurses' own variable) still wins, for a slow link that splits an
        // escape sequence after its ESC.
        cn_set_escdelay(
            Self.escapeDelayMilliseconds(environment: getenv("ESCDELAY").map { String(cString: $0) }))
        guard let screen = newterm(type, output, input) else {
            fclose(input)
            fclose(output)
            throw .unknownTerminal(type: type)
        }
        self.screen = screen
        inputFile = input
        outputFile = output
        inputDescriptor = options.inputDescriptor
        outputDescriptor = options.outputDescriptor
        mouseTracking = options.mouseTracking
        _ = set_term(screen)

        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        nodelay(cn_stdscr(), true)
        _ = curs_set(0)

        let noColor = !(options.environment["NO_COLOR"] ?? "").isEmpty
        if !noColor, has_colors() {
            start_color()
            defaultColorsWork = use_default_colors() == OK
            colorSupport = ColorSupport(colours: Int(cn_colors()))
        } else {
            defaultColorsWork = false
            colorSupport = .none
        }

        var previousMask: mmask_t = 0
        _ = mousemask(cn_all_mouse_events() | cn_report_mouse_position(), &previousMask)
        _ = mouseinterval(0)
        size = TerminalSize(width: Int(getmaxx(cn_stdscr())), height: Int(getmaxy(cn_stdscr())))
        // refresh() flushes what mousemask queued (the terminfo mouse mode) before ours follows it.
        refresh()
        writeDirectly("\u{1B}[?\(mouseTracking.mode)h")
        if haveOriginalModes {
            TerminationSignals.armLastResortRestore(
                descriptor: options.outputDescriptor, modes: originalModes)
        }
        succeeded = true
    }

    deinit {
        restore()
    }

    /// Gives the terminal back: mouse tracking off, curses ended, modes as before. Safe to call
    /// more than once and from every exit path.
    public func restore() {
        guard isActive else { return }
        isActive = false
        if !isSuspended {
            writeDirectly("\u{1B}[?\(mouseTracking.mode)l")
            endwin()
        }
        delscreen(screen)
        fclose(inputFile)
        fclose(outputFile)
        TerminationSignals.disarmLastResortRestore()
        screenIsActive.withLock { $0 = false }
    }

    /// Gives the terminal to the shell for a while (Ctrl-Z): mouse tracking off, curses' modes
    /// undone, the normal screen back. `resume()` takes it over again.
    public func suspend() {
        guard isActive, !isSuspended else { return }
        isSuspended = true
        writeDirectly("\u{1B}[?\(mouseTracking.mode)l")
        endwin()
    }

    /// Takes the terminal back after `suspend()` and repaints all of it at the next `draw`.
    /// Returns true when the terminal changed size meanwhile (the resize signal went to the
    /// shell, not to a stopped process): the caller lays out again for the new `size`.
    public func resume() -> Bool {
        guard isActive, isSuspended else { return false }
        isSuspended = false
        previousFrame = nil
        var window = winsize()
        var resized = false
        if ioctl(outputDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0,
            Int(window.ws_col) != size.width || Int(window.ws_row) != size.height
        {
            _ = resizeterm(Int32(window.ws_row), Int32(window.ws_col))
            size = TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
            resized = true
        }
        _ = clearok(cn_stdscr(), true)
        refresh()  // the first refresh after endwin puts curses' modes (and its mouse mode) back
        writeDirectly("\u{1B}[?\(mouseTracking.mode)h")
        return resized
    }

    /// Writes bytes straight to the terminal, past curses' buffer (for modes curses does not know).
    func writeDirectly(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(
                    outputDescriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    private static func openStream(duplicating descriptor: Int32, mode: String) throws(TerminalScreenError)
        -> UnsafeMutablePointer<FILE>
    {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw .cannotOpenDescriptor(descriptor, errno: errno) }
        guard let stream = fdopen(copy, mode) else {
            let code = errno
            close(copy)
            throw .cannotOpenDescriptor(descriptor, errno: code)
        }
        return stream
    }
}

extension TerminalScreen {
    /// How long ncurses waits after an ESC for the rest of a sequence: `ESCDELAY` when it is a
    /// whole number of milliseconds up to 10 s, else 25 ms.
    static func escapeDelayMilliseconds(environment value: String?) -> Int32 {
        guard let value, let milliseconds = Int32(value), (0...10_000).contains(milliseconds) else {
            return 25
        }
        return milliseconds
    }
}
