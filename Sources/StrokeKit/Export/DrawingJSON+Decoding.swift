import JSONText

extension DrawingJSON {
    /// The groups of a `drawtogether-drawing` document, sorted by key (z-order).
    ///
    /// Strict: the input must be exactly the format `encode` writes (any whitespace and field
    /// order), except that `transform` and `mask` may be missing. Coordinates are snapped to the
    /// 1/16 grid like every value entering the model, but values outside the model's ranges are
    /// refused rather than clamped, so an import never silently changes a drawing.
    public static func decode(_ text: String, limits: Limits = Limits()) throws(DrawingJSONError)
        -> [StrokeGroup]
    {
        let root: JSONNode
        do {
            root = try JSONReader.parse(text, limits: limits.reader)
        } catch {
            throw DrawingJSONError(error, in: text)
        }
        return try DrawingDocumentReader(text: text).drawing(root)
    }
}

/// Checks a parsed JSON document against the drawing format and builds the model values.
private struct DrawingDocumentReader {
    let text: String

    func drawing(_ root: JSONNode) throws(DrawingJSONError) -> [StrokeGroup] {
        let document = "the document"
        // The format is checked first: for some other JSON file, "not a drawing" is the useful
        // message, not a list of fields it lacks.
        if case .object(let rootMembers) = root.value,
            let format = rootMembers.first(where: { $0.key == "format" })
        {
            let name = try string(format.value, path: "format")
            guard name == DrawingJSON.formatName else {
                throw .unsupportedFormat(name, at: position(format.value))
            }
        }
        let members = try fields(of: root, path: document, required: ["format", "version", "groups"])
        let version = members["version"] ?? root
        guard case .number(let literal) = version.value else {
            throw .wrongType(
                path: "version", expected: "a number", found: version.kind, at: position(version))
        }
        guard Int64(literal) == Int64(DrawingJSON.version) else {
            throw .unsupportedVersion(literal, at: position(version))
        }

        var groups: [StrokeGroup] = []
        var keys: Set<StrokeKey> = []
        for (index, node) in try array(members["groups"] ?? root, path: "groups").enumerated() {
            let path = "groups[\(index)]"
            let group = try self.group(node, path: path)
            guard keys.insert(group.key).inserted else {
                let keyNode = try fields(of: node, path: path, required: ["key", "pieces"])["key"] ?? node
                throw .duplicateGroupKey(group.key.rawValue, at: position(keyNode))
            }
            groups.append(group)
        }
        return groups.sorted { $0.key < $1.key }
    }

    private func group(_ node: JSONNode, path: String) throws(DrawingJSONError) -> StrokeGroup {
        let members = try fields(of: node, path: path, required: ["key", "pieces"])
        let keyNode = members["key"] ?? node
        guard let key = StrokeKey(rawValue: try string(keyNode, path: path + ".key")) else {
            throw .invalidValue(
                path: path + ".key",
                reason: "is not a stroke key (a UTC time like 2026-03-25T16:20:14.127Z, '~', "
                    + "then 1-16 characters of 0-9 and a-z)", at: position(keyNode))
        }
        let piecesNode = members["pieces"] ?? node
        let pieceNodes = try array(piecesNode, path: path + ".pieces", nonEmpty: true)
        var pieces: [Stroke] = []
        for (index, pieceNode) in pieceNodes.enumerated() {
            pieces.append(try piece(pieceNode, key: key, path: path + ".pieces[\(index)]"))
        }
        guard let group = StrokeGroup(key: key, pieces: pieces) else {
            throw .invalidValue(path: path + ".pieces", reason: "must not be empty", at: position(piecesNode))
        }
        return group
    }

    private func piece(_ node: JSONNode, key: StrokeKey, path: String) throws(DrawingJSONError) -> Stroke {
        if case .object(let all) = node.value {
            if all.contains(where: { $0.key == "text" }) { return try textPiece(node, key: key, path: path) }
            if all.contains(where: { $0.key == "kind" }) {
                return try unknownPiece(node, key: key, path: path)
            }
        }
        let members = try fields(
            of: node, path: path, required: ["tool", "colour", "width", "createdAt", "points"],
            optional: ["transform", "mask"])
        let toolNode = members["tool"] ?? node
        guard let tool = DrawingJSON.tool(named: try string(toolNode, path: path + ".tool")) else {
            let names = InkTool.allCases.map(DrawingJSON.toolName).joined(separator: " or ")
            throw .invalidValue(
                path: path + ".tool", reason: "is not a tool (\(names))", at: position(toolNode))
        }
        let colour = try integer(members["colour"] ?? node, path: path + ".colour", in: 0...255)
        let width = try number(members["width"] ?? node, path: path + ".width", in: Ink.widthRange)
        let createdAt = try integer(
            members["createdAt"] ?? node, path: path + ".createdAt", in: Int64.min...Int64.max)

        let transform = try transform(members["transform"], path: path + ".transform")

        var points: [StrokePoint] = []
        let pointsNode = members["points"] ?? node
        for (index, pointNode) in try array(pointsNode, path: path + ".points", nonEmpty: true).enumerated() {
            let pointPath = path + ".points[\(index)]"
            let values = try tuple(pointNode, path: pointPath, count: 3, meaning: "[x, y, milliseconds]")
            let time = try integer(
                values[2], path: pointPath + "[2]", in: 0...Int64(StrokePoint.maximumTimeOffset))
            points.append(
                StrokePoint(
                    x: try coordinate(values[0], path: pointPath + "[0]"),
                    y: try coordinate(values[1], path: pointPath + "[1]"), timeOffsetMilliseconds: Int(time)))
        }

        let sweeps = try sweeps(members["mask"], path: path + ".mask")
        guard
            let stroke = Stroke(
                key: key, ink: Ink(tool: tool, colour: UInt8(colour), width: width), path: points,
                createdAtMilliseconds: createdAt, transform: transform, mask: StrokeMask(sweeps: sweeps))
        else {
            throw .invalidValue(path: path + ".points", reason: "must not be empty", at: position(pointsNode))
        }
        return stroke
    }

