import StrokeKit
import Testing

@Suite struct ExportPaletteTests {
    @Test(arguments: [
        (UInt8(196), "#ff0000"), (46, "#00ff00"), (244, "#808080"), (15, "#ffffff"),
        (0, "#000000"), (1, "#800000"), (7, "#c0c0c0"), (8, "#808080"), (12, "#0000ff"),
        (16, "#000000"), (21, "#0000ff"), (67, "#5f87af"), (208, "#ff8700"), (231, "#ffffff"),
        (232, "#080808"), (255, "#eeeeee"),
    ])
    func paletteIndicesBecomeTheStandardXtermColours(index: UInt8, hex: String) {
        #expect(XtermPalette.hex(index) == hex)
    }

    @Test func theCubeUsesTheSixXtermLevels() {
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        for red in 0..<6 {
            for green in 0..<6 {
                for blue in 0..<6 {
                    let index = UInt8(16 + 36 * red + 6 * green + blue)
                    #expect(
                        XtermPalette.rgb(index)
                            == XtermPalette.RGB(red: levels[red], green: levels[green], blue: levels[blue]))
                }
            }
        }
    }

    @Test func theGreyRampRisesInStepsOfTen() {
        for step in 0..<24 {
            let grey = UInt8(8 + 10 * step)
            #expect(
                XtermPalette.rgb(UInt8(232 + step)) == XtermPalette.RGB(red: grey, green: grey, blue: grey))
        }
    }
}
