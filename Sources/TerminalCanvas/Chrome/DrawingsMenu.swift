import StrokeKit

/// The drawings overlay (`o`): pick a drawing to open, or create, rename or delete one; deleted
/// drawings are listed last, in the trash, where `u` (or Enter, or a click) puts one back and `d`
/// deletes it for good.
///
/// A small state machine over input events that returns what the app should do; it never touches
/// the replica itself. Text prompts (a new name) take characters until Enter; Esc backs out.
public struct DrawingsMenu: Equatable, Sendable {
    /// One drawing in the list.
    public struct Item: Equatable, Sendable {
        public var id: String
        public var name: String
        /// How many strokes it has; nil when not known.
        public var strokeCount: Int?
        /// The names of the peers on it now.
        public var people: [String] = []
        /// It is in the trash (deleted, not yet for good).
        public var inTrash = false

        public init(
            id: String, name: String, strokeCount: Int? = nil, people: [String] = [], inTrash: Bool = false
        ) {
            self.id = id
            self.name = name
            self.strokeCount = strokeCount
            self.people = people
            self.inTrash = inTrash
        }

        /// What the row says after the name: `12 strokes; ana, bob`.
        var details: String {
            var parts: [String] = inTrash ? ["in the trash"] : []
            if let strokeCount { parts.append(strokeCount == 1 ? "1 stroke" : "\(strokeCount) strokes") }
            if !people.isEmpty { parts.append(people.joined(separator: ", ")) }
            return parts.joined(separator: "; ")
        }
    }

    /// What the user chose.
    public enum Action: Equatable, Sendable {
        case open(id: String)
        case create(name: String)
        case rename(id: String, name: String)
        /// Move it to the trash.
        case delete(id: String)
        /// Take it out of the trash.
        case restore(id: String)
        /// Delete it for good (it is in the trash).
        case deleteForever(id: String)
        /// Removes every stroke of the open drawing, for everyone (confirmed).
        case clear
        case close
    }

    enum Mode: Equatable, Sendable {
        case browsing
        case naming(renaming: String?, text: String)
        case confirmingDelete(id: String)
        case confirmingClear
    }

    public private(set) var items: [Item]
    public private(set) var selection: Int
    private(set) var mode: Mode = .browsing
    /// The drawing open now, marked in the list.
    public var currentID: String
    /// Why the last key did nothing (deleting the open drawing), shown in place of the key hints
    /// until the next key.
    public private(set) var notice: String?
    /// The longest name the prompt takes, in characters.
    public static let nameLimit = 64

    /// The drawings in the list order: those in the trash last.
    public init(items: [Item], currentID: String) {
        self.items = Self.ordered(items)
        self.currentID = currentID
        selection = items.firstIndex { $0.id == currentID } ?? 0
    }

    /// Whether the menu wants raw text (a name prompt): the decoder should be in text mode.
    public var takesText: Bool {
        if case .naming = mode { return true }
        return false
    }

    /// Shows `text` in the notice line until the next key (what an action just did).
    public mutating func say(_ text: String) {
        notice = text
    }

    /// The list changed underneath (a peer created or deleted a drawing): keep the selection on
    /// the same drawing where possible.
    public mutating func update(items newItems: [Item]) {
        let selectedID = items.indices.contains(selection) ? items[selection].id : nil
        items = Self.ordered(newItems)
        selection = items.firstIndex { $0.id == selectedID } ?? min(selection, max(0, items.count - 1))
    }

    /// Drawings in the trash go after the others, each part keeping its order.
    private static func ordered(_ items: [Item]) -> [Item] {
        items.filter { !$0.inTrash } + items.filter(\.inTrash)
    }

    /// Handles one event; returns an action when the user finished choosing.
    public mutating func handle(_ event: InputEvent) -> Action? {
        notice = nil
        switch mode {
        case .browsing: return browse(event)
        case .naming(let renaming, let text): return name(event, renaming: renaming, text: text)
        case .confirmingDelete(let id):
            mode = .browsing
            guard Self.isYes(event) else { return nil }
            let inTrash = items.first { $0.id == id }?.inTrash == true
            return inTrash ? .deleteForever(id: id) : .delete(id: id)
        case .confirmingClear:
            mode = .browsing
            return Self.isYes(event) ? .clear : nil
        }
    }

    /// A yes to a confirmation: `y` (which may arrive as the duplicate command, its canvas meaning).
    private static func isYes(_ event: InputEvent) -> Bool {
        event == .character("y") || event == .character("Y") || event == .command(.duplicateSelection)
    }

    private mutating func browse(_ event: InputEvent) -> Action? {
        switch event {
        case .command(.move(.up)): selection = max(0, selection - 1)
        case .command(.move(.down)): selection = min(max(0, items.count - 1), selection + 1)
        case .enter:
            guard items.indices.contains(selection) else { break }
            let item = items[selection]
            return item.inTrash ? .restore(id: item.id) : .open(id: item.id)
        case .command(.undo), .character("u"):
            // The selected drawing in the trash, else the one deleted last: undo of a delete.
            let selected = items.indices.contains(selection) ? items[selection] : nil
            guard let item = selected?.inTrash == true ? selected : items.first(where: \.inTrash) else {
                notice = "the trash is empty"
                break
            }
            return .restore(id: item.id)
        case .command(.escape), .command(.openDrawings), .command(.quit): return .close
        case .character("n"): mode = .naming(renaming: nil, text: "")
        case .command(.redo), .character("r"):
            if items.indices.contains(selection), !items[selection].inTrash {
                mode = .naming(renaming: items[selection].id, text: items[selection].name)
            }
        case .character("d"):
            guard items.indices.contains(selection) else { break }
            guard items[selection].id != currentID || items[selection].inTrash else {
                notice = "can't delete the open drawing: open another first"
                break
            }
            mode = .confirmingDelete(id: items[selection].id)
        case .character("c"), .command(.selectTool(.shape(.ellipse))):
            // `c` is also the ellipse tool's key, so it may arrive as that command.
            mode = .confirmingClear
        default: break
        }
        return nil
    }

