import FoundationEssentials
import Glibc
import TerminalCanvas

/// Every setting the executable runs with, resolved and checked.
///
/// Precedence: command-line flags, then the environment (`DRAWTOGETHER_STORE`,
/// `DRAWTOGETHER_DATABASE_ID`, `DRAWTOGETHER_SERVER_URL`, `DRAWTOGETHER_TOKEN`), then `.env` in the
/// working directory (or `--env-file FILE`), then defaults. Resolution is pure: the environment
/// and file reading are passed in, so tests need neither a real environment nor a disk.
struct Configuration: Equatable, Sendable {
    /// The replica directory, absolute.
    var storeDirectory: String
    var databaseID: String
    /// The shared secret for TCP and the relay; nil when none is set (local discovery needs none).
    var token: String?
    var listen: HostPort?
    var peers: [HostPort]
    /// The relays (`--server`, repeatable, or `DRAWTOGETHER_SERVER_URL`, a comma-separated
    /// list), tried in this order: the client keeps one connection, to the first that answers.
    var servers: [HostPort]
    var discovery: Bool
    /// The display name asked for (`--name`, `DRAWTOGETHER_NAME`); nil keeps the saved one.
    var displayName: String? = nil
    /// The cursor colour asked for (`--cursor-colour`, `DRAWTOGETHER_CURSOR_COLOUR`), a palette
    /// name or `auto`; nil keeps the saved one.
    var cursorColour: String? = nil
    /// `export --theme`: the SVG background, and so the colour of default ink.
    var exportTheme: ExportTheme = .dark
    /// `export --glyphs`: the glyphs of text and ANSI exports.
    var exportGlyphs: ExportGlyphs = .block
    /// `serve --postgres URL` (or `DRAWTOGETHER_POSTGRES_URL`): the relay's documents live in
    /// PostgreSQL; nil keeps them in the local replica.
    var postgresURL: String? = nil

    static let defaultDatabaseID = "default"

    /// The settings that can come from more than one place (see `resolve(origin:)`).
    enum Setting: String, CaseIterable, Sendable {
        case store, databaseID = "database id", server, token
    }

    /// Names of the environment variables (also read from `.env`).
    enum Variable {
        static let store = "DRAWTOGETHER_STORE"
        static let databaseID = "DRAWTOGETHER_DATABASE_ID"
        static let serverURL = "DRAWTOGETHER_SERVER_URL"
        static let token = "DRAWTOGETHER_TOKEN"
        /// The name other peers see next to this cursor (`--name`).
        static let name = "DRAWTOGETHER_NAME"
        /// The colour other peers see this cursor in (`--cursor-colour`).
        static let cursorColour = "DRAWTOGETHER_CURSOR_COLOUR"
        /// The relay's PostgreSQL database (`serve --postgres`).
        static let postgresURL = "DRAWTOGETHER_POSTGRES_URL"
        /// The settings above, which the environment and `.env` both give.
        static let settings = [store, databaseID, serverURL, token, name, cursorColour, postgresURL]
        /// Read from the environment only (by `sync` and by the resource lookup).
        static let environmentOnly = [SyncCommand.timeoutVariable, ResourceDirectory.variable]
        static let prefix = "DRAWTOGETHER_"
    }

    /// Reads a text file: its contents, nil if it does not exist, or a thrown error if it exists
    /// but cannot be read.
    typealias ReadFile = (_ path: String) throws -> String?
    /// Reads a secret file: its contents and permission bits, nil if it does not exist.
    typealias ReadSecretFile = (_ path: String) throws -> (text: String, mode: UInt32)?

    /// Resolves the settings for one run.
    ///
    /// - Parameters:
    ///   - workingDirectory: where `./.env` is looked for and relative paths are anchored.
    ///   - readFile: see `ReadFile`; `Configuration.readFileFromDisk` in production.
    ///   - warn: hears one line for each `DRAWTOGETHER_` name this program does not read (a
    ///     misspelt `DRAWTOGETHER_TOKN` would otherwise be ignored without a word).
    ///   - origin: hears where each setting that was found came from (`drawtogether doctor`).
    static func resolve(
        options: CommandLineOptions,
        environment: [String: String],
        workingDirectory: String,
        readFile: ReadFile,
        readSecretFile: ReadSecretFile = Configuration.readSecretFileFromDisk,
        warn: (String) -> Void = { _ in },
        origin: (Setting, SettingSource) -> Void = { _, _ in }
    ) throws(ConfigurationError) -> Configuration {
        let dotEnv = try loadDotEnv(options.envFile, workingDirectory, readFile)
        unknownVariables(environment: environment, dotEnv: dotEnv).forEach(warn)
        let settings = Settings(environment: environment, dotEnv: dotEnv)
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }

