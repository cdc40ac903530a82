import StrokeKit

/// The one-line bar at the bottom of the screen: drawing, tool, colour, brush, peers, sync state.
///
/// In a narrow terminal it gives up detail in a fixed order, so the most useful facts stay:
/// labels get short first (the view offset goes with them), then the drawing name and an error's
/// reason are cut, then the cursor position, the relay, the brush, the colour, the peer count and
/// the tool go. The sync state is never dropped.
public struct StatusBarView: Equatable, Sendable {
    public var drawingName: String
    public var tool: ToolKind
    /// The palette entry as the user picks it, 1–9.
    public var colorNumber: Int
    /// The entry's xterm-256 colour, painted on the swatch (nil or default ink: the terminal's
    /// default foreground).
    public var colorValue: UInt8?
    /// The entry's name (`red`, `default`), shown after its number; nil shows `colour N`.
    public var colorName: String?
    /// The cursor's canvas cell, shown as `x,y`; nil leaves the field out.
    public var cursor: CanvasCell?
    /// The view's top-left canvas cell when panned away from the origin (`view x,y`); nil at
    /// the origin.
    public var viewOrigin: CanvasCell?
    /// The glyph mode's name (`blocks`, `braille`, `ascii`); nil leaves it out.
    public var glyphMode: String?
    /// The keyboard pen is down: moving draws. Shown with the tool, so it is never missed.
    public var isPenDown = false
    /// The peer whose cursor the view follows (`F`), shown as `following NAME`.
    public var following: String?
    /// The current tool's size in cells (pen or marker width, eraser diameter); nil for a tool
    /// without one (the stroke eraser), which leaves the field out.
    public var brushSize: Double?
    /// The width the brush draws as in this glyph mode when that is more than its own (a ¼ pen
    /// draws as ½ in blocks), shown after the size as `¼→½`; nil when it draws as it is.
    public var brushDrawnAs: Double?
    /// Peers online on this drawing (or on none in particular, such as a relay).
    public var peersOnline: Int
    /// Peers online but on another drawing: counted apart, as they are not on this canvas.
    public var peersElsewhere = 0
    /// The relay this peer is connected to, `HOST:PORT` as configured (one of a `--server`
    /// list); nil leaves the field out. Short labels keep only the host's first name.
    public var relay: String?
    public var sync: SyncStatus
    public var glyphs: ChromeGlyphs

    public init(
        drawingName: String, tool: ToolKind, colorNumber: Int, colorValue: UInt8?, brushSize: Double?,
        peersOnline: Int, sync: SyncStatus, glyphs: ChromeGlyphs = .unicode, colorName: String? = nil,
        cursor: CanvasCell? = nil, viewOrigin: CanvasCell? = nil
    ) {
        self.cursor = cursor
        self.viewOrigin = viewOrigin
        self.drawingName = drawingName
        self.tool = tool
        self.colorNumber = colorNumber
        self.colorValue = colorValue
        self.colorName = colorName
        self.brushSize = brushSize
        self.peersOnline = peersOnline
        self.sync = sync
        self.glyphs = glyphs
    }

    /// Paints the bar across the whole width of `row`.
    public func paint(into grid: inout CellGrid, row: Int) {
        let (left, right) = layout(width: grid.width)
        for x in 0..<grid.width { grid[x, row] = Cell(" ", attributes: .reverse) }
        var x = 0
        for (index, field) in left.enumerated() {
            if index > 0 { x = putSeparator(into: &grid, x: x, row: row) }
            x = put(field, into: &grid, x: x, row: row)
        }
        x = grid.width - Self.width(of: right) - 1
        for (index, field) in right.enumerated() {
            if index > 0 { x = putSeparator(into: &grid, x: x, row: row) }
            x = put(field, into: &grid, x: x, row: row)
        }
    }

    /// One field of the bar; `isSwatch` paints its first cell in the current colour.
    struct Field: Equatable {
        var text: String
        var isSwatch = false
        var isAlert = false
    }

