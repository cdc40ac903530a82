import Testing

@testable import drawtogether

/// `Configuration.resolve` says where each setting came from, as `doctor` prints it.
@Suite struct ConfigurationOriginTests {
    private func origins(
        _ arguments: [String], environment: [String: String], dotEnv: String? = nil
    ) throws -> [Configuration.Setting: SettingSource] {
        var origins: [Configuration.Setting: SettingSource] = [:]
        _ = try Configuration.resolve(
            options: try CommandLineArguments.parse(arguments).options, environment: environment,
            workingDirectory: "/work", readFile: { $0 == "/work/.env" ? dotEnv : nil },
            origin: { origins[$0] = $1 })
        return origins
    }

    @Test func eachSettingNamesTheFlagTheVariableTheLineOrTheDefault() throws {
        let dotEnv = "DRAWTOGETHER_DATABASE_ID=team\nDRAWTOGETHER_TOKEN=secret\n"
        let found = try origins(
            ["list", "--server", "tcp://relay:9"], environment: ["HOME": "/h", "DRAWTOGETHER_STORE": "/s"],
            dotEnv: dotEnv)
        #expect(found[.store] == .environment("DRAWTOGETHER_STORE"))
        #expect(found[.databaseID] == .envFile(path: "/work/.env", line: 1, name: "DRAWTOGETHER_DATABASE_ID"))
        #expect(found[.token] == .envFile(path: "/work/.env", line: 2, name: "DRAWTOGETHER_TOKEN"))
        #expect(found[.server] == .flag("--server"))

        let defaults = try origins(["list"], environment: ["HOME": "/h"])
        #expect(defaults[.store] == .defaultValue)
        #expect(defaults[.databaseID] == .defaultValue)
        #expect(defaults[.token] == nil && defaults[.server] == nil)

        let flags = try origins(
            ["list", "--store", "x", "--token", "t"], environment: ["DRAWTOGETHER_TOKEN": "e"])
        #expect(flags[.store] == .flag("--store"))
        #expect(flags[.token] == .flag("--token"))
    }
}
