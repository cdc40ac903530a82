import Testing

@testable import TerminalCanvas

@Suite struct ColorReductionTests {
    @Test func theFullPaletteIsPassedThroughAndDefaultStaysDefault() {
        #expect(ColorSupport.full.terminalColor(196) == 196)
        #expect(ColorSupport.full.terminalColor(nil) == nil)
        #expect(ColorSupport.none.terminalColor(196) == nil)
    }

    @Test func eightColoursKeepTheHue() {
        let eight = ColorSupport.eight
        #expect(eight.terminalColor(9) == 1)  // bright red -> red
        #expect(eight.terminalColor(196) == 1)  // red
        #expect(eight.terminalColor(52) == 1)  // dark red stays red, not black
        #expect(eight.terminalColor(46) == 2)  // green
        #expect(eight.terminalColor(21) == 4)  // blue
        #expect(eight.terminalColor(226) == 3)  // yellow
        #expect(eight.terminalColor(214) == 3)  // orange reads as yellow
        #expect(eight.terminalColor(201) == 5)  // magenta
        #expect(eight.terminalColor(51) == 6)  // cyan
        #expect(eight.terminalColor(16) == 0)  // black
        #expect(eight.terminalColor(231) == 7)  // white
        #expect(eight.terminalColor(235) == 0)  // dark grey
        #expect(eight.terminalColor(250) == 7)  // light grey
    }
}
