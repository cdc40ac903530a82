import Testing

@testable import TerminalCanvas

/// Feeds text to the decoder the way ncurses hands over characters it did not parse.
private func characters(_ text: String) -> [RawInput] {
    text.unicodeScalars.map { .character($0.value) }
}

@Suite struct InputDecoderTests {
    @Test func lettersDigitsAndPunctuationMapToTheirCommands() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("pex[]5uqr?goHJKL hjkl"))
        #expect(
            events == [
                .command(.selectTool(.pen)), .command(.selectTool(.maskEraser)),
                .command(.selectTool(.strokeEraser)), .command(.shrinkBrush), .command(.growBrush),
                .command(.selectColor(5)), .command(.undo), .command(.quit), .command(.redo),
                .command(.toggleHelp), .command(.toggleGlyphs), .command(.openDrawings),
                .command(.pan(.left)), .command(.pan(.down)), .command(.pan(.up)), .command(.pan(.right)),
                .command(.togglePen),
                .command(.move(.left)), .command(.move(.down)), .command(.move(.up)), .command(.move(.right)),
            ])
    }

    @Test func everyDigitFromOneToNineSelectsThatColourAndZeroGoesHome() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("1234567890"))
        #expect(events == (1...9).map { .command(.selectColor($0)) } + [.command(.viewHome)])
    }

    @Test func theHomeKeyGoesHomeHoweverTheTerminalSendsIt() {
        var decoder = InputDecoder()
        let events = decoder.decode(
            [.key(.home)] + characters("\u{1B}[H\u{1B}[1~\u{1B}[7~\u{1B}OH\u{1B}[1;5H"))
        #expect(events == Array(repeating: .command(.viewHome), count: 6))
        #expect(decoder.decode(characters("\u{1B}[4~\u{1B}[F")).isEmpty)  // End is not Home
    }

    @Test func arrowKeysMoveTheCursorAndResizeIsReported() {
        var decoder = InputDecoder()
        let events = decoder.decode([.key(.up), .key(.down), .key(.left), .key(.right), .key(.resize)])
        #expect(
            events == [
                .command(.move(.up)), .command(.move(.down)), .command(.move(.left)),
                .command(.move(.right)), .resize,
            ])
    }

    @Test func enterAndBackspaceArriveAsCharactersOrKeys() {
        var decoder = InputDecoder()
        let events = decoder.decode([
            .character(10), .character(13), .character(127), .character(8), .key(.enter), .key(.backspace),
        ])
        #expect(events == [.enter, .enter, .backspace, .backspace, .enter, .backspace])
    }

    @Test func unboundAndNonASCIIPrintablesAreCharactersAndControlCharactersVanish() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("zé⣿") + [.character(1), .character(0x9B)])
        #expect(events == [.character("z"), .character("é"), .character("⣿")])
    }

    @Test func textModeTurnsCommandLettersIntoCharacters() {
        var decoder = InputDecoder(mode: .text)
        let events = decoder.decode(characters("q 1") + [.key(.left), .character(27)])
        #expect(
            events == [
                .character("q"), .character(" "), .character("1"), .command(.move(.left)), .command(.escape),
            ])
    }

    @Test func aLoneEscapeAtTheEndOfARead_isTheEscapeKey() {
        var decoder = InputDecoder()
        #expect(decoder.decode([.character(27)]) == [.command(.escape)])
        #expect(decoder.decode(characters("q")) == [.command(.quit)])
    }

    @Test func escapeFollowedByAnotherKeyIsEscapeThenThatKey() {
        var decoder = InputDecoder()
        #expect(decoder.decode(characters("\u{1B}u")) == [.command(.escape), .command(.undo)])
        #expect(decoder.decode(characters("\u{1B}\u{1B}")) == [.command(.escape), .command(.escape)])
        #expect(decoder.decode([.character(27), .key(.up)]) == [.command(.escape), .command(.move(.up))])
    }

    @Test func cursorKeySequencesThatArriveAsCharactersStillMove() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}OD"))
        #expect(
            events == [
                .command(.move(.up)), .command(.move(.down)), .command(.move(.right)), .command(.move(.left)),
            ])
    }

    @Test func escapeThenCapitalOIsNotSwallowed() {
        var decoder = InputDecoder(mode: .text)
        #expect(
            decoder.decode(characters("\u{1B}Ox")) == [.command(.escape), .character("O"), .character("x")])
        #expect(decoder.decode(characters("\u{1B}O")) == [])
        #expect(decoder.decode([.key(.up)]) == [.command(.escape), .character("O"), .command(.move(.up))])
    }
}