    private enum DroppableField: CaseIterable {
        case glyphs, position, following, relay, brush, color, peers, tool
    }

    /// The fields to show on each side for a width: the first arrangement that fits, trying
    /// full labels, then a short sync label (an error gives way before the fields on the left
    /// do), then short labels, then short labels with the name and reason cut.
    func layout(width: Int) -> (left: [Field], right: [Field]) {
        let droppable = DroppableField.allCases  // in the order they are given up
        var candidate: (left: [Field], right: [Field]) = ([], [])
        let steps = [(false, false, false), (false, true, false), (true, true, false), (true, true, true)]
        for dropCount in 0...droppable.count {
            let dropped = Set(droppable.prefix(dropCount))
            for (compact, compactSync, shrink) in steps {
                candidate = fields(
                    dropping: dropped, compact: compact, compactSync: compactSync,
                    shrinkingTo: shrink ? width : nil)
                if Self.lineWidth(candidate) <= width { return candidate }
            }
        }
        // Nothing optional is left: cut the name and reason as far as it takes.
        return fields(
            dropping: Set(droppable), compact: true, compactSync: true, shrinkingTo: width,
            keepingMinimum: false)
    }

    private func fields(
        dropping dropped: Set<DroppableField>, compact: Bool, compactSync: Bool, shrinkingTo width: Int?,
        keepingMinimum: Bool = true
    ) -> (left: [Field], right: [Field]) {
        var left = [Field(text: drawingName)]
        if !dropped.contains(.tool) {
            let name = compact ? tool.shortName : tool.name
            left.append(Field(text: isPenDown ? name + (compact ? " \(glyphs.moreBelow)" : " down") : name))
        }
        // An eraser has no colour: its size is what matters.
        if !dropped.contains(.color), tool.inkTool != nil {
            var label =
                compact
                ? "\(colorNumber)" : colorName.map { "\(colorNumber) \($0)" } ?? "colour \(colorNumber)"
            // A colour no key holds (from the palette overlay or the eyedropper): its index.
            if colorNumber < 1, let colorValue {
                label = compact ? "#\(colorValue)" : "colour #\(colorValue)"
            }
            left.append(Field(text: "\(glyphs.swatch) \(label)", isSwatch: true))
        }
        if !dropped.contains(.brush), let brushSize {
            var size = Self.sizeLabel(brushSize, ascii: glyphs.isASCII)
            if let brushDrawnAs {
                size += (glyphs.isASCII ? "->" : "→") + Self.sizeLabel(brushDrawnAs, ascii: glyphs.isASCII)
            }
            left.append(Field(text: compact ? "b\(size)" : "brush \(size)"))
        }
        if !dropped.contains(.following), let following {
            left.append(Field(text: (compact ? "follow " : "following ") + following))
        }
        if !dropped.contains(.glyphs), let glyphMode, !compact { left.append(Field(text: glyphMode)) }
        if !dropped.contains(.position), let cursor {
            var text = "\(cursor.x),\(cursor.y)"
            if let viewOrigin, !compact { text += " view \(viewOrigin.x),\(viewOrigin.y)" }
            left.append(Field(text: text))
        }
        var right: [Field] = []
        if !dropped.contains(.peers) { right.append(Field(text: peersText(compact: compact))) }
        if !dropped.contains(.relay), let relay {
            right.append(Field(text: compact ? Self.shortRelayName(relay) : "relay \(relay)"))
        }
        right.append(syncField(compact: compactSync, reason: reasonText))
        guard let width else { return (left, right) }

        // Cut the name first, then an error's reason, each down to a readable minimum (or to one
        // cell when nothing else is left to give up).
        var excess = Self.lineWidth((left, right)) - width
        let name = drawingName
        let nameCut = min(
            max(excess, 0), name.terminalColumns - min(name.terminalColumns, keepingMinimum ? 8 : 1))
        left[0].text = name.truncated(to: name.terminalColumns - nameCut, ellipsis: glyphs.ellipsis)
        excess -= nameCut
        let reason = reasonText
        if excess > 0, !reason.isEmpty {
            let reasonCut = min(
                excess, reason.terminalColumns - min(reason.terminalColumns, keepingMinimum ? 10 : 1))
            let cutReason = reason.truncated(
                to: reason.terminalColumns - reasonCut, ellipsis: glyphs.ellipsis)
            right[right.count - 1] = syncField(compact: compactSync, reason: cutReason)
        }
        return (left, right)
    }

