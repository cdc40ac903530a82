import StrokeKit

/// A peer's stroke as the canvas draws it before it is in the drawing: its cells and its ink.
public struct PeerStroke: Hashable, Sendable {
    /// The cells in drawing order.
    public var cells: [CanvasCell]
    /// An xterm-256 palette index.
    public var colour: UInt8
    public var inkTool: InkTool
    /// The width in cells; nil draws the tool's default width.
    public var width: Double?
    /// Text being typed (lines split by line feeds), whose first character is in the first cell;
    /// empty for a stroke.
    public var text: String

    public init(
        cells: [CanvasCell], colour: UInt8, inkTool: InkTool = .pen, width: Double? = nil, text: String = ""
    ) {
        self.cells = cells
        self.colour = colour
        self.inkTool = inkTool
        self.width = width
        self.text = text
    }
}

/// Keeps a peer's finished stroke on screen from its pen up until the committed stroke arrives.
///
/// A peer's presence stops carrying its stroke at pen up, but the committed group reaches the
/// replica only after the drawer's debounce and the sync round trip (about 100 ms). Showing
/// neither in between makes the stroke blink out. So the last stroke a peer's presence carried,
/// with the key it is committed under, is kept until the drawing holds that key, or until
/// `timeout` passes (the stroke was dropped, or never made it). Time is given in milliseconds.
public struct StrokeHandover: Sendable {
    struct Awaiting: Sendable {
        var key: StrokeKey
        var stroke: PeerStroke
        var deadline: Int64
    }

    /// How long a finished stroke waits for its commit before it is let go.
    public let timeout: Int64
    private var inProgress: [UInt64: (key: StrokeKey, stroke: PeerStroke)] = [:]
    private var awaiting: [UInt64: [Awaiting]] = [:]

    public init(timeoutMilliseconds: Int64 = 3000) {
        timeout = timeoutMilliseconds
    }

    /// A peer's presence arrived: `key` and `stroke` are its stroke in progress (nil when it has
    /// none, or sent no key). A stroke that was in progress and is no longer waits for its
    /// commit, unless `isCommitted` already says the drawing holds it.
    public mutating func peerUpdated(
        _ peerID: UInt64, key: StrokeKey?, stroke: PeerStroke?, now: Int64, isCommitted: (StrokeKey) -> Bool
    ) {
        if let previous = inProgress[peerID], previous.key != key {
            peerFinished(peerID, previous, now: now, isCommitted: isCommitted)
        }
        if let key, let stroke, !stroke.cells.isEmpty {
            inProgress[peerID] = (key, stroke)
        } else {
            inProgress[peerID] = nil
        }
    }

    /// The peer went away or left this drawing: a stroke it was drawing waits for its commit too
    /// (a peer that quits saves its stroke first).
    public mutating func peerLeft(_ peerID: UInt64, now: Int64, isCommitted: (StrokeKey) -> Bool) {
        if let previous = inProgress.removeValue(forKey: peerID) {
            peerFinished(peerID, previous, now: now, isCommitted: isCommitted)
        }
    }

    private mutating func peerFinished(
        _ peerID: UInt64, _ finished: (key: StrokeKey, stroke: PeerStroke), now: Int64,
        isCommitted: (StrokeKey) -> Bool
    ) {
        guard !isCommitted(finished.key) else { return }
        awaiting[peerID, default: []].append(
            Awaiting(key: finished.key, stroke: finished.stroke, deadline: now + timeout))
    }

    /// Lets go of every stroke whose commit has arrived or whose time is up; true when any went.
    @discardableResult
    public mutating func settle(now: Int64, isCommitted: (StrokeKey) -> Bool) -> Bool {
        var changed = false
        for (peerID, strokes) in awaiting {
            let kept = strokes.filter { $0.deadline > now && !isCommitted($0.key) }
            if kept.count != strokes.count { changed = true }
            awaiting[peerID] = kept.isEmpty ? nil : kept
        }
        return changed
    }

    /// The finished strokes of a peer still waiting for their commit, oldest first.
    public func strokesAwaitingCommit(of peerID: UInt64) -> [PeerStroke] {
        awaiting[peerID]?.map(\.stroke) ?? []
    }

    /// Every peer with a finished stroke waiting.
    public var peersWithStrokesAwaitingCommit: [UInt64] { awaiting.keys.sorted() }

    /// When the next waiting stroke times out (to repaint then); nil when none waits.
    public var nextDeadline: Int64? {
        awaiting.values.flatMap { $0.map(\.deadline) }.min()
    }

    /// Forgets everything (another drawing was opened).
    public mutating func reset() {
        inProgress = [:]
        awaiting = [:]
    }
}
