extension DocumentValue {
    /// How deep arrays and objects may nest in decoded input, so hostile bytes cannot exhaust the stack.
    static let maximumDecodingDepth = 64

    private enum Tag: UInt8 {
        case null = 0, falseValue, trueValue, number, string, array, object
    }

    /// Deterministic: object keys are written in sorted order.
    func write(to writer: inout BinaryWriter) {
        switch self {
        case .null: writer.write(byte: Tag.null.rawValue)
        case .bool(let flag): writer.write(byte: (flag ? Tag.trueValue : Tag.falseValue).rawValue)
        case .number(let number):
            writer.write(byte: Tag.number.rawValue)
            writer.write(double: number)
        case .string(let text):
            writer.write(byte: Tag.string.rawValue)
            writer.write(string: text)
        case .array(let elements):
            writer.write(byte: Tag.array.rawValue)
            writer.write(varint: UInt64(elements.count))
            for element in elements { element.write(to: &writer) }
        case .object(let entries):
            writer.write(byte: Tag.object.rawValue)
            writer.write(varint: UInt64(entries.count))
            for key in entries.keys.sorted() {
                writer.write(string: key)
                entries[key]?.write(to: &writer)
            }
        }
    }

    static func read(from reader: inout BinaryReader, depth: Int = 0) throws -> DocumentValue {
        guard depth < maximumDecodingDepth else {
            throw BinaryDecodingError.nestedTooDeep(offset: reader.offset, limit: maximumDecodingDepth)
        }
        let start = reader.offset
        guard let tag = Tag(rawValue: try reader.readByte()) else {
            throw BinaryDecodingError.invalid(what: "value tag", offset: start)
        }
        switch tag {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .number: return .number(try reader.readDouble())
        case .string: return .string(try reader.readString())
        case .array:
            var elements: [DocumentValue] = []
            for _ in 0..<(try reader.readCount()) { elements.append(try read(from: &reader, depth: depth + 1)) }
            return .array(elements)
        case .object:
            var entries: [String: DocumentValue] = [:]
            for _ in 0..<(try reader.readCount(minimumSize: 2)) {
                let keyOffset = reader.offset
                let key = try reader.readString()
                guard entries.updateValue(try read(from: &reader, depth: depth + 1), forKey: key) == nil else {
                    throw BinaryDecodingError.invalid(what: "duplicate key '\(key)'", offset: keyOffset)
                }
            }
            return .object(entries)
        }
    }
}
