import ByteCoding

extension DocumentValue {
    /// How deep arrays and objects may nest in decoded input, so hostile bytes cannot exhaust the stack.
    static let maximumDecodingDepth = 64

    private enum Tag: UInt8 {
        case null = 0, falseValue, trueValue, number, string, array, object
        /// A canonical base64 string as the bytes it stands for (event block format 3 only).
        case packedBase64
    }

    /// Deterministic: object keys are written in sorted order. With `packsBase64` (event block
    /// format 3), a string that is canonical base64 is written as its bytes (`PackedBase64`).
    func write(to writer: inout ByteWriter, packsBase64: Bool = false) {
        switch self {
        case .null: writer.writeByte(Tag.null.rawValue)
        case .bool(let flag): writer.writeByte((flag ? Tag.trueValue : Tag.falseValue).rawValue)
        case .number(let number):
            writer.writeByte(Tag.number.rawValue)
            writer.writeFixed(number.bitPattern, .littleEndian)
        case .string(let text):
            if packsBase64, PackedBase64.write(text, tag: Tag.packedBase64.rawValue, to: &writer) { return }
            writer.writeByte(Tag.string.rawValue)
            writer.writeUTF8(text, prefix: .varint)
        case .base64(let bytes):
            // The bytes `.string` of its text writes: packed (never empty), or the text.
            if packsBase64, !bytes.isEmpty {
                writer.writeByte(Tag.packedBase64.rawValue)
                writer.writeBytes(bytes, prefix: .varint)
                return
            }
            writer.writeByte(Tag.string.rawValue)
            writer.writeUTF8(CanonicalBase64.encode(bytes), prefix: .varint)
        case .array(let elements):
            writer.writeByte(Tag.array.rawValue)
            writer.writeVarint(UInt64(elements.count))
            for element in elements { element.write(to: &writer, packsBase64: packsBase64) }
        case .object(let entries):
            writer.writeByte(Tag.object.rawValue)
            writer.writeVarint(UInt64(entries.count))
            for key in entries.keys.sorted() {
                writer.writeUTF8(key, prefix: .varint)
                entries[key]?.write(to: &writer, packsBase64: packsBase64)
            }
        }
    }

    static func read(
        from reader: inout ByteReader<BinaryDecodingError>, depth: Int = 0, packsBase64: Bool = false
    ) throws -> DocumentValue {
        guard depth < maximumDecodingDepth else {
            throw BinaryDecodingError.nestedTooDeep(offset: reader.offset, limit: maximumDecodingDepth)
        }
        let start = reader.offset
        guard let tag = Tag(rawValue: try reader.readByte("value tag")), packsBase64 || tag != .packedBase64
        else {
            throw BinaryDecodingError.invalid(what: "value tag", offset: start)
        }
        switch tag {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .number:
            return .number(Double(bitPattern: try reader.readFixed("number", as: UInt64.self, .littleEndian)))
        case .string: return .string(try reader.readUTF8("string", prefix: .varint))
        case .packedBase64:
            let bytes = try reader.readBytes("packed base64", prefix: .varint)
            // The writer packs only strings of at least four characters (one byte or more).
            guard !bytes.isEmpty else {
                throw BinaryDecodingError.invalid(what: "packed base64", offset: start)
            }
            return .base64(Array(bytes))
        case .array:
            var elements: [DocumentValue] = []
            for _ in 0..<(try reader.readCount("array elements", prefix: .varint)) {
                elements.append(try read(from: &reader, depth: depth + 1, packsBase64: packsBase64))
            }
            return .array(elements)
        case .object:
            var entries: [String: DocumentValue] = [:]
            for _ in 0..<(try reader.readCount("object entries", prefix: .varint, minimumBytes: 2)) {
                let keyOffset = reader.offset
                let key = try reader.readUTF8("object key", prefix: .varint)
                guard
                    entries.updateValue(
                        try read(from: &reader, depth: depth + 1, packsBase64: packsBase64), forKey: key)
                        == nil
                else {
                    throw BinaryDecodingError.invalid(what: "duplicate key '\(key)'", offset: keyOffset)
                }
            }
            return .object(entries)
        }
    }
}