    /// A piece's optional `transform` ({dx, dy}); the identity when absent.
    private func transform(_ node: JSONNode?, path: String) throws(DrawingJSONError) -> StrokeTransform {
        guard let node else { return .identity }
        let offsets = try fields(of: node, path: path, required: ["dx", "dy"])
        return StrokeTransform(
            dx: try coordinate(offsets["dx"] ?? node, path: path + ".dx"),
            dy: try coordinate(offsets["dy"] ?? node, path: path + ".dy"))
    }

    /// A piece's optional `mask`, a list of sweeps; none when absent.
    private func sweeps(_ node: JSONNode?, path: String) throws(DrawingJSONError) -> [MaskSweep] {
        guard let node else { return [] }
        var sweeps: [MaskSweep] = []
        for (index, sweepNode) in try array(node, path: path).enumerated() {
            sweeps.append(try sweep(sweepNode, path: path + "[\(index)]"))
        }
        return sweeps
    }

    private func textPiece(_ node: JSONNode, key: StrokeKey, path: String) throws(DrawingJSONError) -> Stroke
    {
        let members = try fields(
            of: node, path: path, required: ["text", "colour", "createdAt", "origin"],
            optional: ["transform", "mask"])
        let textNode = members["text"] ?? node
        var lines: [String] = []
        for (index, lineNode) in try array(textNode, path: path + ".text", nonEmpty: true).enumerated() {
            lines.append(try string(lineNode, path: path + ".text[\(index)]"))
        }
        guard let text = StrokeText(lines: lines), text.lines == lines else {
            throw .invalidValue(
                path: path + ".text",
                reason: "must be lines of characters a cell can show, the last one not empty",
                at: position(textNode))
        }
        let colour = try integer(members["colour"] ?? node, path: path + ".colour", in: 0...255)
        let createdAt = try integer(
            members["createdAt"] ?? node, path: path + ".createdAt", in: Int64.min...Int64.max)
        let origin = try point(members["origin"] ?? node, path: path + ".origin")
        let transform = try transform(members["transform"], path: path + ".transform")
        let sweeps = try sweeps(members["mask"], path: path + ".mask")
        return Stroke(
            key: key, text: text, colour: UInt8(colour), origin: origin, createdAtMilliseconds: createdAt,
            transform: transform, mask: StrokeMask(sweeps: sweeps))
    }

    private func unknownPiece(_ node: JSONNode, key: StrokeKey, path: String) throws(DrawingJSONError)
        -> Stroke
    {
        let members = try fields(of: node, path: path, required: ["kind", "origin", "body"])
        let code = try integer(members["kind"] ?? node, path: path + ".kind", in: 2...Int64.max)
        let origin = try point(members["origin"] ?? node, path: path + ".origin")
        let bodyNode = members["body"] ?? node
        let body: [UInt8]
        do {
            body = try Base64.decode(try string(bodyNode, path: path + ".body"))
        } catch let error as DrawingJSONError {
            throw error
        } catch {
            throw .invalidValue(path: path + ".body", reason: "is not base64", at: position(bodyNode))
        }
        return Stroke(
            key: key, unknown: UnknownStrokeKind(code: UInt64(code), body: body), anchor: origin,
            createdAtMilliseconds: key.creationMilliseconds)
    }

    private func point(_ node: JSONNode, path: String) throws(DrawingJSONError) -> CanvasPoint {
        let values = try tuple(node, path: path, count: 2, meaning: "[x, y]")
        return CanvasPoint(
            x: try coordinate(values[0], path: path + "[0]"), y: try coordinate(values[1], path: path + "[1]")
        )
    }

