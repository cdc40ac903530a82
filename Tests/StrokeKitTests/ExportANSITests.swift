import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct ExportANSITests {
    let escape = "\u{1B}["

    func colour(_ index: Int) -> String { "\u{1B}[38;5;\(index)m" }
    var reset: String { "\u{1B}[0m" }

    /// The text with every SGR escape removed.
    func stripped(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[") {
            result += rest[..<start.lowerBound]
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "m") else { break }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    @Test func aColourIsSetOnlyWhenItChangesAndResetAtTheLineEnd() {
        let red = Fixtures.group([
            Fixtures.stroke([(0, 0.25), (5, 0.25)], key: Fixtures.key(1000), colour: 196)
        ])
        let green = Fixtures.group([
            Fixtures.stroke([(2, 0.25), (3, 0.25)], key: Fixtures.key(2000), colour: 46)
        ])
        #expect(
            ANSIExporter.export([red, green])
                == colour(196) + "▀▀" + colour(46) + "▀▀" + colour(196) + "▀▀" + reset + "\n")
    }

    @Test func spacesBetweenCellsOfOneColourNeedNoEscape() {
        let dashes = Fixtures.group([
            Fixtures.stroke([(0, 1.25), (1, 1.25)], colour: 33),
            Fixtures.stroke([(5, 1.25), (6, 1.25)], colour: 33),
        ])
        // The first row is blank: no escape and no reset at all.
        #expect(ANSIExporter.export([dashes]) == "\n" + colour(33) + "▀▀   ▀▀" + reset + "\n")
    }

    @Test func everyInkedLineStartsWithItsColourAndEndsWithAReset() {
        let column = Fixtures.group([Fixtures.stroke([(1, 0), (1, 3.5)], width: 1, colour: 226)])
        let lines = ANSIExporter.export([column]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        for line in lines.prefix(4) {
            #expect(line == " " + colour(226) + "█" + reset)
        }
        #expect(lines.last == "")
    }

    @Test(arguments: [UInt64(5), 6])
    func withoutEscapesItIsTheTextExport(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let drawing = Fixtures.smallDrawing(using: &generator)
        for mode in GlyphMode.allCases {
            let ansi = ANSIExporter.export(drawing, mode: mode)
            #expect(stripped(ansi) == TextExporter.export(drawing, mode: mode))
            #expect(ansi.contains(escape + "38;5;"))
            #expect(ANSIExporter.export(drawing.reversed(), mode: mode) == ansi)
        }
    }

    @Test func anEmptyDrawingIsTheEmptyString() {
        #expect(ANSIExporter.export([]) == "")
    }
}
