/// A document's events by dot, dense: per peer, an array indexed by counter (a peer's writes to a
/// document are numbered 1, 2, 3, …, and accepted in that order), so finding an event is a short
/// scan of the document's peers and an index, not a hash of the dot.
///
/// A counter far beyond what a peer's array holds (only hand-made input has one: a delta with a
/// gap is refused) goes into `sparse` instead, so no input can make the array huge.
struct EventStore: Sendable {
    /// The peers in the order first seen; `logs[slot]` holds a peer's events at `counter - 1`.
    private(set) var peers: [PeerID] = []
    private var slots: [PeerID: Int] = [:]
    private var logs: [[DocumentEvent?]] = []
    private var sparse: [Dot: DocumentEvent] = [:]
    private(set) var count = 0

    /// How far past a peer's array an event may land and still be put in it.
    private static let densePadding: UInt64 = 4096

    private func slot(of peer: PeerID) -> Int? {
        if peers.count <= 8 {
            for index in peers.indices where peers[index] == peer { return index }
            return nil
        }
        return slots[peer]
    }

    subscript(dot: Dot) -> DocumentEvent? {
        if let slot = slot(of: dot.peer), dot.counter >= 1, dot.counter <= UInt64(logs[slot].count),
            let event = logs[slot][Int(dot.counter - 1)]
        {
            return event
        }
        return sparse.isEmpty ? nil : sparse[dot]
    }

    /// Whether a held event is removed, read in place (nil when it is not held).
    func isRemoved(at dot: Dot) -> Bool? {
        if let slot = slot(of: dot.peer), dot.counter >= 1, dot.counter <= UInt64(logs[slot].count),
            let removed = logs[slot][Int(dot.counter - 1)]?.isRemoved
        {
            return removed
        }
        return sparse.isEmpty ? nil : sparse[dot]?.isRemoved
    }

    /// Makes room in `peer`'s array for counters up to `counter`, so that inserting a delta's
    /// run of that peer's events does not grow (and move) the array again and again. A counter
    /// past what `insert` keeps dense reserves nothing.
    mutating func reserve(peer: PeerID, through counter: UInt64) {
        let slot: Int
        if let existing = self.slot(of: peer) {
            slot = existing
        } else {
            slot = peers.count
            peers.append(peer)
            slots[peer] = slot
            logs.append([])
        }
        let held = UInt64(logs[slot].count)
        guard counter > held, counter <= held + Self.densePadding * 64 else { return }
        // At least doubling, so deltas of a few events each never reallocate every time.
        let capacity = logs[slot].capacity
        if capacity < Int(counter) { logs[slot].reserveCapacity(max(Int(counter), 2 * capacity)) }
    }

    /// One field of a held event, read in place (nil when the event is not held): a reader
    /// choosing among a path's live events needs only its timestamp, a removal only its kind,
    /// and copying whole events touches their path, value and context.
    @inline(__always)
    private func field<Field>(at dot: Dot, _ read: (DocumentEvent) -> Field) -> Field? {
        if let slot = slot(of: dot.peer), dot.counter >= 1, dot.counter <= UInt64(logs[slot].count),
            let field = logs[slot][Int(dot.counter - 1)].map(read)
        {
            return field
        }
        return sparse.isEmpty ? nil : sparse[dot].map(read)
    }

    /// The timestamp of a held event, read in place.
    func timestamp(at dot: Dot) -> HybridTimestamp? { field(at: dot) { $0.timestamp } }

    /// Whether a held event is removed, and its timestamp, read in place in one lookup.
    func removedAndTimestamp(at dot: Dot) -> (isRemoved: Bool, timestamp: HybridTimestamp)? {
        field(at: dot) { ($0.isRemoved, $0.timestamp) }
    }

    /// The kind of a held event, read in place.
    func kind(at dot: Dot) -> DocumentEvent.Kind? { field(at: dot) { $0.kind } }

    /// The path of a held event, read in place.
    func path(at dot: Dot) -> [String]? { field(at: dot) { $0.path } }

    /// The kind and value of a held event, read in place.
    func kindAndValue(at dot: Dot) -> (kind: DocumentEvent.Kind, value: DocumentValue?)? {
        field(at: dot) { ($0.kind, $0.value) }
    }

    /// Adds an event whose dot is not held yet. Taken, not borrowed: the caller's copy goes into
    /// the array as it is.
    mutating func insert(_ event: consuming DocumentEvent) {
        let dot = event.dot
        count += 1
        let slot: Int
        if let existing = self.slot(of: dot.peer) {
            slot = existing
        } else {
            slot = peers.count
            peers.append(dot.peer)
            slots[dot.peer] = slot
            logs.append([])
        }
        let held = UInt64(logs[slot].count)
        guard dot.counter >= 1, dot.counter <= held + Self.densePadding else {
            sparse[dot] = consume event
            return
        }
        if dot.counter == held + 1 {
            logs[slot].append(consume event)
        } else {
            if dot.counter > held {
                logs[slot].append(contentsOf: repeatElement(nil, count: Int(dot.counter - held)))
            }
            logs[slot][Int(dot.counter - 1)] = consume event
        }
    }

    /// Marks a held event removed (and drops its value); false when it is not held.
    @discardableResult
    mutating func markRemoved(_ dot: Dot) -> Bool {
        // In place, asking nothing first: the event's path and context are not copied (a check
        // that the event is there, `!= nil`, copied it out and released it again).
        if let slot = slot(of: dot.peer), dot.counter >= 1, dot.counter <= UInt64(logs[slot].count),
            logs[slot][Int(dot.counter - 1)]?.markRemoved() != nil
        {
            return true
        }
        return sparse.isEmpty ? false : markSparseRemoved(dot)
    }

    private mutating func markSparseRemoved(_ dot: Dot) -> Bool {
        sparse[dot]?.markRemoved() != nil
    }

    /// Forgets an event (compaction).
    mutating func drop(_ dot: Dot) {
        if let slot = slot(of: dot.peer), dot.counter >= 1, dot.counter <= UInt64(logs[slot].count),
            logs[slot][Int(dot.counter - 1)] != nil
        {
            logs[slot][Int(dot.counter - 1)] = nil
            count -= 1
        } else if sparse.removeValue(forKey: dot) != nil {
            count -= 1
        }
    }

    /// Every event, in dot order (peer, then counter).
    func forEachInDotOrder(_ body: (DocumentEvent) throws -> Void) rethrows {
        for slot in peers.indices.sorted(by: { peers[$0] < peers[$1] }) {
            let peer = peers[slot]
            let extra =
                sparse.isEmpty ? [] : sparse.values.filter { $0.dot.peer == peer }.sorted { $0.dot < $1.dot }
            var next = 0
            for case let event? in logs[slot] {
                while next < extra.count && extra[next].dot.counter < event.dot.counter {
                    try body(extra[next])
                    next += 1
                }
                try body(event)
            }
            for event in extra[next...] { try body(event) }
        }
    }

    /// The events of one peer with counters in `range`, in order.
    func forEach(of peer: PeerID, in range: ClosedRange<UInt64>, _ body: (DocumentEvent) -> Void) {
        guard let slot = slot(of: peer) else { return }
        if sparse.isEmpty {
            let log = logs[slot]
            let upper = min(range.upperBound, UInt64(log.count))
            guard range.lowerBound >= 1, range.lowerBound <= upper else { return }
            for case let event? in log[Int(range.lowerBound - 1)..<Int(upper)] { body(event) }
            return
        }
        for counter in range {
            if let event = self[Dot(peer: peer, counter: counter)] { body(event) }
        }
    }
}
