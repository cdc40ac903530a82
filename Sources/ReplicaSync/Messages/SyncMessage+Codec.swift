/// Payload encoding of each message; decoding is bounded by the frame it came in.
extension SyncMessage {
    /// The current protocol version, sent in every frame header. 2 added `presenceLeft` and the
    /// drawing id in `presence`.
    public static let protocolVersion: UInt8 = 2
    static let nonceSize = 32
    static let publicKeySize = 32
    static let proofSize = 32
    static let textLimit = 1024
    static let maxSubscriptions = 256
    static let maxStrokePoints = 65_536

    /// This message as one frame.
    public func frame(version: UInt8 = SyncMessage.protocolVersion) -> Frame {
        var writer = ByteWriter()
        switch self {
        case .hello(let hello):
            writer.write(text: hello.databaseID)
            writer.write(hello.peerID)
            writer.write(text: hello.displayName)
            writer.write(UInt8(hello.wantsEncryption ? 1 : 0))
        case .challenge(let nonce, let publicKey):
            writer.write(raw: nonce)
            writer.write(raw: publicKey)
        case .response(let proof, let streamHeader):
            writer.write(raw: proof)
            writer.write(blob: streamHeader)
        case .subscribe(let subscriptions):
            writer.write(UInt16(clamping: subscriptions.count))
            for subscription in subscriptions.prefix(Int(UInt16.max)) { writer.write(subscription) }
        case .versions(let subscription, let versions):
            writer.write(subscription)
            writer.write(blob: versions)
        case .delta(let delta):
            writer.write(delta.subscription)
            writer.write(delta.sequence)
            writer.write(blob: delta.senderVersions)
            writer.write(blob: delta.changes)
        case .ack(let subscription, let sequence, let versions):
            writer.write(subscription)
            writer.write(sequence)
            writer.write(blob: versions)
        case .presence(let presence):
            writer.write(presence.peerID)
            writer.write(text: presence.displayName)
            writer.write(text: presence.drawingID)
            writer.write(presence.cursor)
            writer.write(text: presence.tool)
            writer.write(presence.colour)
            writer.write(presence.widthSixteenths)
            writer.write(UInt32(clamping: presence.strokeInProgress.count))
            for point in presence.strokeInProgress { writer.write(point) }
        case .presenceLeft(let peerID):
            writer.write(peerID)
        case .keepalive:
            break
        case .goodbye(let code, let text):
            writer.write(code.rawValue)
            writer.write(text: text)
        case .sealed(let ciphertext):
            writer.write(raw: ciphertext)
        }
        return Frame(version: version, type: kind.rawValue, payload: writer.bytes)
    }

    /// Decodes a frame's payload according to its type; the version is the caller's concern.
    public init(frame: Frame) throws(SyncProtocolError) {
        guard let kind = Kind(rawValue: frame.type) else { throw .unknownMessageType(frame.type) }
        var reader = ByteReader(frame.payload[...])
        switch kind {
        case .hello:
            self = .hello(Hello(
                databaseID: try reader.readText("hello.databaseID", limit: SyncMessage.textLimit),
                peerID: try reader.read(UInt64.self, "hello.peerID"),
                displayName: try reader.readText("hello.displayName", limit: SyncMessage.textLimit),
                wantsEncryption: try reader.readFlag("hello.flags")))
        case .challenge:
            self = .challenge(
                nonce: try reader.readRaw(count: SyncMessage.nonceSize, "challenge.nonce"),
                publicKey: try reader.readRaw(count: SyncMessage.publicKeySize, "challenge.publicKey"))
        case .response:
            self = .response(
                proof: try reader.readRaw(count: SyncMessage.proofSize, "response.proof"),
                streamHeader: try reader.readBlob("response.streamHeader"))
        case .subscribe:
            let count = Int(try reader.read(UInt16.self, "subscribe.count"))
            guard count <= SyncMessage.maxSubscriptions else {
                throw .fieldTooLarge(field: "subscribe.count", size: count, limit: SyncMessage.maxSubscriptions)
            }
            var subscriptions: [SyncSubscription] = []
            for _ in 0..<count { subscriptions.append(try reader.readSubscription()) }
            self = .subscribe(subscriptions)
        case .versions:
            self = .versions(try reader.readSubscription(), try reader.readBlob("versions.versions"))
        case .delta:
            self = .delta(Delta(
                subscription: try reader.readSubscription(),
                sequence: try reader.read(UInt64.self, "delta.sequence"),
                senderVersions: try reader.readBlob("delta.senderVersions"),
                changes: try reader.readBlob("delta.changes")))
        case .ack:
            self = .ack(
                try reader.readSubscription(), sequence: try reader.read(UInt64.self, "ack.sequence"),
                versions: try reader.readBlob("ack.versions"))
        case .presence:
            self = .presence(try reader.readPresence())
        case .presenceLeft:
            self = .presenceLeft(peerID: try reader.read(UInt64.self, "presenceLeft.peerID"))
        case .keepalive:
            self = .keepalive
        case .goodbye:
            let raw = try reader.readUInt8("goodbye.code")
            // An unknown code from a newer peer still ends the connection; its text explains it.
            let code = GoodbyeCode(rawValue: raw) ?? .protocolViolation
            self = .goodbye(code, try reader.readText("goodbye.reason", limit: SyncMessage.textLimit))
        case .sealed:
            self = .sealed(reader.readRest())
        }
        try reader.finish(String(describing: kind))
    }
}

