/// Turns what the terminal sends into `InputEvent`s: key codes into commands, mouse reports into
/// press, drag, release and hover, and SGR mouse sequences that arrive as plain characters.
///
/// Pure: the screen adapter maps ncurses constants to `RawInput`, and this type remembers the
/// rest (whether the left button is held, a half-read escape sequence) between reads.
public struct InputDecoder: Sendable {
    /// How printable keys are read.
    public enum Mode: Equatable, Sendable {
        /// Keys are commands (`p` selects the pen).
        case commands
        /// A prompt takes text: every printable key is a `.character`.
        case text
    }

    public var mode: Mode
    /// True between a left-button press and its release.
    public internal(set) var isButtonHeld = false
    /// Where the mouse was last reported, for closing a stroke whose release was lost.
    var lastMouse: (x: Int, y: Int) = (0, 0)
    /// The middle or right button, while it is held (the right one erases, the middle one picks).
    var heldOtherButton: MouseEvent.Button?
    private var sequence = SequenceState.none

    /// Where an escape sequence stands after the characters read so far.
    private enum SequenceState {
        case none
        /// An ESC alone: a key press of its own, or the start of a sequence.
        case escape
        /// `ESC [` and the parameter bytes since; `overflowed` once it is too long to be real.
        case controlSequence(parameters: [UInt32], overflowed: Bool)
        /// `ESC O`: an application-mode cursor key follows.
        case singleShift
    }

    /// The longest parameter run kept; longer ones are swallowed up to their final byte.
    private static let maximumParameterLength = 32

    public init(mode: Mode = .commands) {
        self.mode = mode
    }

    /// Decodes one read's worth of input (everything drained until `get_wch` had no more).
    ///
    /// An ESC that ends the batch is the Esc key: ncurses already waited `ESCDELAY` for more. A
    /// control sequence cut off at the end of a batch stays pending for the next one.
    public mutating func decode(_ batch: [RawInput]) -> [InputEvent] {
        var events: [InputEvent] = []
        for input in batch { events += decode(input) }
        return events + endOfBatch()
    }

    /// The end of a read: an ESC still pending is the Esc key. With `decode(_:)` for each input
    /// of the read, this decodes a read one input at a time, so the mode can change between two
    /// inputs (a key that picks the text tool, then text) without splitting an escape sequence.
    public mutating func endOfBatch() -> [InputEvent] {
        guard case .escape = sequence else { return [] }
        sequence = .none
        return [.command(.escape)]
    }

    /// One input of a read (see `endOfBatch()`).
    public mutating func decode(_ input: RawInput) -> [InputEvent] {
        switch input {
        case .character(let code):
            return feed(code)
        case .key(let key):
            return abandonSequence() + decode(key)
        case .mouse(let report):
            return abandonSequence() + decode(report)
        }
    }

    /// A key or mouse report interrupting a sequence: an ESC alone was the Esc key, a partial
    /// control sequence is dropped.
    private mutating func abandonSequence() -> [InputEvent] {
        defer { sequence = .none }
        switch sequence {
        case .escape: return [.command(.escape)]
        case .singleShift: return [.command(.escape), .character("O")]
        case .none, .controlSequence: return []
        }
    }

