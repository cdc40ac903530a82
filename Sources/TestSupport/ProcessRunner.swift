import Glibc

/// The outcome of running a child process to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs a program with arguments, collects its output and waits for it to exit.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    currentDirectory: String? = nil
) throws -> ProcessResult {
    let process = try SpawnedProcess(
        executable, arguments, environment: environment, currentDirectory: currentDirectory,
        standardOutput: .pipe, standardError: .pipe)
    // Both read together, so a chatty child cannot block on a full one while the other is read.
    var collected: [[UInt8]] = [[], []]
    SpawnedProcess.read([process.standardOutput ?? -1, process.standardError ?? -1]) {
        collected[$0] += $1
        return true
    }
    let (output, errors) = (collected[0], collected[1])
    return ProcessResult(
        status: process.wait(), standardOutput: String(decoding: output, as: UTF8.self),
        standardError: String(decoding: errors, as: UTF8.self))
}
