/// `export --format svg`: a standalone SVG 1.1 document of the drawing for a browser.
///
/// Geometry stays in canvas cells inside one `scale(cellWidth cellHeight)` group, so the picture
/// has the terminal's proportions: a stroke's width is measured in cells in both directions
/// (as the raster measures it), which makes a horizontal line twice as thick as a vertical one,
/// just as on the screen. Every marker is drawn first, translucent (`markerOpacity`), then every
/// pen, so markers stay under the ink as on the screen; within each layer groups are drawn in key
/// order (a later key on top), pieces in group order, each as a polyline with round caps and
/// joins (a single point as a dot), its transform applied. A piece with a mask references an SVG
/// `<mask>`: a white rectangle with the eraser sweeps drawn over it in black at twice their
/// radius, so erased ink is really hidden. The picture sits on a dark terminal's background (see
/// `SVGExportOptions.background`), so the palette reads as it did on the screen.
public enum SVGExporter {
    /// The SVG document text, ending in a line feed. An empty drawing is a blank picture of one
    /// cell plus the margin.
    public static func export(_ groups: [StrokeGroup], options: SVGExportOptions = SVGExportOptions())
        -> String
    {
        let ordered = DrawingExporter.canonicalOrder(groups)
        let extent = Raster.extent(of: ordered, mode: .block) ?? CellRect(x: 0, y: 0, width: 1, height: 1)
        let margin = options.margin
        let (cw, ch) = (options.cellWidth, options.cellHeight)
        let left = (extent.x - margin) * cw
        let top = (extent.y - margin) * ch
        let width = (extent.width + 2 * margin) * cw
        let height = (extent.height + 2 * margin) * ch

        var lines: [String] = [
            #"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" "#
                + #"width="\#(width)" height="\#(height)" viewBox="\#(left) \#(top) \#(width) \#(height)">"#,
        ]
        if let title = options.title { lines.append("  <title>\(XMLText.escape(title))</title>") }
        if let background = options.background {
            lines.append(
                #"  <rect x="\#(left)" y="\#(top)" width="\#(width)" height="\#(height)" "#
                    + #"fill="\#(XtermPalette.hex(background))"/>"#)
        }
        lines.append(
            #"  <g transform="scale(\#(cw) \#(ch))" fill="none" stroke-linecap="round" "#
                + #"stroke-linejoin="round">"#)
        var maskCount = 0
        // Markers are an underlay, as on the screen: every marker first, then every pen.
        for layer in [InkTool.marker, .pen] {
            for group in ordered {
                let pieces = group.pieces.filter { ($0.ink.tool == .marker) == (layer == .marker) }
                guard !pieces.isEmpty else { continue }
                lines.append("    <g>")
                lines.append("      <desc>\(XMLText.escape(group.key.rawValue))</desc>")
                for piece in pieces {
                    guard piece.kind.isPath else {
                        lines += textElements(piece, options: options).map { "      " + $0 }
                        continue
                    }
                    var maskReference = ""
                    if !piece.mask.isEmpty {
                        maskCount += 1
                        let id = "m\(maskCount)"
                        lines += maskElement(for: piece, id: id).map { "      " + $0 }
                        maskReference = #" mask="url(#\#(id))""#
                    }
                    lines.append(
                        "      " + pieceElement(piece, options: options, extraAttributes: maskReference))
                }
                lines.append("    </g>")
            }
        }
        lines.append("  </g>")
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A polyline through the points, or a filled circle when they are all one point (a
    /// zero-length polyline draws nothing in some renderers).
    private static func line(
        through points: [Vector2], width: Double, colour: String, opacity: String? = nil,
        extraAttributes: String
    ) -> String {
        let first = points[0]
        if points.allSatisfy({ $0 == first }) {
            let fillOpacity = opacity.map { #" fill-opacity="\#($0)""# } ?? ""
            return #"<circle cx="\#(ExportNumber.format(first.x))" cy="\#(ExportNumber.format(first.y))" "#
                + #"r="\#(ExportNumber.format(width / 2))" fill="\#(colour)""#
                + #"\#(fillOpacity)\#(extraAttributes)/>"#
        }
        let list = points.map { "\(ExportNumber.format($0.x)),\(ExportNumber.format($0.y))" }
            .joined(separator: " ")
        let strokeOpacity = opacity.map { #" stroke-opacity="\#($0)""# } ?? ""
        return #"<polyline points="\#(list)" stroke="\#(colour)" "#
            + #"stroke-width="\#(ExportNumber.format(width))"\#(strokeOpacity)\#(extraAttributes)/>"#
    }

    /// A text piece as one `<text>` per line, each character placed at its cell (`x` lists them),
    /// the characters its mask hides left out; nothing for a kind this build does not know. The
    /// text is laid out in pixels (the group's scale undone), so glyphs keep their shape.
    private static func textElements(_ piece: Stroke, options: SVGExportOptions) -> [String] {
        guard TextLayout(piece) != nil else { return [] }
        let (cw, ch) = (options.cellWidth, options.cellHeight)
        var rows: [Int: [(x: Int, glyph: Unicode.Scalar)]] = [:]
        for cell in Raster.glyphCells(of: piece, mode: .block) where cell.half == 0 && cell.glyph != " " {
            rows[cell.y, default: []].append((cell.x, cell.glyph))
        }
        let unscale = "scale(\(1 / Double(cw)) \(1 / Double(ch)))"
        let fontSize = ExportNumber.format(Double(ch * 4) / 5)
        return rows.keys.sorted().compactMap { y in
            guard let row = rows[y] else { return nil }
            let xs = row.map { String($0.x * cw) }.joined(separator: " ")
            var characters = String.UnicodeScalarView()
            for entry in row { characters.append(entry.glyph) }
            let baseline = ExportNumber.format((Double(y) + 0.8) * Double(ch))
            return #"<text x="\#(xs)" y="\#(baseline)" font-family="monospace" font-size="\#(fontSize)" "#
                + #"fill="\#(options.hex(forInk: piece.ink.colour))" stroke="none" transform="\#(unscale)">"#
                + XMLText.escape(String(characters)) + "</text>"
        }
    }

    /// How much of what lies under a marker shows through it: enough to read as a highlighter
    /// over the dark background, little enough that overlapping markers still blend.
    static let markerOpacity = "0.4"

    private static func pieceElement(_ piece: Stroke, options: SVGExportOptions, extraAttributes: String)
        -> String
    {
        line(
            through: piece.canvasSpine, width: piece.ink.width,
            colour: options.hex(forInk: piece.ink.colour),
            opacity: piece.ink.tool == .marker ? markerOpacity : nil, extraAttributes: extraAttributes)
    }

    /// The `<mask>` of a piece, in the same (canvas cell) coordinates as the piece. Its region
    /// is given in user space: the default region is relative to the bounding box of the
    /// geometry, which is empty for a straight horizontal or vertical line.
    private static func maskElement(for piece: Stroke, id: String) -> [String] {
        let box = PlanarGeometry.bounds(of: piece.canvasSpine) ?? (0, 0, 0, 0)
        let pad = piece.ink.width + 1
        let (minX, minY) = (box.minX - pad, box.minY - pad)
        let (maxX, maxY) = (box.maxX + pad, box.maxY + pad)
        let region =
            #"x="\#(ExportNumber.format(minX))" y="\#(ExportNumber.format(minY))" "#
            + #"width="\#(ExportNumber.format(maxX - minX))" height="\#(ExportNumber.format(maxY - minY))""#
        var lines = [
            #"<mask id="\#(id)" maskUnits="userSpaceOnUse" \#(region)>"#,
            ##"  <rect \##(region) fill="#ffffff"/>"##,
        ]
        for sweep in piece.mask.sweeps {
            lines.append(
                "  "
                    + line(
                        through: sweep.path.map(piece.transform.apply), width: 2 * sweep.radius,
                        colour: "#000000", extraAttributes: ""))
        }
        lines.append("</mask>")
        return lines
    }
}
