/// A value in a document, as queries read and write it.
///
/// In the replica an `object` is an add-wins map (each key merges on its own) and every other case
/// is a last-write-wins register; an `array` is one register as a whole.
public enum DocumentValue: Equatable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DocumentValue])
    case object([String: DocumentValue])
}

extension DocumentValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The entries, if this is an object.
    public var objectValue: [String: DocumentValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}
