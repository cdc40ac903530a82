import StrokeKitTestSupport
import Testing

@testable import StrokeKit

/// The line, box and ellipse tools' paths, and how they look on the cell grid.
@Suite struct ShapePathTests {
    func point(_ x: Double, _ y: Double) -> CanvasPoint { CanvasPoint(x: x, y: y) }

    func draw(_ points: [CanvasPoint], _ mode: GlyphMode, width: Int = 12, height: Int = 6) -> [String] {
        let stroke = Fixtures.stroke(points.map { ($0.x, $0.y) })
        return Raster.render(
            [Fixtures.group([stroke])], origin: (0, 0), width: width, height: height, mode: mode
        )
        .rows
    }

    @Test func aLineIsItsTwoEnds() {
        #expect(
            ShapePath.points(.line, from: point(1.5, 1.5), to: point(8.5, 4.5)) == [
                point(1.5, 1.5), point(8.5, 4.5),
            ])
    }

    @Test func aBoxGoesRoundItsFourCornersBackToTheFirst() {
        let path = ShapePath.points(.box, from: point(8.5, 4.5), to: point(1.5, 1.5))
        #expect(
            path == [point(8.5, 4.5), point(1.5, 4.5), point(1.5, 1.5), point(8.5, 1.5), point(8.5, 4.5)])
    }

    @Test func aShapeWithNoSizeIsADot() {
        for kind in ShapeKind.allCases {
            #expect(ShapePath.points(kind, from: point(3.5, 2.5), to: point(3.5, 2.5)) == [point(3.5, 2.5)])
        }
    }

    @Test func aFlatBoxIsALineThereAndBack() {
        let path = ShapePath.points(.box, from: point(1.5, 2.5), to: point(6.5, 2.5))
        #expect(path == [point(1.5, 2.5), point(6.5, 2.5), point(1.5, 2.5)])
    }

    @Test func everyEllipsePointLiesOnTheEllipseAndThePathCloses() {
        let path = ShapePath.points(.ellipse, from: point(0.5, 0.5), to: point(20.5, 10.5))
        #expect(path.first == path.last)
        #expect(path.count > 40)
        for p in path {
            // ((x - cx) / rx)² + ((y - cy) / ry)² = 1, within the 1/16 grid's rounding.
            let u = (p.x - 10.5) / 10
            let v = (p.y - 5.5) / 5
            #expect(abs(u * u + v * v - 1) < 0.03, "\(p) is off the ellipse")
        }
        // It reaches the four sides of its box.
        #expect(path.map(\.x).min() == 0.5)
        #expect(path.map(\.x).max() == 20.5)
        #expect(path.map(\.y).min() == 0.5)
        #expect(path.map(\.y).max() == 10.5)
    }

    @Test func aHugeEllipseHasAtMostTheMaximumPoints() {
        let path = ShapePath.points(.ellipse, from: point(0, 0), to: point(5_000, 3_000))
        #expect(path.count == ShapePath.maximumEllipsePoints + 1)
    }

    @Test func cosineAndSineMatchKnownValues() {
        let cases: [(Double, Double, Double)] = [
            (0, 1, 0), (Double.pi / 6, 0.866_025_403_784_438_6, 0.5), (Double.pi / 2, 0, 1),
            (Double.pi, -1, 0), (4, -0.653_643_620_863_611_9, -0.756_802_495_307_928_2),
            (2 * Double.pi - 0.1, 0.995_004_165_278_025_8, -0.099_833_416_646_828_15),
        ]
        for (angle, cosine, sine) in cases {
            let result = ShapePath.cosineAndSine(angle)
            #expect(abs(result.cosine - cosine) < 1e-14, "cos \(angle)")
            #expect(abs(result.sine - sine) < 1e-14, "sin \(angle)")
        }
    }

    @Test func aBoxInBlockAndBrailleModes() {
        let box = ShapePath.points(.box, from: point(1.5, 1.5), to: point(8.5, 4.5))
        #expect(draw(box, .block) == ["", " ▄▄▄▄▄▄▄▄", " █      █", " █      █", " █▄▄▄▄▄▄█", ""])
        #expect(draw(box, .braille) == ["", " ⢠⠤⠤⠤⠤⠤⠤⢤", " ⢸      ⢸", " ⢸      ⢸", " ⠸⠤⠤⠤⠤⠤⠤⠼", ""])
    }

    @Test func anEllipseInBlockAndBrailleModes() {
        let ellipse = ShapePath.points(.ellipse, from: point(0.5, 0.5), to: point(10.5, 4.5))
        #expect(
            draw(ellipse, .block) == [
                "  ▄▄▄▄▄▄▄", "▄█▀     ▀█▄", "█         █", "▀█▄     ▄█▀", "  ▀▀█▄█▀▀", "",
            ])
        #expect(
            draw(ellipse, .braille) == [
                "  ⣀⡤⠤⠤⠤⢤⣀", "⢠⠞⠁     ⠈⠳⡄", "⢸         ⡧", "⠘⢦⡀     ⢀⡴⠃", "  ⠉⠓⠲⠤⠖⠚⠉", "",
            ])
    }

    @Test func aLineInBlockAndBrailleModes() {
        let line = ShapePath.points(.line, from: point(0.5, 0.5), to: point(10.5, 4.5))
        #expect(draw(line, .block) == ["▄▄", " ▀▀▄▄", "    ▀█▄", "      ▀▀▄▄", "         ▀█", ""])
        #expect(draw(line, .braille) == ["⠠⣄", " ⠈⠓⢤⡀", "    ⠙⠢⣄", "      ⠈⠓⢤⡀", "         ⠙⠢", ""])
    }
}

@Suite struct ShapeConstraintTests {
    @Test func aLineSnapsToTheNearestOf45DegreeStepsAsTheScreenShowsThem() {
        // Nearly flat: horizontal. Nearly upright: vertical (cells are twice as tall as wide).
        #expect(ShapeConstraint.constrain(.line, dx: 10, dy: 1) == (10, 0))
        #expect(ShapeConstraint.constrain(.line, dx: 1, dy: 5) == (0, 5))
        // In between: a diagonal, two columns per row, in the drag's direction.
        #expect(ShapeConstraint.constrain(.line, dx: 8, dy: 3) == (8, 4))
        #expect(ShapeConstraint.constrain(.line, dx: -6, dy: 3) == (-6, 3))
        #expect(ShapeConstraint.constrain(.line, dx: -4, dy: -4) == (-8, -4))
        #expect(ShapeConstraint.constrain(.line, dx: 0, dy: 0) == (0, 0))
    }

    @Test func aBoxBecomesASquareOnScreenAndAnEllipseACircle() {
        for kind in [ShapeKind.box, .ellipse] {
            // The longer side on screen decides: 3 rows are 6 columns.
            #expect(ShapeConstraint.constrain(kind, dx: 2, dy: 3) == (6, 3))
            #expect(ShapeConstraint.constrain(kind, dx: 10, dy: 2) == (10, 5))
            #expect(ShapeConstraint.constrain(kind, dx: -10, dy: 2) == (-10, 5))
            #expect(ShapeConstraint.constrain(kind, dx: 4, dy: -1) == (4, -2))
            #expect(ShapeConstraint.constrain(kind, dx: 0, dy: 0) == (0, 0))
        }
    }

    @Test func anotherAspectIsHonoured() {
        #expect(ShapeConstraint.constrain(.box, dx: 2, dy: 3, aspect: 1) == (3, 3))
        #expect(ShapeConstraint.constrain(.line, dx: 5, dy: 4, aspect: 1) == (5, 5))
    }
}
