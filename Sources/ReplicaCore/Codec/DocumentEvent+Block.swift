import ByteCoding

/// The layout of an event block (see `DocumentEvent.writeBlock`). Its container says which: a
/// delta's header ("RD" 2 or 3), a stored list's format byte (2 or 3).
package enum EventBlockFormat: Sendable {
    /// Written before format 3; still read.
    case two
    /// Format 2, and: a string that is canonical base64 (every stroke group) is written as the
    /// bytes it stands for; an event's context entry for its own peer is written as its
    /// difference from the event's counter less one (zero for every honest write).
    case three

    /// What the replica writes.
    package static let current = EventBlockFormat.three
}

/// Format 2 of a document's events, as a delta carries them and as the replica stores them: an
/// *event block*. The peers (fixed 64-bit, ascending) and the paths (each a list of indices into
/// a table of path components) are said once per block; each event then names its peer and path
/// by index, and its counter, timestamp and context as differences from the event before it, in
/// varints:
///
///     events, peers, components, paths (varint counts and tables)
///     per event: peer index, zigzag(counter - previous counter), zigzag(milliseconds - previous),
///                timestamp counter, path index, kind | removed << 2 | value << 3, [value],
///                context: entries, then per entry its peer index (ascending) and
///                zigzag(counter - that peer's counter in the previous event's context)
///
/// Format 3 (`EventBlockFormat.three`) changes two things: the context entry for the event's own
/// peer is zigzag(event counter - 1 - entry counter), and a string value that is canonical base64
/// is written as its bytes (`PackedBase64`). Both keep one encoding per block.
///
/// Deterministic: the tables are in ascending peer order and in order of first use. A block is
/// self-contained, so a block received in a delta can be stored as it came.
extension DocumentEvent {
    private static let removedBit: UInt8 = 1 << 2
    private static let valueBit: UInt8 = 1 << 3

    /// Writes `events` (in the order given) as one event block.
    static func writeBlock(
        _ events: [DocumentEvent], format: EventBlockFormat = .current, to writer: inout ByteWriter
    ) {
        if events.count == 1 {
            writeBlock(of: events[0], format: format, to: &writer)
        } else if events.count <= smallBlockEvents {
            writeSmallBlock(events, format: format, to: &writer)
        } else {
            writeBlockWithTables(events, format: format, to: &writer)
        }
    }

    /// One block alone, by the writer `writeBlock` picks or (`withTables`) by the general one:
    /// what the one-event writer is checked against.
    package static func encodedBlock(_ events: [DocumentEvent], format: EventBlockFormat, withTables: Bool)
        -> [UInt8]
    {
        var writer = ByteWriter()
        if withTables {
            writeBlockWithTables(events, format: format, to: &writer)
        } else {
            writeBlock(events, format: format, to: &writer)
        }
        return writer.bytes
    }

    /// `writeBlock` of any number of events: the peer, component and path tables built first,
    /// with sets and dictionaries (a few events are written by `writeSmallBlock`, the same bytes).
    static func writeBlockWithTables(
        _ events: [DocumentEvent], format: EventBlockFormat = .current, to writer: inout ByteWriter
    ) {
        var peerSet: Set<PeerID> = []
        for event in events {
            peerSet.insert(event.dot.peer)
            for entry in event.context.entries { peerSet.insert(entry.peer) }
        }
        let peers = peerSet.sorted()
        var peerIndex: [PeerID: Int] = [:]
        for (index, peer) in peers.enumerated() { peerIndex[peer] = index }
        // The distinct paths in order of first use (each as the first event on it), and each
        // event's; then the components in order of first use along them.
        var pathOwners: [Int] = []
        var pathIndex: [[String]: Int] = [:]
        var eventPaths: [Int] = []
        eventPaths.reserveCapacity(events.count)
        for (position, event) in events.enumerated() {
            if let index = pathIndex[event.path] {
                eventPaths.append(index)
                continue
            }
            pathIndex[event.path] = pathOwners.count
            eventPaths.append(pathOwners.count)
            pathOwners.append(position)
        }
        var components: [String] = []
        var componentIndex: [String: Int] = [:]
        for owner in pathOwners {
            for component in events[owner].path where componentIndex[component] == nil {
                componentIndex[component] = components.count
                components.append(component)
            }
        }
        var previousContext = [UInt64](repeating: 0, count: peers.count)
        events.withUnsafeBufferPointer { events in
            peers.withUnsafeBufferPointer { peers in
                pathOwners.withUnsafeBufferPointer { pathOwners in
                    writeTables(
                        of: events, peers: peers, pathOwners: pathOwners, componentCount: components.count,
                        component: { components[$0] }, componentSlot: { componentIndex[$0] ?? 0 }, to: &writer
                    )
                }
            }
            previousContext.withUnsafeMutableBufferPointer { previousContext in
                writeEventRecords(
                    events, format: format, previousContext: previousContext,
                    peerSlot: { peerIndex[$0] ?? 0 }, pathIndex: { eventPaths[$0] }, to: &writer)
            }
        }
    }

