import ByteCoding

/// Masks, sweep paths and the checks every list and value of the codec goes through.
extension StrokeGroupCodec {
    /// A mask: sweep count, then per sweep its radius and its points.
    static func write(_ mask: StrokeMask, to writer: inout ByteWriter) {
        writer.writeVarint(UInt64(mask.sweeps.count))
        for sweep in mask.sweeps {
            writer.writeVarint(UInt64(FixedPoint.units(sweep.radius)))
            write(sweep.path, to: &writer)
        }
    }

    /// Points as absolute fixed-point units first, then deltas: a path is mostly small steps.
    static func write(_ points: [CanvasPoint], to writer: inout ByteWriter) {
        writer.writeVarint(UInt64(points.count))
        var previousX: Int64 = 0
        var previousY: Int64 = 0
        for point in points {
            let x = FixedPoint.units(point.x)
            let y = FixedPoint.units(point.y)
            writer.writeZigzag(x - previousX)
            writer.writeZigzag(y - previousY)
            previousX = x
            previousY = y
        }
    }

    /// A count of items that each take at least `minimumBytes`; every list in a group is
    /// non-empty, and a count the rest cannot hold is refused before anything is allocated.
    static func readCount(
        _ field: StaticString, minimumBytes: Int, from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> Int {
        let count = try reader.readCount(field, prefix: .varint, minimumBytes: minimumBytes)
        guard count > 0 else { throw .emptyList(field: field.description) }
        return count
    }

    /// A piece's move (its transform flag was set): two coordinates in range, not both zero.
    static func decodeTransform(piece index: Int, from reader: inout ByteReader<StrokeCodecError>)
        throws(StrokeCodecError) -> StrokeTransform
    {
        let limit = FixedPoint.coordinateUnitLimit
        let dx = try checked(reader.readZigzag("transform"), in: -limit...limit, "transform")
        let dy = try checked(reader.readZigzag("transform"), in: -limit...limit, "transform")
        guard dx != 0 || dy != 0 else { throw .zeroTransform(piece: index) }
        return StrokeTransform(dx: FixedPoint.value(units: dx), dy: FixedPoint.value(units: dy))
    }

    /// A value checked against an inclusive range.
    static func checked(
        _ value: Int64, in range: ClosedRange<Int64>, _ field: String
    ) throws(StrokeCodecError) -> Int64 {
        guard range.contains(value) else { throw .valueOutOfRange(field: field, value: value) }
        return value
    }

    /// Reads a mask written by `write(_:to:)`.
    static func readMask(
        from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> StrokeMask {
        let count = try readCount("mask sweeps", minimumBytes: 4, from: &reader)
        var sweeps: [MaskSweep] = []
        sweeps.reserveCapacity(count)
        let radiusUnits = FixedPoint.units(MaskSweep.radiusRange)
        for _ in 0..<count {
            let radius = try checked(
                Int64(clamping: reader.readVarint("sweep radius")), in: radiusUnits, "sweep radius")
            let path = try readPoints("sweep points", from: &reader)
            guard let sweep = MaskSweep(radius: FixedPoint.value(units: radius), path: path) else {
                throw .emptyList(field: "sweep points")
            }
            sweeps.append(sweep)
        }
        return StrokeMask(sweeps: sweeps)
    }

    /// Reads points written by `write(_:to:)`, each within the coordinate limit.
    static func readPoints(
        _ field: StaticString, from reader: inout ByteReader<StrokeCodecError>
    ) throws(StrokeCodecError) -> [CanvasPoint] {
        let count = try readCount(field, minimumBytes: 2, from: &reader)
        let name = field.description
        let limit = FixedPoint.coordinateUnitLimit
        var points: [CanvasPoint] = []
        points.reserveCapacity(count)
        var x: Int64 = 0
        var y: Int64 = 0
        for _ in 0..<count {
            let dx = try checked(reader.readZigzag(field), in: -2 * limit...2 * limit, name)
            let dy = try checked(reader.readZigzag(field), in: -2 * limit...2 * limit, name)
            x = try checked(x + dx, in: -limit...limit, name)
            y = try checked(y + dy, in: -limit...limit, name)
            points.append(CanvasPoint(x: FixedPoint.value(units: x), y: FixedPoint.value(units: y)))
        }
        return points
    }
}