    private func sweep(_ node: JSONNode, path: String) throws(DrawingJSONError) -> MaskSweep {
        let members = try fields(of: node, path: path, required: ["radius", "path"])
        let radius = try number(members["radius"] ?? node, path: path + ".radius", in: MaskSweep.radiusRange)
        let pathNode = members["path"] ?? node
        var points: [CanvasPoint] = []
        for (index, pointNode) in try array(pathNode, path: path + ".path", nonEmpty: true).enumerated() {
            let pointPath = path + ".path[\(index)]"
            let values = try tuple(pointNode, path: pointPath, count: 2, meaning: "[x, y]")
            points.append(
                CanvasPoint(
                    x: try coordinate(values[0], path: pointPath + "[0]"),
                    y: try coordinate(values[1], path: pointPath + "[1]")))
        }
        guard let sweep = MaskSweep(radius: radius, path: points) else {
            throw .invalidValue(path: path + ".path", reason: "must not be empty", at: position(pathNode))
        }
        return sweep
    }

    // MARK: Typed access

    private func position(_ node: JSONNode) -> DrawingJSON.Position {
        position(offset: node.offset)
    }

    private func position(offset: Int) -> DrawingJSON.Position {
        DrawingJSON.Position(utf8Offset: offset, in: text)
    }

    /// The members of an object by name, after checking that every required field is there and
    /// no unknown one is.
    private func fields(
        of node: JSONNode, path: String, required: [String], optional: [String] = []
    ) throws(DrawingJSONError) -> [String: JSONNode] {
        guard case .object(let members) = node.value else {
            throw .wrongType(path: path, expected: "an object", found: node.kind, at: position(node))
        }
        var byName: [String: JSONNode] = [:]
        for member in members {
            guard required.contains(member.key) || optional.contains(member.key) else {
                throw .unknownField(path: path, field: member.key, at: position(offset: member.keyOffset))
            }
            byName[member.key] = member.value
        }
        for field in required where byName[field] == nil {
            throw .missingField(path: path, field: field, at: position(node))
        }
        return byName
    }

    private func array(_ node: JSONNode, path: String, nonEmpty: Bool = false) throws(DrawingJSONError)
        -> [JSONNode]
    {
        guard case .array(let elements) = node.value else {
            throw .wrongType(path: path, expected: "an array", found: node.kind, at: position(node))
        }
        if nonEmpty && elements.isEmpty {
            throw .invalidValue(path: path, reason: "must not be empty", at: position(node))
        }
        return elements
    }

    private func tuple(_ node: JSONNode, path: String, count: Int, meaning: String) throws(DrawingJSONError)
        -> [JSONNode]
    {
        let elements = try array(node, path: path)
        guard elements.count == count else {
            throw .invalidValue(
                path: path, reason: "must be \(meaning), not \(elements.count) values", at: position(node))
        }
        return elements
    }

    private func string(_ node: JSONNode, path: String) throws(DrawingJSONError) -> String {
        guard case .string(let text) = node.value else {
            throw .wrongType(path: path, expected: "a string", found: node.kind, at: position(node))
        }
        return text
    }

    /// A whole number written without fraction or exponent, read exactly.
    private func integer(_ node: JSONNode, path: String, in range: ClosedRange<Int64>)
        throws(DrawingJSONError)
        -> Int64
    {
        guard case .number(let literal) = node.value else {
            throw .wrongType(path: path, expected: "a whole number", found: node.kind, at: position(node))
        }
        guard literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }) else {
            throw .invalidValue(
                path: path, reason: "must be a whole number (no fraction or exponent), not \(literal)",
                at: position(node))
        }
        guard let value = Int64(literal), range.contains(value) else {
            throw .invalidValue(
                path: path,
                reason: "must be between \(range.lowerBound) and \(range.upperBound), not \(literal)",
                at: position(node))
        }
        return value
    }

    private func number(_ node: JSONNode, path: String, in range: ClosedRange<Double>)
        throws(DrawingJSONError)
        -> Double
    {
        guard case .number(let literal) = node.value else {
            throw .wrongType(path: path, expected: "a number", found: node.kind, at: position(node))
        }
        guard let value = Double(literal), range.contains(value) else {
            let bounds =
                "\(ExportNumber.format(range.lowerBound)) and \(ExportNumber.format(range.upperBound))"
            throw .invalidValue(
                path: path, reason: "must be between \(bounds), not \(literal)", at: position(node))
        }
        return value
    }

    private func coordinate(_ node: JSONNode, path: String) throws(DrawingJSONError) -> Double {
        try number(node, path: path, in: -FixedPoint.coordinateLimit...FixedPoint.coordinateLimit)
    }
}

extension DrawingJSON.Limits {
    /// The same bounds, as the JSON reader takes them.
    fileprivate var reader: JSONReader.Limits {
        JSONReader.Limits(maximumBytes: maximumBytes, maximumDepth: maximumDepth)
    }
}

extension JSONNode {
    /// What kind of value this is, for messages ("should be an array, not a string").
    fileprivate var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}