    private mutating func feed(_ code: UInt32) -> [InputEvent] {
        switch sequence {
        case .none:
            if code == 0x1B {
                sequence = .escape
                return []
            }
            return decodeCharacter(code)
        case .escape:
            if code == 0x5B {
                sequence = .controlSequence(parameters: [], overflowed: false)
                return []
            }
            if code == 0x4F {
                sequence = .singleShift
                return []
            }
            sequence = .none
            return [.command(.escape)] + feed(code)
        case .singleShift:
            sequence = .none
            if let direction = Self.cursorKey(code) { return [.command(.move(direction))] }
            if code == 0x48 { return [.command(.viewHome)] }  // ESC O H: Home in application mode
            return [.command(.escape)] + feed(0x4F) + feed(code)  // Esc, then a plain "O"
        case .controlSequence(var parameters, var overflowed):
            switch code {
            case 0x20...0x3F:
                if parameters.count < Self.maximumParameterLength {
                    parameters.append(code)
                } else {
                    overflowed = true
                }
                sequence = .controlSequence(parameters: parameters, overflowed: overflowed)
                return []
            case 0x40...0x7E:
                sequence = .none
                if overflowed { return [] }
                if let report = SGRMouseSequence(parameters: parameters, final: code) {
                    return decode(report)
                }
                // Cursor keys a terminal sends in normal mode when terminfo expected `ESC O`.
                if parameters.allSatisfy({ (0x30...0x3B).contains($0) }), let direction = Self.cursorKey(code)
                {
                    return [.command(.move(direction))]
                }
                if Self.isHomeKey(parameters: parameters, final: code) { return [.command(.viewHome)] }
                if code == 0x7E, parameters == [0x33] { return [.command(.deleteSelection)] }  // ESC [ 3 ~
                return []  // a sequence we do not use, or a malformed one: swallowed whole
            default:
                // Not part of any sequence: drop what was collected and read this one afresh.
                sequence = .none
                return feed(code)
            }
        }
    }

    private static func cursorKey(_ final: UInt32) -> Direction? {
        switch final {
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        default: nil
        }
    }

    /// Home as terminals send it when terminfo did not turn it into a key code: `ESC [ H` (with
    /// modifiers, `ESC [ 1 ; 5 H`), or `ESC [ 1 ~` / `ESC [ 7 ~`.
    private static func isHomeKey(parameters: [UInt32], final: UInt32) -> Bool {
        switch final {
        case 0x48: return parameters.allSatisfy { (0x30...0x3B).contains($0) }
        case 0x7E: return parameters == [0x31] || parameters == [0x37]
        default: return false
        }
    }

    private func decodeCharacter(_ code: UInt32) -> [InputEvent] {
        switch code {
        case 0x0A, 0x0D: return [.enter]
        case 0x08, 0x7F: return [.backspace]
        default: break
        }
        guard code >= 0x20, !(0x80...0x9F).contains(code), let scalar = Unicode.Scalar(code) else {
            return []  // other control characters mean nothing here
        }
        let character = Character(scalar)
        if mode == .commands, let command = Self.command(for: character) {
            return [.command(command)]
        }
        return [.character(character)]
    }

    private static func command(for character: Character) -> KeyCommand? {
        switch character {
        case "h": .move(.left)
        case "j": .move(.down)
        case "k": .move(.up)
        case "l": .move(.right)
        case "H": .pan(.left)
        case "J": .pan(.down)
        case "K": .pan(.up)
        case "L": .pan(.right)
        case " ": .togglePen
        case "p": .selectTool(.pen)
        case "m": .selectTool(.marker)
        case "e": .selectTool(.maskEraser)
        case "x": .selectTool(.strokeEraser)
        case "t": .selectTool(.text)
        case "[": .shrinkBrush
        case "]": .growBrush
        case "u": .undo
        case "r": .redo
        case "?": .toggleHelp
        case "q": .quit
        case "g": .toggleGlyphs
        case "o": .openDrawings
        case "f": .jumpToPeer
        case "F": .followPeer
        case "E": .exportDrawing
        case "0": .viewHome
        case "/": .selectTool(.shape(.line))
        case "b": .selectTool(.shape(.box))
        case "c": .selectTool(.shape(.ellipse))
        case "s": .selectTool(.select)
        case "i": .selectTool(.eyedropper)
        case "C": .openPalette
        case "=": .toggleConstraint
        case "y": .duplicateSelection
        default:
            if let digit = character.wholeNumberValue, (1...9).contains(digit), character.isASCII {
                .selectColor(digit)
            } else {
                nil
            }
        }
    }

    private func decode(_ key: SpecialKey) -> [InputEvent] {
        switch key {
        case .up: [.command(.move(.up))]
        case .down: [.command(.move(.down))]
        case .left: [.command(.move(.left))]
        case .right: [.command(.move(.right))]
        case .enter: [.enter]
        case .backspace: [.backspace]
        case .resize: [.resize]
        case .function(1): [.command(.toggleHelp)]
        case .home: [.command(.viewHome)]
        case .delete: [.command(.deleteSelection)]
        case .end, .pageUp, .pageDown, .function, .other: []
        }
    }
}
