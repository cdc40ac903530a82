@preconcurrency import CNcurses

/// Reading input and noticing resizes.
extension TerminalScreen {
    /// Everything the terminal has sent since the last call, in order, without blocking.
    ///
    /// A resize updates `size` and makes the next `draw` repaint the whole screen.
    public func readInputs() -> [RawInput] {
        // Suspended, a read would make curses refresh the screen it gave back to the shell.
        guard isActive, !isSuspended else { return [] }
        var inputs: [RawInput] = []
        // Bounded, so a terminal that floods us still lets the loop draw and sync in between.
        while inputs.count < 4096 {
            var character: wint_t = 0
            let result = get_wch(&character)
            if result == ERR { break }
            if result == KEY_CODE_YES {
                inputs += keyInputs(Int32(bitPattern: character))
            } else {
                inputs.append(.character(UInt32(character)))
            }
        }
        return inputs
    }

    private func keyInputs(_ code: Int32) -> [RawInput] {
        switch code {
        case KEY_MOUSE:
            return mouseReports().map(RawInput.mouse)
        case KEY_RESIZE:
            size = TerminalSize(width: Int(getmaxx(cn_stdscr())), height: Int(getmaxy(cn_stdscr())))
            previousFrame = nil
            _ = clearok(cn_stdscr(), true)
            return [.key(.resize)]
        default:
            return [.key(Self.specialKey(code))]
        }
    }

    /// One KEY_MOUSE can stand for several queued reports, which getmouse returns newest first.
    private func mouseReports() -> [MouseReport] {
        var reports: [MouseReport] = []
        var event = MEVENT()
        while reports.count < 256, getmouse(&event) == OK {
            reports.append(MouseReport(Self.buttons(event.bstate), x: Int(event.x), y: Int(event.y)))
        }
        return reports.reversed()
    }

    private static func buttons(_ state: mmask_t) -> MouseButtons {
        var buttons: MouseButtons = []
        let mapping: [(mmask_t, MouseButtons)] = [
            (cn_button1_pressed(), .leftPressed), (cn_button1_released(), .leftReleased),
            (cn_button1_clicked(), .leftClicked), (cn_report_mouse_position(), .position),
            (cn_button4_pressed(), .wheelUp), (cn_button5_pressed(), .wheelDown),
            (cn_button3_pressed(), .rightPressed), (cn_button3_released(), .rightReleased),
            (cn_button2_pressed(), .middlePressed), (cn_button2_released(), .middleReleased),
            (cn_button_shift(), .shift),
        ]
        for (bit, button) in mapping where state & bit != 0 { buttons.insert(button) }
        return buttons
    }

    static func specialKey(_ code: Int32) -> SpecialKey {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_RESIZE: .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): .function(Int(code - KEY_F0))
        default: .other(code)
        }
    }
}
