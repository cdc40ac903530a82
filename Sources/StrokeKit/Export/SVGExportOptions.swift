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
    /// The xterm-256 palette index of the background, or nil for a transparent one. White (15)
    /// by default: a picture meant for a browser or a printed page.
    public var background: UInt8?
    /// The document's `<title>` (a browser shows it as the tab name), e.g. the drawing's name.
    public var title: String?

    public init(
        cellWidth: Int = 10, cellHeight: Int = 20, margin: Int = 1, background: UInt8? = 15,
        title: String? = nil
    ) {
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
        self.margin = max(0, margin)
        self.background = background
        self.title = title
    }
}
