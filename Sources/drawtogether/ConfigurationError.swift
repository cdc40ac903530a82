/// Why the settings cannot be used. `description` is one line saying what is wrong and how to
/// fix it; main prints it after `drawtogether: ` and exits with status 2.
enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--env-file FILE` names a file that does not exist.
    case envFileNotFound(path: String)
    case envFileUnreadable(path: String, reason: String)
    case envFileSyntax(path: String, error: DotEnv.SyntaxError)
    case badServerURL(value: String, source: SettingSource, problem: HostPort.Problem)
    case badDatabaseID(value: String, source: SettingSource)
    /// A network feature (`--listen`, `--peer`, `--server` or `DRAWTOGETHER_SERVER_URL`) without a token.
    case tokenRequired(feature: String)
    /// `--token-file FILE` cannot be used as a token.
    case tokenFile(path: String, problem: TokenFileProblem)
    /// Both `--token` and `--token-file`.
    case twoTokens
    /// Neither `--store`, `DRAWTOGETHER_STORE`, `XDG_DATA_HOME` nor `HOME` says where the replica goes.
    case noDataDirectory

    var description: String {
        switch self {
        case .envFileNotFound(let path):
            return "the env file \(path) does not exist; fix the path given to --env-file"
        case .envFileUnreadable(let path, let reason):
            return "cannot read \(path): \(reason); fix it, or name another file with --env-file"
        case .envFileSyntax(let path, let error):
            return "\(path) \(error)"
        case .badServerURL(let value, let source, let problem):
            let what: String
            switch problem {
            case .emptyListItem, .badListItem: what = "list of server URLs"
            default: what = "server URL"
            }
            return "the \(what) '\(DisplayText.excerpt(value))' (from \(source)) is not valid: \(problem)"
        case .badDatabaseID(let value, let source):
            return
                "the database id '\(DisplayText.excerpt(value))' (from \(source)) is not valid: use 1 to 64 letters, digits, "
                + "'.', '_' or '-'"
        case .tokenRequired(let feature):
            return "\(feature) needs a shared token so that only your peers can connect: make one with "
                + "'drawtogether token', then pass --token-file FILE or set DRAWTOGETHER_TOKEN (in the "
                + "environment or .env), the same on every peer"
        case .tokenFile(let path, let problem):
            return "the token file \(path) \(problem)"
        case .twoTokens:
            return "--token and --token-file both give the token; keep one of them"
        case .noDataDirectory:
            return "no place for the replica: HOME is not set; pass --store DIR or set DRAWTOGETHER_STORE"
        }
    }
}
