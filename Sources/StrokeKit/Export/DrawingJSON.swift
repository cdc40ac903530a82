import JSONText

/// `export --format json` and its importer: the strokes of a drawing as a JSON document.
///
/// ```
/// {
///   "format": "drawtogether-drawing",
///   "version": 1,
///   "groups": [
///     {
///       "key": "2026-03-25T16:20:14.127Z~3fa2c1",
///       "pieces": [
///         {
///           "tool": "pen",
///           "colour": 196,
///           "width": 0.25,
///           "createdAt": 1774455614127,
///           "transform": {"dx": 0, "dy": 0},
///           "points": [[1, 2, 0], [3.5, 4, 16]],
///           "mask": [{"radius": 1, "path": [[2, 3], [2.5, 3.5]]}]
///         }
///       ]
///     }
///   ]
/// }
/// ```
///
/// Coordinates, widths and radii are in canvas cells (on the 1/16 grid, written exactly), the
/// third number of a point is milliseconds since the stroke began, `colour` an xterm-256 index,
/// `createdAt` Unix milliseconds. Groups are in key order and the layout is fixed, so the same
/// drawing always gives the same bytes. The importer is strict: unknown fields, duplicate keys,
/// values outside the model's ranges and anything but exactly this shape are errors with the
/// line and column; only `transform` and `mask` may be left out (no move, nothing erased).
///
/// A text piece has `text` (its lines), `colour`, `createdAt`, `origin` ([x, y]) and the optional
/// `transform` and `mask` instead of a path's fields; a piece of a kind from a newer build has
/// `kind`, `origin` and `body` (its bytes in base64), kept as they are.
public enum DrawingJSON {
    /// The value of the `format` field.
    public static let formatName = "drawtogether-drawing"
    /// The version this code writes and reads.
    public static let version = 1

    /// Bounds on what the importer accepts, so a hostile file cannot exhaust memory or stack.
    public struct Limits: Hashable, Sendable {
        /// The longest input in UTF-8 bytes.
        public var maximumBytes: Int
        /// The deepest nesting of arrays and objects (the format itself needs 9).
        public var maximumDepth: Int

        public init(maximumBytes: Int = 64 << 20, maximumDepth: Int = 32) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }
    }

    /// A place in the input: 1-based line and column (counted in characters, as `TextPosition`
    /// counts them) and the 0-based UTF-8 byte offset.
    public struct Position: Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let offset: Int

        public init(line: Int, column: Int, offset: Int) {
            self.line = line
            self.column = column
            self.offset = offset
        }

        /// The line and column of a UTF-8 offset in `text`, counted as `TextPosition` counts them.
        init(utf8Offset offset: Int, in text: String) {
            let end = min(max(offset, 0), text.utf8.count)
            let position = TextPosition(utf8Offset: end, in: text)
            self.init(line: position.line, column: position.column, offset: end)
        }

        public var description: String { "line \(line), column \(column)" }
    }

    /// The document of a drawing, ending in a line feed.
    public static func encode(_ groups: [StrokeGroup]) -> String {
        let ordered = DrawingExporter.canonicalOrder(groups)
        var lines = ["{", #"  "format": \#(JSONString.quoted(formatName)),"#, #"  "version": \#(version),"#]
        guard !ordered.isEmpty else {
            return (lines + [#"  "groups": []"#, "}"]).joined(separator: "\n") + "\n"
        }
        lines.append(#"  "groups": ["#)
        for (groupIndex, group) in ordered.enumerated() {
            lines.append("    {")
            lines.append(#"      "key": \#(JSONString.quoted(group.key.rawValue)),"#)
            lines.append(#"      "pieces": ["#)
            for (pieceIndex, piece) in group.pieces.enumerated() {
                lines += pieceLines(piece).map { "        " + $0 }
                if pieceIndex < group.pieces.count - 1 { lines[lines.count - 1] += "," }
            }
            lines.append("      ]")
            lines.append(groupIndex < ordered.count - 1 ? "    }," : "    }")
        }
        lines += ["  ]", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pieceLines(_ piece: Stroke) -> [String] {
        let number = ExportNumber.format
        let origin = "[\(number(piece.origin.x)), \(number(piece.origin.y))]"
        switch piece.kind {
        case .path: break
        case .text(let text):
            let sweeps = piece.mask.sweeps.map { sweep in
                let path = sweep.path.map { "[\(number($0.x)), \(number($0.y))]" }.joined(separator: ", ")
                return #"{"radius": \#(number(sweep.radius)), "path": [\#(path)]}"#
            }
            return [
                "{",
                #"  "text": [\#(text.lines.map(JSONString.quoted).joined(separator: ", "))],"#,
                #"  "colour": \#(piece.ink.colour),"#,
                #"  "createdAt": \#(piece.createdAtMilliseconds),"#,
                #"  "transform": {"dx": \#(number(piece.transform.dx)), "dy": \#(number(piece.transform.dy))},"#,
                #"  "origin": \#(origin),"#,
                #"  "mask": [\#(sweeps.joined(separator: ", "))]"#,
                "}",
            ]
        case .unknown(let unknown):
            return [
                "{",
                #"  "kind": \#(unknown.code),"#,
                #"  "origin": \#(origin),"#,
                #"  "body": \#(JSONString.quoted(Base64.encode(unknown.body)))"#,
                "}",
            ]
        }
        let points = piece.path.map {
            "[\(number($0.point.x)), \(number($0.point.y)), \($0.timeOffsetMilliseconds)]"
        }
        let sweeps = piece.mask.sweeps.map { sweep in
            let path = sweep.path.map { "[\(number($0.x)), \(number($0.y))]" }.joined(separator: ", ")
            return #"{"radius": \#(number(sweep.radius)), "path": [\#(path)]}"#
        }
        return [
            "{",
            #"  "tool": \#(JSONString.quoted(toolName(piece.ink.tool))),"#,
            #"  "colour": \#(piece.ink.colour),"#,
            #"  "width": \#(number(piece.ink.width)),"#,
            #"  "createdAt": \#(piece.createdAtMilliseconds),"#,
            #"  "transform": {"dx": \#(number(piece.transform.dx)), "dy": \#(number(piece.transform.dy))},"#,
            #"  "points": [\#(points.joined(separator: ", "))],"#,
            #"  "mask": [\#(sweeps.joined(separator: ", "))]"#,
            "}",
        ]
    }

    /// The name of a tool in the document. Names, like the codec's raw values, are part of the
    /// format: never reuse one.
    static func toolName(_ tool: InkTool) -> String {
        switch tool {
        case .pen: "pen"
        case .marker: "marker"
        }
    }

    static func tool(named name: String) -> InkTool? {
        InkTool.allCases.first { toolName($0) == name }
    }
}
