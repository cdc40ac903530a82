/// A point with unquantised coordinates, for geometry in between stored points.
struct Vector2: Equatable {
    var x: Double
    var y: Double

    init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    init(_ point: CanvasPoint) {
        self.init(point.x, point.y)
    }

    static func + (lhs: Vector2, rhs: Vector2) -> Vector2 { Vector2(lhs.x + rhs.x, lhs.y + rhs.y) }
    static func - (lhs: Vector2, rhs: Vector2) -> Vector2 { Vector2(lhs.x - rhs.x, lhs.y - rhs.y) }
    static func * (lhs: Vector2, rhs: Double) -> Vector2 { Vector2(lhs.x * rhs, lhs.y * rhs) }

    var length: Double { (x * x + y * y).squareRoot() }
}

/// The geometric predicates the eraser and the raster share.
///
/// Inputs on the 1/16 grid (or the raster's 1/4 grid) keep the orientation tests exact, so the
/// same drawing gives the same pixels and the same cuts on every machine.
enum PlanarGeometry {
    /// The consecutive segments of a path; a single point is one degenerate segment (a dot).
    static func segments(of path: [Vector2]) -> [(Vector2, Vector2)] {
        path.count <= 1 ? path.map { ($0, $0) } : (1..<path.count).map { (path[$0 - 1], path[$0]) }
    }

    /// The smallest axis-aligned box holding the points; nil when there are none.
    static func bounds(of points: [Vector2]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let first = points.first else { return nil }
        var box = (minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for point in points.dropFirst() {
            box.minX = min(box.minX, point.x)
            box.minY = min(box.minY, point.y)
            box.maxX = max(box.maxX, point.x)
            box.maxY = max(box.maxY, point.y)
        }
        return box
    }

    /// Squared distance from `p` to the segment `a`–`b` (a point when `a == b`).
    static func distanceSquared(from p: Vector2, toSegment a: Vector2, _ b: Vector2) -> Double {
        let ab = b - a
        return distanceSquared(from: p, toSegment: a, ab, lengthSquared: ab.x * ab.x + ab.y * ab.y)
    }

    /// `distanceSquared(from:toSegment:_:)` with the segment as `a`, its direction `ab` (b − a)
    /// and that direction's squared length, for a caller that measures many points from one
    /// segment: the same arithmetic, so the same result to the last bit.
    @inline(__always)
    static func distanceSquared(from p: Vector2, toSegment a: Vector2, _ ab: Vector2, lengthSquared: Double)
        -> Double
    {
        var t = 0.0
        if lengthSquared > 0 {
            t = ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / lengthSquared
            t = min(max(t, 0), 1)
        }
        let closest = a + ab * t
        let d = p - closest
        return d.x * d.x + d.y * d.y
    }

    static func distance(from p: Vector2, toSegment a: Vector2, _ b: Vector2) -> Double {
        distanceSquared(from: p, toSegment: a, b).squareRoot()
    }

    /// Twice the signed area of the triangle a, b, c.
    private static func orientation(_ a: Vector2, _ b: Vector2, _ c: Vector2) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    private static func onSegment(_ p: Vector2, _ a: Vector2, _ b: Vector2) -> Bool {
        min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    /// Whether two closed segments share a point.
    static func segmentsIntersect(_ p1: Vector2, _ p2: Vector2, _ q1: Vector2, _ q2: Vector2) -> Bool {
        let d1 = orientation(q1, q2, p1)
        let d2 = orientation(q1, q2, p2)
        let d3 = orientation(p1, p2, q1)
        let d4 = orientation(p1, p2, q2)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        if d1 == 0 && onSegment(p1, q1, q2) { return true }
        if d2 == 0 && onSegment(p2, q1, q2) { return true }
        if d3 == 0 && onSegment(q1, p1, p2) { return true }
        if d4 == 0 && onSegment(q2, p1, p2) { return true }
        return false
    }

    /// The distance between two closed segments.
    static func distance(segment p1: Vector2, _ p2: Vector2, toSegment q1: Vector2, _ q2: Vector2) -> Double {
        if segmentsIntersect(p1, p2, q1, q2) { return 0 }
        let squared = min(
            distanceSquared(from: p1, toSegment: q1, q2), distanceSquared(from: p2, toSegment: q1, q2),
            distanceSquared(from: q1, toSegment: p1, p2), distanceSquared(from: q2, toSegment: p1, p2))
        return squared.squareRoot()
    }

    /// Whether the segment `a`–`b` touches the closed axis-aligned rectangle.
    static func segment(
        _ a: Vector2, _ b: Vector2, touchesRectMinX minX: Double, minY: Double, maxX: Double, maxY: Double
    ) -> Bool {
        func inside(_ p: Vector2) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
        if inside(a) || inside(b) { return true }
        if max(a.x, b.x) < minX || min(a.x, b.x) > maxX || max(a.y, b.y) < minY || min(a.y, b.y) > maxY {
            return false
        }
        // The four edges in order, without an array per call (this runs once per sample).
        let topLeft = Vector2(minX, minY)
        let topRight = Vector2(maxX, minY)
        let bottomRight = Vector2(maxX, maxY)
        let bottomLeft = Vector2(minX, maxY)
        return segmentsIntersect(a, b, topLeft, topRight) || segmentsIntersect(a, b, topRight, bottomRight)
            || segmentsIntersect(a, b, bottomRight, bottomLeft)
            || segmentsIntersect(a, b, bottomLeft, topLeft)
    }

    /// The interval of t in [0, 1] where a convex function is at most `level`, or nil.
    ///
    /// Numeric (ternary search for the minimum, then bisection for each boundary) because the
    /// functions used here are distances to capsules: convex, but piecewise and awkward in closed
    /// form. The result is snapped to the 1/16 grid later, so 1e-15 precision is plenty.
    static func sublevelInterval(atMost level: Double, of f: (Double) -> Double) -> ClosedRange<Double>? {
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<90 {
            let m1 = lo + (hi - lo) / 3
            let m2 = hi - (hi - lo) / 3
            if f(m1) <= f(m2) { hi = m2 } else { lo = m1 }
        }
        var best = (lo + hi) / 2
        for candidate in [0.0, 1.0] where f(candidate) < f(best) { best = candidate }
        guard f(best) <= level else { return nil }

        func boundary(outside: Double, inside: Double) -> Double {
            var out = outside
            var inn = inside
            for _ in 0..<60 {
                let mid = (out + inn) / 2
                if f(mid) <= level { inn = mid } else { out = mid }
            }
            return inn
        }
        let start = f(0) <= level ? 0 : boundary(outside: 0, inside: best)
        let end = f(1) <= level ? 1 : boundary(outside: 1, inside: best)
        return start...end
    }
}
