import ByteCoding

/// The block of a few events (a local write that replaced a value: the new value and the removed
/// form of the old one; a short delta), byte for byte what `writeBlockWithTables` writes, with
/// its tables in scratch space on the stack, searched in order, instead of in sets, dictionaries
/// and arrays on the heap. At two events the heap's tables were half the cost of encoding the
/// row (DECISIONS.md, "Issue 12: where a local write's instructions go").
extension DocumentEvent {
    /// The most events `writeBlock` writes this way.
    static let smallBlockEvents = 8

    /// `writeBlockWithTables` of `events` (at most a few: every table is searched in order).
    static func writeSmallBlock(
        _ events: [DocumentEvent], format: EventBlockFormat, to writer: inout ByteWriter
    ) {
        events.withUnsafeBufferPointer { events in
            var peerCapacity = 0
            var componentCapacity = 0
            for index in events.indices {
                peerCapacity += 1 + events[index].context.entries.count
                componentCapacity += events[index].path.count
            }
            withUnsafeTemporaryAllocation(of: PeerID.self, capacity: peerCapacity) { scratch in
                let peers = UnsafeMutableBufferPointer(
                    rebasing: scratch[..<collectPeers(of: events, into: scratch)])
                func peerSlot(_ peer: PeerID) -> Int {
                    var slot = 0
                    while slot < peers.count, peers[slot] != peer { slot += 1 }
                    return slot
                }
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * events.count) { scratch in
                    // Per event, the index of its path; per distinct path, the first event on it.
                    let eventPaths = UnsafeMutableBufferPointer(rebasing: scratch[..<events.count])
                    let owners = UnsafeMutableBufferPointer(rebasing: scratch[events.count...])
                    let pathCount = collectPaths(of: events, eventPaths: eventPaths, owners: owners)
                    let pathOwners = UnsafeBufferPointer(rebasing: owners[..<pathCount])
                    withUnsafeTemporaryAllocation(
                        of: (event: Int, position: Int).self, capacity: componentCapacity
                    ) { components in
                        let componentCount = collectComponents(
                            of: events, along: pathOwners, into: components)
                        let found = UnsafeBufferPointer(rebasing: components[..<componentCount])
                        writeTables(
                            of: events, peers: UnsafeBufferPointer(peers), pathOwners: pathOwners,
                            componentCount: componentCount, component: { text(of: found[$0], in: events) },
                            componentSlot: { slot(of: $0, among: found, in: events) }, to: &writer)
                    }
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(peers.count, 1)) {
                        previous in
                        previous.initialize(repeating: 0)
                        writeEventRecords(
                            events, format: format, previousContext: previous, peerSlot: peerSlot,
                            pathIndex: { eventPaths[$0] }, to: &writer)
                    }
                }
            }
        }
    }

    /// The peers of `events` and of their contexts, ascending, each once, in the first places of
    /// `peers` (room for every peer named); returns how many.
    private static func collectPeers(
        of events: UnsafeBufferPointer<DocumentEvent>, into peers: UnsafeMutableBufferPointer<PeerID>
    ) -> Int {
        var count = 0
        func add(_ peer: PeerID) {
            var at = 0
            while at < count, peers[at] < peer { at += 1 }
            guard at == count || peers[at] != peer else { return }
            var moved = count
            while moved > at {
                peers[moved] = peers[moved - 1]
                moved -= 1
            }
            peers[at] = peer
            count += 1
        }
        for index in events.indices {
            add(events[index].dot.peer)
            for entry in events[index].context.entries { add(entry.peer) }
        }
        return count
    }

    /// The distinct paths of `events` in order of first use, each as the first event on it
    /// (`owners`), and each event's path as its index among them (`eventPaths`); returns how
    /// many paths.
    private static func collectPaths(
        of events: UnsafeBufferPointer<DocumentEvent>, eventPaths: UnsafeMutableBufferPointer<Int>,
        owners: UnsafeMutableBufferPointer<Int>
    ) -> Int {
        var count = 0
        for index in events.indices {
            var path = 0
            while path < count, events[owners[path]].path != events[index].path { path += 1 }
            if path == count {
                owners[path] = index
                count += 1
            }
            eventPaths[index] = path
        }
        return count
    }

    /// The distinct components of the paths of `pathOwners` (events), in order of first use
    /// along them, each as where it is first found, in the first places of `components`;
    /// returns how many.
    private static func collectComponents(
        of events: UnsafeBufferPointer<DocumentEvent>, along pathOwners: UnsafeBufferPointer<Int>,
        into components: UnsafeMutableBufferPointer<(event: Int, position: Int)>
    ) -> Int {
        var count = 0
        for owner in pathOwners {
            for position in events[owner].path.indices {
                let found = UnsafeBufferPointer(rebasing: components[..<count])
                if slot(of: events[owner].path[position], among: found, in: events) == count {
                    components[count] = (owner, position)
                    count += 1
                }
            }
        }
        return count
    }

    /// A component kept as where it is found.
    private static func text(
        of component: (event: Int, position: Int), in events: UnsafeBufferPointer<DocumentEvent>
    ) -> String {
        events[component.event].path[component.position]
    }

    /// The slot of `part` among `components`; their count when it is not there.
    private static func slot(
        of part: String, among components: UnsafeBufferPointer<(event: Int, position: Int)>,
        in events: UnsafeBufferPointer<DocumentEvent>
    ) -> Int {
        var slot = 0
        while slot < components.count, text(of: components[slot], in: events) != part { slot += 1 }
        return slot
    }
}
