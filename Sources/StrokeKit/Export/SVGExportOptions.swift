/// How `SVGExporter` lays out its picture.
public struct SVGExportOptions: Hashable, Sendable {
    /// Pixels a canvas cell is wide (at least 1). A terminal cell is about twice as tall as it
    /// is wide, hence the default 10 × 20.
    public var cellWidth: Int {
        didSet { cellWidth = max(1, cellWidth) }
    }
    /// Pixels a canvas cell is tall (at least 1).
    public var cellHeight: Int {
        didSet { cellHeight = max(1, cellHeight) }
    }
    /// Blank cells around the drawing's extent (at least 0), so round caps and wide strokes are
    /// never clipped by the edge of the picture.
    public var margin: Int {
        didSet { margin = max(0, margin) }
    }
    /// The xterm-256 palette index of the background, or nil for a transparent one. By default
    /// the near-black grey 234 (#1c1c1c) of a dark terminal (`dark`); `light` is white paper.
    public var background: UInt8?
    /// The palette index default ink (`Ink.defaultInkColour`) is drawn in: the foreground of
    /// the theme, white (15) on the dark background, black (16) on the light one.
    public var defaultInk: UInt8
    /// The document's `<title>` (a browser shows it as the tab name), e.g. the drawing's name.
    public var title: String?

    /// The palette index of the default background (#1c1c1c).
    public static let defaultBackground: UInt8 = 234

    public init(
        cellWidth: Int = 10, cellHeight: Int = 20, margin: Int = 1, background: UInt8? = defaultBackground,
        defaultInk: UInt8 = 15, title: String? = nil
    ) {
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
        self.margin = max(0, margin)
        self.background = background
        self.defaultInk = defaultInk
        self.title = title
    }

    /// The picture as a dark terminal shows it (the default): near-black, default ink white.
    public static let dark = SVGExportOptions()
    /// The picture on white paper, as a light terminal shows it: default ink black.
    public static let light = SVGExportOptions(background: 231, defaultInk: 16)

    /// The colour of an ink's palette index in this picture: default ink in the theme's
    /// foreground, every other index as the xterm palette has it.
    public func hex(forInk colour: UInt8) -> String {
        XtermPalette.hex(colour == Ink.defaultInkColour ? defaultInk : colour)
    }
}
