import Glibc
import TestSupport
import Testing

/// The tests' and the benchmark's own way of starting programs (no Foundation `Process`): exit
/// statuses and signals, both output pipes read together, the working directory, the
/// environment, and a child that starts with this process's ignored signals back at default.
@Suite struct SpawnedProcessTests {
    @Test func theExitStatusAndTheSignalThatEndedAChildAreReported() throws {
        #expect(try runProcess("/bin/sh", ["-c", "exit 3"]).status == 3)
        #expect(try runProcess("/bin/sh", ["-c", "kill -TERM $$"]).status == SIGTERM)
        let child = try SpawnedProcess("/bin/sleep", ["30"])
        #expect(child.isRunning)
        child.send(SIGKILL)
        #expect(child.wait() == SIGKILL)
        #expect(!child.isRunning)
    }

    @Test func bothStreamsAreReadToTheEndWhateverTheChildWritesFirst() throws {
        // 512 KiB on standard error before anything on standard output: a runner that read one
        // pipe to its end before the other would wait for ever on the full one.
        let script = "head -c 524288 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o"
        let result = try runProcess("/bin/sh", ["-c", script])
        #expect(result.status == 0)
        #expect(result.standardError.utf8.count == 524_288 && result.standardError.allSatisfy { $0 == "e" })
        #expect(result.standardOutput.utf8.count == 300_000 && result.standardOutput.allSatisfy { $0 == "o" })
    }

    @Test func theDirectoryTheEnvironmentAndStandardInputAreTheChildsOwn() throws {
        let result = try runProcess(
            "/bin/sh", ["-c", "pwd; echo \"$GREETING\"; echo \"${HOME-unset}\"; cat; echo end"],
            environment: ["GREETING": "hello there", "PATH": "/usr/bin:/bin"], currentDirectory: "/usr")
        #expect(result.standardOutput == "/usr\nhello there\nunset\nend\n")
    }

    @Test func aSignalThisProcessIgnoresIsAtItsDefaultInTheChild() throws {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        // `yes` into a reader that leaves at once dies of SIGPIPE without a word; had the shell
        // started with SIGPIPE ignored (which it cannot undo), `yes` would say "Broken pipe".
        let result = try runProcess("/bin/sh", ["-c", "yes | head -c 1 >/dev/null"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
    }

    @Test func theChildHasOnlyItsStandardStreams() throws {
        // A descriptor of this process that is not close-on-exec.
        let open = Glibc.open("/dev/null", O_RDONLY)
        defer { close(open) }
        #expect(open > 2)
        let result = try runProcess("/bin/ls", ["/proc/self/fd"])
        // ls's own listing of the directory is the one more it sees.
        #expect(result.standardOutput.split(separator: "\n").count == 4, "\(result.standardOutput)")
    }

    @Test func aChildsOutputArrivesWhileItRuns() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; echo oops >&2; exec sleep 30"])
        #expect(ChildProcess.waitFor(timeout: .seconds(20)) { child.standardOutput == "ready\n" })
        #expect(ChildProcess.waitFor(timeout: .seconds(20)) { child.standardError == "oops\n" })
        child.send(SIGTERM)
        #expect(child.waitForExit() == SIGTERM)
    }

    @Test func aProgramThatCannotBeStartedIsAnErrorThatSaysWhich() {
        #expect(throws: SpawnedProcess.SpawnError.self) {
            try SpawnedProcess("/nonexistent/program", [])
        }
    }
}
