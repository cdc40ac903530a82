import ReplicaSync
import TestSupport
import Testing

@Suite struct SyncMessageCodecTests {
    static let subscription = SyncSubscription(collection: "drawings", documentID: "drawing-1")
    static let messages: [SyncMessage] = [
        .hello(
            .init(
                databaseID: "default ⣿", wantsEncryption: true, sessionID: Array(repeating: 1, count: 16),
                share: Array(repeating: 2, count: 32))),
        .response(confirmation: Array(repeating: 3, count: 64), streamHeader: Array(repeating: 4, count: 24)),
        .identity(.init(peerID: 0xDEAD_BEEF, displayName: "Ada ⣿")),
        .subscribe([subscription, SyncSubscription(collection: "drawings")]),
        .versions(subscription, [9, 8, 7]),
        .delta(.init(subscription: subscription, sequence: 42, senderVersions: [1], changes: Array(0..<255))),
        .ack(subscription, sequence: 42, versions: [5, 5]),
        .fullState(.init(subscription: subscription, sequence: 43, senderVersions: [2], changes: [7, 7, 7])),
        .presence(
            PresenceUpdate(
                peerID: 7, displayName: "Bo", drawingID: "drawing-1", cursor: .init(x: -3, y: 12),
                tool: "pen", colour: 4,
                strokeInProgress: [.init(x: 1, y: 2), .init(x: 3, y: 4)], widthSixteenths: 32)),
        .presenceLeft(peerID: 0x0102_0304_0506_0708),
        .keepalive,
        .goodbye(.authenticationFailed, "wrong token"),
        .sealed([1, 2, 3, 4]),
    ]

