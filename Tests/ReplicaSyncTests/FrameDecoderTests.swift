import ReplicaSync
import TestSupport
import Testing

@Suite struct FrameDecoderTests {
    private let frames = [
        Frame(version: 1, type: 9, payload: []),
        Frame(version: 1, type: 6, payload: Array(0..<200)),
        Frame(version: 3, type: 250, payload: [1, 2, 3]),
    ]

    @Test func decodesFramesFedOneByteAtATime() throws {
        let bytes = try frames.flatMap { try $0.encoded() }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        for byte in bytes {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { decoded.append(frame) }
        }
        #expect(decoded == frames)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func decodesFramesFedInRandomChunks() throws {
        var generator = SplitMix64(seed: 7)
        let bytes = try (0..<50).flatMap { _ in try frames.flatMap { try $0.encoded() } }
        var decoder = FrameDecoder()
        var decoded: [Frame] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1...300, using: &generator))
            decoder.append(bytes[index..<end])
            index = end
            while let frame = try decoder.nextFrame() { decoded.append(frame) }
        }
        #expect(decoded.count == 150)
        #expect(decoded.suffix(3) == frames[...])
    }

    @Test func refusesFourGibibyteLengthPrefixFromItsFourBytesAlone() {
        var decoder = FrameDecoder()
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(
            throws: SyncProtocolError.frameTooLarge(announced: 4_294_967_295, limit: Frame.defaultSizeLimit)
        ) {
            try decoder.nextFrame()
        }
        #expect(decoder.bufferedByteCount == 0)
        // The stream stays failed: later bytes cannot resynchronise it.
        decoder.append(try! frames[0].encoded())
        #expect(throws: SyncProtocolError.self) { try decoder.nextFrame() }
    }

    @Test func honoursAConfiguredLimit() throws {
        var decoder = FrameDecoder(sizeLimit: 100)
        decoder.append(try Frame(version: 1, type: 1, payload: Array(repeating: 0, count: 98)).encoded())
        #expect(try decoder.nextFrame() != nil)
        decoder.append(try Frame(version: 1, type: 1, payload: Array(repeating: 0, count: 99)).encoded())
        #expect(throws: SyncProtocolError.frameTooLarge(announced: 101, limit: 100)) {
            try decoder.nextFrame()
        }
    }

    @Test func refusesAFrameShorterThanItsHeader() {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 1, 1])
        #expect(throws: SyncProtocolError.frameTooShort(announced: 1)) { try decoder.nextFrame() }
    }

    @Test func reportsAFrameCutOffByTheEndOfTheStream() throws {
        var decoder = FrameDecoder()
        let bytes = try frames[1].encoded()
        decoder.append(bytes.prefix(50))
        #expect(try decoder.nextFrame() == nil)
        #expect(throws: SyncProtocolError.truncatedFrame(received: 50, expected: bytes.count)) {
            try decoder.checkEndOfStream()
        }
    }

    @Test func encoderRefusesAFrameItsReceiverWouldRefuse() {
        let frame = Frame(version: 1, type: 6, payload: Array(repeating: 0, count: 100))
        #expect(throws: SyncProtocolError.outgoingFrameTooLarge(size: 102, limit: 64)) {
            try frame.encoded(limit: 64)
        }
    }
}