    /// A size as the user reads it: whole cells as digits, quarters and halves as vulgar
    /// fractions (`¼`, `½`, `1½`), or as decimals (`0.25`) in ASCII. Never rounded, so each
    /// of the six sizes reads differently.
    public static func sizeLabel(_ size: Double, ascii: Bool) -> String {
        let whole = size.rounded(.down)
        let fraction = size - whole
        if fraction == 0, let cells = Int(exactly: whole) { return "\(cells)" }
        let glyph: String? =
            switch fraction {
            case 0.25: "¼"
            case 0.5: "½"
            case 0.75: "¾"
            default: nil
            }
        guard !ascii, let glyph, let cells = Int(exactly: whole) else { return "\(size)" }
        return cells == 0 ? glyph : "\(cells)\(glyph)"
    }

    /// `relay-a.example.com:7420` as `relay-a:7420`; an IP address (or anything without a
    /// letter in its host) stays whole.
    static func shortRelayName(_ relay: String) -> String {
        guard let colon = relay.lastIndex(of: ":"), !relay.hasPrefix("[") else { return relay }
        let host = relay[..<colon]
        guard host.contains(where: \.isLetter), let dot = host.firstIndex(of: ".") else { return relay }
        return String(host[..<dot]) + relay[colon...]
    }

    private var reasonText: String {
        if case .error(let reason) = sync { return reason }
        return ""
    }

    private func syncField(compact: Bool, reason: String) -> Field {
        switch sync {
        case .inSync: Field(text: "in sync")
        case .syncing: Field(text: glyphs.ellipsis == "…" ? "syncing…" : "syncing...")
        case .alone: Field(text: "alone")
        case .offline: Field(text: "offline")
        case .error: Field(text: (compact ? "error: " : "sync error: ") + reason, isAlert: true)
        }
    }

    private func peersText(compact: Bool) -> String {
        if peersElsewhere > 0 {
            let here = peersOnline == 1 ? "1 peer here" : "\(peersOnline) peers here"
            return compact ? "\(peersOnline)+\(peersElsewhere) peers" : "\(here), \(peersElsewhere) elsewhere"
        }
        return switch (peersOnline, compact) {
        case (0, false): "no peers"
        case (1, false): "1 peer online"
        case (let count, false): "\(count) peers online"
        case (1, true): "1 peer"
        case (let count, true): "\(count) peers"
        }
    }

    /// Both sides, the trailing space and a gap of at least two cells between them.
    static func lineWidth(_ fields: (left: [Field], right: [Field])) -> Int {
        width(of: fields.left) + width(of: fields.right) + 3
    }

    /// Width of fields joined by separators (" │ "), with a space before the first.
    static func width(of fields: [Field]) -> Int {
        guard !fields.isEmpty else { return 0 }
        return fields.map(\.text.terminalColumns).reduce(0, +) + 3 * (fields.count - 1) + 1
    }

    private func putSeparator(into grid: inout CellGrid, x: Int, row: Int) -> Int {
        grid.put(" \(glyphs.separator)", x: x, y: row, attributes: .reverse)
        return x + 2
    }

    private func put(_ field: Field, into grid: inout CellGrid, x: Int, row: Int) -> Int {
        let attributes: CellAttributes = field.isAlert ? [.reverse, .bold] : .reverse
        grid.put(" " + field.text, x: x, y: row, attributes: attributes)
        if field.isSwatch {
            grid[x + 1, row] = Cell(glyphs.swatch, foreground: colorValue)
        }
        return x + 1 + field.text.terminalColumns
    }
}
