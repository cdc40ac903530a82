import ByteCoding

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
/// Deterministic: the tables are in ascending peer order and in order of first use. A block is
/// self-contained, so a block received in a delta can be stored as it came.
extension DocumentEvent {
    private static let removedBit: UInt8 = 1 << 2
    private static let valueBit: UInt8 = 1 << 3

    /// Writes `events` (in the order given) as one event block.
    static func writeBlock(_ events: some Collection<DocumentEvent>, to writer: inout ByteWriter) {
        // A local write's block has one or two events: short arrays searched in order are cheaper
        // there than dictionaries; the tables come out the same either way.
        let small = events.count <= 8
        var peers: [PeerID] = []
        var peerSet: Set<PeerID> = []
        for event in events {
            for peer in [event.dot.peer] + event.context.entries.map(\.peer) {
                if small {
                    if !peers.contains(peer) { peers.append(peer) }
                } else {
                    peerSet.insert(peer)
                }
            }
        }
        if small { peers.sort() } else { peers = peerSet.sorted() }
        var peerIndex: [PeerID: Int] = [:]
        if !small { for (index, peer) in peers.enumerated() { peerIndex[peer] = index } }
        func slot(of peer: PeerID) -> Int {
            small ? peers.firstIndex(of: peer) ?? 0 : peerIndex[peer] ?? 0
        }
        var components: [String] = []
        var componentIndex: [String: Int] = [:]
        var paths: [[Int]] = []
        var pathList: [[String]] = []
        var pathIndex: [[String]: Int] = [:]
        var eventPaths: [Int] = []
        eventPaths.reserveCapacity(events.count)
        for event in events {
            if let index = small ? pathList.firstIndex(of: event.path) : pathIndex[event.path] {
                eventPaths.append(index)
                continue
            }
            let indices = event.path.map { component in
                if let index = small ? components.firstIndex(of: component) : componentIndex[component] {
                    return index
                }
                if !small { componentIndex[component] = components.count }
                components.append(component)
                return components.count - 1
            }
            if small { pathList.append(event.path) } else { pathIndex[event.path] = paths.count }
            eventPaths.append(paths.count)
            paths.append(indices)
        }
        writer.writeVarint(UInt64(events.count))
        writer.writeVarint(UInt64(peers.count))
        for peer in peers { writer.writeFixed(peer.rawValue, .littleEndian) }
        writer.writeVarint(UInt64(components.count))
        for component in components { writer.writeUTF8(component, prefix: .varint) }
        writer.writeVarint(UInt64(paths.count))
        for path in paths {
            writer.writeVarint(UInt64(path.count))
            for index in path { writer.writeVarint(UInt64(index)) }
        }
        var previousCounter: UInt64 = 0
        var previousMilliseconds: Int64 = 0
        var previousContext = [UInt64](repeating: 0, count: peers.count)
        for (position, event) in events.enumerated() {
            writer.writeVarint(UInt64(slot(of: event.dot.peer)))
            writer.writeZigzag(Int64(bitPattern: event.dot.counter &- previousCounter))
            previousCounter = event.dot.counter
            writer.writeZigzag(event.timestamp.milliseconds &- previousMilliseconds)
            previousMilliseconds = event.timestamp.milliseconds
            writer.writeVarint(UInt64(event.timestamp.counter))
            writer.writeVarint(UInt64(eventPaths[position]))
            writer.writeByte(
                event.kind.rawValue | (event.isRemoved ? removedBit : 0) | (event.value == nil ? 0 : valueBit)
            )
            event.value?.write(to: &writer)
            writer.writeVarint(UInt64(event.context.entries.count))
            for entry in event.context.entries {
                let index = slot(of: entry.peer)
                writer.writeVarint(UInt64(index))
                writer.writeZigzag(Int64(bitPattern: entry.counter &- previousContext[index]))
                previousContext[index] = entry.counter
            }
        }
    }

    /// Reads one event block, calling `body` with each event in order; returns the count.
    @discardableResult
    static func readBlock(
        from reader: inout ByteReader<BinaryDecodingError>, _ body: (DocumentEvent) throws -> Void
    ) throws -> Int {
        // An event takes at least 7 bytes (peer, counter, time, time counter, path, kind, context).
        let count = try reader.readCount("events", prefix: .varint, minimumBytes: 7)
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
        var components: [String] = []
        for _ in 0..<(try reader.readCount("path components", prefix: .varint)) {
            components.append(try reader.readUTF8("path component", prefix: .varint))
        }
        var paths: [[String]] = []
        for _ in 0..<(try reader.readCount("paths", prefix: .varint)) {
            var path: [String] = []
            for _ in 0..<(try reader.readCount("path", prefix: .varint)) {
                path.append(
                    components[try readIndex("path component index", below: components.count, &reader)])
            }
            paths.append(path)
        }
        var previousCounter: UInt64 = 0
        var previousMilliseconds: Int64 = 0
        var previousContext = [UInt64](repeating: 0, count: peers.count)
        for _ in 0..<count {
            let peer = peers[try readIndex("event peer index", below: peers.count, &reader)]
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
            let value = byte & valueBit != 0 ? try DocumentValue.read(from: &reader) : nil
            let entryCount = try reader.readCount("context entries", prefix: .varint, minimumBytes: 2)
            var entries: [VersionVector.Entry] = []
            entries.reserveCapacity(entryCount)
            var lastIndex = -1
            for _ in 0..<entryCount {
                let start = reader.offset
                let index = try readIndex("context peer index", below: peers.count, &reader)
                let entryCounter =
                    previousContext[index] &+ UInt64(bitPattern: try reader.readZigzag("context counter"))
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
