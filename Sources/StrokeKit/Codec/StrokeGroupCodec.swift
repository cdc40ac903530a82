import ByteCoding

/// The stored form of a stroke group as drawn (its `base`; sweeps have their own encoding, see
/// `encodeSweep`): versioned, compact and deterministic (one group, one byte string), plus the
/// base64 text used as the value in a drawing's `strokes` map.
///
/// Version 1, all integers LEB128 varints, "signed" ones zigzag-encoded, coordinates in 1/16 cell:
/// ```
/// version 0x01 · key length · key UTF-8 · piece count
/// per piece: flags (bit 0 transform, bit 1 mask) · tool · colour · width
///            · createdAt minus the key's time (signed)
///            · [transform dx, dy (signed)]
///            · point count · per point x, y, time offset, each a signed delta from the last
///            · [sweep count · per sweep: radius · point count · x, y signed deltas]
/// ```
///
/// A group holding text or a kind from a newer build is written as version 2
/// (`StrokeGroupCodec+Kinds.swift`); a group of paths alone is always version 1, so every group
/// stored before text existed keeps its bytes and its fingerprint.
public enum StrokeGroupCodec {
    /// The version of groups of paths alone, and of sweeps.
    public static let version: UInt8 = 1
    /// The version of groups with pieces of other kinds (each piece tagged with its kind).
    public static let kindsVersion: UInt8 = 2
    /// Every version this build reads.
    public static let readableVersions: [UInt8] = [version, kindsVersion]

    static let transformFlag: UInt8 = 1 << 0
    static let maskFlag: UInt8 = 1 << 1

    /// The bytes of the group as drawn (its base; its sweeps are not part of them), in an array of
    /// their size: the model and the replica keep them for as long as the drawing is open.
    public static func encode(_ group: StrokeGroup) -> [UInt8] {
        guard group.base.allSatisfy(\.kind.isPath) else { return encodeKinds(group) }
        var writer = ByteWriter()
        writer.writeByte(version)
        writer.writeUTF8(group.key.rawValue, prefix: .varint)
        writer.writeVarint(UInt64(group.base.count))
        for piece in group.base { writePathPiece(piece, key: group.key, to: &writer) }
        return writer.bytesAtTheirSize
    }

    /// One path piece as version 1 writes it (and version 2 inside a piece of kind 0).
    static func writePathPiece(_ piece: Stroke, key: StrokeKey, to writer: inout ByteWriter) {
        var flags: UInt8 = 0
        if !piece.transform.isIdentity { flags |= transformFlag }
        if !piece.mask.isEmpty { flags |= maskFlag }
        writer.writeByte(flags)
        writer.writeByte(piece.ink.tool.rawValue)
        writer.writeByte(piece.ink.colour)
        writer.writeVarint(UInt64(FixedPoint.units(piece.ink.width)))
        writer.writeZigzag(piece.createdAtMilliseconds &- key.creationMilliseconds)
        if !piece.transform.isIdentity {
            writer.writeZigzag(FixedPoint.units(piece.transform.dx))
            writer.writeZigzag(FixedPoint.units(piece.transform.dy))
        }
        writer.writeVarint(UInt64(piece.path.count))
        var previous = (x: Int64(0), y: Int64(0), t: Int64(0))
        for sample in piece.path {
            let current = (
                x: FixedPoint.units(sample.point.x), y: FixedPoint.units(sample.point.y),
                t: Int64(sample.timeOffsetMilliseconds)
            )
            writer.writeZigzag(current.x - previous.x)
            writer.writeZigzag(current.y - previous.y)
            writer.writeZigzag(current.t - previous.t)
            previous = current
        }
        if !piece.mask.isEmpty { write(piece.mask, to: &writer) }
    }

