import StrokeKit

/// The colour other peers see one's cursor in, as `--cursor-colour NAME` (or
/// `DRAWTOGETHER_CURSOR_COLOUR`) chooses it: a palette colour by name, or `auto` for the one each
/// viewer picks from the peer id (the default). Saved per store like the display name.
enum CursorColourChoice {
    /// The word that goes back to the colour picked from the peer id.
    static let automatic = "auto"

    /// The colour `name` stands for (any letter case); nil for `auto`. Default ink is refused: it
    /// is each viewer's own foreground, so it would not tell the cursor apart.
    static func resolve(_ name: String, palette: Palette) throws(CursorColourError) -> UInt8? {
        let word = name.lowercased()
        if word == automatic { return nil }
        let choices = choosable(palette)
        guard let entry = choices.first(where: { $0.name.lowercased() == word }) else {
            throw .unknown(name, choices: choices.map(\.name))
        }
        return entry.colour
    }

    /// The palette colours a cursor can take: all but default ink.
    static func choosable(_ palette: Palette) -> [Palette.Entry] {
        palette.entries.filter { $0.colour != Ink.defaultInkColour }
    }
}

/// Why a cursor colour was refused.
enum CursorColourError: Error, Equatable, CustomStringConvertible {
    /// Not a palette colour's name (or the default ink's).
    case unknown(String, choices: [String])

    var description: String {
        switch self {
        case .unknown(let name, let choices):
            "no cursor colour '\(DisplayText.escaped(name))'; use one of \(choices.joined(separator: ", ")) "
                + "or \(CursorColourChoice.automatic) (a colour picked from your peer id)"
        }
    }
}
