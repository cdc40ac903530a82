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
                    withUnsafeTemporaryAllocation(
                        of: (event: Int, position: Int).self, capacity: componentCapacity
                    ) {
                        writeTables(
                            of: events, peers: peers,
                            pathOwners: UnsafeMutableBufferPointer(rebasing: owners[..<pathCount]),
                            components: $0, to: &writer)
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

    /// The block's count and tables: the peers, the components in order of first use along the
    /// paths (each kept in `components` as where it is first found), and each path as indices
    /// of its components.
    private static func writeTables(
        of events: UnsafeBufferPointer<DocumentEvent>, peers: UnsafeMutableBufferPointer<PeerID>,
        pathOwners: UnsafeMutableBufferPointer<Int>,
        components: UnsafeMutableBufferPointer<(event: Int, position: Int)>, to writer: inout ByteWriter
    ) {
        var componentCount = 0
        func componentSlot(_ component: String) -> Int? {
            for slot in 0..<componentCount
            where events[components[slot].event].path[components[slot].position] == component {
                return slot
            }
            return nil
        }
        for owner in pathOwners {
            for position in events[owner].path.indices
            where componentSlot(events[owner].path[position]) == nil {
                components[componentCount] = (owner, position)
                componentCount += 1
            }
        }
        writer.writeVarint(UInt64(events.count))
        writer.writeVarint(UInt64(peers.count))
        for peer in peers { writer.writeFixed(peer.rawValue, .littleEndian) }
        writer.writeVarint(UInt64(componentCount))
        for slot in 0..<componentCount {
            writer.writeUTF8(events[components[slot].event].path[components[slot].position], prefix: .varint)
        }
        writer.writeVarint(UInt64(pathOwners.count))
        for owner in pathOwners {
            writer.writeVarint(UInt64(events[owner].path.count))
            for component in events[owner].path { writer.writeVarint(UInt64(componentSlot(component) ?? 0)) }
        }
    }
}