    /// A block's count and tables: its peers (ascending), its `componentCount` components
    /// (`component(n)`, in order of first use along the paths), and each distinct path (that of
    /// event `pathOwners[n]`) as the indices of its components (`componentSlot`).
    @inline(__always)
    static func writeTables(
        of events: UnsafeBufferPointer<DocumentEvent>, peers: UnsafeBufferPointer<PeerID>,
        pathOwners: UnsafeBufferPointer<Int>, componentCount: Int, component: (Int) -> String,
        componentSlot: (String) -> Int, to writer: inout ByteWriter
    ) {
        writer.writeVarint(UInt64(events.count))
        writer.writeVarint(UInt64(peers.count))
        for peer in peers { writer.writeFixed(peer.rawValue, .littleEndian) }
        writer.writeVarint(UInt64(componentCount))
        for slot in 0..<componentCount { writer.writeUTF8(component(slot), prefix: .varint) }
        writer.writeVarint(UInt64(pathOwners.count))
        for owner in pathOwners {
            writer.writeVarint(UInt64(events[owner].path.count))
            for part in events[owner].path { writer.writeVarint(UInt64(componentSlot(part))) }
        }
    }

    /// The events of a block, after its tables: `peerSlot` gives a peer's index in the block's
    /// table of peers, `pathIndex` the index of event `n`'s path in its table of paths, and
    /// `previousContext` (one zero per peer) keeps each peer's counter in the context before.
    @inline(__always)
    static func writeEventRecords(
        _ events: UnsafeBufferPointer<DocumentEvent>, format: EventBlockFormat,
        previousContext: UnsafeMutableBufferPointer<UInt64>, peerSlot: (PeerID) -> Int,
        pathIndex: (Int) -> Int, to writer: inout ByteWriter
    ) {
        let packs = format == .three
        var previousCounter: UInt64 = 0
        var previousMilliseconds: Int64 = 0
        for position in events.indices {
            let peer = events[position].dot.peer
            let counter = events[position].dot.counter
            writer.writeVarint(UInt64(peerSlot(peer)))
            writer.writeZigzag(Int64(bitPattern: counter &- previousCounter))
            previousCounter = counter
            let timestamp = events[position].timestamp
            writer.writeZigzag(timestamp.milliseconds &- previousMilliseconds)
            previousMilliseconds = timestamp.milliseconds
            writer.writeVarint(UInt64(timestamp.counter))
            writer.writeVarint(UInt64(pathIndex(position)))
            writer.writeByte(
                events[position].kind.rawValue | (events[position].isRemoved ? removedBit : 0)
                    | (events[position].value == nil ? 0 : valueBit))
            events[position].value?.write(to: &writer, packsBase64: packs)
            let entries = events[position].context.entries
            writer.writeVarint(UInt64(entries.count))
            for entry in entries {
                let index = peerSlot(entry.peer)
                writer.writeVarint(UInt64(index))
                let base = packs && entry.peer == peer ? counter &- 1 : previousContext[index]
                let difference = packs && entry.peer == peer ? base &- entry.counter : entry.counter &- base
                writer.writeZigzag(Int64(bitPattern: difference))
                previousContext[index] = entry.counter
            }
        }
    }

