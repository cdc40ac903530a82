/// The characters the chrome (status bar, overlays) is drawn with: box drawing and symbols in a
/// UTF-8 terminal, plain ASCII when the locale cannot show anything else.
public struct ChromeGlyphs: Equatable, Sendable {
    public var topLeft: Unicode.Scalar
    public var topRight: Unicode.Scalar
    public var bottomLeft: Unicode.Scalar
    public var bottomRight: Unicode.Scalar
    public var horizontal: Unicode.Scalar
    public var vertical: Unicode.Scalar
    /// Between status bar fields.
    public var separator: Unicode.Scalar
    /// Marks text cut short.
    public var ellipsis: Unicode.Scalar
    /// The status bar's colour sample, painted in the current colour.
    public var swatch: Unicode.Scalar
    /// On an overlay's frame: there are more lines above / below.
    public var moreAbove: Unicode.Scalar
    public var moreBelow: Unicode.Scalar

    /// Whether every glyph is ASCII: then text in the chrome avoids other characters too (a
    /// size reads `0.25`, not `¼`).
    public var isASCII: Bool {
        [
            topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical, separator, ellipsis, swatch,
            moreAbove, moreBelow,
        ]
        .allSatisfy(\.isASCII)
    }

    public static let unicode = ChromeGlyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        separator: "│", ellipsis: "…", swatch: "█", moreAbove: "↑", moreBelow: "↓")

    public static let ascii = ChromeGlyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        separator: "|", ellipsis: "~", swatch: "#", moreAbove: "^", moreBelow: "v")
}
