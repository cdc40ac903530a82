import Glibc
import TerminalCanvas

extension Doctor {
    /// What the terminal checks look at, gathered once so the verdicts are a pure function.
    struct TerminalFacts {
        var term: String?
        var entry: TerminfoEntry?
        var noColor: Bool
        /// The variable that sets the character type (`LC_ALL`, `LC_CTYPE` or `LANG`) and its value.
        var localeSetting: (name: String, value: String)?
        /// False when the locale named is not installed (`setlocale` refused it).
        var localeInstalled: Bool
        var codeset: String
        /// Nil when none of standard input, output, error or /dev/tty is a terminal.
        var size: TerminalSize?

        static func gather(environment: [String: String]) -> TerminalFacts {
            let term = environment["TERM"].flatMap { $0.isEmpty ? nil : $0 }
            let setting = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { name in
                environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
            }.first
            let installed = setlocale(LC_ALL, "") != nil
            let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
            return TerminalFacts(
                term: term, entry: term.flatMap(TerminfoEntry.load),
                noColor: !(environment["NO_COLOR"] ?? "").isEmpty, localeSetting: setting,
                localeInstalled: installed, codeset: codeset, size: currentSize())
        }

        /// The window size of the first of standard input, output and error that is a terminal,
        /// else of the controlling terminal.
        private static func currentSize() -> TerminalSize? {
            var window = winsize()
            for descriptor: Int32 in [0, 1, 2] where isatty(descriptor) == 1 {
                if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 {
                    return TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
                }
            }
            let tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
            guard tty >= 0 else { return nil }
            defer { close(tty) }
            guard ioctl(tty, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
            return TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
        }
    }

    static func terminal(_ facts: TerminalFacts) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let suggestion = "a terminal type such as xterm-256color"
        guard let term = facts.term else {
            findings.append(
                .problem(
                    .terminal,
                    "TERM is not set, so the canvas cannot start; run in a terminal, or set TERM to \(suggestion)"
                ))
            return findings + [locale(facts), size(facts)]
        }
        guard let entry = facts.entry else {
            findings.append(
                .problem(
                    .terminal,
                    "TERM=\(term) has no terminfo entry, so the canvas cannot start; install it (apt-get install ncurses-term) or set TERM to \(suggestion)"
                ))
            return findings + [locale(facts), size(facts)]
        }
        findings.append(.ok(.terminal, "TERM=\(term) has a terminfo entry"))
        if facts.noColor {
            findings.append(
                .note(.terminal, "colours are off because NO_COLOR is set; unset it to draw in colour"))
        } else if entry.colours < 8 {
            findings.append(
                .problem(
                    .terminal,
                    "TERM=\(term) has \(entry.colours == 0 ? "no" : String(entry.colours)) colours, so every stroke shows in one colour; set TERM to \(suggestion) if your terminal has colours"
                ))
        } else {
            findings.append(.ok(.terminal, "\(entry.colours) colours"))
        }
        findings.append(locale(facts))
        if entry.reportsMouse {
            findings.append(
                .ok(.terminal, "the mouse is reported (kmous in terminfo); drags are tracked with mode 1002"))
        } else {
            findings.append(
                .problem(
                    .terminal,
                    "TERM=\(term) does not report the mouse (no kmous in terminfo), so only the keyboard draws (arrows, space); set TERM to \(suggestion) if your terminal has a mouse"
                ))
        }
        findings.append(size(facts))
        return findings
    }

    private static func locale(_ facts: TerminalFacts) -> DoctorFinding {
        let named = facts.localeSetting.map { "\($0.name)=\($0.value)" } ?? "no LC_ALL, LC_CTYPE or LANG"
        let fix = "set LANG=C.UTF-8 (or another UTF-8 locale: locale -a lists them)"
        guard facts.localeInstalled else {
            return .problem(
                .terminal, "the locale \(named) is not installed, so the canvas draws with ASCII; \(fix)")
        }
        guard facts.codeset.uppercased() == "UTF-8" else {
            return .problem(
                .terminal,
                "the locale (\(named)) is not UTF-8 but \(facts.codeset), so the canvas draws with ASCII instead of blocks and braille; \(fix)"
            )
        }
        return .ok(.terminal, "UTF-8 locale (\(named))")
    }

    private static func size(_ facts: TerminalFacts) -> DoctorFinding {
        let minimum = "\(TooSmallView.minimumWidth)x\(TooSmallView.minimumHeight)"
        guard let size = facts.size else {
            return .problem(
                .terminal,
                "not run in a terminal, so its size is unknown; run doctor in the terminal you draw in")
        }
        let text = "\(size.width)x\(size.height)"
        guard !TooSmallView.isTooSmall(width: size.width, height: size.height) else {
            return .problem(
                .terminal,
                "the terminal is \(text), smaller than the \(minimum) the canvas needs; make the window larger"
            )
        }
        return .ok(.terminal, "size \(text) (the canvas needs at least \(minimum))")
    }
}
