import Testing

@testable import TerminalCanvas

private func characters(_ text: String) -> [RawInput] {
    text.unicodeScalars.map { .character($0.value) }
}

private func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int) -> InputEvent {
    .mouse(MouseEvent(kind, x: x, y: y))
}

@Suite struct InputDecoderMouseTests {
    @Test func ncursesPressPositionReleaseIsAPressDragsAndARelease() {
        var decoder = InputDecoder()
        let events = decoder.decode([
            .mouse(MouseReport(.leftPressed, x: 9, y: 4)),
            .mouse(MouseReport(.position, x: 10, y: 4)),
            .mouse(MouseReport(.position, x: 11, y: 4)),
            .mouse(MouseReport(.leftReleased, x: 11, y: 4)),
        ])
        #expect(
            events == [mouse(.press, 9, 4), mouse(.drag, 10, 4), mouse(.drag, 11, 4), mouse(.release, 11, 4)])
        #expect(!decoder.isButtonHeld)
    }

    @Test func positionWithoutAPressIsAHoverMove() {
        var decoder = InputDecoder()
        let events = decoder.decode([.mouse(MouseReport(.position, x: 3, y: 2))])
        #expect(events == [mouse(.move, 3, 2)])
    }

    @Test func theButtonStaysHeldAcrossReads() {
        var decoder = InputDecoder()
        _ = decoder.decode([.mouse(MouseReport(.leftPressed, x: 1, y: 1))])
        #expect(decoder.isButtonHeld)
        #expect(decoder.decode([.mouse(MouseReport(.position, x: 2, y: 1))]) == [mouse(.drag, 2, 1)])
    }

    @Test func aClickIsAPressAndAReleaseAtOneCell() {
        var decoder = InputDecoder()
        let events = decoder.decode([.mouse(MouseReport(.leftClicked, x: 4, y: 6))])
        #expect(events == [mouse(.press, 4, 6), mouse(.release, 4, 6)])
    }

    @Test func aSecondPressWithoutReleaseClosesTheFirstStrokeWhereItWasLastSeen() {
        var decoder = InputDecoder()
        let events = decoder.decode([
            .mouse(MouseReport(.leftPressed, x: 1, y: 1)),
            .mouse(MouseReport(.position, x: 2, y: 1)),
            .mouse(MouseReport(.leftPressed, x: 8, y: 8)),
        ])
        #expect(
            events == [mouse(.press, 1, 1), mouse(.drag, 2, 1), mouse(.release, 2, 1), mouse(.press, 8, 8)])
    }

    @Test func aReleaseWithoutAPressIsIgnoredAndTheWheelScrolls() {
        var decoder = InputDecoder()
        let events = decoder.decode([
            .mouse(MouseReport(.leftReleased, x: 1, y: 1)),
            .mouse(MouseReport(.wheelUp, x: 2, y: 2)),
            .mouse(MouseReport(.wheelDown, x: 2, y: 2)),
        ])
        #expect(events == [mouse(.scrollUp, 2, 2), mouse(.scrollDown, 2, 2)])
    }

    @Test func sgrPressDragReleaseIsDecodedWithZeroBasedCells() {
        var decoder = InputDecoder()
        let events = decoder.decode(
            characters("\u{1B}[<0;10;5M\u{1B}[<32;11;5M\u{1B}[<32;12;5M\u{1B}[<0;12;5m"))
        #expect(
            events == [mouse(.press, 9, 4), mouse(.drag, 10, 4), mouse(.drag, 11, 4), mouse(.release, 11, 4)])
    }

    @Test func sgrModifierBitsDoNotChangeTheLeftButton() {
        var decoder = InputDecoder()
        // 4 = Shift, 16 = Ctrl: still the left button (and Shift is told, for the shape tools).
        let events = decoder.decode(characters("\u{1B}[<4;1;1M\u{1B}[<48;2;1M\u{1B}[<16;2;1m"))
        #expect(
            events == [
                .mouse(MouseEvent(.press, x: 0, y: 0, shift: true)), mouse(.drag, 1, 0),
                mouse(.release, 1, 0),
            ])
    }

    @Test func sgrHoverIsAMoveAndRepairsALostRelease() {
        var decoder = InputDecoder()
        #expect(decoder.decode(characters("\u{1B}[<35;20;8M")) == [mouse(.move, 19, 7)])
        let events = decoder.decode(characters("\u{1B}[<0;1;1M\u{1B}[<35;4;4M"))
        #expect(events == [mouse(.press, 0, 0), mouse(.release, 0, 0), mouse(.move, 3, 3)])
    }

    @Test func sgrDragWithoutAPressStartsAStroke() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("\u{1B}[<32;5;5M\u{1B}[<32;6;5M"))
        #expect(events == [mouse(.press, 4, 4), mouse(.drag, 5, 4)])
    }

    @Test func sgrWheelAndOtherButtons() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("\u{1B}[<64;5;5M\u{1B}[<65;5;5M\u{1B}[<2;5;5M\u{1B}[<2;5;5m"))
        // The right button is reported too now (it erases while held).
        #expect(
            events == [
                mouse(.scrollUp, 4, 4), mouse(.scrollDown, 4, 4),
                .mouse(MouseEvent(.press, x: 4, y: 4, button: .right)),
                .mouse(MouseEvent(.release, x: 4, y: 4, button: .right)),
            ])
    }

    @Test func anSGRSequenceSplitAcrossReadsIsJoined() {
        var decoder = InputDecoder()
        #expect(decoder.decode(characters("\u{1B}[<0;3")).isEmpty)
        #expect(decoder.decode(characters(";7M")) == [mouse(.press, 2, 6)])
    }

    @Test(arguments: [
        "\u{1B}[<0;0;5M",  // columns are 1-based: 0 is not a cell
        "\u{1B}[<0;5M",  // two fields
        "\u{1B}[<0;1;2;3M",  // four fields
        "\u{1B}[<0;;5M",  // empty field
        "\u{1B}[<0;1234567;5M",  // absurdly long number
        "\u{1B}[<0:1;1M",  // a colon is a parameter byte, not a separator here
        "\u{1B}[<0;1;1X",  // wrong final byte
        "\u{1B}[0;1;1M",  // no '<': legacy sequence we do not use
        "\u{1B}[<" + String(repeating: "1", count: 60) + "M",  // overlong
    ])
    func malformedSequencesAreSwallowedWithoutTurningIntoCommands(sequence: String) {
        var decoder = InputDecoder()
        #expect(decoder.decode(characters(sequence)).isEmpty)
        #expect(decoder.decode(characters("u")) == [.command(.undo)])
        #expect(!decoder.isButtonHeld)
    }

    @Test func aControlCharacterInsideASequenceAbortsItAndIsReadAfresh() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("\u{1B}[<0;1\u{1B}[<0;2;3M"))
        #expect(events == [mouse(.press, 1, 2)])
        #expect(decoder.decode(characters("\u{1B}[<0;1\r")) == [.enter])
    }

    @Test func aKeyInterruptingAPartialSequenceDropsIt() {
        var decoder = InputDecoder()
        let events = decoder.decode(characters("\u{1B}[<0;1") + [.key(.up)] + characters("u"))
        #expect(events == [.command(.move(.up)), .command(.undo)])
    }
}

