import FoundationEssentials

/// `drawtogether manpage`: drawtogether(1) in roff on standard output.
enum ManPageCommand {
    static func run() -> Int32 {
        do {
            let resources = try ResourceDirectory.locate()
            let page = try ManPage(version: DrawTogetherApp.version) { try resources.text("help/\($0).txt") }
            try CommandOutput.printStandardOutput(page.roff)
            return 0
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }
}
