/// Mouse reports, from ncurses or parsed from SGR sequences, into press / drag / release / move.
extension InputDecoder {
    mutating func decode(_ report: MouseReport) -> [InputEvent] {
        let x = report.x
        let y = report.y
        var events: [MouseEvent] = []
        if report.buttons.contains(.leftPressed) {
            events += press(x: x, y: y)
        }
        if report.buttons.contains(.leftClicked) {
            events += press(x: x, y: y) + release(x: x, y: y)
        }
        for (pressed, button) in [
            (MouseButtons.rightPressed, MouseEvent.Button.right), (.middlePressed, .middle),
        ]
        where report.buttons.contains(pressed) {
            if let held = heldOtherButton { events.append(MouseEvent(.release, x: x, y: y, button: held)) }
            heldOtherButton = button
            events.append(MouseEvent(.press, x: x, y: y, button: button))
        }
        if report.buttons.contains(.position) {
            // ncurses sends a drag without a button bit: only our own memory tells drag from hover.
            if isButtonHeld {
                events.append(MouseEvent(.drag, x: x, y: y))
            } else if let held = heldOtherButton {
                events.append(MouseEvent(.drag, x: x, y: y, button: held))
            } else {
                events.append(MouseEvent(.move, x: x, y: y))
            }
        }
        if report.buttons.contains(.leftReleased) {
            events += release(x: x, y: y)
        }
        for (released, button) in [
            (MouseButtons.rightReleased, MouseEvent.Button.right), (.middleReleased, .middle),
        ] where report.buttons.contains(released) && heldOtherButton == button {
            heldOtherButton = nil
            events.append(MouseEvent(.release, x: x, y: y, button: button))
        }
        let shift = report.buttons.contains(.shift)
        if report.buttons.contains(.wheelUp) {
            events.append(MouseEvent(.scrollUp, x: x, y: y, shift: shift))
        }
        if report.buttons.contains(.wheelDown) {
            events.append(MouseEvent(.scrollDown, x: x, y: y, shift: shift))
        }
        lastMouse = (x, y)
        return events.map { InputEvent.mouse($0.withShift(shift)) }
    }

    /// SGR reports say which button is down, so unlike ncurses' they can repair a lost press or
    /// a lost release.
    mutating func decode(_ report: SGRMouseSequence) -> [InputEvent] {
        let x = report.x
        let y = report.y
        var events: [MouseEvent] = []
        if report.isWheel {
            if report.isPress {
                events.append(
                    MouseEvent(
                        report.button & 1 == 0 ? .scrollUp : .scrollDown, x: x, y: y,
                        shift: report.code & 4 != 0))
            }
        } else if report.button == 1 || report.button == 2 {
            let button: MouseEvent.Button = report.button == 1 ? .middle : .right
            if !report.isPress {
                if heldOtherButton == button {
                    events.append(MouseEvent(.release, x: x, y: y, button: button))
                }
                heldOtherButton = nil
            } else if report.isMotion, heldOtherButton == button {
                events.append(MouseEvent(.drag, x: x, y: y, button: button))
            } else if !report.isMotion || heldOtherButton == nil {
                heldOtherButton = button
                events.append(MouseEvent(.press, x: x, y: y, button: button))
            }
        } else if report.button == 0 {
            if !report.isPress {
                events += release(x: x, y: y)
            } else if !report.isMotion {
                events += press(x: x, y: y)
            } else if isButtonHeld {
                events.append(MouseEvent(.drag, x: x, y: y))
            } else {
                events += press(x: x, y: y)  // a drag whose press we never saw starts the stroke here
            }
        } else if report.button == 3, report.isMotion {
            if isButtonHeld {
                events += release(x: lastMouse.x, y: lastMouse.y)  // the release was lost
            }
            events.append(MouseEvent(.move, x: x, y: y))
        }
        lastMouse = (x, y)
        // Shift is told for every report (it constrains a shape), not only the wheel's.
        return events.map { InputEvent.mouse($0.withShift(report.code & 4 != 0)) }
    }

    /// A press while the button is already held means the release went missing: close the old
    /// stroke where it was last seen before starting the new one.
    private mutating func press(x: Int, y: Int) -> [MouseEvent] {
        var events: [MouseEvent] = []
        if isButtonHeld { events += release(x: lastMouse.x, y: lastMouse.y) }
        isButtonHeld = true
        lastMouse = (x, y)
        events.append(MouseEvent(.press, x: x, y: y))
        return events
    }

    /// A release with no press before it is noise (a click that began outside the window).
    private mutating func release(x: Int, y: Int) -> [MouseEvent] {
        guard isButtonHeld else { return [] }
        isButtonHeld = false
        lastMouse = (x, y)
        return [MouseEvent(.release, x: x, y: y)]
    }
}

extension MouseEvent {
    /// The event with Shift as the report said. (A release repaired from an earlier report
    /// takes this report's Shift; it only ends a gesture, so it makes no difference.)
    fileprivate func withShift(_ held: Bool) -> MouseEvent {
        var event = self
        event.shift = held
        return event
    }
}
