import Foundation

/// `drawtogether manpage`: drawtogether(1) in roff on standard output.
enum ManPageCommand {
    static func run() -> Int32 {
        do {
            let resources = try ResourceDirectory.locate()
            let page = try ManPage(version: DrawTogetherApp.version) { try resources.text("help/\($0).txt") }
            FileHandle.standardOutput.write(Data(page.roff.utf8))
            return 0
        } catch {
            printError("drawtogether: \(UserMessage.message(for: error))")
            return 1
        }
    }
}
