import ReplicaCore

/// Schemas 1 and 2: one `events` row per event, its current form. A read-only open of such a
/// file reads it as it is; migration 3 moves the rows into a snapshot of each document.
extension ReplicaDatabase {
    /// Every event row into `state`; with `checked` (schema 2) each row's checksum first.
    func loadLegacyEvents(into state: inout ReplicaState, checked: Bool) throws {
        let rows = try connection.run(
            "SELECT collection, document, peer, counter, record\(checked ? ", checksum" : "") FROM events "
                + "ORDER BY collection, document, peer, counter")
        for row in rows {
            guard row.count == (checked ? 6 : 5), let collection = row[0].text, let document = row[1].text,
                let peer = row[2].integer, let counter = row[3].integer, let record = row[4].blob
            else {
                throw ReplicaError.damaged(path: path, detail: "an event row has a value of the wrong type")
            }
            let place =
                "the event of document '\(collection)/\(document)' by peer \(Self.hex(peer)), number \(counter)"
            if checked {
                let expected = EventChecksum.of(
                    collection: collection, document: document, peer: peer, counter: counter, record: record)
                guard row[5].integer == expected else {
                    throw ReplicaError.damaged(path: path, detail: "\(place) fails its checksum")
                }
            }
            guard let event = try? DocumentEvent(decoding: record),
                event.dot.peer.rawValue == UInt64(bitPattern: peer),
                event.dot.counter == UInt64(bitPattern: counter)
            else {
                throw ReplicaError.damaged(path: path, detail: "\(place) cannot be decoded")
            }
            state.load(event, into: DocumentKey(collection: collection, id: document))
        }
    }

    /// Migration 2: the checksum of every row written before there were checksums.
    func fillChecksums() throws {
        let rows = try connection.run("SELECT collection, document, peer, counter, record FROM events")
        let update = try connection.prepare(
            "UPDATE events SET checksum = ? WHERE collection = ? AND document = ? AND peer = ? AND counter = ?"
        )
        for row in rows {
            guard row.count == 5, let collection = row[0].text, let document = row[1].text,
                let peer = row[2].integer, let counter = row[3].integer, let record = row[4].blob
            else {
                throw ReplicaError.damaged(path: path, detail: "an event row has a value of the wrong type")
            }
            let checksum = EventChecksum.of(
                collection: collection, document: document, peer: peer, counter: counter, record: record)
            try update.run([
                .integer(checksum), .text(collection), .text(document), .integer(peer), .integer(counter),
            ])
        }
    }

    /// Migration 3: every document's event rows (checked, as a reopen checks them) become
    /// generation 1 of its snapshot; then the events table goes. A damaged row stops the
    /// migration, and its transaction leaves the file as it was.
    func moveEventsIntoSnapshots() throws {
        var legacy = ReplicaState(peerID: PeerID(0))
        try loadLegacyEvents(into: &legacy, checked: true)
        let documents = legacy.allDocuments.sorted {
            ($0.key.collection, $0.key.id) < ($1.key.collection, $1.key.id)
        }
        for (key, document) in documents {
            let events = document.events.values.sorted { $0.dot < $1.dot }
            var part: Int64 = 0
            for start in stride(from: 0, to: events.count, by: Self.snapshotPartEvents) {
                let slice = events[start..<min(events.count, start + Self.snapshotPartEvents)]
                try writeSnapshotPart(key, generation: 1, part: part, events: Array(slice))
                part += 1
            }
            try finishSnapshot(key, generation: 1, parts: part, through: 0, compacted: nil)
        }
        try connection.run("DROP TABLE events")
    }

    static func hex(_ value: Int64) -> String {
        String(UInt64(bitPattern: value), radix: 16)
    }
}
