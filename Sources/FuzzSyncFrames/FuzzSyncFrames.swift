import FuzzSupport
import ReplicaSync

/// Fuzzes `FrameDecoder` (fed in chunks) and `SyncMessage(frame:)`.
///
/// Input layout: byte 0 is a control byte; its low four bits say how many chunk sizes follow
/// (0 to 15 bytes, each a chunk size of 0 to 255, used in a cycle), its high bit picks a 64-byte
/// frame limit instead of the default; the rest is the byte stream. Properties: chunked decoding
/// gives the same frames and the same error as decoding the stream at once; after an error every
/// call repeats it; the frames re-encode to the bytes they came from; every message that decodes
/// re-encodes and decodes to an equal message, and (goodbye aside, which maps unknown codes to one
/// known code) to the very frame it came from.
enum FuzzSyncFrames: FuzzTarget {
    static func check(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let sizeCount = min(Int(control & 0x0F), input.count - 1)
        let chunkSizes = input[1..<(1 + sizeCount)].map(Int.init)
        let stream = Array(input[(1 + sizeCount)...])
        let limit = control & 0x80 != 0 ? 64 : Frame.defaultSizeLimit

        let whole = decode(stream, chunkSizes: [], limit: limit)
        let chunked = decode(stream, chunkSizes: chunkSizes, limit: limit)
        expect(chunked.frames == whole.frames, "chunks \(chunkSizes) give other frames than the whole stream")
        expect(
            chunked.error == whole.error,
            "chunks \(chunkSizes) give \(String(describing: chunked.error)), the whole stream \(String(describing: whole.error))"
        )

        var consumed: [UInt8] = []
        for frame in whole.frames {
            guard let bytes = try? frame.encoded(limit: limit) else {
                expect(false, "a decoded frame of \(frame.payload.count) payload bytes does not encode")
                return
            }
            consumed += bytes
            checkMessage(in: frame)
        }
        expect(stream.starts(with: consumed), "frames do not re-encode to the bytes they came from")
        if whole.error == nil {
            expect(
                whole.leftover == stream.count - consumed.count,
                "decoder holds \(whole.leftover) bytes, not \(stream.count - consumed.count)")
        }
    }

    private static func checkMessage(in frame: Frame) {
        let message: SyncMessage
        do {
            message = try SyncMessage(frame: frame)
        } catch {
            _ = error.message
            return
        }
        let encoded = message.frame(version: frame.version)
        if message.kind != .goodbye {
            expect(encoded == frame, "\(message.kind) re-encodes to a different frame")
        }
        expect((try? SyncMessage(frame: encoded)) == message, "\(message.kind) does not survive a round trip")
    }

    /// Feeds `stream` in chunks of the given sizes (all at once when there are none, or when they
    /// are all zero), taking frames after each chunk, then checks the end of the stream.
    private static func decode(
        _ stream: [UInt8], chunkSizes: [Int], limit: Int
    ) -> (frames: [Frame], error: SyncProtocolError?, leftover: Int) {
        var decoder = FrameDecoder(sizeLimit: limit)
        var frames: [Frame] = []
        let sizes = chunkSizes.contains { $0 > 0 } ? chunkSizes : [stream.count]
        var offset = 0
        var turn = 0
        do {
            while offset < stream.count {
                let end = min(stream.count, offset + sizes[turn % sizes.count])
                decoder.append(stream[offset..<end])
                offset = end
                turn += 1
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            }
        } catch {
            // A failed decoder stays failed, with the same error, whatever comes next.
            decoder.append([0, 0, 0, 2, 1, 9])
            do {
                let frame = try decoder.nextFrame()
                expect(false, "after \(error) the decoder returned \(String(describing: frame))")
            } catch let again {
                expect(again == error, "after \(error) the decoder threw \(again)")
            }
            return (frames, error, decoder.bufferedByteCount)
        }
        do {
            try decoder.checkEndOfStream()
        } catch {
            return (frames, error, decoder.bufferedByteCount)
        }
        return (frames, nil, decoder.bufferedByteCount)
    }
}

#if !FUZZING
    @main extension FuzzSyncFrames {}
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzSyncFrames.testOneInput(data, size)
}
