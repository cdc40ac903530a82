import ByteCoding

/// Version 2: a group with text, or with a kind of piece from a newer build. Each piece carries
/// its kind, where it sits and its length, so a reader that does not know a kind can keep the
/// piece as it is and show a placeholder where it sits:
///
/// ```
/// version 0x02 · key length · key UTF-8 · piece count
/// per piece: kind · anchor x, y (signed, absolute) · body length · body
///   kind 0, a path: body = a version-1 piece; the anchor is its first point (before its transform)
///   kind 1, text:   body = flags (bit 0 transform, bit 1 mask) · colour
///                   · createdAt minus the key's time (signed) · [transform dx, dy (signed)]
///                   · line count · per line: byte length · UTF-8 · [mask, as a path's]
///                   the anchor is the origin; no control characters, no scalar that takes no
///                   column, the last line not empty
///   kind 2 and up:  body kept as bytes
/// ```
///
/// A group of paths alone is always written as version 1 and refused as version 2, so one group
/// still has one encoding.
extension StrokeGroupCodec {
    /// The kind numbers of version 2; every other number is a kind from a newer build.
    static let pathKind: UInt64 = 0
    static let textKind: UInt64 = 1

    /// The version-2 bytes of a group.
    static func encodeKinds(_ group: StrokeGroup) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeByte(kindsVersion)
        writer.writeUTF8(group.key.rawValue, prefix: .varint)
        writer.writeVarint(UInt64(group.base.count))
        for piece in group.base {
            var body = ByteWriter()
            let code: UInt64
            switch piece.kind {
            case .path:
                code = pathKind
                writePathPiece(piece, key: group.key, to: &body)
            case .text(let text):
                code = textKind
                writeText(text, of: piece, key: group.key, to: &body)
            case .unknown(let unknown):
                code = unknown.code
                body.writeBytes(unknown.body)
            }
            writer.writeVarint(code)
            writer.writeZigzag(FixedPoint.units(piece.origin.x))
            writer.writeZigzag(FixedPoint.units(piece.origin.y))
            writer.writeBytes(body.bytes, prefix: .varint)
        }
        return writer.bytesAtTheirSize
    }

    private static func writeText(
        _ text: StrokeText, of piece: Stroke, key: StrokeKey, to writer: inout ByteWriter
    ) {
        var flags: UInt8 = 0
        if !piece.transform.isIdentity { flags |= transformFlag }
        if !piece.mask.isEmpty { flags |= maskFlag }
        writer.writeByte(flags)
        writer.writeByte(piece.ink.colour)
        writer.writeZigzag(piece.createdAtMilliseconds &- key.creationMilliseconds)
        if !piece.transform.isIdentity {
            writer.writeZigzag(FixedPoint.units(piece.transform.dx))
            writer.writeZigzag(FixedPoint.units(piece.transform.dy))
        }
        writer.writeVarint(UInt64(text.lines.count))
        for line in text.lines { writer.writeUTF8(line, prefix: .varint) }
        if !piece.mask.isEmpty { write(piece.mask, to: &writer) }
    }

    /// One version-2 piece.
    static func decodeKindPiece(
        _ index: Int, key: StrokeKey, from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> Stroke {
        let code = try reader.readVarint("kind")
        let limit = FixedPoint.coordinateUnitLimit
        let x = try checked(reader.readZigzag("anchor"), in: -limit...limit, "anchor")
        let y = try checked(reader.readZigzag("anchor"), in: -limit...limit, "anchor")
        let anchor = CanvasPoint(x: FixedPoint.value(units: x), y: FixedPoint.value(units: y))
        let length = try reader.readCount("piece length", prefix: .varint)
        let start = reader.offset
        let piece: Stroke
        switch code {
        case pathKind:
            piece = try decodePiece(index, key: key, from: &reader)
            guard piece.origin == anchor else { throw .anchorMismatch(piece: index) }
        case textKind:
            piece = try decodeText(index, key: key, origin: anchor, from: &reader)
        default:
            let body = try reader.readBytes("piece body", count: length)
            return Stroke(
                key: key, unknown: UnknownStrokeKind(code: code, body: Array(body)), anchor: anchor,
                createdAtMilliseconds: key.creationMilliseconds)
        }
        let used = reader.offset - start
        guard used == length else { throw .pieceLength(piece: index, declared: length, used: used) }
        return piece
    }

    private static func decodeText(
        _ index: Int, key: StrokeKey, origin: CanvasPoint, from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> Stroke {
        let flags = try reader.readByte("flags")
        guard flags & ~(transformFlag | maskFlag) == 0 else { throw .reservedFlags(flags, piece: index) }
        let colour = try reader.readByte("colour")
        let createdAt = key.creationMilliseconds &+ (try reader.readZigzag("creation time"))
        let transform =
            flags & transformFlag != 0 ? try decodeTransform(piece: index, from: &reader) : .identity
        let count = try readCount("text lines", minimumBytes: 1, from: &reader)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for _ in 0..<count {
            let offset = reader.offset
            let line = try reader.readUTF8("text line", prefix: .varint)
            guard line.unicodeScalars.allSatisfy(StrokeText.isShowable) else {
                throw .invalidText(piece: index, offset: offset)
            }
            lines.append(line)
        }
        // What the model would change (an empty last line) is refused, so the bytes stay the only
        // encoding of the text they decode to.
        guard let text = StrokeText(lines: lines), text.lines == lines else {
            throw .invalidText(piece: index, offset: reader.offset)
        }
        let mask = flags & maskFlag != 0 ? try readMask(from: &reader) : StrokeMask.none
        return Stroke(
            key: key, text: text, colour: colour, origin: origin, createdAtMilliseconds: createdAt,
            transform: transform, mask: mask)
    }
}
