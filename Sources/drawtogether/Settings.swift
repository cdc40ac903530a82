/// The environment layered over a `.env` file: what `Configuration` reads below the flags.
///
/// An empty value counts as unset (`DRAWTOGETHER_TOKEN= drawtogether ...` should not set an empty
/// token), and every value remembers where it came from so an error can point there.
struct Settings {
    struct Value: Equatable {
        var value: String
        var source: SettingSource
    }

    private let environment: [String: String]
    private let dotEnv: (path: String, file: DotEnv)?

    init(environment: [String: String], dotEnv: (path: String, file: DotEnv)?) {
        self.environment = environment
        self.dotEnv = dotEnv
    }

    subscript(name: String) -> Value? {
        if let value = environment[name], !value.isEmpty {
            return Value(value: value, source: .environment(name))
        }
        if let dotEnv, let entry = dotEnv.file[name], !entry.value.isEmpty {
            return Value(
                value: entry.value, source: .envFile(path: dotEnv.path, line: entry.line, name: name))
        }
        return nil
    }
}

/// Where a setting came from, so that a message about a bad value says where to fix it.
enum SettingSource: Equatable, Sendable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case envFile(path: String, line: Int, name: String)
    case defaultValue

    var description: String {
        switch self {
        case .flag(let flag): return flag
        case .environment(let name): return "\(name) in the environment"
        case .envFile(let path, let line, let name): return "\(name) in \(path) line \(line)"
        case .defaultValue: return "the default"
        }
    }
}
