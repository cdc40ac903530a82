import Testing

@testable import TerminalCanvas

/// The keys of the shape, select and colour tools, and Shift on left-button reports.
@Suite struct InputDecoderToolKeysTests {
    private func characters(_ text: String) -> [RawInput] {
        text.unicodeScalars.map { .character($0.value) }
    }

    @Test func theToolLettersAreCommands() {
        var decoder = InputDecoder()
        #expect(
            decoder.decode(characters("/bcsiC=y")) == [
                .command(.selectTool(.shape(.line))), .command(.selectTool(.shape(.box))),
                .command(.selectTool(.shape(.ellipse))), .command(.selectTool(.select)),
                .command(.selectTool(.eyedropper)), .command(.openPalette), .command(.toggleConstraint),
                .command(.duplicateSelection),
            ])
        // hjkl keep moving the cursor.
        #expect(decoder.decode(characters("l")) == [.command(.move(.right))])
    }

    @Test func deleteRemovesTheSelectionAsAKeyCodeOrAsASequence() {
        var decoder = InputDecoder()
        #expect(decoder.decode([.key(.delete)]) == [.command(.deleteSelection)])
        #expect(decoder.decode(characters("\u{1B}[3~")) == [.command(.deleteSelection)])
    }

    @Test func aPromptTakesTheLettersAsText() {
        var decoder = InputDecoder(mode: .text)
        #expect(decoder.decode(characters("by")) == [.character("b"), .character("y")])
    }

    /// `y` is the duplicate key on the canvas and still the drawings menu's yes.
    @Test func yStillConfirmsADeleteInTheDrawingsMenu() throws {
        var decoder = InputDecoder()
        let items = [DrawingsMenu.Item(id: "a", name: "A"), DrawingsMenu.Item(id: "b", name: "B")]
        var menu = DrawingsMenu(items: items, currentID: "a")
        for event in decoder.decode(characters("jd")) { _ = menu.handle(event) }
        let yes = try #require(decoder.decode(characters("y")).first)
        #expect(yes == .command(.duplicateSelection))
        #expect(menu.handle(yes) == .delete(id: "b"))
    }

    @Test func shiftIsToldForLeftButtonReports() {
        var decoder = InputDecoder()
        // SGR: 4 is Shift; 32 motion.
        let events = decoder.decode(characters("\u{1B}[<4;3;2M\u{1B}[<36;6;4M\u{1B}[<4;6;4m"))
        #expect(
            events == [
                .mouse(MouseEvent(.press, x: 2, y: 1, shift: true)),
                .mouse(MouseEvent(.drag, x: 5, y: 3, shift: true)),
                .mouse(MouseEvent(.release, x: 5, y: 3, shift: true)),
            ])
        let plain = decoder.decode(characters("\u{1B}[<0;3;2M"))
        #expect(plain == [.mouse(MouseEvent(.press, x: 2, y: 1))])
        // ncurses: the BUTTON_SHIFT bit.
        var curses = InputDecoder()
        #expect(
            curses.decode([.mouse(MouseReport([.leftPressed, .shift], x: 1, y: 1))]) == [
                .mouse(MouseEvent(.press, x: 1, y: 1, shift: true))
            ])
    }
}
