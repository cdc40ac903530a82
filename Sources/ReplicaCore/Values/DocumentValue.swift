import ByteCoding

/// A value in a document, as queries read and write it.
///
/// In the replica an `object` is an add-wins map (each key merges on its own) and every other case
/// is a last-write-wins register; an `array` is one register as a whole.
public enum DocumentValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A string that is the canonical base64 text of these bytes (`CanonicalBase64`), held as the
    /// bytes: the same value as `.string` of that text (equal to it, hashed as it, written and
    /// printed as it), so no reader can tell them apart. The app stores every stroke group so:
    /// the replica reads it from its file, keeps it, sends it and hands it to the drawing as
    /// bytes, where a text would be made on every read and taken apart again on every use.
    case base64([UInt8])
    case array([DocumentValue])
    case object([String: DocumentValue])
}

extension DocumentValue: Hashable {
    public static func == (lhs: DocumentValue, rhs: DocumentValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.base64(let a), .base64(let b)): a == b
        case (.base64(let bytes), .string(let text)), (.string(let text), .base64(let bytes)):
            CanonicalBase64.encode(bytes) == text
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// A `.base64` value hashes as the string it is.
    public func hash(into hasher: inout Hasher) {
        func tagged(_ tag: UInt8, _ payload: some Hashable) {
            hasher.combine(tag)
            hasher.combine(payload)
        }
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let flag): tagged(1, flag)
        case .number(let number): tagged(2, number)
        case .string(let text): tagged(3, text)
        case .base64(let bytes): DocumentValue.string(CanonicalBase64.encode(bytes)).hash(into: &hasher)
        case .array(let elements): tagged(4, elements)
        case .object(let entries): tagged(5, entries)
        }
    }
}

extension DocumentValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        switch self {
        case .string(let value): value
        case .base64(let bytes): CanonicalBase64.encode(bytes)
        default: nil
        }
    }

    /// The bytes whose canonical base64 text this string is, without making the text of a
    /// `.base64` value; nil for any other value, a string that is not canonical base64 among them.
    public var base64Bytes: [UInt8]? {
        switch self {
        case .base64(let bytes): bytes
        case .string(let text): try? CanonicalBase64.decode(text)
        default: nil
        }
    }

    /// The entries, if this is an object.
    public var objectValue: [String: DocumentValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}
