import Foundation
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// A small XML checker for the documents the SVG exporter writes: balanced tags, one root,
/// quoted attributes, `&` only in entities; plus the ids and `url(#…)` references in it.
struct XMLCheck {
    var problems: [String] = []
    var elements: [String] = []
    var ids: [String] = []
    var references: [String] = []
    var root: String?

    init(_ text: String) {
        var stack: [String] = []
        var rest = Substring(text)
        func checkEntities(_ part: Substring, _ what: String) -> [String] {
            var found: [String] = []
            var scan = part
            while let amp = scan.firstIndex(of: "&") {
                let after = scan[amp...]
                if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(where: { after.hasPrefix($0) }) {
                    found.append("bare & in \(what)")
                }
                scan = scan[scan.index(after: amp)...]
            }
            return found
        }
        while let open = rest.firstIndex(of: "<") {
            problems += checkEntities(rest[..<open], "text")
            if stack.isEmpty && rest[..<open].contains(where: { !$0.isWhitespace }) {
                problems.append("text outside the root")
            }
            rest = rest[open...]
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { problems.append("unclosed declaration"); return }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { problems.append("unclosed tag"); return }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                if stack.popLast() != name { problems.append("</\(name)> closes nothing open") }
                continue
            }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? tag.dropLast() : tag
            let name = String(body.prefix { !$0.isWhitespace })
            if stack.isEmpty {
                if root != nil { problems.append("second root <\(name)>") }
                root = name
            }
            elements.append(name)
            // Attributes: name="value" pairs, values without < and with & only in entities.
            var attributes = body.dropFirst(name.count)
            while let equals = attributes.firstIndex(of: "=") {
                let valueStart = attributes.index(after: equals)
                guard valueStart < attributes.endIndex, attributes[valueStart] == "\"",
                    let valueEnd = attributes[attributes.index(after: valueStart)...].firstIndex(of: "\"")
                else {
                    problems.append("unquoted attribute in <\(name)>")
                    break
                }
                let attributeName = attributes[..<equals].trimmingPrefix(while: \.isWhitespace)
                let value = attributes[attributes.index(after: valueStart)..<valueEnd]
                if value.contains("<") { problems.append("< in an attribute of <\(name)>") }
                problems += checkEntities(value, "an attribute of <\(name)>")
                if attributeName == "id" { ids.append(String(value)) }
                if let url = value.range(of: "url(#"), let end = value[url.upperBound...].firstIndex(of: ")")
                {
                    references.append(String(value[url.upperBound..<end]))
                }
                attributes = attributes[attributes.index(after: valueEnd)...]
            }
            if !selfClosing { stack.append(name) }
        }
        if rest.contains(where: { !$0.isWhitespace }) { problems.append("text after the root") }
        if !stack.isEmpty { problems.append("unclosed <\(stack.joined(separator: ", "))>") }
        if root == nil { problems.append("no root element") }
    }
}

extension Substring {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        self[(firstIndex { !predicate($0) } ?? endIndex)...]
    }
}

@Suite struct ExportSVGTests {
    func masked() -> StrokeGroup {
        var stroke = Fixtures.stroke([(2, 2), (12, 2)], key: Fixtures.key(2000), width: 1.5, colour: 196)
        stroke.mask = Fixtures.mask(radius: 1, [(7, 1), (7, 3)])
        return Fixtures.group([stroke])
    }

    @Test func aDrawingIsAWellFormedSVGDocument() {
        var generator = SplitMix64(seed: 8)
        let drawing = Fixtures.smallDrawing(using: &generator) + [masked()]
        let svg = SVGExporter.export(drawing)
        let check = XMLCheck(svg)
        #expect(check.problems == [])
        #expect(check.root == "svg")
        #expect(svg.hasPrefix(##"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"##))
        #expect(svg.contains(##"xmlns="http://www.w3.org/2000/svg" version="1.1""##))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func theCheckerCatchesBrokenDocuments() {
        #expect(XMLCheck("<svg><g></svg>").problems != [])
        #expect(XMLCheck("<svg><g/></svg><svg/>").problems != [])
        #expect(XMLCheck(#"<svg><title>a & b</title></svg>"#).problems != [])
        #expect(XMLCheck(#"<svg width=10/>"#).problems != [])
        #expect(XMLCheck(#"<svg x="<"/>"#).problems != [])
        #expect(XMLCheck(#"<svg><g></g></svg>"#).problems == [])
    }