    /// The block of exactly one event (a local write that removed nothing), byte for byte what
    /// `writeBlockWithTables` writes for it, with no table built: the peers are the context's
    /// (sorted already) with the event's own put in its place, the components are the path's
    /// own in first use, and every difference is from zero.
    static func writeBlock(of event: DocumentEvent, format: EventBlockFormat, to writer: inout ByteWriter) {
        let peer = event.dot.peer
        let entries = event.context.entries
        // Where the event's peer goes among the context's peers, and whether it is one of them.
        var ownSlot = 0
        while ownSlot < entries.count, entries[ownSlot].peer < peer { ownSlot += 1 }
        let ownInContext = ownSlot < entries.count && entries[ownSlot].peer == peer
        writer.writeVarint(1)
        writer.writeVarint(UInt64(entries.count + (ownInContext ? 0 : 1)))
        for index in 0...entries.count {
            if index == ownSlot, !ownInContext { writer.writeFixed(peer.rawValue, .littleEndian) }
            if index < entries.count { writer.writeFixed(entries[index].peer.rawValue, .littleEndian) }
        }
        // The path's components in first use: a repeated one ("a", "a") is said once.
        let path = event.path
        func isFirstUse(_ position: Int) -> Bool {
            for earlier in 0..<position where path[earlier] == path[position] { return false }
            return true
        }
        var distinct = 0
        for position in path.indices where isFirstUse(position) { distinct += 1 }
        writer.writeVarint(UInt64(distinct))
        for position in path.indices where isFirstUse(position) {
            writer.writeUTF8(path[position], prefix: .varint)
        }
        writer.writeVarint(1)
        writer.writeVarint(UInt64(path.count))
        for position in path.indices {
            var slot = 0
            for earlier in 0..<position where isFirstUse(earlier) {
                if path[earlier] == path[position] { break }
                slot += 1
            }
            writer.writeVarint(UInt64(slot))
        }
        let packs = format == .three
        writer.writeVarint(UInt64(ownSlot))
        writer.writeZigzag(Int64(bitPattern: event.dot.counter))
        writer.writeZigzag(event.timestamp.milliseconds)
        writer.writeVarint(UInt64(event.timestamp.counter))
        writer.writeVarint(0)
        writer.writeByte(
            event.kind.rawValue | (event.isRemoved ? removedBit : 0) | (event.value == nil ? 0 : valueBit))
        event.value?.write(to: &writer, packsBase64: packs)
        writer.writeVarint(UInt64(entries.count))
        for (index, entry) in entries.enumerated() {
            writer.writeVarint(UInt64(index < ownSlot || ownInContext ? index : index + 1))
            let difference =
                packs && entry.peer == peer ? event.dot.counter &- 1 &- entry.counter : entry.counter
            writer.writeZigzag(Int64(bitPattern: difference))
        }
    }

