import FoundationEssentials

/// Finds the files the app ships besides code (help texts, palette, sample drawing).
///
/// Looked for, in order: `$DRAWTOGETHER_RESOURCES`; `share/drawtogether` beside the binary's
/// `bin/` (an installed copy); the nearest `Resources/` above the binary (under `swift run` the
/// binary lives in `.build/<triple>/debug/`, inside the package).
struct ResourceDirectory {
    /// The environment variable that points at the resources.
    static let variable = "DRAWTOGETHER_RESOURCES"

    let url: URL

    enum LookupError: Error, CustomStringConvertible {
        case notFound(searched: [String])

        var description: String {
            switch self {
            case .notFound(let searched):
                return "the app's resource files were not found (looked in: "
                    + searched.joined(separator: ", ")
                    + "); set DRAWTOGETHER_RESOURCES to the Resources directory of the source tree"
            }
        }
    }

    static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String = CommandLine.arguments[0]
    ) throws -> ResourceDirectory {
        var candidates: [URL] = []
        if let override = environment[variable], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override, isDirectory: true))
        }
        let executable = URL(fileURLWithPath: Self.resolvedExecutable(executablePath))
        let binDirectory = executable.deletingLastPathComponent()
        candidates.append(
            binDirectory.deletingLastPathComponent()
                .appendingPathComponent("share/drawtogether", isDirectory: true))
        var directory = binDirectory
        while directory.path != "/" {
            candidates.append(directory.appendingPathComponent("Resources", isDirectory: true))
            directory.deleteLastPathComponent()
        }
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("help/usage.txt").path)
        {
            return ResourceDirectory(url: candidate)
        }
        throw LookupError.notFound(searched: candidates.map(\.path))
    }

    /// The text of a resource file, for example `help/usage.txt`.
    func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
    }

    private static func resolvedExecutable(_ path: String) -> String {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return link
        }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
