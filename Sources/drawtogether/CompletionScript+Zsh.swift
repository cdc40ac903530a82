/// The zsh script: a `#compdef` function built on `_arguments`, with the subcommands described
/// and each subcommand's own options after it.
extension CompletionScript {
    static func zsh(_ model: CompletionModel) -> String {
        func specs(_ options: [CompletionModel.Option]) -> String {
            options.map { "        " + quoted(zshSpec($0)) + " \\" }.joined(separator: "\n")
        }
        let subcommands = model.commands.map { command in
            "        " + quoted(command.name + ":" + (command.summary ?? ""))
        }.joined(separator: "\n")
        let argumentCases = model.commands.map { command in
            let argument: String
            switch command.argument {
            case .drawing: argument = quoted("1:drawing:_drawtogether_drawings")
            case .choices(let choices): argument = quoted("1:argument:(\(choices.joined(separator: " ")))")
            case .none, .text, .directory, .file: argument = ""
            }
            let options = specs(model.options(for: Subcommand(rawValue: command.name)))
            return """
                    (\(command.name))
                        _arguments -s \\
                \(options)
                            \(argument) && ret=0 ;;
                """
        }.joined(separator: "\n")
        let storePattern = CompletionModel.storeSelectingFlags.joined(separator: "|")
        let storeEqualsPattern = CompletionModel.storeSelectingFlags.map { "\($0)=*" }.joined(separator: "|")
        return """
            #compdef drawtogether
            # zsh completion for drawtogether; made by 'drawtogether completions zsh' from the tables
            # its argument parser uses. Install: bin/install, or save it as _drawtogether in a
            # directory on $fpath before compinit runs.

            # The drawing ids of the replica the command line names (its --store, --database-id and
            # --env-file).
            _drawtogether_drawings() {
                local -a store ids
                local i
                for (( i = 2; i < ${#_drawtogether_words}; i++ )); do
                    case ${_drawtogether_words[i]} in
                        (\(storePattern)) store+=(${_drawtogether_words[i]} ${_drawtogether_words[i+1]}) ;;
                        (\(storeEqualsPattern)) store+=(${_drawtogether_words[i]}) ;;
                    esac
                done
                ids=(${(f)"$(command ${_drawtogether_words[1]} completions drawings $store 2>/dev/null)"})
                compadd -a ids
            }

            _drawtogether() {
                local curcontext=$curcontext state state_descr line ret=1
                local -a _drawtogether_words subcommands
                typeset -A opt_args
                _drawtogether_words=("${words[@]}")
                subcommands=(
            \(subcommands)
                )
                _arguments -C -s \\
            \(specs(model.options(for: nil)))
                    '1: :->subcommand' \\
                    '*:: :->argument' && ret=0
                case $state in
                    (subcommand)
                        _describe -t subcommands 'drawtogether subcommand' subcommands && ret=0 ;;
                    (argument)
                        curcontext=${curcontext%:*:*}:drawtogether-$words[1]:
                        case $words[1] in
            \(argumentCases)
                        esac ;;
                esac
                return ret
            }

            _drawtogether "$@"

            """
    }

    /// One `_arguments` spec: `--store=[summary]:dir:_files -/`.
    private static func zshSpec(_ option: CompletionModel.Option) -> String {
        let summary = "[" + escaped(option.summary ?? "") + "]"
        let repeats = option.isRepeatable ? "*" : ""
        let placeholder = escaped(CommandLineError.placeholder(for: option.name).lowercased())
        let long = option.name.hasPrefix("--")
        let name = repeats + option.name + (long ? "=" : "")
        switch option.value {
        case .none: return repeats + option.name + summary
        case .text: return name + summary + ":" + placeholder + ": "
        case .directory: return name + summary + ":" + placeholder + ":_files -/"
        case .file: return name + summary + ":" + placeholder + ":_files"
        case .drawing: return name + summary + ":drawing:_drawtogether_drawings"
        case .choices(let choices):
            return name + summary + ":" + placeholder + ":(\(choices.joined(separator: " ")))"
        }
    }

    /// Text inside an `_arguments` spec: brackets, colons and backslashes escaped.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\[]:".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
