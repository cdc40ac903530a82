import StrokeKit
import StrokeKitTestSupport
import TerminalCanvas

/// A canvas session on a manual clock: an editor, its document, and the time, which moves 10 ms
/// with every command so strokes get distinct, predictable times.
struct CanvasSession {
    /// 2026-03-25T16:20:14.000Z.
    static let startMilliseconds = Fixtures.baseMilliseconds
    static let palette: [UInt8] = [15, 196, 208, 226, 46]

    var editor: CanvasEditor
    var document: Drawing
    var now: Int64 = startMilliseconds
    var view: CanvasView
    /// The feedback of the last command.
    var lastFeedback = EditorFeedback.none
    /// The drawing's revision when the changed keys were last taken (as the coordinator does),
    /// and keys changed before a change from the replica that are not taken yet.
    var takenRevision: UInt64 = 0
    var pendingKeys: Set<StrokeKey> = []

    init(
        width: Int = 12, height: Int = 6, groups: [StrokeGroup] = [], mode: GlyphMode = .block,
        peer: String = "aaaaaa", cursor: CanvasCell = CanvasCell(x: 0, y: 0)
    ) {
        editor = CanvasEditor(
            palette: Self.palette, keyClock: StrokeKeyClock(peerShortID: peer),
            viewport: CanvasViewport(screenWidth: width, screenHeight: height), glyphMode: mode,
            cursor: cursor)
        document = Drawing(groups: groups)
        view = CanvasView(mode: mode)
    }

    /// The keys changed since they were last taken, from the drawing's journal.
    var changedKeys: Set<StrokeKey> { pendingKeys.union(document.changedKeys(since: takenRevision) ?? []) }

    /// Forgets the changed keys, as a flush does.
    @discardableResult
    mutating func takeChangedKeys() -> Set<StrokeKey> {
        defer {
            takenRevision = document.revision
            pendingKeys = []
        }
        return changedKeys
    }

    /// Makes the drawing hold exactly `groups`, as changes from the replica would; they are not
    /// local edits, so they are not among the changed keys.
    mutating func receiveFromReplica(_ groups: [StrokeGroup]) {
        pendingKeys = changedKeys
        document.replaceContent(with: groups)
        takenRevision = document.revision
    }

    /// Runs commands in order, 10 ms apart.
    mutating func run(_ commands: EditorCommand...) {
        for command in commands {
            now += 10
            lastFeedback = editor.handle(command, in: &document, nowMilliseconds: now)
        }
    }

    mutating func press(_ x: Int, _ y: Int) { run(.pointer(.press(CanvasCell(x: x, y: y)))) }
    mutating func drag(_ x: Int, _ y: Int) { run(.pointer(.drag(CanvasCell(x: x, y: y)))) }
    mutating func release(_ x: Int, _ y: Int) { run(.pointer(.release(CanvasCell(x: x, y: y)))) }

    /// A straight mouse stroke: press, one drag report per waypoint, release at the last.
    mutating func mouseStroke(_ cells: [(Int, Int)]) {
        guard let first = cells.first, let last = cells.last else { return }
        press(first.0, first.1)
        for cell in cells.dropFirst() { drag(cell.0, cell.1) }
        release(last.0, last.1)
    }

    /// The screen's rows with the peers given (trailing spaces trimmed; the last is the status
    /// bar's).
    func screen(peers: [PeerPresence] = []) -> [String] {
        grid(peers: peers).rows
    }

    func grid(peers: [PeerPresence] = []) -> CellGrid {
        view.render(editor, drawing: document, peers: peers)
    }

    /// The screen without any cursor, for comparing ink alone.
    var ink: [String] {
        view.render(document, viewport: editor.viewport, inProgress: editor.inProgressStroke).rows
    }
}

/// This target's shorthand over the shared `Fixtures`: strokes through cell centres, drawn by
/// another peer.
enum CanvasFixtures {
    static func key(_ milliseconds: Int64, peer: String = "bbbbbb") -> StrokeKey {
        Fixtures.key(milliseconds, peer: peer)
    }

    /// A group of one thin stroke through the centres of the given cells, drawn by another peer.
    static func group(
        through cells: [(Int, Int)], at milliseconds: Int64 = CanvasSession.startMilliseconds - 1000,
        peer: String = "bbbbbb", colour: UInt8 = 33
    ) -> StrokeGroup {
        let centres = cells.map { cell in CanvasCell(x: cell.0, y: cell.1).centre }
        let stroke = Fixtures.stroke(
            centres.map { ($0.x, $0.y) }, key: key(milliseconds, peer: peer), width: InkTool.pen.defaultWidth,
            colour: colour, millisecondsApart: 0)
        return Fixtures.group([stroke])
    }

    /// The cells a path runs through (its points are cell centres).
    static func cells(of stroke: Stroke) -> [CanvasCell] {
        stroke.path.map { CanvasCell(containing: $0.point) }
    }

    /// Whether each point is a neighbour (8-connected, not the same cell) of the one before.
    static func consecutiveCellsAreNeighbours(_ cells: [CanvasCell]) -> Bool {
        zip(cells, cells.dropFirst()).allSatisfy { a, b in
            max(abs(a.x - b.x), abs(a.y - b.y)) == 1
        }
    }
}

extension Drawing {
    /// Makes the drawing hold exactly `groups`, as changes from the replica would.
    mutating func replaceContent(with groups: [StrokeGroup]) {
        let incoming = Dictionary(groups.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        for key in keys where incoming[key] == nil { setGroup(nil, for: key) }
        for (key, group) in incoming { setGroup(group, for: key) }
    }
}