@Suite struct InputDecoderOtherButtonTests {
    private func event(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, _ button: MouseEvent.Button) -> InputEvent
    {
        .mouse(MouseEvent(kind, x: x, y: y, button: button))
    }

    @Test func aRightDragFromNcursesIsPressDragRelease() {
        var decoder = InputDecoder()
        let events = decoder.decode([
            .mouse(MouseReport(.rightPressed, x: 3, y: 2)),
            .mouse(MouseReport(.position, x: 4, y: 2)),
            .mouse(MouseReport(.rightReleased, x: 4, y: 2)),
            .mouse(MouseReport(.position, x: 6, y: 2)),
        ])
        #expect(
            events == [
                event(.press, 3, 2, .right), event(.drag, 4, 2, .right), event(.release, 4, 2, .right),
                event(.move, 6, 2, .left),
            ])
        #expect(!decoder.isButtonHeld)
    }

    @Test func sgrMiddleAndRightButtonsAndShiftWheel() {
        var decoder = InputDecoder()
        let text =
            "\u{1B}[<2;5;3M\u{1B}[<34;6;3M\u{1B}[<2;6;3m\u{1B}[<1;9;9M\u{1B}[<1;9;9m\u{1B}[<68;1;1M\u{1B}[<65;1;1M"
        let events = decoder.decode(text.unicodeScalars.map { .character($0.value) })
        #expect(
            events == [
                event(.press, 4, 2, .right), event(.drag, 5, 2, .right), event(.release, 5, 2, .right),
                event(.press, 8, 8, .middle), event(.release, 8, 8, .middle),
                .mouse(MouseEvent(.scrollUp, x: 0, y: 0, shift: true)),
                .mouse(MouseEvent(.scrollDown, x: 0, y: 0)),
            ])
    }

    @Test func aShiftedNcursesWheelSaysShift() {
        var decoder = InputDecoder()
        let events = decoder.decode([.mouse(MouseReport([.wheelDown, .shift], x: 1, y: 1))])
        #expect(events == [.mouse(MouseEvent(.scrollDown, x: 1, y: 1, shift: true))])
    }
}
