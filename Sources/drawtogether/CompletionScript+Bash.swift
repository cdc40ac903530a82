/// The bash script: one function, registered with `complete -F`, that works without the
/// bash-completion package (it reads `COMP_WORDS` itself, `=` split off or not).
extension CompletionScript {
    static func bash(_ model: CompletionModel) -> String {
        let valued = model.optionsTakingValues
        func names(_ options: [CompletionModel.Option]) -> String {
            options.map(\.name).joined(separator: " ")
        }
        func valueCases() -> String {
            let groups: [(CompletionModel.Value, String)] = [
                (.directory, #"COMPREPLY=($(compgen -d -- "$cur"))"#),
                (.file, #"COMPREPLY=($(compgen -f -- "$cur"))"#),
                (.text, "COMPREPLY=()"),
            ]
            var lines: [String] = []
            for option in valued {
                if case .choices(let choices) = option.value {
                    lines.append(
                        "        \(option.name)) COMPREPLY=($(compgen -W \(quoted(choices.joined(separator: " "))) -- \"$cur\")); return ;;"
                    )
                }
            }
            for (kind, action) in groups {
                let matching = valued.filter { $0.value == kind }
                guard !matching.isEmpty else { continue }
                lines.append(
                    "        \(matching.map(\.name).joined(separator: "|"))) \(action); return ;;")
            }
            return lines.joined(separator: "\n")
        }
        func optionCases() -> String {
            model.commands.map { command in
                let subcommand = Subcommand(rawValue: command.name)
                return
                    "            \(command.name)) options=\(quoted(names(model.options(for: subcommand)))) ;;"
            }.joined(separator: "\n")
        }
        func argumentCases() -> String {
            model.commands.compactMap { command in
                switch command.argument {
                case .drawing:
                    return "        \(command.name)) _drawtogether_drawings ;;"
                case .choices(let choices):
                    return
                        "        \(command.name)) COMPREPLY=($(compgen -W \(quoted(choices.joined(separator: " "))) -- \"$cur\")) ;;"
                case .none, .text, .directory, .file:
                    return nil
                }
            }.joined(separator: "\n")
        }
        let valuedPattern = valued.map(\.name).joined(separator: "|")
        let storePattern = CompletionModel.storeSelectingFlags.joined(separator: "|")
        let storeEqualsPattern = CompletionModel.storeSelectingFlags.map { "\($0)=*" }.joined(separator: "|")
        return """
            # bash completion for drawtogether; made by 'drawtogether completions bash' from the
            # tables its argument parser uses. Install: bin/install, or save it as
            # ~/.local/share/bash-completion/completions/drawtogether (or source it from ~/.bashrc).

            # The drawing ids of the replica the command line names (its --store, --database-id
            # and --env-file), matching the word being completed.
            _drawtogether_drawings() {
                local id
                while IFS= read -r id; do
                    [[ $id == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$id")")
                done < <(command "${COMP_WORDS[0]}" completions drawings "${store[@]}" 2>/dev/null)
            }

            _drawtogether() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev="" flag="" word subcommand="" i
                local -a store=() arguments=()
                COMPREPLY=()
                ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
                # bash splits '--format=svg' into '--format' '=' 'svg'.
                if [[ $cur == "=" ]]; then
                    flag=$prev
                    cur=""
                elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
                    flag=${COMP_WORDS[COMP_CWORD - 2]}
                elif [[ $prev == -* ]]; then
                    flag=$prev
                fi
                case $flag in
            \(valueCases())
                esac

                # The subcommand is the first word that is neither a flag nor a flag's value.
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                    \(storePattern))
                        if [[ ${COMP_WORDS[i + 1]} == "=" ]]; then
                            store+=("$word=${COMP_WORDS[i + 2]}")
                            ((i += 2))
                        else
                            store+=("$word" "${COMP_WORDS[i + 1]}")
                            ((i++))
                        fi ;;
                    \(storeEqualsPattern)) store+=("$word") ;;
                    \(valuedPattern))
                        [[ ${COMP_WORDS[i + 1]} == "=" ]] && ((i++))
                        ((i++)) ;;
                    -*) ;;
                    *)
                        if [[ -z $subcommand ]]; then subcommand=$word; else arguments+=("$word"); fi ;;
                    esac
                done

                if [[ $cur == -* ]]; then
                    local options
                    case $subcommand in
            \(optionCases())
                        *) options=\(quoted(names(model.options(for: nil)))) ;;
                    esac
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                    return
                fi
                if [[ -z $subcommand ]]; then
                    COMPREPLY=($(compgen -W \(quoted(model.commands.map(\.name).joined(separator: " "))) -- "$cur"))
                    return
                fi
                ((${#arguments[@]} > 0)) && return
                case $subcommand in
            \(argumentCases())
                esac
            }

            complete -F _drawtogether drawtogether

            """
    }
}
