/// The fish script: `complete` lines with conditions on the subcommand found so far.
extension CompletionScript {
    static func fish(_ model: CompletionModel) -> String {
        let valued = model.optionsTakingValues.map(\.name).joined(separator: " ")
        let storeFlags = CompletionModel.storeSelectingFlags.joined(separator: " ")
        let storeEquals = fishQuoted(
            "^(" + CompletionModel.storeSelectingFlags.joined(separator: "|") + ")=")
        var lines: [String] = []
        for command in model.commands {
            lines.append(
                "complete -c drawtogether -n __drawtogether_no_subcommand -a \(fishQuoted(command.name))"
                    + " -d \(fishQuoted(command.summary ?? ""))")
        }
        for command in model.commands {
            switch command.argument {
            case .drawing:
                lines.append(
                    "complete -c drawtogether -n \(fishQuoted("__drawtogether_argument \(command.name)"))"
                        + " -a '(__drawtogether_drawings)'")
            case .choices(let choices):
                lines.append(
                    "complete -c drawtogether -n \(fishQuoted("__drawtogether_argument \(command.name)"))"
                        + " -a \(fishQuoted(choices.joined(separator: " ")))")
            case .none, .text, .directory, .file:
                break
            }
        }
        for option in model.options {
            lines.append(fishLine(option))
        }
        return """
            # fish completion for drawtogether; made by 'drawtogether completions fish' from the
            # tables its argument parser uses. Install: bin/install, or save it as
            # ~/.config/fish/completions/drawtogether.fish

            # The words before the cursor that are neither flags nor flag values: the subcommand
            # first, then its arguments.
            function __drawtogether_positionals
                set -l skip 0
                for word in (commandline -opc)[2..-1]
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    if contains -- $word \(valued)
                        set skip 1
                    else if not string match -q -- '-*' $word
                        echo $word
                    end
                end
            end

            function __drawtogether_no_subcommand
                test (count (__drawtogether_positionals)) -eq 0
            end

            # The subcommand is $argv[1] (open also when there is none yet).
            function __drawtogether_using
                set -l words (__drawtogether_positionals)
                test (count $words) -eq 0 -a "$argv[1]" = open; or test "$words[1]" = "$argv[1]"
            end

            # The subcommand is $argv[1] and its first argument is being typed.
            function __drawtogether_argument
                set -l words (__drawtogether_positionals)
                test (count $words) -eq 1 -a "$words[1]" = "$argv[1]"
            end

            # The drawing ids of the replica the command line names (its --store, --database-id
            # and --env-file).
            function __drawtogether_drawings
                set -l words (commandline -opc)
                set -l store
                for i in (seq 2 (count $words))
                    if contains -- $words[$i] \(storeFlags)
                        set store $store $words[$i] $words[(math $i + 1)]
                    else if string match -qr -- \(storeEquals) $words[$i]
                        set store $store $words[$i]
                    end
                end
                command $words[1] completions drawings $store 2>/dev/null
            end

            complete -c drawtogether -f
            \(lines.joined(separator: "\n"))

            """
    }

    private static func fishLine(_ option: CompletionModel.Option) -> String {
        var line = "complete -c drawtogether"
        if let owner = option.owner {
            line += " -n " + fishQuoted("__drawtogether_using \(owner.rawValue)")
        }
        line +=
            option.name.hasPrefix("--") ? " -l \(option.name.dropFirst(2))" : " -s \(option.name.dropFirst())"
        switch option.value {
        case .none: break
        case .text: line += " -x"
        case .directory: line += " -x -a '(__fish_complete_directories (commandline -ct))'"
        case .file: line += " -r -F"
        case .drawing: line += " -x -a '(__drawtogether_drawings)'"
        case .choices(let choices): line += " -x -a " + fishQuoted(choices.joined(separator: " "))
        }
        if let summary = option.summary { line += " -d " + fishQuoted(summary) }
        return line
    }

    /// A word in fish's single quotes (`\` and `'` escaped with a backslash).
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
            + "'"
    }
}
