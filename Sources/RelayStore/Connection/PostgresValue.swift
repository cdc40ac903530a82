import ByteCoding

/// A statement parameter, sent in PostgreSQL's binary format (arrays of one dimension included),
/// so bytes go over the wire as they are: no quoting, no escaping, no text round trip.
public enum PostgresValue: Equatable, Sendable {
    case null
    case text(String)
    case int8(Int64)
    case bytea([UInt8])
    case textArray([String])
    case int8Array([Int64])
    case byteaArray([[UInt8]])

    /// The type's OID (pg_type), given with the parameter so no cast is needed in the SQL.
    var typeOID: UInt32 {
        switch self {
        case .null: return 0
        case .text: return 25
        case .int8: return 20
        case .bytea: return 17
        case .textArray: return 1009
        case .int8Array: return 1016
        case .byteaArray: return 1001
        }
    }

    /// The binary form, or nil for SQL NULL.
    var binary: [UInt8]? {
        switch self {
        case .null: return nil
        case .text(let text): return Array(text.utf8)
        case .int8(let value):
            var writer = ByteWriter()
            writer.writeFixed(value, .bigEndian)
            return writer.bytes
        case .bytea(let bytes): return bytes
        case .textArray(let texts): return Self.array(texts.map { Array($0.utf8) }, elementOID: 25)
        case .int8Array(let values):
            return Self.array(
                values.map {
                    var writer = ByteWriter()
                    writer.writeFixed($0, .bigEndian)
                    return writer.bytes
                }, elementOID: 20)
        case .byteaArray(let elements): return Self.array(elements, elementOID: 17)
        }
    }

    /// array_send's layout: dimensions, a null flag, the element type, (size, lower bound) per
    /// dimension, then each element behind its 32-bit length. An empty array has no dimension.
    private static func array(_ elements: [[UInt8]], elementOID: UInt32) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: 20 + elements.reduce(0) { $0 + 4 + $1.count })
        writer.writeFixed(Int32(elements.isEmpty ? 0 : 1), .bigEndian)
        writer.writeFixed(Int32(0), .bigEndian)
        writer.writeFixed(elementOID, .bigEndian)
        if !elements.isEmpty {
            writer.writeFixed(Int32(clamping: elements.count), .bigEndian)
            writer.writeFixed(Int32(1), .bigEndian)
        }
        for element in elements {
            writer.writeFixed(Int32(clamping: element.count), .bigEndian)
            writer.writeBytes(element)
        }
        return writer.bytes
    }
}
