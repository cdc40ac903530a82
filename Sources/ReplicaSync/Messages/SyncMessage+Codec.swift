import ByteCoding

/// Payload encoding of each message; decoding is bounded by the frame it came in.
extension SyncMessage {
    /// The current protocol version, sent in every frame header. 2 added `presenceLeft` and the
    /// drawing id in `presence`; 3 replaced the token proof by CPace (`hello` carries the share,
    /// `response` the confirmation), moved the peer id and name into `identity`, after it, added
    /// the stroke key at the end of `presence`, and marks drawings whose erasures are stored as
    /// sweeps (a version 2 peer would show them without others' erasures, so the two refuse each
    /// other). All of 3 came in one release, so no build speaks only part of it. 4 added the text
    /// being typed at the end of `presence`, with stroke groups of encoding version 2 (text, and
    /// kinds a later build may add, which a version 4 peer keeps untouched): a version 3 peer could
    /// show neither. 5 added `fullState`, for peers that come back after the sender compacted
    /// history they lack (a version 4 peer would be sent deltas it must refuse), and
    /// `listingRequest` and `listing` (a version 4 relay could not answer a client that
    /// subscribes to only some drawings and lists the others), and carries deltas in replica
    /// delta format 2 (event blocks: peers and paths said once, varints, timestamps and contexts
    /// as differences), which a version 4 peer cannot read. 6 carries deltas and whole states in
    /// replica delta format 3 (a canonical base64 string, every stroke group, as its bytes), which
    /// a version 5 peer cannot read.
    public static let protocolVersion: UInt8 = 6
    static let sessionIDSize = 16
    static let shareSize = CPace.pointSize
    static let confirmationSize = 64
    static let textLimit = 1024
    public static let maxSubscriptions = 256
    static let maxStrokePoints = 65_536
    /// Entries per `listing` message; a longer listing goes out in several.
    public static let maxListingChanges = 512
    /// Text is UTF-8 behind a 16-bit big-endian byte length.
    static let textPrefix = LengthPrefix.uint16(.bigEndian)
    /// Byte strings (stream headers, version lists, deltas) are behind a 32-bit big-endian length.
    static let blobPrefix = LengthPrefix.uint32(.bigEndian)

    /// This message as one frame.
    public func frame(version: UInt8 = SyncMessage.protocolVersion) -> Frame {
        var writer = ByteWriter(reservingCapacity: 64)
        switch self {
        case .hello(let hello):
            writer.write(text: hello.databaseID)
            writer.writeByte(hello.wantsEncryption ? 1 : 0)
            writer.writeBytes(hello.sessionID.prefix(SyncMessage.sessionIDSize))
            writer.writeBytes(hello.share.prefix(SyncMessage.shareSize))
        case .response(let confirmation, let streamHeader):
            writer.writeBytes(confirmation.prefix(SyncMessage.confirmationSize))
            writer.write(blob: streamHeader)
        case .identity(let identity):
            writer.writeFixed(identity.peerID, .bigEndian)
            writer.write(text: identity.displayName)
        case .subscribe(let subscriptions):
            writer.writeFixed(UInt16(clamping: subscriptions.count), .bigEndian)
            for subscription in subscriptions.prefix(Int(UInt16.max)) { writer.write(subscription) }
        case .versions(let subscription, let versions):
            writer.write(subscription)
            writer.write(blob: versions)
        case .delta(let delta), .fullState(let delta):
            writer.write(delta.subscription)
            writer.writeFixed(delta.sequence, .bigEndian)
            writer.write(blob: delta.senderVersions)
            writer.write(blob: delta.changes)
        case .ack(let subscription, let sequence, let versions):
            writer.write(subscription)
            writer.writeFixed(sequence, .bigEndian)
            writer.write(blob: versions)
        case .presence(let presence):
            writer.writeFixed(presence.peerID, .bigEndian)
            writer.write(text: presence.displayName)
            writer.write(text: presence.drawingID)
            writer.write(presence.cursor)
            writer.write(text: presence.tool)
            writer.writeByte(presence.colour)
            writer.writeFixed(presence.widthSixteenths, .bigEndian)
            writer.writeFixed(UInt32(clamping: presence.strokeInProgress.count), .bigEndian)
            for point in presence.strokeInProgress { writer.write(point) }
            writer.write(text: presence.strokeKey)
            writer.write(text: presence.textInProgress)
            if let cursorColour = presence.cursorColour { writer.writeByte(cursorColour) }
        case .presenceLeft(let peerID):
            writer.writeFixed(peerID, .bigEndian)
        case .keepalive:
            break
        case .relayStatus(let text):
            writer.write(text: text)
        case .listingRequest(let collection):
            writer.write(text: collection)
        case .listing(let collection, let changes):
            writer.write(text: collection)
            writer.writeFixed(UInt16(clamping: changes.count), .bigEndian)
            for change in changes.prefix(Int(UInt16.max)) { writer.write(change) }
        case .goodbye(let code, let text):
            writer.writeByte(code.rawValue)
            writer.write(text: text)
        case .sealed(let ciphertext):
            writer.writeBytes(ciphertext)
        }
        return Frame(version: version, type: kind.rawValue, payload: writer.bytes)
    }