    /// Reads one event block, calling `body` with each event in order; returns the count.
    @discardableResult
    static func readBlock(
        from reader: inout ByteReader<BinaryDecodingError>, format: EventBlockFormat,
        reserve: (Int) -> Void = { _ in }, _ body: (consuming DocumentEvent) throws -> Void
    ) throws -> Int {
        // An event takes at least 7 bytes (peer, counter, time, time counter, path, kind, context).
        let count = try reader.readCount("events", prefix: .varint, minimumBytes: 7)
        reserve(count)
        var peers: [PeerID] = []
        let peerCount = try reader.readCount("block peers", prefix: .varint, minimumBytes: 8)
        peers.reserveCapacity(peerCount)
        for _ in 0..<peerCount {
            let start = reader.offset
            let peer = PeerID(try reader.readFixed("block peer", as: UInt64.self, .littleEndian))
            if let last = peers.last, last >= peer {
                throw BinaryDecodingError.invalid(what: "block peer order", offset: start)
            }
            peers.append(peer)
        }
        // Each table and path is made at its size (each count is checked against the bytes left):
        // a delta of 10,000 strokes has 10,000 paths, and growing each from one component to
        // two allocated twice.
        var components: [String] = []
        let componentCount = try reader.readCount("path components", prefix: .varint)
        components.reserveCapacity(componentCount)
        for _ in 0..<componentCount {
            components.append(try reader.readUTF8("path component", prefix: .varint))
        }
        var paths: [[String]] = []
        let pathCount = try reader.readCount("paths", prefix: .varint)
        paths.reserveCapacity(pathCount)
        for _ in 0..<pathCount {
            var path: [String] = []
            let length = try reader.readCount("path", prefix: .varint)
            path.reserveCapacity(length)
            for _ in 0..<length {
                path.append(
                    components[try readIndex("path component index", below: components.count, &reader)])
            }
            paths.append(path)
        }
        let packs = format == .three
        var previousCounter: UInt64 = 0
        var previousMilliseconds: Int64 = 0
        var previousContext = [UInt64](repeating: 0, count: peers.count)
        for _ in 0..<count {
            let peerIndex = try readIndex("event peer index", below: peers.count, &reader)
            let peer = peers[peerIndex]
            let counter = previousCounter &+ UInt64(bitPattern: try reader.readZigzag("event counter"))
            previousCounter = counter
            let milliseconds = previousMilliseconds &+ (try reader.readZigzag("timestamp milliseconds"))
            previousMilliseconds = milliseconds
            let counterOffset = reader.offset
            guard let logical = UInt32(exactly: try reader.readVarint("timestamp counter")) else {
                throw BinaryDecodingError.invalid(what: "timestamp counter", offset: counterOffset)
            }
            let path = paths[try readIndex("event path index", below: paths.count, &reader)]
            let kindOffset = reader.offset
            let byte = try reader.readByte("event kind")
            guard byte & ~(3 | removedBit | valueBit) == 0, let kind = Kind(rawValue: byte & 3) else {
                throw BinaryDecodingError.invalid(what: "event kind", offset: kindOffset)
            }
            let value = byte & valueBit != 0 ? try DocumentValue.read(from: &reader, packsBase64: packs) : nil
            let entryCount = try reader.readCount("context entries", prefix: .varint, minimumBytes: 2)
            var entries: [VersionVector.Entry] = []
            entries.reserveCapacity(entryCount)
            var lastIndex = -1
            for _ in 0..<entryCount {
                let start = reader.offset
                let index = try readIndex("context peer index", below: peers.count, &reader)
                let difference = UInt64(bitPattern: try reader.readZigzag("context counter"))
                let entryCounter =
                    packs && index == peerIndex
                    ? (counter &- 1) &- difference : previousContext[index] &+ difference
                guard index > lastIndex, entryCounter > 0 else {
                    throw BinaryDecodingError.invalid(what: "version vector entry", offset: start)
                }
                lastIndex = index
                previousContext[index] = entryCounter
                entries.append(VersionVector.Entry(peer: peers[index], counter: entryCounter))
            }
            try body(
                DocumentEvent(
                    dot: Dot(peer: peer, counter: counter),
                    timestamp: HybridTimestamp(milliseconds: milliseconds, counter: logical),
                    path: path, kind: kind, value: value, context: VersionVector(sortedEntries: entries),
                    isRemoved: byte & removedBit != 0))
        }
        return count
    }

    private static func readIndex(
        _ field: StaticString, below limit: Int, _ reader: inout ByteReader<BinaryDecodingError>
    ) throws -> Int {
        let start = reader.offset
        let index = try reader.readVarint(field)
        guard index < UInt64(limit) else {
            throw BinaryDecodingError.invalid(what: "\(field)", offset: start)
        }
        return Int(index)
    }
}
