import ByteCoding

/// One unit on the wire: `[length: UInt32 BE][version: UInt8][type: UInt8][payload]`, where the
/// length counts the version, type and payload bytes.
public struct Frame: Equatable, Sendable {
    /// Bytes before the counted part: the length prefix.
    public static let prefixSize = 4
    /// Bytes counted by the length that are not payload: version and type.
    public static let headerSize = 2
    /// The frame limit unless configured otherwise: 16 MiB.
    public static let defaultSizeLimit = 16 * 1024 * 1024
    /// The limit before the other side is authenticated: 4 KiB, room for any handshake frame.
    public static let handshakeSizeLimit = 4 * 1024

    public var version: UInt8
    public var type: UInt8
    public var payload: [UInt8]

    public init(version: UInt8, type: UInt8, payload: [UInt8]) {
        self.version = version
        self.type = type
        self.payload = payload
    }

    /// The wire bytes, refusing to build a frame its receiver would refuse.
    public func encoded(limit: Int = Frame.defaultSizeLimit) throws(SyncProtocolError) -> [UInt8] {
        let counted = Frame.headerSize + payload.count
        guard counted <= limit, counted <= Int(UInt32.max) else {
            throw .outgoingFrameTooLarge(size: counted, limit: limit)
        }
        var writer = ByteWriter(reservingCapacity: Frame.prefixSize + counted)
        writer.writeFixed(UInt32(counted), .bigEndian)
        writer.writeByte(version)
        writer.writeByte(type)
        writer.writeBytes(payload)
        return writer.bytes
    }
}
