/// What a stroke is: ink along its path, text at its origin, or a kind this build does not know.
///
/// Every kind has a non-empty `Stroke.path`: a freehand stroke (and a line, box or ellipse, which
/// are paths too) is inked along it; text and unknown kinds have one point there, the origin of
/// the text or the place a placeholder shows.
public enum StrokeKind: Hashable, Sendable {
    /// Ink along the path.
    case path
    /// Characters whose first cell is the one holding the path's only point.
    case text(StrokeText)
    /// A kind written by a newer build: kept byte for byte, never rewritten, shown as a
    /// placeholder at the path's only point. Boxed (it is rare), so a kind is one word.
    indirect case unknown(UnknownStrokeKind)

    /// The text, for a text stroke.
    public var text: StrokeText? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// Whether the stroke is ink along its path.
    public var isPath: Bool {
        if case .path = self { return true }
        return false
    }

    /// Whether this is a kind from a newer build.
    public var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }
}

/// A piece of a kind this build cannot read, as the version-2 codec carries it: its kind number
/// and its body, exactly as received.
public struct UnknownStrokeKind: Hashable, Sendable {
    /// The kind number (2 and up; 0 is a path and 1 text).
    public let code: UInt64
    /// The piece's bytes after its header, kept so that encoding the group again gives the bytes
    /// it arrived as.
    public let body: [UInt8]

    public init(code: UInt64, body: [UInt8]) {
        self.code = code
        self.body = body
    }
}
