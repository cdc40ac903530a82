import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

extension Fixtures {
    /// A small random drawing near the origin: distinct keys from two peers, a few colours,
    /// some pieces moved or masked, so renders overlap and z-order matters.
    static func smallDrawing(using generator: inout SplitMix64, groups count: Int = 12) -> [StrokeGroup] {
        var milliseconds: Int64 = 1_774_455_600_000
        return (0..<count).map { _ in
            milliseconds += Int64.random(in: 1...900, using: &generator)
            let groupKey = key(milliseconds, peer: Bool.random(using: &generator) ? "3fa2c1" : "9bd07e")
            let pieces = (0..<Int.random(in: 1...2, using: &generator)).map { _ -> Stroke in
                let points = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                    (
                        Double.random(in: 0...30, using: &generator),
                        Double.random(in: 0...12, using: &generator)
                    )
                }
                var piece = stroke(
                    points, key: groupKey, width: [0.25, 0.5, 1, 2].randomElement(using: &generator) ?? 1,
                    colour: [15, 196, 46, 33, 226].randomElement(using: &generator) ?? 15)
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    piece.transform = StrokeTransform(dx: Double.random(in: -3...3, using: &generator), dy: 1)
                }
                if Int.random(in: 0..<4, using: &generator) == 0, let first = points.first {
                    piece.mask = mask(radius: 0.75, [first])
                }
                return piece
            }
            return group(pieces)
        }
    }
}

@Suite struct ExportTextTests {
    let line = Fixtures.group([Fixtures.stroke([(1, 1.25), (8, 1.25)])])

    @Test func anEmptyDrawingIsTheEmptyString() {
        #expect(TextExporter.export([]) == "")
        for mode in GlyphMode.allCases { #expect(DrawingExporter.export([], as: .text, mode: mode) == "") }
    }

    @Test func rowsRunFromTheOriginToTheExtentWithTrailingSpacesTrimmed() {
        // The blank first row is kept (the canvas starts at the origin); each line ends in a
        // line feed and nothing follows the last inked cell of a row.
        #expect(TextExporter.export([line]) == "\n ▀▀▀▀▀▀▀▀\n")
    }

    @Test func theGlyphModeChoosesTheScreensGlyphs() {
        #expect(TextExporter.export([line], mode: .braille) == "\n ⠒⠒⠒⠒⠒⠒⠒⠂\n")
        #expect(TextExporter.export([line], mode: .ascii) == "\n ''''''''\n")
    }

    @Test func aDrawingAwayFromTheOriginKeepsItsPlace() {
        let house = Fixtures.group([Fixtures.stroke([(4, 3.25), (6, 1.25), (8, 3.25), (4, 3.25)])])
        let door = Fixtures.group([
            Fixtures.stroke([(6, 4), (6, 5.5)], key: Fixtures.key(1_774_455_614_200), width: 1, colour: 33)
        ])
        // Blank rows above and blank columns left of the ink are part of the canvas from (0, 0).
        let expected = [
            "",
            "     ##",
            "    #''#",
            "    '''''",
            "      #",
            "      #",
        ]
        #expect(TextExporter.export([house, door], mode: .ascii) == expected.map { $0 + "\n" }.joined())
    }

    @Test func inkLeftOfOrAboveTheOriginIsLeftOut() {
        let straddling = Fixtures.group([Fixtures.stroke([(-5, -3.25), (-5, 2.75), (2, 2.75)])])
        #expect(TextExporter.export([straddling], mode: .ascii) == "\n\n...\n")
        let outside = Fixtures.group([Fixtures.stroke([(-5, -3), (-1, -1)])])
        #expect(TextExporter.export([outside]) == "")
    }

    @Test func aDrawingBiggerThanOneBandIsTheSameAsTheWholeGrid() {
        // 301 x 2000 cells: several bands of about 2^18 cells each.
        let tall = Fixtures.group([Fixtures.stroke([(0, 0), (300, 1999.5), (150, 10)], width: 1)])
        let whole = DrawingExporter.cells(of: [tall])
        #expect(whole.height == 2000)
        #expect(TextExporter.export([tall]) == whole.rows.map { $0 + "\n" }.joined())
    }

    @Test func inkFarFromTheOriginComesAfterBlankRows() {
        let far = Fixtures.group([Fixtures.stroke([(3, 100_000.25), (5, 100_000.25)])])
        let text = TextExporter.export([far])
        #expect(text == String(repeating: "\n", count: 100_000) + "   ▀▀▀\n")
        #expect(
            ANSIExporter.export([far]).hasPrefix(
                String(repeating: "\n", count: 100_000) + "   \u{1B}[38;5;1m▀▀▀"))
    }

    @Test func aCompletelyErasedStrokeExportsNothing() {
        var stroke = Fixtures.stroke([(2, 2), (4, 2)])
        stroke.mask = Fixtures.mask(radius: 3, [(3, 2)])
        #expect(TextExporter.export([Fixtures.group([stroke])]) == "")
    }

    @Test func theLaterKeyIsOnTop() {
        let red = Fixtures.group([
            Fixtures.stroke([(0, 0.25), (3, 0.25)], key: Fixtures.key(1000), colour: 196)
        ])
        let blue = Fixtures.group([
            Fixtures.stroke([(1, 0.25), (2, 0.25)], key: Fixtures.key(2000), colour: 33)
        ])
        let cells = DrawingExporter.cells(of: [blue, red])
        #expect((0..<4).map { cells[$0, 0].foreground } == [196, 33, 33, 196])
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func textDoesNotDependOnTheOrderOfTheGroups(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let drawing = Fixtures.smallDrawing(using: &generator)
        let expected = TextExporter.export(drawing)
        #expect(expected.contains("█") || expected.contains("▀") || expected.contains("▄"))
        for _ in 0..<5 {
            let shuffled = drawing.shuffled(using: &generator)
            for mode in GlyphMode.allCases {
                #expect(TextExporter.export(shuffled, mode: mode) == TextExporter.export(drawing, mode: mode))
            }
            #expect(DrawingExporter.cells(of: shuffled) == DrawingExporter.cells(of: drawing))
        }
    }

    @Test func groupsSharingAKeyAreStillOrderedTheSameWay() {
        // A drawing never holds one key twice, but an export must not depend on input order
        // even then.
        let first = Fixtures.group([Fixtures.stroke([(0, 0.25), (3, 0.25)], colour: 196)])
        let second = Fixtures.group([Fixtures.stroke([(1, 0.25), (2, 0.25)], colour: 46)])
        #expect(
            DrawingExporter.canonicalOrder([first, second])
                == DrawingExporter.canonicalOrder([second, first]))
        #expect(ANSIExporter.export([first, second]) == ANSIExporter.export([second, first]))
    }

    @Test func theFormatWordsAreTheCommandLineWords() {
        #expect(DrawingExportFormat.allCases.map(\.rawValue) == ["text", "ansi", "svg", "json"])
        #expect(DrawingExporter.export([line], as: .text) == TextExporter.export([line]))
        #expect(DrawingExporter.export([line], as: .json) == DrawingJSON.encode([line]))
    }
}
