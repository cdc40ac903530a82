import Glibc

/// Writes to standard error with `write(2)`: the C `stderr` global is unusable in Swift 6 mode,
/// and Foundation's `FileHandle.write` traps when the write fails. A failure here has nowhere
/// left to be reported, so it is dropped.
func printError(_ message: String) {
    _ = CommandOutput.writeAll(Array((message + "\n").utf8), to: STDERR_FILENO)
}

// A closed pipe or a file size limit is a failed write to report (see CommandOutput), not a
// signal that ends the process without a word.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
do {
    let arguments = try CommandLineBytes.arguments(CommandLineBytes.processArguments())
    try CommandLineBytes.checkEnvironment(Configuration.Variable.settings)
    exit(DrawTogetherApp.run(arguments))
} catch {
    printError("drawtogether: \(UserMessage.message(for: error))")
    exit(2)
}
