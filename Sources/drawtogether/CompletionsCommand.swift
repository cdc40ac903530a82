import FoundationEssentials
import ReplicaStore

/// `drawtogether completions bash|zsh|fish|drawings`.
enum CompletionsCommand {
    /// Prints a shell's script; the summaries in it come from the help texts.
    static func printScript(for shell: CompletionRequest) -> Int32 {
        do {
            let resources = try ResourceDirectory.locate()
            let model = try CompletionModel { try resources.text("help/\($0).txt") }
            guard let script = CompletionScript.script(for: shell, model: model) else { return 2 }
            try CommandOutput.printStandardOutput(script)
            return 0
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }

    /// `completions drawings`: the ids in the replica, one a line, sorted. A store that is not
    /// there yet has no drawings to offer, which is not an error at the Tab key.
    static func run(_ request: CompletionRequest, configuration: Configuration) throws -> Int32 {
        guard request == .drawings else { return printScript(for: request) }
        let replica: Replica
        do {
            replica = try configuration.replicaLocation.openForReading()
        } catch ReplicaLocation.LocationError.noReplica {
            return 0
        }
        // One a line: an id with a line break in it cannot be offered.
        let ids = try replica.execute("SELECT _id FROM drawings").documents.compactMap {
            $0["_id"]?.stringValue
        }
        .filter { !$0.contains(where: \.isNewline) }
        let text = ids.sorted().map { $0 + "\n" }.joined()
        try CommandOutput.printStandardOutput(text)
        return 0
    }
}
