#if !FUZZING
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Finds and reads the inputs a corpus replayer was given: files as they are, directories as the
    /// regular files directly inside them (sorted, dot files skipped), as libFuzzer lays corpora out.
    ///
    /// Plain libc rather than Foundation keeps the plain build of the replayers cheap.
    enum CorpusFiles {
        /// Why an argument could not be replayed.
        enum ReadError: Error, CustomStringConvertible {
            case cannotOpen(path: String, reason: String)
            case cannotRead(path: String, reason: String)

            var description: String {
                switch self {
                case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
                case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
                }
            }
        }

        /// The input files `path` stands for.
        static func inputs(at path: String) throws(ReadError) -> [String] {
            guard isDirectory(path) else { return [path] }
            guard let directory = opendir(path) else {
                throw .cannotOpen(path: path, reason: lastErrorText())
            }
            defer { closedir(directory) }
            var files: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let file = path.hasSuffix("/") ? path + name : path + "/" + name
                if !isDirectory(file) { files.append(file) }
            }
            return files.sorted()
        }

        /// The whole content of the file at `path`.
        static func contents(of path: String) throws(ReadError) -> [UInt8] {
            guard let file = fopen(path, "rb") else { throw .cannotOpen(path: path, reason: lastErrorText()) }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                bytes.append(contentsOf: chunk[0..<count])
                if count < chunk.count { break }
            }
            guard ferror(file) == 0 else { throw .cannotRead(path: path, reason: lastErrorText()) }
            return bytes
        }

        private static func isDirectory(_ path: String) -> Bool {
            var status = stat()
            return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        }

        private static func lastErrorText() -> String {
            String(cString: strerror(errno))
        }
    }
#endif
