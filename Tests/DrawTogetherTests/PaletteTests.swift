import Foundation
import StrokeKit
import TerminalCanvas
import Testing

@testable import drawtogether

/// Resources/palette.txt: pens that show on a light and on a dark terminal, and that stay nine
/// different pens on a 16- or 8-colour terminal.
@Suite struct PaletteTests {
    static func palette() throws -> Palette {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/palette.txt")
        return try Palette(text: String(contentsOf: url, encoding: .utf8))
    }

    static let white = XtermPalette.rgb(231)
    static let nearBlack = XtermPalette.rgb(234)

    @Test func colourOneIsDefaultInk() throws {
        let palette = try Self.palette()
        #expect(palette.colours.count == 9)
        #expect(palette.colours.first == Ink.defaultInkColour)
        #expect(palette.name(slot: 1) == "default")
        #expect(palette.name(slot: 2) == "red")
        #expect(palette.name(slot: 10) == nil)
    }

    /// WCAG asks 3:1 of graphics; white (the old colour 1) had 1:1 on white paper, and yellow
    /// 226 and cyan 51 about 1.1:1 and 1.3:1.
    @Test func everyOtherColourHasThreeToOneContrastOnWhiteAndOnNearBlack() throws {
        for entry in try Self.palette().entries.dropFirst() {
            let rgb = XtermPalette.rgb(entry.colour)
            #expect(Self.contrast(rgb, Self.white) >= 3, "\(entry.name) on white")
            #expect(Self.contrast(rgb, Self.nearBlack) >= 3, "\(entry.name) on near-black")
        }
        // The test can fail: the old palette's yellow does not pass.
        #expect(Self.contrast(XtermPalette.rgb(226), Self.white) < 3)
    }

    @Test func defaultInkIsExportedInEachThemesForeground() {
        let dark = SVGExportOptions.dark
        let light = SVGExportOptions.light
        #expect(dark.hex(forInk: Ink.defaultInkColour) == "#ffffff")
        #expect(light.hex(forInk: Ink.defaultInkColour) == "#000000")
        #expect(light.hex(forInk: 196) == "#ff0000")
        for options in [dark, light] {
            let ink = XtermPalette.rgb(options.defaultInk)
            #expect(Self.contrast(ink, XtermPalette.rgb(options.background ?? 0)) >= 15)
        }
    }

    @Test func sixteenColoursKeepEveryPenDistinct() throws {
        let palette = try Self.palette()
        let shown = palette.colours.map {
            ColorSupport.sixteen.shown($0, reductions: palette.reductions)
        }
        #expect(Set(shown.map(\.color)).count == 9, "\(shown)")
        #expect(shown.first?.color == nil)  // default ink: the terminal's foreground
        #expect(shown.dropFirst().allSatisfy { $0.color != nil && !$0.bold })
    }

    /// Eight colours, one of them (black) lost on a dark terminal: the bright ones are bold.
    @Test func eightColoursKeepEveryPenDistinctWithBold() throws {
        let palette = try Self.palette()
        let shown = palette.colours.map {
            ColorSupport.eight.shown($0, reductions: palette.reductions)
        }
        #expect(Set(shown).count == 9, "\(shown)")
        #expect(shown.allSatisfy { ($0.color ?? 0) < 8 })
        #expect(shown[2] == ColorSupport.Shown(color: 1, bold: true))  // orange: bright red
        // Plain black would vanish on a dark terminal; grey is bright black (bold).
        #expect(!shown.contains(ColorSupport.Shown(color: 0, bold: false)))
        #expect(shown[8] == ColorSupport.Shown(color: 0, bold: true))
    }

    @Test func aSystemColourAboveFifteenIsRefused() {
        #expect(throws: Palette.ParseError.self) { try Palette(text: "1 white 15 16\n") }
    }

    /// The WCAG contrast ratio of two sRGB colours, from 1 (the same) to 21 (black and white).
    static func contrast(_ a: XtermPalette.RGB, _ b: XtermPalette.RGB) -> Double {
        func luminance(_ colour: XtermPalette.RGB) -> Double {
            func linear(_ channel: UInt8) -> Double {
                let value = Double(channel) / 255
                return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)
        }
        let (lighter, darker) = (max(luminance(a), luminance(b)), min(luminance(a), luminance(b)))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// A peer's cursor colour follows its peer id (kept by its replica), never default ink, and
    /// different peers spread over the palette.
    @Test func aPeersCursorColourIsStableAndNeverDefaultInk() throws {
        let colours = try Self.palette().colours
        let first = CanvasSession.cursorColour(peerID: 0x1234_5678_9ABC_DEF0, palette: colours)
        #expect(first == CanvasSession.cursorColour(peerID: 0x1234_5678_9ABC_DEF0, palette: colours))
        let many = (1...64).compactMap {
            CanvasSession.cursorColour(peerID: UInt64($0) << 40, palette: colours)
        }
        #expect(many.count == 64 && !many.contains(Ink.defaultInkColour))
        #expect(Set(many).count >= 6)
        #expect(CanvasSession.cursorColour(peerID: 1, palette: [Ink.defaultInkColour]) == nil)
    }
}
