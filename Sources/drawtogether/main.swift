import Foundation

let version = "0.1.0"

/// Writes to standard error without touching the C `stderr` global (unusable in Swift 6 mode).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func run(_ arguments: [String]) -> Int32 {
    if arguments.contains("--version") {
        print("drawtogether \(version)")
        return 0
    }
    if arguments.contains("--help") || arguments.contains("-h") {
        do {
            print(try ResourceDirectory.locate().text("help/usage.txt"), terminator: "")
            return 0
        } catch {
            printError("drawtogether: \(error)")
            return 1
        }
    }
    if let flag = arguments.first(where: { $0.hasPrefix("-") }) {
        printError("drawtogether: unknown option '\(flag)'; see 'drawtogether --help'")
        return 2
    }
    printError("drawtogether: this build has no canvas yet; see 'drawtogether --help' for the command line")
    return 1
}

exit(run(Array(CommandLine.arguments.dropFirst())))