extension ByteWriter {
    mutating func write(_ subscription: SyncSubscription) {
        write(text: subscription.collection)
        if let documentID = subscription.documentID {
            write(UInt8(1))
            write(text: documentID)
        } else {
            write(UInt8(0))
        }
    }

    mutating func write(_ point: PresenceUpdate.Point) {
        write(point.x)
        write(point.y)
    }
}

extension ByteReader {
    mutating func readFlag(_ field: String) throws(SyncProtocolError) -> Bool {
        let value = try readUInt8(field)
        guard value <= 1 else { throw .invalidValue(field: field, value: UInt64(value)) }
        return value == 1
    }

    mutating func readSubscription() throws(SyncProtocolError) -> SyncSubscription {
        let collection = try readText("subscription.collection", limit: SyncMessage.textLimit)
        let hasDocument = try readFlag("subscription.hasDocument")
        let documentID = hasDocument ? try readText("subscription.documentID", limit: SyncMessage.textLimit) : nil
        return SyncSubscription(collection: collection, documentID: documentID)
    }

    mutating func readPresence() throws(SyncProtocolError) -> PresenceUpdate {
        let peerID = try read(UInt64.self, "presence.peerID")
        let displayName = try readText("presence.displayName", limit: SyncMessage.textLimit)
        let drawingID = try readText("presence.drawingID", limit: SyncMessage.textLimit)
        let cursor = try readPoint()
        let tool = try readText("presence.tool", limit: SyncMessage.textLimit)
        let colour = try readUInt8("presence.colour")
        let width = try read(UInt16.self, "presence.width")
        let count = Int(try read(UInt32.self, "presence.pointCount"))
        // Each point is 8 bytes: a count that cannot fit in the frame is refused before reserving.
        guard count <= SyncMessage.maxStrokePoints else {
            throw .fieldTooLarge(field: "presence.pointCount", size: count, limit: SyncMessage.maxStrokePoints)
        }
        guard count * 8 <= remaining else {
            throw .truncatedField(field: "presence.points", needed: count * 8, available: remaining)
        }
        var points: [PresenceUpdate.Point] = []
        points.reserveCapacity(count)
        for _ in 0..<count { points.append(try readPoint()) }
        return PresenceUpdate(
            peerID: peerID, displayName: displayName, drawingID: drawingID, cursor: cursor, tool: tool, colour: colour,
            strokeInProgress: points, widthSixteenths: width)
    }

    mutating func readPoint() throws(SyncProtocolError) -> PresenceUpdate.Point {
        PresenceUpdate.Point(x: try read(Int32.self, "presence.x"), y: try read(Int32.self, "presence.y"))
    }
}
