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

/// Copies a program to `destination` by running `cp`, so that the copy is written by a child
/// process and never by this one. A test process spawns children from many threads at once; a
/// file it holds open for writing is inherited by any child forked meanwhile, and running the copy
/// while such a child has not yet exec'd fails with "Text file busy" (ETXTBSY).
public func copyExecutable(_ source: String, to destination: String) throws {
    let copy = try runProcess("/bin/cp", [source, destination])
    guard copy.status == 0 else {
        throw ProcessRunnerError.copyFailed(
            source: source, destination: destination, reason: copy.standardError)
    }
}

/// Why a helper of this file could not do what it was asked.
public enum ProcessRunnerError: Error, CustomStringConvertible {
    case copyFailed(source: String, destination: String, reason: String)

    public var description: String {
        switch self {
        case .copyFailed(let source, let destination, let reason):
            "cannot copy \(source) to \(destination): \(reason)"
        }
    }
}
