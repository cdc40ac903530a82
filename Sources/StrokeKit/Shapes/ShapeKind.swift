/// The shapes the line, box and ellipse tools draw. A shape is stored as an ordinary stroke (its
/// path), so nothing here is part of the encoding.
public enum ShapeKind: Hashable, Sendable, CaseIterable {
    /// A straight line from the press to the release.
    case line
    /// A rectangle with the press and the release at opposite corners.
    case box
    /// An ellipse inside the rectangle the press and the release span.
    case ellipse
}
