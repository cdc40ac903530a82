#if !FUZZING
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension FuzzTarget {
        /// The plain-build entry point: replays every file or directory named on the command line
        /// through `check`, so corpora and crash files run (and debug) without libFuzzer.
        ///
        /// A target opts in with `@main extension MyTarget {}` inside `#if !FUZZING`; fuzz builds
        /// pass `-DFUZZING` and get their `main` from libFuzzer instead. Exit status: 0 when every
        /// input passed, 2 for a usage or read error; a failing input traps (signal, non-zero).
        public static func main() {
            let name = "\(Self.self)"
            let arguments = CommandLine.arguments.dropFirst()
            guard !arguments.isEmpty else {
                printError("usage: \(name) FILE_OR_DIRECTORY...  (replays each input through the fuzz check)")
                exit(2)
            }
            var replayed = 0
            for argument in arguments {
                do {
                    for path in try CorpusFiles.inputs(at: argument) {
                        let input = try CorpusFiles.contents(of: path)
                        // Named before it runs: if the check traps, this is the last line printed.
                        printError("\(name): \(path)")
                        check(input)
                        replayed += 1
                    }
                } catch {
                    printError("\(name): \(error)")
                    exit(2)
                }
            }
            print("\(name): \(replayed) inputs replayed, all passed")
        }

        /// Straight to file descriptor 2, unbuffered, so the line is out before a trap.
        private static func printError(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                guard result > 0 else { return }
                written += result
            }
        }
    }
#endif