    /// Decodes a frame's payload according to its type; the version is the caller's concern.
    public init(frame: Frame) throws(SyncProtocolError) {
        guard let kind = Kind(rawValue: frame.type) else { throw .unknownMessageType(frame.type) }
        var reader = ByteReader<SyncProtocolError>(frame.payload)
        switch kind {
        case .hello:
            self = .hello(
                Hello(
                    databaseID: try reader.readText("hello.databaseID"),
                    wantsEncryption: try reader.readFlag("hello.flags"),
                    sessionID: Array(
                        try reader.readBytes("hello.sessionID", count: SyncMessage.sessionIDSize)),
                    share: Array(try reader.readBytes("hello.share", count: SyncMessage.shareSize))))
        case .response:
            self = .response(
                confirmation: Array(
                    try reader.readBytes("response.confirmation", count: SyncMessage.confirmationSize)),
                streamHeader: try reader.readBlob("response.streamHeader"))
        case .identity:
            self = .identity(
                Identity(
                    peerID: try reader.readFixed("identity.peerID", as: UInt64.self, .bigEndian),
                    displayName: try reader.readText("identity.displayName")))
        case .subscribe:
            // A subscription takes at least 3 bytes: an empty collection name and the flag.
            let count = try reader.readCount(
                "subscribe.count", prefix: .uint16(.bigEndian), minimumBytes: 3,
                limit: SyncMessage.maxSubscriptions)
            var subscriptions: [SyncSubscription] = []
            for _ in 0..<count { subscriptions.append(try reader.readSubscription()) }
            self = .subscribe(subscriptions)
        case .versions:
            self = .versions(try reader.readSubscription(), try reader.readBlob("versions.versions"))
        case .delta:
            self = .delta(
                Delta(
                    subscription: try reader.readSubscription(),
                    sequence: try reader.readFixed("delta.sequence", as: UInt64.self, .bigEndian),
                    senderVersions: try reader.readBlob("delta.senderVersions"),
                    changes: try reader.readBlob("delta.changes")))
        case .fullState:
            self = .fullState(
                Delta(
                    subscription: try reader.readSubscription(),
                    sequence: try reader.readFixed("fullState.sequence", as: UInt64.self, .bigEndian),
                    senderVersions: try reader.readBlob("fullState.senderVersions"),
                    changes: try reader.readBlob("fullState.changes")))
        case .ack:
            self = .ack(
                try reader.readSubscription(),
                sequence: try reader.readFixed("ack.sequence", as: UInt64.self, .bigEndian),
                versions: try reader.readBlob("ack.versions"))
        case .presence:
            self = .presence(try reader.readPresence())
        case .presenceLeft:
            self = .presenceLeft(
                peerID: try reader.readFixed("presenceLeft.peerID", as: UInt64.self, .bigEndian))
        case .keepalive:
            self = .keepalive
        case .relayStatus:
            self = .relayStatus(try reader.readText("relayStatus.text"))
        case .listingRequest:
            self = .listingRequest(collection: try reader.readText("listingRequest.collection"))
        case .listing:
            let collection = try reader.readText("listing.collection")
            // An entry takes at least 3 bytes: an empty document id and its flags.
            let count = try reader.readCount(
                "listing.count", prefix: .uint16(.bigEndian), minimumBytes: 3,
                limit: SyncMessage.maxListingChanges)
            var changes: [SyncListingChange] = []
            for _ in 0..<count { changes.append(try reader.readListingChange()) }
            self = .listing(collection: collection, changes: changes)
        case .goodbye:
            let raw = try reader.readByte("goodbye.code")
            // An unknown code from a newer peer still ends the connection; its text explains it.
            let code = GoodbyeCode(rawValue: raw) ?? .protocolViolation
            self = .goodbye(code, try reader.readText("goodbye.reason"))
        case .sealed:
            self = .sealed(Array(reader.readRest()))
        }
        guard reader.remaining == 0 else {
            throw .trailingBytes(messageType: String(describing: kind), count: reader.remaining)
        }
    }
}

extension ByteWriter {
    /// Text as every sync message writes it: cut to the receiver's limit at a scalar boundary.
    mutating func write(text: String) {
        writeUTF8(text, prefix: SyncMessage.textPrefix, truncatingTo: SyncMessage.textLimit)
    }

