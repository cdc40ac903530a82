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
    /// the near-black grey 234 (#1c1c1c) of a dark terminal: the pen palette is chosen for one
    /// (its first colour, the default pen, is white), so on white paper it would vanish.
    public var background: UInt8?
    /// The document's `<title>` (a browser shows it as the tab name), e.g. the drawing's name.
    public var title: String?

    /// The palette index of the default background (#1c1c1c).
    public static let defaultBackground: UInt8 = 234

    public init(
        cellWidth: Int = 10, cellHeight: Int = 20, margin: Int = 1, background: UInt8? = defaultBackground,
        title: String? = nil
    ) {
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
        self.margin = max(0, margin)
        self.background = background
        self.title = title
    }
}