    @Test func everyMaskReferenceNamesAMaskThatExists() {
        var generator = SplitMix64(seed: 9)
        let drawing = Fixtures.smallDrawing(using: &generator, groups: 30) + [masked()]
        let check = XMLCheck(SVGExporter.export(drawing))
        #expect(!check.references.isEmpty)
        #expect(Set(check.ids).count == check.ids.count)
        for reference in check.references { #expect(check.ids.contains(reference)) }
        #expect(check.elements.filter { $0 == "mask" }.count == check.references.count)
    }

    @Test func aMaskDrawsTheSweepsInBlackAtTwiceTheRadiusOverWhite() {
        let svg = SVGExporter.export([masked()])
        #expect(
            svg.contains(
                ##"<mask id="m1" maskUnits="userSpaceOnUse" x="-0.5" y="-0.5" width="15" height="5">"##))
        #expect(svg.contains(##"<rect x="-0.5" y="-0.5" width="15" height="5" fill="#ffffff"/>"##))
        #expect(svg.contains(##"<polyline points="7,1 7,3" stroke="#000000" stroke-width="2"/>"##))
        #expect(
            svg.contains(
                ##"<polyline points="2,2 12,2" stroke="#ff0000" stroke-width="1.5" mask="url(#m1)"/>"##))
    }

    @Test func strokesCarryTheirPaletteColourAndWidthWithRoundEnds() {
        let green = Fixtures.group([
            Fixtures.stroke([(1, 1), (4.0625, 3.5)], key: Fixtures.key(1000), width: 0.25, colour: 46)
        ])
        let grey = Fixtures.group([
            Fixtures.stroke([(0, 5), (3, 5)], key: Fixtures.key(3000), width: 2, colour: 244)
        ])
        let svg = SVGExporter.export([grey, green])
        #expect(svg.contains(##"<polyline points="1,1 4.0625,3.5" stroke="#00ff00" stroke-width="0.25"/>"##))
        #expect(svg.contains(##"<polyline points="0,5 3,5" stroke="#808080" stroke-width="2"/>"##))
        #expect(svg.contains(##"stroke-linecap="round" stroke-linejoin="round""##))
        #expect(svg.contains(##"<g transform="scale(10 20)""##))
    }

    @Test func groupsAreDrawnInKeyOrderWhateverTheInputOrder() throws {
        let early = Fixtures.group([Fixtures.stroke([(0, 0), (5, 0)], key: Fixtures.key(1000), colour: 196)])
        let late = Fixtures.group([Fixtures.stroke([(0, 0), (5, 0)], key: Fixtures.key(2000), colour: 33)])
        let svg = SVGExporter.export([late, early])
        let red = try #require(svg.range(of: "#ff0000"))
        let blue = try #require(svg.range(of: "#0087ff"))
        #expect(red.lowerBound < blue.lowerBound)
        #expect(SVGExporter.export([early, late]) == svg)
    }

    @Test func theTransformIsAppliedToThePathAndItsMask() {
        var stroke = Fixtures.stroke([(1, 1), (3, 1)], width: 1)
        stroke.mask = Fixtures.mask(radius: 0.5, [(2, 1)])
        stroke.transform = StrokeTransform(dx: 10, dy: -0.5)
        let svg = SVGExporter.export([Fixtures.group([stroke])])
        #expect(svg.contains(##"<polyline points="11,0.5 13,0.5""##))
        #expect(svg.contains(##"<circle cx="12" cy="0.5" r="0.5" fill="#000000"/>"##))
    }

    @Test func aSinglePointIsADot() {
        let dot = Fixtures.group([Fixtures.stroke([(3, 2)], width: 1, colour: 226)])
        #expect(SVGExporter.export([dot]).contains(##"<circle cx="3" cy="2" r="0.5" fill="#ffff00"/>"##))
    }

    @Test func theViewBoxCoversTheExtentAndTheMargin() throws {
        let line = Fixtures.group([Fixtures.stroke([(2, 1.25), (8, 1.25)])])
        let extent = try #require(Raster.extent(of: [line]))
        #expect(extent == CellRect(x: 2, y: 1, width: 7, height: 1))
        let svg = SVGExporter.export([line])
        #expect(svg.contains(##"width="90" height="60" viewBox="10 0 90 60""##))
        let tight = SVGExporter.export(
            [line], options: SVGExportOptions(cellWidth: 8, cellHeight: 16, margin: 0))
        #expect(tight.contains(##"width="56" height="16" viewBox="16 16 56 16""##))
    }

    @Test func theBackgroundIsATerminalNearBlackUnlessAskedOtherwise() {
        let line = Fixtures.group([Fixtures.stroke([(2, 1), (8, 1)])])
        #expect(SVGExporter.export([line]).contains(##"height="60" fill="#1c1c1c"/>"##))
        let paper = SVGExporter.export([line], options: SVGExportOptions(background: 15))
        #expect(paper.contains(##"height="60" fill="#ffffff"/>"##))
        let clear = SVGExporter.export([line], options: SVGExportOptions(background: nil))
        #expect(!clear.contains("<rect"))
    }

    /// Every pen colour of Resources/palette.txt stands out from the default background by at
    /// least the 3:1 contrast WCAG asks of graphics (white on the old white paper was 1:1).
    @Test func everyPaletteColourIsLegibleOnTheDefaultBackground() throws {
        let palette = try String(
            contentsOf: ExportSampleDrawingTests.resource("palette.txt"), encoding: .utf8)
        let colours = palette.split(separator: "\n").compactMap { line -> UInt8? in
            let fields = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(separator: " ", omittingEmptySubsequences: true)
            return fields.count == 4 ? UInt8(fields[2]) : nil
        }
        #expect(colours.count == 9)
        let background = XtermPalette.rgb(SVGExportOptions().background ?? 15)
        for colour in colours {
            #expect(Self.contrast(XtermPalette.rgb(colour), background) >= 3, "colour \(colour)")
        }
        #expect(Self.contrast(XtermPalette.rgb(15), XtermPalette.rgb(15)) < 3)
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

    @Test func textIsEscaped() {
        let options = SVGExportOptions(title: "Tom & Jerry's <\"plan\">\u{7}")
        let svg = SVGExporter.export([masked()], options: options)
        #expect(svg.contains("<title>Tom &amp; Jerry&apos;s &lt;&quot;plan&quot;&gt;\u{FFFD}</title>"))
        #expect(XMLCheck(svg).problems == [])
        #expect(svg.contains("<desc>\(Fixtures.key(2000).rawValue)</desc>"))
    }

    @Test func anEmptyDrawingIsABlankPicture() {
        let svg = SVGExporter.export([])
        #expect(XMLCheck(svg).problems == [])
        #expect(svg.contains(##"width="30" height="60" viewBox="-10 -20 30 60""##))
        #expect(!svg.contains("<polyline"))
    }
}
