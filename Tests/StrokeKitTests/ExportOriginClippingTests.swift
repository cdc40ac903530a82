import StrokeKit
import StrokeKitTestSupport
import Testing

/// `text` and `ansi` start at the canvas origin; `OriginClipping` counts what they leave out.
@Suite struct ExportOriginClippingTests {
    let inside = Fixtures.group([Fixtures.stroke([(1, 1), (6, 2)], key: Fixtures.key(1000))])
    let leftOfOrigin = Fixtures.group([Fixtures.stroke([(-9, 2), (-3, 2)], key: Fixtures.key(2000))])
    let aboveOrigin = Fixtures.group([Fixtures.stroke([(2, -6), (5, -4)], key: Fixtures.key(3000))])
    let acrossTheLeftEdge = Fixtures.group([Fixtures.stroke([(-4, 3), (4, 3)], key: Fixtures.key(4000))])

    @Test func inkAtOrRightOfAndBelowTheOriginIsNotClipped() {
        #expect(OriginClipping(of: [inside]) == OriginClipping())
        #expect(OriginClipping(of: [inside]).warning(format: "text") == nil)
        #expect(OriginClipping(of: []).total == 0)
    }

    @Test func groupsWhollyOrPartlyLeftOfOrAboveTheOriginAreCountedApart() {
        let clipping = OriginClipping(of: [inside, leftOfOrigin, aboveOrigin, acrossTheLeftEdge])
        #expect(clipping == OriginClipping(whollyOutside: 2, partlyOutside: 1))
        // What is counted is what the text export really loses.
        let text = TextExporter.export([inside, leftOfOrigin, aboveOrigin, acrossTheLeftEdge])
        #expect(text == TextExporter.export([inside, acrossTheLeftEdge]))
        #expect(text != TextExporter.export([inside]))
    }

    @Test func erasedInkLeftOfTheOriginDoesNotCount() {
        var stroke = Fixtures.stroke([(-3, 1), (5, 1)], key: Fixtures.key(5000), width: 1)
        stroke.mask = Fixtures.mask(radius: 1.5, [(-4, 1), (0, 1)])
        #expect(OriginClipping(of: [Fixtures.group([stroke])]).total == 0)
        stroke.mask = .none
        #expect(OriginClipping(of: [Fixtures.group([stroke])]).partlyOutside == 1)
    }

    /// What to export instead is the program's to say (ExportCommandTests); the library says how
    /// many and how.
    @Test func theWarningSaysHowManyAreLeftOut() throws {
        let many = try #require(
            OriginClipping(of: [leftOfOrigin, aboveOrigin, acrossTheLeftEdge]).warning(format: "ansi"))
        #expect(
            many
                == "3 strokes lie left of or above the canvas origin (0,0), where ansi export starts, and are "
                + "left out (2 wholly, 1 partly)")
        let one = try #require(OriginClipping(of: [acrossTheLeftEdge]).warning(format: "text"))
        #expect(one.hasPrefix("1 stroke lies left of or above"))
        #expect(one.hasSuffix("is left out (1 partly)"))
    }
}