        let store: String
        if let flag = options.store {
            store = flag
            origin(.store, .flag("--store"))
        } else if let setting = settings[Variable.store] {
            store = expandingTilde(setting.value, home: home)
            origin(.store, setting.source)
        } else {
            store = try defaultStore(environment: environment, home: home)
            origin(.store, .defaultValue)
        }

        let databaseID =
            options.databaseID.map { ($0, SettingSource.flag("--database-id")) }
            ?? settings[Variable.databaseID].map { ($0.value, $0.source) }
            ?? (defaultDatabaseID, SettingSource.defaultValue)
        guard isValidDatabaseID(databaseID.0) else {
            throw .badDatabaseID(value: databaseID.0, source: databaseID.1)
        }
        origin(.databaseID, databaseID.1)

        var servers = options.servers
        if !servers.isEmpty { origin(.server, .flag("--server")) }
        if servers.isEmpty, let setting = settings[Variable.serverURL] {
            origin(.server, setting.source)
            do {
                servers = try HostPort.parse(serverURLs: setting.value)
            } catch {
                throw .badServerURL(value: setting.value, source: setting.source, problem: error)
            }
        }

        if options.token != nil {
            origin(.token, .flag("--token"))
        } else if options.tokenFile != nil {
            origin(.token, .flag("--token-file"))
        } else if let setting = settings[Variable.token] {
            origin(.token, setting.source)
        }
        let configuration = Configuration(
            storeDirectory: absolute(store, in: workingDirectory),
            databaseID: databaseID.0,
            token: try token(options, settings, workingDirectory, readSecretFile, warn),
            listen: options.listen,
            peers: options.peers,
            servers: servers,
            discovery: options.discovery,
            displayName: options.name ?? settings[Variable.name]?.value,
            cursorColour: options.cursorColour ?? settings[Variable.cursorColour]?.value,
            exportTheme: options.theme ?? .dark, exportGlyphs: options.glyphs ?? .block,
            postgresURL: options.postgres ?? settings[Variable.postgresURL]?.value)
        try configuration.checkTokenIsSetForNetworking(serverFromFlag: !options.servers.isEmpty)
        if let token = configuration.token, configuration.listen != nil,
            token.count < SharedToken.recommendedLength
        {
            warn(
                "the token is \(token.count) characters long, and anyone who can reach --listen may guess "
                    + "at it; use one of \(SharedToken.recommendedLength) or more: 'drawtogether token' makes one"
            )
        }
        return configuration
    }

    /// The token from `--token`, `--token-file`, the environment or `.env`, in that order.
    private static func token(
        _ options: CommandLineOptions, _ settings: Settings, _ workingDirectory: String,
        _ readSecretFile: ReadSecretFile, _ warn: (String) -> Void
    ) throws(ConfigurationError) -> String? {
        if options.token != nil, options.tokenFile != nil { throw .twoTokens }
        if let token = options.token {
            warn(
                "--token on the command line can be read by every user of this machine (ps, /proc); "
                    + "use --token-file FILE or DRAWTOGETHER_TOKEN instead")
            return token
        }
        if let file = options.tokenFile {
            let path = absolute(file, in: workingDirectory)
            let contents: (text: String, mode: UInt32)?
            do {
                contents = try readSecretFile(path)
            } catch {
                throw .tokenFile(path: path, problem: .unreadable(reason: FileSystemFailure.reason(error)))
            }
            guard let contents else { throw .tokenFile(path: path, problem: .notFound) }
            // Group or other bits: someone else can read the secret.
            guard contents.mode & 0o077 == 0 else {
                throw .tokenFile(
                    path: path, problem: .readableByOthers(mode: contents.mode & 0o777, path: path))
            }
            // The final newline and any white space around the token are not part of it.
            let token = contents.text.trimmingWhitespace
            guard !token.isEmpty else { throw .tokenFile(path: path, problem: .empty) }
            return token
        }
        return settings[Variable.token]?.value
    }

    /// The real file system, for `resolve(readSecretFile:)` in production.
    static func readSecretFileFromDisk(_ path: String) throws -> (text: String, mode: UInt32)? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // The mode from stat(2); a file that cannot be asked counts as readable by anyone.
        var info = stat()
        let mode = stat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : 0o777
        return (try String(contentsOfFile: path, encoding: .utf8), mode)
    }

    /// The real file system, for `resolve(readFile:)` in production.
    static func readFileFromDisk(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// TCP listening, TCP peers and the relay let other machines in; the token is what keeps
    /// strangers out, so none of them starts without one.
    private func checkTokenIsSetForNetworking(serverFromFlag: Bool) throws(ConfigurationError) {
        guard token == nil else { return }
        if listen != nil { throw .tokenRequired(feature: "--listen") }
        if !peers.isEmpty { throw .tokenRequired(feature: "--peer") }
        if !servers.isEmpty {
            throw .tokenRequired(feature: serverFromFlag ? "--server" : Variable.serverURL)
        }
    }

    // MARK: Pieces

    /// A warning for each `DRAWTOGETHER_` name that nothing reads: in `.env` by line, then in
    /// the environment by name. Other names are left alone (a `.env` is often shared with other
    /// tools).
    static func unknownVariables(
        environment: [String: String], dotEnv: (path: String, file: DotEnv)?
    ) -> [String] {
        let known = "known: " + (Variable.settings + Variable.environmentOnly).joined(separator: ", ")
        var warnings: [String] = []
        if let dotEnv {
            let entries = dotEnv.file.entries.filter {
                $0.key.hasPrefix(Variable.prefix) && !Variable.settings.contains($0.key)
            }
            for (name, entry) in entries.sorted(by: { $0.value.line < $1.value.line }) {
                let place = "\(name) in \(dotEnv.path) line \(entry.line)"
                warnings.append(
                    Variable.environmentOnly.contains(name)
                        ? "\(place) is ignored: it is read from the environment only"
                        : "\(place) is not a setting drawtogether knows and is ignored (\(known))")
            }
        }
        let unknown = environment.keys.filter {
            $0.hasPrefix(Variable.prefix) && !(Variable.settings + Variable.environmentOnly).contains($0)
        }
        for name in unknown.sorted() {
            warnings.append(
                "\(name) in the environment is not a setting drawtogether knows and is ignored (\(known))")
        }
        return warnings
    }

    private static func loadDotEnv(
        _ explicitPath: String?, _ workingDirectory: String, _ readFile: ReadFile
    ) throws(ConfigurationError) -> (path: String, file: DotEnv)? {
        let path = absolute(explicitPath ?? ".env", in: workingDirectory)
        let text: String?
        do {
            text = try readFile(path)
        } catch {
            throw .envFileUnreadable(path: path, reason: FileSystemFailure.reason(error))
        }
        guard let text else {
            // `./.env` is optional; a file the user named is not.
            if explicitPath != nil { throw .envFileNotFound(path: path) }
            return nil
        }
        do {
            return (path, try DotEnv(parsing: text))
        } catch {
            throw .envFileSyntax(path: path, error: error)
        }
    }

    /// `$XDG_DATA_HOME/drawtogether`, else `$HOME/.local/share/drawtogether`. XDG says a relative
    /// `XDG_DATA_HOME` is invalid and must be ignored.
    private static func defaultStore(
        environment: [String: String], home: String?
    ) throws(ConfigurationError) -> String {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return join(dataHome, "drawtogether")
        }
        guard let home else { throw .noDataDirectory }
        return join(home, ".local/share/drawtogether")
    }

    /// Database ids name a directory of rendezvous sockets, so they must be one safe path component.
    static func isValidDatabaseID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id != "." && id != ".."
            && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// A shell expands `~` in flags but not in `.env` files or quoted variables; do it here.
    private static func expandingTilde(_ path: String, home: String?) -> String {
        guard let home, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    private static func absolute(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : join(directory, path)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
