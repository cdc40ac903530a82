import ByteCoding

/// Cuts a byte stream fed in arbitrary chunks into frames.
///
/// The length prefix is checked against the limit as soon as its four bytes are in, before any
/// buffer for the body exists; the buffer only ever holds what the peer actually sent.
public struct FrameDecoder: Sendable {
    /// Checked against each frame's announced length as its prefix arrives.
    public var sizeLimit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: SyncProtocolError?

    public init(sizeLimit: Int = Frame.defaultSizeLimit) {
        self.sizeLimit = sizeLimit
    }

    /// Bytes received but not yet part of a returned frame.
    public var bufferedByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard failure == nil else { return }
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil when more bytes are needed. After an error the stream is
    /// unusable and every later call throws the same error.
    public mutating func nextFrame() throws(SyncProtocolError) -> Frame? {
        if let failure { throw failure }
        guard let announced = announcedLength else { return nil }
        if UInt64(announced) > UInt64(sizeLimit) {
            return try fail(.frameTooLarge(announced: UInt64(announced), limit: sizeLimit))
        }
        if Int(announced) < Frame.headerSize {
            return try fail(.frameTooShort(announced: announced))
        }
        let total = Frame.prefixSize + Int(announced)
        guard bufferedByteCount >= total else { return nil }
        let frame = try bufferedFrame(length: Int(announced))
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
            start = 0
        }
        return frame
    }

    /// Called when the stream ended: bytes of an unfinished frame are an error.
    public func checkEndOfStream() throws(SyncProtocolError) {
        if let failure { throw failure }
        guard bufferedByteCount > 0 else { return }
        let expected = Frame.prefixSize + Int(announcedLength ?? 0)
        throw .truncatedFrame(received: bufferedByteCount, expected: expected)
    }

    /// The length prefix of the next frame, once its bytes are in.
    private var announcedLength: UInt32? {
        var reader = ByteReader<SyncProtocolError>(buffer, offset: start)
        // Fewer than four bytes is no error here: the rest of the prefix has not arrived yet.
        return try? reader.readFixed("frame.length", as: UInt32.self, .bigEndian)
    }

    /// The frame whose prefix starts at `start` and announced `length`, once all of it is buffered.
    /// The reader is gone when this returns, so the buffer is not shared when it is trimmed.
    private func bufferedFrame(length: Int) throws(SyncProtocolError) -> Frame {
        var reader = ByteReader<SyncProtocolError>(buffer, offset: start + Frame.prefixSize)
        let version = try reader.readByte("frame.version")
        let type = try reader.readByte("frame.type")
        let payload = try reader.readBytes("frame.payload", count: length - Frame.headerSize)
        return Frame(version: version, type: type, payload: Array(payload))
    }

    private mutating func fail(_ error: SyncProtocolError) throws(SyncProtocolError) -> Frame? {
        failure = error
        buffer = []
        start = 0
        throw error
    }
}
