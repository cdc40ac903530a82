import StrokeKit

/// The text tool's text while it is typed: lines of characters from an origin cell, and a caret.
///
/// It stays the editor's until it ends (Esc, a click elsewhere, another tool), then goes into
/// the drawing as one new group, as a pen stroke does at pen up; meanwhile it is drawn on top and
/// sent as presence. The caret moves within the text: left and right along a line (to the end of
/// the previous or the start of the next line at its ends), up and down to the same column or the
/// end of a shorter line. Only what a cell can show is typed (`StrokeText.isShowable`).
struct TextEntry: Sendable {
    let key: StrokeKey
    let origin: CanvasCell
    let colour: UInt8
    let createdAtMilliseconds: Int64
    /// Never empty: an entry starts with one empty line.
    private(set) var lines: [[Unicode.Scalar]] = [[]]
    /// Where the next character goes: a line, and how many characters of it come before.
    private(set) var caret: (line: Int, index: Int) = (0, 0)

    init(key: StrokeKey, origin: CanvasCell, colour: UInt8, createdAtMilliseconds: Int64) {
        self.key = key
        self.origin = origin
        self.colour = colour
        self.createdAtMilliseconds = createdAtMilliseconds
    }

    /// Types a character at the caret; false when it is nothing a cell can show.
    @discardableResult
    mutating func insert(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars.filter(StrokeText.isShowable)
        guard !scalars.isEmpty else { return false }
        lines[caret.line].insert(contentsOf: scalars, at: caret.index)
        caret.index += scalars.count
        return true
    }

    /// Enter: the rest of the line goes down to a new line below, the caret to its start.
    mutating func newLine() {
        let rest = Array(lines[caret.line][caret.index...])
        lines[caret.line].removeSubrange(caret.index...)
        lines.insert(rest, at: caret.line + 1)
        caret = (caret.line + 1, 0)
    }

    /// Backspace: the character before the caret goes; at the start of a line, the line joins
    /// the one above. False at the very start.
    @discardableResult
    mutating func backspace() -> Bool {
        if caret.index > 0 {
            lines[caret.line].remove(at: caret.index - 1)
            caret.index -= 1
            return true
        }
        guard caret.line > 0 else { return false }
        let line = lines.remove(at: caret.line)
        caret = (caret.line - 1, lines[caret.line - 1].count)
        lines[caret.line] += line
        return true
    }

    /// Moves the caret by one step; false when it is already at that edge of the text.
    @discardableResult
    mutating func moveCaret(dx: Int, dy: Int) -> Bool {
        let before = caret
        if dx < 0 {
            if caret.index > 0 {
                caret.index -= 1
            } else if caret.line > 0 {
                caret = (caret.line - 1, lines[caret.line - 1].count)
            }
        } else if dx > 0 {
            if caret.index < lines[caret.line].count {
                caret.index += 1
            } else if caret.line + 1 < lines.count {
                caret = (caret.line + 1, 0)
            }
        } else if dy != 0 {
            let target = caret.line + (dy < 0 ? -1 : 1)
            guard lines.indices.contains(target) else { return false }
            // The same column where the line is long enough, else its end.
            let column = columns(of: lines[caret.line].prefix(caret.index))
            var index = 0
            while index < lines[target].count, columns(of: lines[target].prefix(index + 1)) <= column {
                index += 1
            }
            caret = (target, index)
        }
        return caret != before
    }

    /// Puts the caret before the character in `cell` (after the last one when the cell is just
    /// past the end of its line); false when the cell is not on the text, which leaves the caret.
    mutating func placeCaret(at cell: CanvasCell) -> Bool {
        let line = cell.y - origin.y
        guard lines.indices.contains(line) else { return false }
        let column = cell.x - origin.x
        guard column >= 0 else { return false }
        var start = 0
        for (index, scalar) in lines[line].enumerated() {
            let end = start + scalar.terminalColumns
            if column < end {
                caret = (line, index)
                return true
            }
            start = end
        }
        guard column == start else { return false }
        caret = (line, lines[line].count)
        return true
    }

    /// The cell the caret is in on the canvas.
    var caretCell: CanvasCell {
        origin.offset(dx: columns(of: lines[caret.line].prefix(caret.index)), dy: caret.line)
    }

    /// The text typed so far as a stroke; nil while it holds nothing.
    var stroke: Stroke? {
        guard let text = StrokeText(lines: lines.map { String(String.UnicodeScalarView($0)) }) else {
            return nil
        }
        return Stroke(
            key: key, text: text, colour: colour,
            origin: CanvasPoint(x: Double(origin.x), y: Double(origin.y)),
            createdAtMilliseconds: createdAtMilliseconds)
    }

    /// The finished text as a group of its own; nil when nothing was typed.
    var group: StrokeGroup? {
        stroke.flatMap { StrokeGroup(key: key, pieces: [$0]) }
    }

    private func columns(of scalars: some Sequence<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + $1.terminalColumns }
    }
}
