/// The geometry of erasing one stroke, in the stroke's own coordinates.
///
/// A path position is a number s in [0, n-1] for a path of n points: segment floor(s), fraction
/// s - floor(s).
struct StrokeCutter {
    let stroke: Stroke
    private let spine: [Vector2]
    /// The spine's segments and bounding box, which every `clip` tests sweeps against.
    private let spineSegments: [(Vector2, Vector2)]
    private let spineBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    private let halfWidth: Double
    /// How near a sweep must come to the path to hide anything any glyph mode shows.
    private let reach: Double

    /// Cut runs shorter than this (in cells) are dropped: they are what is left of a touch.
    private static let negligibleLength = 1e-6

    init(stroke: Stroke) {
        self.stroke = stroke
        spine = stroke.path.map { Vector2($0.point) }
        spineSegments = PlanarGeometry.segments(of: spine)
        spineBounds = PlanarGeometry.bounds(of: spine)
        halfWidth = stroke.ink.width / 2
        reach = max(halfWidth, SampleLattice.maximumThinLineReach) + 1 / FixedPoint.unitsPerCell
    }

    /// The parts of a sweep that come near enough to this stroke to hide ink, as sweeps of
    /// consecutive segments; empty when it does not come near.
    func clip(_ sweep: MaskSweep) -> [MaskSweep] {
        Self.runs(of: sweep, near: nearSegments(of: sweep))
    }

    /// Per segment of the sweep, whether it comes near enough to this stroke to hide ink.
    func nearSegments(of sweep: MaskSweep) -> [Bool] {
        let limit = sweep.radius + reach
        guard let box = spineBounds else { return sweep.segments.map { _ in false } }
        return sweep.segments.map { a, b in
            guard max(a.x, b.x) >= box.minX - limit, min(a.x, b.x) <= box.maxX + limit,
                max(a.y, b.y) >= box.minY - limit, min(a.y, b.y) <= box.maxY + limit
            else { return false }
            return spineSegments.contains { p, q in
                PlanarGeometry.distance(segment: p, q, toSegment: a, b) <= limit
            }
        }
    }

    /// The runs of consecutive segments marked `near`, each as a sweep of its own.
    static func runs(of sweep: MaskSweep, near: [Bool]) -> [MaskSweep] {
        var runs: [MaskSweep] = []
        var index = 0
        while index < near.count {
            guard near[index] else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < near.count && near[end + 1] { end += 1 }
            let lastPoint = min(end + 1, sweep.path.count - 1)
            if let run = MaskSweep(radius: sweep.radius, path: Array(sweep.path[index...lastPoint])) {
                runs.append(run)
            }
            index = end + 1
        }
        return runs
    }

    /// The runs of the path that survive where the sweeps cover the stroke's whole cross-section,
    /// or nil when nothing is cut. An empty result means nothing survives.
    func keptRuns(severedBy sweeps: [MaskSweep]) -> [ClosedRange<Double>]? {
        let brushes = sweeps.flatMap { sweep in
            sweep.segments.map { (a: $0.0, b: $0.1, radius: sweep.radius) }
        }
        if spine.count == 1 {
            // A dot is removed when the brush covers all of it.
            let covered = brushes.contains { brush in
                PlanarGeometry.distance(from: spine[0], toSegment: brush.a, brush.b) <= brush.radius
                    - halfWidth
            }
            return covered ? [] : nil
        }
        var severed: [ClosedRange<Double>] = []
        for index in 1..<spine.count {
            let p = spine[index - 1]
            let q = spine[index]
            let direction = q - p
            let length = direction.length
            guard length > 0 else { continue }
            let normal = Vector2(-direction.y / length * halfWidth, direction.x / length * halfWidth)
            for brush in brushes
            where PlanarGeometry.distance(segment: p, q, toSegment: brush.a, brush.b) <= brush.radius {
                // Both ends of the cross-section inside one capsule means all of it is (capsules
                // are convex); the larger of the two distances is convex in t, so the set is an
                // interval.
                let interval = PlanarGeometry.sublevelInterval(atMost: brush.radius) { t in
                    let centre = p + direction * t
                    return max(
                        PlanarGeometry.distance(from: centre + normal, toSegment: brush.a, brush.b),
                        PlanarGeometry.distance(from: centre - normal, toSegment: brush.a, brush.b))
                }
                if let interval, (interval.upperBound - interval.lowerBound) * length >= Self.negligibleLength
                {
                    let base = Double(index - 1)
                    severed.append((base + interval.lowerBound)...(base + interval.upperBound))
                }
            }
        }
        guard !severed.isEmpty else { return nil }
        severed.sort { $0.lowerBound < $1.lowerBound }

        var kept: [ClosedRange<Double>] = []
        var position = 0.0
        for cut in severed {
            if cut.lowerBound > position { kept.append(position...cut.lowerBound) }
            position = max(position, cut.upperBound)
        }
        let end = Double(spine.count - 1)
        if position < end { kept.append(position...end) }
        return kept.filter { length(of: $0) >= Self.negligibleLength }
    }

    /// The length in cells of a run of the path.
    private func length(of run: ClosedRange<Double>) -> Double {
        var points = [location(at: run.lowerBound)]
        var vertex = Int(run.lowerBound.rounded(.down)) + 1
        while Double(vertex) < run.upperBound {
            points.append(spine[vertex])
            vertex += 1
        }
        points.append(location(at: run.upperBound))
        return zip(points, points.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
    }

    private func location(at s: Double) -> Vector2 {
        let segment = min(Int(s.rounded(.down)), spine.count - 2)
        let t = s - Double(segment)
        return spine[segment] + (spine[segment + 1] - spine[segment]) * t
    }

    /// The path sample at a position: a vertex, or one interpolated (and snapped to the grid)
    /// with an interpolated time.
    private func sample(at s: Double) -> StrokePoint {
        let segment = min(Int(s.rounded(.down)), stroke.path.count - 2)
        let t = s - Double(segment)
        if t <= 0 { return stroke.path[segment] }
        if t >= 1 { return stroke.path[segment + 1] }
        let from = stroke.path[segment]
        let to = stroke.path[segment + 1]
        let where_ = location(at: s)
        let time =
            Double(from.timeOffsetMilliseconds)
            + Double(to.timeOffsetMilliseconds - from.timeOffsetMilliseconds) * t
        return StrokePoint(x: where_.x, y: where_.y, timeOffsetMilliseconds: Int(time.rounded()))
    }

    /// The stroke cut down to one run of its path, with its mask still to be set.
    func piece(along run: ClosedRange<Double>) -> Stroke? {
        var path = [sample(at: run.lowerBound)]
        var vertex = Int(run.lowerBound.rounded(.down)) + 1
        while Double(vertex) < run.upperBound {
            path.append(stroke.path[vertex])
            vertex += 1
        }
        let last = sample(at: run.upperBound)
        if path.count == 1 || last.point != path[path.count - 1].point { path.append(last) }
        // Snapping an interpolated end can land it on its neighbour; keep one of the two.
        if path.count > 2 && path[0].point == path[1].point { path.removeFirst() }
        return Stroke(
            key: stroke.key, ink: stroke.ink, path: path, createdAtMilliseconds: stroke.createdAtMilliseconds,
            transform: stroke.transform, mask: .none)
    }
}