    mutating func write(blob: [UInt8]) {
        writeBytes(blob, prefix: SyncMessage.blobPrefix)
    }

    mutating func write(_ subscription: SyncSubscription) {
        write(text: subscription.collection)
        if let documentID = subscription.documentID {
            writeByte(1)
            write(text: documentID)
        } else {
            writeByte(0)
        }
    }

    /// The document id, a flags byte (1: in the collection, 2: has a name, 4: in the trash), then
    /// the name and the trash time (Unix milliseconds) when present.
    mutating func write(_ change: SyncListingChange) {
        write(text: change.documentID)
        guard let entry = change.entry else { return writeByte(0) }
        writeByte(1 | (entry.name == nil ? 0 : 2) | (entry.trashedAt == nil ? 0 : 4))
        if let name = entry.name { write(text: name) }
        if let trashedAt = entry.trashedAt { writeFixed(trashedAt, .bigEndian) }
    }

    mutating func write(_ point: PresenceUpdate.Point) {
        writeFixed(point.x, .bigEndian)
        writeFixed(point.y, .bigEndian)
    }
}

extension ByteReader where Failure == SyncProtocolError {
    mutating func readText(_ field: StaticString) throws(SyncProtocolError) -> String {
        try readUTF8(field, prefix: SyncMessage.textPrefix, limit: SyncMessage.textLimit)
    }

    mutating func readBlob(_ field: StaticString) throws(SyncProtocolError) -> [UInt8] {
        Array(try readBytes(field, prefix: SyncMessage.blobPrefix))
    }

    mutating func readFlag(_ field: StaticString) throws(SyncProtocolError) -> Bool {
        let value = try readByte(field)
        guard value <= 1 else { throw .invalidValue(field: field.description, value: UInt64(value)) }
        return value == 1
    }

    mutating func readSubscription() throws(SyncProtocolError) -> SyncSubscription {
        let collection = try readText("subscription.collection")
        let hasDocument = try readFlag("subscription.hasDocument")
        let documentID = hasDocument ? try readText("subscription.documentID") : nil
        return SyncSubscription(collection: collection, documentID: documentID)
    }

    mutating func readListingChange() throws(SyncProtocolError) -> SyncListingChange {
        let documentID = try readText("listing.documentID")
        let flags = try readByte("listing.flags")
        guard flags & ~7 == 0, flags == 0 || flags & 1 == 1 else {
            throw .invalidValue(field: "listing.flags", value: UInt64(flags))
        }
        guard flags != 0 else { return SyncListingChange(documentID: documentID, entry: nil) }
        let name = flags & 2 != 0 ? try readText("listing.name") : nil
        let trashedAt = flags & 4 != 0 ? try readFixed("listing.trashedAt", as: Int64.self, .bigEndian) : nil
        return SyncListingChange(
            documentID: documentID, entry: SyncListingEntry(name: name, trashedAt: trashedAt))
    }

    mutating func readPresence() throws(SyncProtocolError) -> PresenceUpdate {
        let peerID = try readFixed("presence.peerID", as: UInt64.self, .bigEndian)
        let displayName = try readText("presence.displayName")
        let drawingID = try readText("presence.drawingID")
        let cursor = try readPoint()
        let tool = try readText("presence.tool")
        let colour = try readByte("presence.colour")
        let width = try readFixed("presence.width", as: UInt16.self, .bigEndian)
        // Each point is 8 bytes: a count that cannot fit in the frame is refused before reserving.
        let count = try readCount(
            "presence.pointCount", prefix: .uint32(.bigEndian), minimumBytes: 8,
            limit: SyncMessage.maxStrokePoints)
        var points: [PresenceUpdate.Point] = []
        points.reserveCapacity(count)
        for _ in 0..<count { points.append(try readPoint()) }
        let strokeKey = try readText("presence.strokeKey")
        let text = try readText("presence.textInProgress")
        var presence = PresenceUpdate(
            peerID: peerID, displayName: displayName, drawingID: drawingID, cursor: cursor, tool: tool,
            colour: colour,
            strokeInProgress: points, widthSixteenths: width, strokeKey: strokeKey, textInProgress: text)
        // A chosen cursor colour is one byte more; without one the payload ends at the text (more
        // than one byte left is still refused as trailing bytes).
        if remaining == 1 { presence.cursorColour = try readByte("presence.cursorColour") }
        return presence
    }

    mutating func readPoint() throws(SyncProtocolError) -> PresenceUpdate.Point {
        PresenceUpdate.Point(
            x: try readFixed("presence.x", as: Int32.self, .bigEndian),
            y: try readFixed("presence.y", as: Int32.self, .bigEndian))
    }
}
