/// The completion scripts `drawtogether completions bash|zsh|fish` prints, each made from one
/// `CompletionModel`.
enum CompletionScript {
    static func script(for shell: CompletionRequest, model: CompletionModel) -> String? {
        switch shell {
        case .bash: return bash(model)
        case .zsh: return zsh(model)
        case .fish: return fish(model)
        case .drawings: return nil
        }
    }

    /// A word in single quotes for bash and zsh (`'` becomes `'\''`).
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
