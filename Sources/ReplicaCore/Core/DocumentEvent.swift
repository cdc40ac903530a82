/// One write to a document, as it is stored and sent to other peers.
///
/// The document is the set of its events. An event names what its writer had seen (`context`);
/// depending on its kind it removes some of those seen events (see `DocumentState`). Removal
/// depends only on the set of events, never on the order they arrive in, which is what makes
/// merging commutative, associative and idempotent.
public struct DocumentEvent: Equatable, Sendable {
    /// What the event wrote at its path.
    public enum Kind: UInt8, Sendable {
        /// A register value (scalar or array). Removes every seen event at its path and below,
        /// and seen register values at the paths above.
        case value = 0
        /// A map exists here. Removes seen register values at its path and above.
        case map = 1
        /// An UNSET (or, at the root, a DELETE of the document). Removes every seen event at its
        /// path and below; never visible itself.
        case removal = 2
    }

    // Declared in this order so that they pack: the kind and the flag fill the timestamp's
    // padding and the value's tag ends the event, 65 bytes (a stride of 72) where the order of
    // the initializer's arguments took 81 (88). Every document holds one per event.
    public var dot: Dot
    public var timestamp: HybridTimestamp
    public var kind: Kind
    /// Whether a later event has removed this one. Removal events are born removed.
    public var isRemoved: Bool
    /// Map keys from the document root; empty for the document itself.
    public var path: [String]
    /// Every write the writer had seen when it wrote this one (never the event's own dot).
    public var context: VersionVector
    /// The register value of a live `.value` event; dropped once the event is removed.
    public var value: DocumentValue?

    public init(
        dot: Dot, timestamp: HybridTimestamp, path: [String], kind: Kind, value: DocumentValue?,
        context: VersionVector, isRemoved: Bool
    ) {
        self.dot = dot
        self.timestamp = timestamp
        self.path = path
        self.kind = kind
        self.value = isRemoved ? nil : value
        self.context = context
        self.isRemoved = isRemoved || kind == .removal
    }

    /// The event, its path, context and value moved out of this one, which keeps its dot, time,
    /// kind and removed flag (what a merge reads of a delta's events afterwards) and empty ones
    /// of the rest: nothing is retained or released (`ReplicaState.merge`).
    mutating func take() -> DocumentEvent {
        var taken = DocumentEvent(
            dot: dot, timestamp: timestamp, path: [], kind: kind, value: nil, context: .empty,
            isRemoved: isRemoved)
        swap(&taken.path, &path)
        swap(&taken.context, &context)
        swap(&taken.value, &value)
        return taken
    }

    /// Last-write-wins order among concurrent live events at one path: timestamp, then peer id
    /// (then counter, which only matters for malformed input, but keeps the order total).
    func winsOver(_ other: DocumentEvent) -> Bool {
        (timestamp, dot.peer, dot.counter) > (other.timestamp, other.dot.peer, other.dot.counter)
    }

    /// The same event, marked removed and without its value.
    var removed: DocumentEvent {
        var copy = self
        copy.markRemoved()
        return copy
    }

    /// Marks the event removed and drops its value.
    mutating func markRemoved() {
        isRemoved = true
        value = nil
    }
}