    @Test(arguments: messages)
    func roundTripsThroughAFrame(message: SyncMessage) throws {
        let bytes = try message.frame().encoded()
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.version == SyncMessage.protocolVersion)
        #expect(try SyncMessage(frame: frame) == message)
    }

    @Test(arguments: messages.filter { $0 != .keepalive && $0.kind != .sealed })
    func everyTruncationOfAPayloadIsATypedError(message: SyncMessage) {
        let frame = message.frame()
        for length in 0..<frame.payload.count {
            let cut = Frame(
                version: frame.version, type: frame.type, payload: Array(frame.payload.prefix(length)))
            #expect(throws: SyncProtocolError.self) { try SyncMessage(frame: cut) }
        }
    }

    @Test func refusesTrailingBytesAndUnknownTypes() {
        var payload = SyncMessage.keepalive.frame().payload
        payload.append(0)
        #expect(throws: SyncProtocolError.trailingBytes(messageType: "keepalive", count: 1)) {
            try SyncMessage(
                frame: Frame(version: 1, type: SyncMessage.Kind.keepalive.rawValue, payload: payload))
        }
        #expect(throws: SyncProtocolError.unknownMessageType(99)) {
            try SyncMessage(frame: Frame(version: 1, type: 99, payload: []))
        }
    }

    @Test func aDepartureIsKindElevenCarryingOnlyThePeerID() throws {
        let frame = SyncMessage.presenceLeft(peerID: 0x0102_0304_0506_0708).frame()
        #expect(frame.type == 11)
        #expect(frame.payload == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(throws: SyncProtocolError.trailingBytes(messageType: "presenceLeft", count: 1)) {
            try SyncMessage(frame: Frame(version: frame.version, type: 11, payload: frame.payload + [0]))
        }
        #expect(
            throws: SyncProtocolError.truncatedField(field: "presenceLeft.peerID", needed: 8, available: 7)
        ) {
            try SyncMessage(
                frame: Frame(version: frame.version, type: 11, payload: Array(frame.payload.prefix(7))))
        }
    }

    @Test func presenceCarriesTheDrawingBeingViewed() throws {
        let update = PresenceUpdate(
            peerID: 5, displayName: "Cy", drawingID: "sketches ⣿", cursor: .init(x: 2, y: 3), tool: "line",
            colour: 9)
        let frame = SyncMessage.presence(update).frame()
        // peer id, then the name and the drawing id, each as a 16-bit length and UTF-8.
        #expect(Array(frame.payload[8..<14]) == [0, 2, 0x43, 0x79, 0, 12])
        guard case .presence(let decoded) = try SyncMessage(frame: frame) else {
            Issue.record("not a presence")
            return
        }
        #expect(decoded.drawingID == "sketches ⣿")
        #expect(decoded == update)
    }

    @Test func presenceCarriesTheWidthOfTheStrokeInProgressAfterTheColour() throws {
        let update = PresenceUpdate(
            peerID: 5, displayName: "", drawingID: "", cursor: .init(x: 0, y: 0), tool: "marker", colour: 9,
            strokeInProgress: [.init(x: 1, y: 1)], widthSixteenths: 48)
        let frame = SyncMessage.presence(update).frame()
        // peer id 8, two empty texts 2 + 2, cursor 8, "marker" 2 + 6, colour 1: then the width.
        let widthAt = 8 + 2 + 2 + 8 + 8 + 1
        #expect(Array(frame.payload[(widthAt - 1)..<(widthAt + 2)]) == [9, 0, 48])
        #expect(try SyncMessage(frame: frame) == .presence(update))
        // Cut inside the width: refused with the field's name.
        let cut = Frame(
            version: frame.version, type: frame.type, payload: Array(frame.payload[..<(widthAt + 1)]))
        #expect(throws: SyncProtocolError.truncatedField(field: "presence.width", needed: 2, available: 1)) {
            try SyncMessage(frame: cut)
        }
    }

    @Test func presenceCarriesTheKeyOfTheStrokeInProgressLast() throws {
        let update = PresenceUpdate(
            peerID: 5, displayName: "", drawingID: "", cursor: .init(x: 0, y: 0), tool: "pen", colour: 9,
            strokeInProgress: [.init(x: 1, y: 1)], widthSixteenths: 4,
            strokeKey: "2026-03-25T16:20:14.127Z~3fa2c1")
        let frame = SyncMessage.presence(update).frame()
        #expect(try SyncMessage(frame: frame) == .presence(update))
        let keyLength = 2 + update.strokeKey.utf8.count
        // The key, then the (empty) text in progress.
        #expect(Array(frame.payload.suffix(keyLength).dropLast(2)) == Array(update.strokeKey.utf8))
        // A frame that ends after the points (version 2's layout) is cut short.
        let older = Frame(
            version: frame.version, type: frame.type, payload: Array(frame.payload.dropLast(keyLength + 2)))
        #expect(throws: SyncProtocolError.self) { try SyncMessage(frame: older) }
    }

    @Test func presenceCarriesTheTextBeingTypedLast() throws {
        let update = PresenceUpdate(
            peerID: 5, displayName: "", drawingID: "", cursor: .init(x: 3, y: 4), tool: "text", colour: 9,
            strokeInProgress: [.init(x: 3, y: 4)], strokeKey: "2026-03-25T16:20:14.127Z~3fa2c1",
            textInProgress: "hello 世界\nbye")
        let frame = SyncMessage.presence(update).frame()
        #expect(try SyncMessage(frame: frame) == .presence(update))
        let text = Array(update.textInProgress.utf8)
        #expect(Array(frame.payload.suffix(text.count)) == text)
        // Version 3's layout, which ends after the stroke key, is cut short.
        let older = Frame(
            version: frame.version, type: frame.type, payload: Array(frame.payload.dropLast(2 + text.count)))
        #expect(throws: SyncProtocolError.self) { try SyncMessage(frame: older) }
    }

    /// A chosen cursor colour is one byte after the key; without one the payload ends at the key,
    /// as before, and two bytes more are still refused.
    @Test func presenceCarriesAChosenCursorColourAfterTheKey() throws {
        var update = PresenceUpdate(
            peerID: 5, displayName: "Cy", drawingID: "d", cursor: .init(x: 0, y: 0), tool: "pen", colour: 9,
            strokeKey: "2026-03-25T16:20:14.127Z~3fa2c1")
        let plain = SyncMessage.presence(update).frame()
        update.cursorColour = 196
        let chosen = SyncMessage.presence(update).frame()
        #expect(chosen.payload == plain.payload + [196])
        #expect(try SyncMessage(frame: chosen) == .presence(update))
        guard case .presence(let decoded) = try SyncMessage(frame: plain) else {
            Issue.record("not a presence")
            return
        }
        #expect(decoded.cursorColour == nil)
        let longer = Frame(version: chosen.version, type: chosen.type, payload: chosen.payload + [0])
        #expect(throws: SyncProtocolError.trailingBytes(messageType: "presence", count: 2)) {
            try SyncMessage(frame: longer)
        }
    }

    /// Text in progress and a chosen cursor colour together: the text, then the colour last.
    @Test func presenceCarriesTextInProgressAndACursorColourTogether() throws {
        var update = PresenceUpdate(
            peerID: 8, displayName: "Di", drawingID: "d", cursor: .init(x: 3, y: 4), tool: "text", colour: 2,
            strokeInProgress: [.init(x: 3, y: 4)], textInProgress: "hi\nthere")
        update.cursorColour = 33
        let frame = SyncMessage.presence(update).frame()
        #expect(frame.payload.last == 33)
        #expect(try SyncMessage(frame: frame) == .presence(update))
    }

    @Test func refusesADrawingIDOverTheTextLimit() {
        // peer id, an empty name, then a drawing id claiming 1025 bytes (and carrying them).
        let payload =
            [UInt8](repeating: 0, count: 8) + [0, 0] + [0x04, 0x01] + [UInt8](repeating: 0x61, count: 1025)
        let frame = Frame(
            version: SyncMessage.protocolVersion, type: SyncMessage.Kind.presence.rawValue, payload: payload)
        #expect(throws: SyncProtocolError.fieldTooLarge(field: "presence.drawingID", size: 1025, limit: 1024))
        {
            try SyncMessage(frame: frame)
        }
    }

    @Test func refusesAPointCountThatCannotFitInTheFrame() {
        var payload = SyncMessage.presence(
            PresenceUpdate(
                peerID: 1, displayName: "", drawingID: "drawing-1", cursor: .init(x: 0, y: 0), tool: "",
                colour: 0)
        ).frame().payload
        payload.replaceSubrange((payload.count - 4)..., with: [0, 0, 0xFF, 0xFF])
        #expect(throws: SyncProtocolError.self) {
            try SyncMessage(
                frame: Frame(version: 1, type: SyncMessage.Kind.presence.rawValue, payload: payload))
        }
    }

    @Test func randomPayloadsNeverCrashTheDecoder() {
        var generator = SplitMix64(seed: 2026)
        var decodedCount = 0
        for _ in 0..<3000 {
            let type = UInt8.random(in: 0...12, using: &generator)
            let length = Int.random(in: 0...80, using: &generator)
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if (try? SyncMessage(frame: Frame(version: 1, type: type, payload: payload))) != nil {
                decodedCount += 1
            }
        }
        // Some random payloads are valid (keepalive with no bytes, sealed with any): the decoder
        // must tell them apart rather than refuse everything.
        #expect(decodedCount > 0 && decodedCount < 3000)
    }

    @Test func cutsOverlongTextAtTheReceiversLimit() throws {
        let long = String(repeating: "é", count: 2000)
        let message = SyncMessage.goodbye(.normal, long)
        guard case .goodbye(_, let text) = try SyncMessage(frame: message.frame()) else {
            Issue.record("not a goodbye")
            return
        }
        #expect(text.utf8.count == 1024)
    }
}