    private mutating func name(_ event: InputEvent, renaming: String?, text: String) -> Action? {
        switch event {
        case .character(let character):
            guard !character.isNewline else { break }
            guard text.count < Self.nameLimit else {
                notice = "\(Self.nameLimit) characters at most"
                break
            }
            mode = .naming(renaming: renaming, text: text + String(character))
        case .backspace:
            mode = .naming(renaming: renaming, text: String(text.dropLast()))
        case .enter:
            let name = text.trimmingWhitespace
            mode = .browsing
            guard !name.isEmpty else { return nil }
            if let renaming { return .rename(id: renaming, name: name) }
            return .create(name: name)
        case .command(.escape):
            mode = .browsing
        default: break
        }
        return nil
    }

    /// Paints the menu as a box in the middle of the grid.
    public func paint(into grid: inout CellGrid, glyphs: ChromeGlyphs) {
        overlay(gridWidth: grid.width, glyphs: glyphs).paint(into: &grid)
    }

    /// The hints while browsing; the box is at least this wide, so it keeps its size from one
    /// prompt to the next.
    static let browsingHint = "Enter open  n new  r rename  d delete  c clear  Esc close"
    /// The hints on a drawing in the trash (never wider than `browsingHint`).
    static let trashHint = "Enter/u put back  d delete for good  Esc close"

    /// A mouse report while the menu is open: a click on a drawing opens it, the wheel moves the
    /// selection, a click outside the box closes the menu; everything else is swallowed, so
    /// nothing reaches the canvas under it. A prompt takes no clicks but a click outside.
    public mutating func handle(
        _ mouse: MouseEvent, gridWidth: Int, gridHeight: Int, glyphs: ChromeGlyphs
    ) -> Action? {
        notice = nil
        let view = overlay(gridWidth: gridWidth, glyphs: glyphs)
        guard let box = view.frame(gridWidth: gridWidth, gridHeight: gridHeight) else { return nil }
        switch mouse.kind {
        case .press:
            let inside =
                mouse.x >= box.x && mouse.x < box.maxX && mouse.y >= box.y && mouse.y < box.maxY
            guard inside else { return .close }
            guard mode == .browsing else { return nil }
            let index = mouse.y - box.y - 1 - view.clampedFirstLine(gridHeight: gridHeight)
            guard items.indices.contains(index), mouse.y < box.maxY - 1 else { return nil }
            selection = index
            return items[index].inTrash ? .restore(id: items[index].id) : .open(id: items[index].id)
        case .scrollUp where mode == .browsing: selection = max(0, selection - 1)
        case .scrollDown where mode == .browsing: selection = min(max(0, items.count - 1), selection + 1)
        default: break
        }
        return nil
    }

    /// The box the menu is drawn as, the same size whatever the prompt.
    func overlay(gridWidth: Int, glyphs: ChromeGlyphs) -> HelpOverlayView {
        let width = max(Self.browsingHint.terminalColumns, 40)
        var lines: [String] = []
        for (index, item) in items.enumerated() {
            let marker = index == selection ? ">" : " "
            let current = item.id == currentID ? " *" : ""
            let details = item.details
            lines.append("\(marker) \(item.name)\(current)" + (details.isEmpty ? "" : "  (\(details))"))
        }
        if items.isEmpty { lines.append("  (no drawings)") }
        // Always a notice line (often empty) above the hint or prompt, so the box keeps its height.
        lines += ["", notice ?? ""]
        switch mode {
        case .browsing where items.indices.contains(selection) && items[selection].inTrash:
            lines.append(Self.trashHint)
        case .browsing:
            lines.append(Self.browsingHint)
        case .naming(let renaming, let text):
            // The end of what is typed, where the cursor is, stays in view.
            let label = "\(renaming == nil ? "new drawing" : "rename to"): "
            let room = min(gridWidth - 4, width) - label.terminalColumns - 1
            var shown = text
            if shown.terminalColumns > room, room > 1 {
                while shown.terminalColumns > room - 1 { shown.removeFirst() }
                shown = String(glyphs.ellipsis) + shown
            }
            lines.append(label + shown + "_")
        case .confirmingDelete(let id):
            let item = items.first { $0.id == id }
            let name = item?.name ?? id
            lines.append(
                item?.inTrash == true
                    ? "delete '\(name)' for good, for everyone? y / n"
                    : "move '\(name)' to the trash for everyone? y / n")
        case .confirmingClear:
            let name = items.first { $0.id == currentID }?.name ?? currentID
            lines.append("clear every stroke of '\(name)' for everyone? y / n")
        }
        var view = HelpOverlayView(
            text: lines.joined(separator: "\n"), title: "drawings", footer: "", glyphs: glyphs)
        view.minimumContentWidth = width
        return view
    }
}
