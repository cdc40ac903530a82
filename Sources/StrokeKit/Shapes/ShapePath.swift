/// The path of a shape between two points (the press and the release, each a cell centre): what
/// the line, box and ellipse tools store as a stroke.
public enum ShapePath {
    /// The most points an ellipse gets, however large.
    public static let maximumEllipsePoints = 720

    /// The path from `start` to `end` for `kind`: a line is its two ends; a box its four corners
    /// and back to the first; an ellipse a closed polygon of points on it, about one per half
    /// cell of its perimeter. Equal consecutive points are left out, so a shape with no size is
    /// a single point (a dot).
    public static func points(_ kind: ShapeKind, from start: CanvasPoint, to end: CanvasPoint)
        -> [CanvasPoint]
    {
        let points: [CanvasPoint]
        switch kind {
        case .line:
            points = [start, end]
        case .box:
            points = [
                start, CanvasPoint(x: end.x, y: start.y), end, CanvasPoint(x: start.x, y: end.y), start,
            ]
        case .ellipse:
            points = ellipse(from: start, to: end)
        }
        return withoutRepeats(points)
    }

    /// A closed polygon on the ellipse inscribed in the box with corners `start` and `end`,
    /// starting at its rightmost point and going round clockwise on screen (y grows down).
    private static func ellipse(from start: CanvasPoint, to end: CanvasPoint) -> [CanvasPoint] {
        let centreX = (start.x + end.x) / 2
        let centreY = (start.y + end.y) / 2
        let radiusX = abs(end.x - start.x) / 2
        let radiusY = abs(end.y - start.y) / 2
        // Ramanujan's approximation of the perimeter: close enough to pick a point count.
        let h = radiusX + radiusY > 0 ? pow2((radiusX - radiusY) / (radiusX + radiusY)) : 0
        let perimeter = Double.pi * (radiusX + radiusY) * (1 + 3 * h / (10 + (4 - 3 * h).squareRoot()))
        let count = min(max(8, Int((perimeter * 2).rounded(.up))), maximumEllipsePoints)
        var points: [CanvasPoint] = []
        points.reserveCapacity(count + 1)
        for index in 0..<count {
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let (cosine, sine) = cosineAndSine(angle)
            points.append(CanvasPoint(x: centreX + radiusX * cosine, y: centreY + radiusY * sine))
        }
        points.append(points[0])
        return points
    }

    /// The cosine and sine of an angle in 0...2π, from their Taylor series around the nearest of
    /// 0, π/2, π, 3π/2 (StrokeKit imports no C library, so not libm's). Within π/4 of the centre,
    /// twenty terms are exact to the last bit a 1/16 grid could notice, on every machine alike.
    static func cosineAndSine(_ angle: Double) -> (cosine: Double, sine: Double) {
        let quarter = Double.pi / 2
        let turns = (angle / quarter).rounded()
        let x = angle - turns * quarter
        var term = 1.0
        var cosine = 0.0
        var sine = 0.0
        for power in 0..<20 {
            if power % 2 == 0 {
                cosine += power % 4 == 0 ? term : -term
            } else {
                sine += power % 4 == 1 ? term : -term
            }
            term *= x / Double(power + 1)
        }
        switch Int(turns) & 3 {
        case 0: return (cosine, sine)
        case 1: return (-sine, cosine)
        case 2: return (-cosine, -sine)
        default: return (sine, -cosine)
        }
    }

    private static func pow2(_ value: Double) -> Double { value * value }

    private static func withoutRepeats(_ points: [CanvasPoint]) -> [CanvasPoint] {
        var result: [CanvasPoint] = []
        for point in points where result.last != point { result.append(point) }
        return result
    }
}
