/// One line of `drawtogether doctor`: what was checked, what was found and, when something is
/// wrong, what to do.
struct DoctorFinding: Equatable, Sendable {
    enum Status: String, Sendable {
        case ok
        /// Works, but worth knowing (colours off by NO_COLOR, a store others can read).
        case note
        /// Something that does not work as it should; doctor exits 1.
        case problem
    }

    enum Area: String, CaseIterable, Sendable {
        case terminal, store, discovery, settings, network
    }

    var status: Status
    var area: Area
    var text: String

    static func ok(_ area: Area, _ text: String) -> DoctorFinding {
        DoctorFinding(status: .ok, area: area, text: text)
    }

    static func note(_ area: Area, _ text: String) -> DoctorFinding {
        DoctorFinding(status: .note, area: area, text: text)
    }

    static func problem(_ area: Area, _ text: String) -> DoctorFinding {
        DoctorFinding(status: .problem, area: area, text: text)
    }

    /// `problem  store      TEXT`: the status and the area in columns, the text as the one
    /// rule for user-facing messages has it.
    var line: String {
        func padded(_ word: String, _ width: Int) -> String {
            word + String(repeating: " ", count: max(1, width - word.count))
        }
        return padded(status.rawValue, 9) + padded(area.rawValue, 11) + UserMessage.sentence(text)
    }
}
