import Foundation
import Glibc
import StrokeKit
import TestSupport
import Testing

/// Every write to standard output or a file is checked: a full disk (simulated with a small
/// RLIMIT_FSIZE in the child, SIGXFSZ ignored) or a reader that closed the FIFO is one line
/// naming what failed and exit status 1, never a crash and never exit 0 with a short file. `-o`
/// keeps a symbolic link, a FIFO or a device what it is.
@Suite struct CommandOutputTests {
    let binary = BuiltProducts.executable("drawtogether")
    static let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DRAWTOGETHER_") }

    /// A store with one drawing "big" of `count` strokes, whose JSON export is about 200 bytes
    /// a stroke.
    func storeWithBigDrawing(strokes count: Int = 2_000) throws -> TemporaryDirectory {
        var groups: [StrokeGroup] = []
        for index in 0..<count {
            let from = (Double(index % 70), Double(index % 20))
            let to = (Double(index % 50 + 3), 5.0)
            groups.append(try ExportCommandTests.line(from, to, at: 1_700_000_000_000 + Int64(index)))
        }
        return try ExportCommandTests().store(holding: groups, id: "big", name: "Big")
    }

    /// Runs the binary through `sh`, which sets up what the test needs first (`prelude`: a file
    /// size limit, a redirection) and then execs it with `arguments`.
    func runInShell(_ prelude: String, _ arguments: [String], in directory: TemporaryDirectory) throws
        -> ProcessResult
    {
        try runProcess(
            "/bin/sh", ["-c", "trap '' XFSZ; \(prelude) \"$0\" \"$@\"", binary] + arguments,
            environment: Self.environment, currentDirectory: directory.path)
    }

    func expectOneLineFailure(
        _ result: ProcessResult, saying text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(
            result.standardError.contains(text), "\(result.standardError)", sourceLocation: sourceLocation)
    }

    @Test func exportToAFullDiskOnStandardOutputFailsWithOneLine() throws {
        let store = try storeWithBigDrawing()
        let result = try runInShell(
            "ulimit -f 128; exec >\(store.path)/out.json",
            ["export", "big", "--format", "json", "--store", store.path], in: store)
        expectOneLineFailure(
            result, saying: "cannot write to standard output: the file size limit was reached")
    }

    @Test func queryToAFullDiskDoesNotExitZeroWithAShortFile() throws {
        let store = try storeWithBigDrawing()
        let result = try runInShell(
            "ulimit -f 128; exec >\(store.path)/out.json",
            ["query", "SELECT * FROM drawings", "--store", store.path], in: store)
        expectOneLineFailure(
            result, saying: "cannot write to standard output: the file size limit was reached")
    }

    @Test func exportToAFileOnAFullDiskKeepsTheOldFile() throws {
        let store = try storeWithBigDrawing()
        let path = store.path + "/drawing.json"
        try "old contents\n".write(toFile: path, atomically: false, encoding: .utf8)
        let result = try runInShell(
            "ulimit -f 128; exec", ["export", "big", "--format", "json", "-o", path, "--store", store.path],
            in: store)
        expectOneLineFailure(
            result, saying: "cannot write \(path) (writing): the file size limit was reached")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old contents\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.path).filter {
            $0.hasPrefix(".drawing.json.")
        }
        #expect(leftovers.isEmpty)
    }

    /// Opens the FIFO for reading once the writer has it open, reads `keep` bytes, closes it and
    /// returns what it read. Runs on its own thread, since opening a FIFO blocks until both ends do.
    func readFIFO(_ path: String, keep: Int?) -> @Sendable () -> [UInt8] {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var bytes: [UInt8] = []
        Thread.detachNewThread {
            let descriptor = open(path, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while descriptor >= 0 {
                let count = read(
                    descriptor, &buffer, keep.map { min($0 - bytes.count, buffer.count) } ?? buffer.count)
                if count <= 0 { break }
                bytes += buffer[0..<count]
                if let keep, bytes.count >= keep { break }
            }
            close(descriptor)
            done.signal()
        }
        return {
            // A program that replaced the FIFO never opens it: open the other end here so the
            // reader's open returns, and the test fails instead of hanging.
            if done.wait(timeout: .now() + 30) == .timedOut {
                close(open(path, O_WRONLY | O_NONBLOCK))
                done.wait()
            }
            return bytes
        }
    }

    @Test func aFIFOWhoseReaderClosesIsAFailedWrite() throws {
        // About 400 KB, more than a pipe buffers, so the writer is still writing when the reader goes.
        let store = try storeWithBigDrawing()
        let fifo = store.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let export = readFIFO(fifo, keep: 10)
        let result = try runProcess(
            binary, ["export", "big", "--format", "json", "-o", fifo, "--store", store.path],
            environment: Self.environment, currentDirectory: store.path)
        #expect(export().count == 10)
        expectOneLineFailure(result, saying: "cannot write \(fifo) (writing): the reader closed the pipe")

        let query = readFIFO(fifo, keep: 10)
        let queried = try runInShell(
            "exec >\(fifo)", ["query", "SELECT * FROM drawings", "--store", store.path], in: store)
        #expect(query().count == 10)
        expectOneLineFailure(queried, saying: "cannot write to standard output: the reader closed the pipe")
    }

    @Test func exportToAFIFOWritesIntoItAndLeavesItAFIFO() throws {
        let store = try storeWithBigDrawing(strokes: 3)
        let fifo = store.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = readFIFO(fifo, keep: nil)
        let result = try runProcess(
            binary, ["export", "big", "--format", "json", "-o", fifo, "--store", store.path],
            environment: Self.environment, currentDirectory: store.path)
        let text = String(decoding: reader(), as: UTF8.self)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(text.contains("\"pieces\""))
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func exportToASymbolicLinkWritesItsTargetAndKeepsTheLink() throws {
        let store = try storeWithBigDrawing(strokes: 3)
        let target = store.path + "/target.svg"
        let link = store.path + "/link.svg"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink("target.svg", link) == 0)
        let result = try runProcess(
            binary, ["export", "big", "--format", "svg", "-o", link, "--store", store.path],
            environment: Self.environment, currentDirectory: store.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(fileType(link, following: false) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("<svg"))
    }

    @Test func exportToADeviceWritesIntoTheDevice() throws {
        let store = try storeWithBigDrawing(strokes: 3)
        let arguments = ["export", "big", "--format", "text", "--store", store.path]
        // A null device of the test's own first (root can make one), so that a program that
        // renamed over it would not replace the machine's /dev/null.
        let device = store.path + "/null"
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3) /* makedev(1, 3) */) == 0 {
            let result = try runProcess(
                binary, arguments + ["-o", device], environment: Self.environment,
                currentDirectory: store.path)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(fileType(device) == S_IFCHR)
            guard fileType(device) == S_IFCHR else { return }
        }
        let result = try runProcess(
            binary, arguments + ["-o", "/dev/null"], environment: Self.environment,
            currentDirectory: store.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test func aDashIsStandardOutput() throws {
        let store = try storeWithBigDrawing(strokes: 3)
        let result = try runProcess(
            binary, ["export", "big", "--format", "svg", "-o", "-", "--store", store.path],
            environment: Self.environment, currentDirectory: store.path)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("<svg"))
        #expect(!FileManager.default.fileExists(atPath: store.path + "/-"))
    }

    func fileType(_ path: String, following: Bool = true) -> mode_t? {
        var info = stat()
        guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
