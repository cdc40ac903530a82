import ByteCoding

/// The stored form of one sweep of a group, the value under `sweeps.<stroke key>.<sweep key>`:
///
/// ```
/// version 0x01 · pass count · per pass: radius · point count · x, y signed deltas
/// ```
///
/// The passes are a mask's (`StrokeMask`), in the stroke's own coordinates; the same checks as
/// a piece's mask apply (non-empty lists, radii and coordinates in range, nothing left over).
extension StrokeGroupCodec {
    /// The bytes of one sweep.
    public static func encodeSweep(_ mask: StrokeMask) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeByte(version)
        write(mask, to: &writer)
        return writer.bytes
    }

    /// A sweep from bytes written by `encodeSweep(_:)`.
    public static func decodeSweep(_ bytes: [UInt8]) throws(StrokeCodecError) -> StrokeMask {
        var reader = ByteReader<StrokeCodecError>(bytes)
        let found = try reader.readByte("version")
        guard found == version else { throw .unsupportedVersion(found) }
        let mask = try readMask(from: &reader)
        guard reader.remaining == 0 else { throw .trailingBytes(count: reader.remaining) }
        return mask
    }
}
