import Foundation

/// Writes to standard error without touching the C `stderr` global (unusable in Swift 6 mode).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

exit(DrawTogetherApp.run(Array(CommandLine.arguments.dropFirst())))