    /// A group as drawn (no sweeps) from bytes written by `encode(_:)`.
    public static func decode(_ bytes: [UInt8]) throws(StrokeCodecError) -> StrokeGroup {
        var reader = ByteReader<StrokeCodecError>(bytes)
        let found = try reader.readByte("version")
        guard found == version || found == kindsVersion else { throw .unsupportedVersion(found) }

        let keyOffset = reader.offset
        // Read in steps rather than with `readUTF8`: a key that is too long, not UTF-8 or not a key is
        // one error (`invalidKey` at the length), and a short one says the data ends inside it.
        let keyLength = try reader.readVarint("key length")
        guard keyLength <= UInt64(StrokeKey.maximumLength) else { throw .invalidKey(offset: keyOffset) }
        let keyBytes = try reader.readBytes("key", count: Int(keyLength))
        guard let keyText = String(validating: keyBytes, as: UTF8.self),
            let key = StrokeKey(rawValue: keyText)
        else { throw .invalidKey(offset: keyOffset) }

        // The smallest piece: flags, tool, colour, width, createdAt, point count, one 3-byte point.
        // Version 2's smallest: kind, anchor x and y, and the length of an empty body.
        let count = try readCount("pieces", minimumBytes: found == kindsVersion ? 4 : 9, from: &reader)
        var pieces: [Stroke] = []
        pieces.reserveCapacity(count)
        for index in 0..<count {
            if found == kindsVersion {
                pieces.append(try decodeKindPiece(index, key: key, from: &reader))
            } else {
                pieces.append(try decodePiece(index, key: key, from: &reader))
            }
        }
        if found == kindsVersion, pieces.allSatisfy(\.kind.isPath) { throw .pathsInKindsVersion }
        guard reader.remaining == 0 else { throw .trailingBytes(count: reader.remaining) }
        guard let group = StrokeGroup(key: key, pieces: pieces) else { throw .emptyList(field: "pieces") }
        return group
    }

    static func decodePiece(
        _ index: Int, key: StrokeKey, from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> Stroke {
        let flags = try reader.readByte("flags")
        guard flags & ~(transformFlag | maskFlag) == 0 else { throw .reservedFlags(flags, piece: index) }
        let toolValue = try reader.readByte("tool")
        guard let tool = InkTool(rawValue: toolValue) else { throw .unknownTool(toolValue, piece: index) }
        let colour = try reader.readByte("colour")
        let widthUnits = FixedPoint.units(Ink.widthRange)
        let width = try checked(Int64(clamping: reader.readVarint("width")), in: widthUnits, "width")
        let createdAt = key.creationMilliseconds &+ (try reader.readZigzag("creation time"))

        let transform =
            flags & transformFlag != 0 ? try decodeTransform(piece: index, from: &reader) : .identity

        let path = try decodePath(from: &reader)
        let mask = flags & maskFlag != 0 ? try readMask(from: &reader) : StrokeMask.none
        let ink = Ink(tool: tool, colour: colour, width: FixedPoint.value(units: width))
        guard
            let stroke = Stroke(
                key: key, ink: ink, path: path, createdAtMilliseconds: createdAt, transform: transform,
                mask: mask)
        else { throw .emptyList(field: "path") }
        return stroke
    }

    private static func decodePath(
        from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> [StrokePoint] {
        let count = try readCount("path points", minimumBytes: 3, from: &reader)
        let limit = FixedPoint.coordinateUnitLimit
        let timeLimit = Int64(StrokePoint.maximumTimeOffset)
        var path: [StrokePoint] = []
        path.reserveCapacity(count)
        var x: Int64 = 0
        var y: Int64 = 0
        var t: Int64 = 0
        for _ in 0..<count {
            let dx = try checked(reader.readZigzag("path point"), in: -2 * limit...2 * limit, "x step")
            let dy = try checked(reader.readZigzag("path point"), in: -2 * limit...2 * limit, "y step")
            let dt = try checked(
                reader.readZigzag("path point"), in: -timeLimit...timeLimit, "time step")
            x = try checked(x + dx, in: -limit...limit, "x")
            y = try checked(y + dy, in: -limit...limit, "y")
            t = try checked(t + dt, in: 0...timeLimit, "time offset")
            path.append(StrokePoint(xUnits: x, yUnits: y, milliseconds: t))
        }
        return path
    }
}
