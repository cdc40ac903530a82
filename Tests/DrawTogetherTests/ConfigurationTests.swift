import Testing

@testable import drawtogether

@Suite struct ConfigurationTests {
    struct UnreadableFile: Error, CustomStringConvertible {
        var description: String { "permission denied" }
    }

    /// Resolves against an in-memory file system: `files` maps absolute paths to contents.
    private func resolve(
        _ arguments: [String] = [],
        environment: [String: String] = ["HOME": "/home/ada"],
        files: [String: String] = [:],
        unreadable: Set<String> = []
    ) throws -> Configuration {
        let options = try CommandLineArguments.parse(arguments).options
        return try Configuration.resolve(
            options: options, environment: environment, workingDirectory: "/work/dir"
        ) { path in
            if unreadable.contains(path) { throw UnreadableFile() }
            return files[path]
        }
    }

    private func error(
        _ arguments: [String] = [],
        environment: [String: String] = ["HOME": "/home/ada"],
        files: [String: String] = [:],
        unreadable: Set<String> = []
    ) -> ConfigurationError? {
        do {
            _ = try resolve(arguments, environment: environment, files: files, unreadable: unreadable)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    // MARK: Defaults

    @Test func withNothingSetItRunsOnTheEmbeddedDefault() throws {
        #expect(
            try resolve()
                == Configuration(
                    storeDirectory: "/home/ada/.local/share/drawtogether", databaseID: "default", token: nil,
                    listen: nil, peers: [], servers: [], discovery: true))
    }

    @Test func theDefaultStoreFollowsAnAbsoluteXDGDataHome() throws {
        #expect(
            try resolve(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data/"]).storeDirectory
                == "/data/drawtogether")
        #expect(
            try resolve(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "relative"]).storeDirectory
                == "/home/ada/.local/share/drawtogether")
        #expect(error(environment: [:]) == .noDataDirectory)
        #expect(try resolve(["--store", "s"], environment: [:]).storeDirectory == "/work/dir/s")
    }

    // MARK: Precedence

    @Test func flagsBeatEnvironmentWhichBeatsDotEnvWhichBeatsDefaults() throws {
        let dotEnv = """
            DRAWTOGETHER_STORE=/from/dotenv
            DRAWTOGETHER_DATABASE_ID=dotenv-db
            DRAWTOGETHER_TOKEN=dotenv-token
            DRAWTOGETHER_SERVER_URL=tcp://dotenv:1
            """
        let files = ["/work/dir/.env": dotEnv]
        let environment = [
            "HOME": "/home/ada", "DRAWTOGETHER_DATABASE_ID": "env-db", "DRAWTOGETHER_TOKEN": "env-token",
        ]

        let fromFiles = try resolve(environment: ["HOME": "/h"], files: files)
        #expect(fromFiles.storeDirectory == "/from/dotenv")
        #expect(fromFiles.databaseID == "dotenv-db")
        #expect(fromFiles.token == "dotenv-token")
        #expect(fromFiles.servers == [HostPort(host: "dotenv", port: 1)])

        let fromEnvironment = try resolve(environment: environment, files: files)
        #expect(fromEnvironment.databaseID == "env-db")
        #expect(fromEnvironment.token == "env-token")
        #expect(fromEnvironment.storeDirectory == "/from/dotenv")

        let fromFlags = try resolve(
            [
                "--database-id", "flag-db", "--token", "flag-token", "--store", "/flag", "--server",
                "tcp://flag:2",
            ],
            environment: environment, files: files)
        #expect(fromFlags.databaseID == "flag-db")
        #expect(fromFlags.token == "flag-token")
        #expect(fromFlags.storeDirectory == "/flag")
        #expect(fromFlags.servers == [HostPort(host: "flag", port: 2)])
    }

    // MARK: Several relays

    @Test func theServerVariableHoldsACommaSeparatedListOfRelaysInOrder() throws {
        let environment = [
            "HOME": "/h", "DRAWTOGETHER_TOKEN": "t",
            "DRAWTOGETHER_SERVER_URL": " tcp://relay-a:7420 ,tcp://relay-b:7421, tcp://[::1]:7422/",
        ]
        #expect(
            try resolve(environment: environment).servers == [
                HostPort(host: "relay-a", port: 7420), HostPort(host: "relay-b", port: 7421),
                HostPort(host: "::1", port: 7422),
            ])
        // The same relay twice is tried once.
        let twice = [
            "HOME": "/h", "DRAWTOGETHER_TOKEN": "t", "DRAWTOGETHER_SERVER_URL": "tcp://a:1,tcp://a:1",
        ]
        #expect(try resolve(environment: twice).servers == [HostPort(host: "a", port: 1)])
        // From .env too; repeated flags replace the variable's list as a whole.
        let files = ["/work/dir/.env": "DRAWTOGETHER_SERVER_URL=tcp://dotenv:1,tcp://dotenv:2"]
        #expect(
            try resolve(environment: ["HOME": "/h", "DRAWTOGETHER_TOKEN": "t"], files: files).servers
                == [HostPort(host: "dotenv", port: 1), HostPort(host: "dotenv", port: 2)])
        #expect(
            try resolve(
                ["--server", "tcp://x:1", "--server", "tcp://y:2"],
                environment: ["HOME": "/h", "DRAWTOGETHER_TOKEN": "t"],
                files: files
            ).servers == [HostPort(host: "x", port: 1), HostPort(host: "y", port: 2)])
    }

    @Test func aBadServerListNamesTheItemAndWhereItCameFrom() throws {
        func problem(_ list: String) -> String? {
            error(environment: ["HOME": "/h", "DRAWTOGETHER_TOKEN": "t", "DRAWTOGETHER_SERVER_URL": list])
                .map { UserMessage.message(for: $0) }
        }
        #expect(
            problem("tcp://a:1,,tcp://b:2")
                == "the list of server URLs 'tcp://a:1,,tcp://b:2' (from DRAWTOGETHER_SERVER_URL in the "
                + "environment) is not valid: item 2 of 3 is empty (separate the relays with single commas, "
                + "e.g. tcp://relay-a:7420,tcp://relay-b:7420)")
        #expect(problem("tcp://a:1,")?.contains("item 2 of 2 is empty") == true)
        #expect(
            problem("tcp://a:1, b:2")?.contains(
                "item 2 of 2, 'b:2', is not valid: a server URL has the form tcp://HOST:PORT") == true)
        #expect(
            problem("tcp://a:1,tcp://b:99999")?.contains(
                "item 2 of 2, 'tcp://b:99999', is not valid: the port '99999' is not a number from 1 to 65535"
            )
                == true)
        // One URL is still told as one.
        #expect(problem("b:2")?.hasPrefix("the server URL 'b:2' (from DRAWTOGETHER_SERVER_URL") == true)
    }

    @Test func emptyEnvironmentValuesCountAsUnset() throws {
        let resolved = try resolve(
            environment: ["HOME": "/h", "DRAWTOGETHER_DATABASE_ID": "", "DRAWTOGETHER_STORE": ""],
            files: ["/work/dir/.env": "DRAWTOGETHER_DATABASE_ID=team\n"])
        #expect(resolved.databaseID == "team")
        #expect(resolved.storeDirectory == "/h/.local/share/drawtogether")
    }

    @Test func tildeInDotEnvStoreIsExpanded() throws {
        #expect(
            try resolve(files: ["/work/dir/.env": "DRAWTOGETHER_STORE=~/replicas\n"]).storeDirectory
                == "/home/ada/replicas")
    }

    // MARK: Env files

    @Test func anExplicitEnvFileReplacesDotEnvAndMustExist() throws {
        let files = [
            "/work/dir/.env": "DRAWTOGETHER_DATABASE_ID=dot\n",
            "/etc/dt.env": "DRAWTOGETHER_DATABASE_ID=etc\n",
        ]
        #expect(try resolve(["--env-file", "/etc/dt.env"], files: files).databaseID == "etc")
        #expect(
            try resolve(
                ["--env-file=sub/x.env"], files: ["/work/dir/sub/x.env": "DRAWTOGETHER_DATABASE_ID=sub"]
            )
            .databaseID == "sub")
        #expect(
            error(["--env-file", "missing.env"], files: files)
                == .envFileNotFound(path: "/work/dir/missing.env"))
        #expect(try resolve().databaseID == "default")
    }

    @Test func envFileProblemsNameTheFileAndLine() {
        #expect(
            error(files: ["/work/dir/.env": "# ok\nDRAWTOGETHER_TOKEN\n"])
                == .envFileSyntax(path: "/work/dir/.env", error: .missingEquals(line: 2)))
        #expect(
            ConfigurationError.envFileSyntax(path: "/work/dir/.env", error: .missingEquals(line: 2))
                .description
                == "/work/dir/.env line 2: expected KEY=value")
        #expect(
            error(unreadable: ["/work/dir/.env"])
                == .envFileUnreadable(path: "/work/dir/.env", reason: "permission denied"))
    }

    // MARK: Validation

    @Test func networkingWithoutATokenSaysHowToSetOne() {
        #expect(error(["--listen", "0.0.0.0:7000"]) == .tokenRequired(feature: "--listen"))
        #expect(error(["--peer", "h:7000"]) == .tokenRequired(feature: "--peer"))
        #expect(error(["--server", "tcp://h:7000"]) == .tokenRequired(feature: "--server"))
        #expect(
            error(environment: ["HOME": "/h", "DRAWTOGETHER_SERVER_URL": "tcp://h:1"])
                == .tokenRequired(feature: "DRAWTOGETHER_SERVER_URL"))
        let message = ConfigurationError.tokenRequired(feature: "--listen").description
        #expect(message.contains("--token") && message.contains("DRAWTOGETHER_TOKEN"))
    }

    @Test func tokenFromAnySourceAllowsNetworking() throws {
        #expect(
            try resolve(["--peer", "h:7000"], environment: ["HOME": "/h", "DRAWTOGETHER_TOKEN": "t"]).peers
                == [HostPort(host: "h", port: 7000)])
        #expect(
            try resolve(["--listen", "h:7000"], files: ["/work/dir/.env": "export DRAWTOGETHER_TOKEN='t'"])
                .listen == HostPort(host: "h", port: 7000))
    }

    @Test func badServerURLAndDatabaseIDNameTheirSource() {
        #expect(
            error(environment: [
                "HOME": "/h", "DRAWTOGETHER_SERVER_URL": "relay:9000", "DRAWTOGETHER_TOKEN": "t",
            ])
                == .badServerURL(
                    value: "relay:9000", source: .environment("DRAWTOGETHER_SERVER_URL"), problem: .notTCPURL)
        )
        #expect(
            error(files: ["/work/dir/.env": "\nDRAWTOGETHER_SERVER_URL=tcp://relay\n"])
                == .badServerURL(
                    value: "tcp://relay",
                    source: .envFile(
                        path: "/work/dir/.env", line: 2, name: "DRAWTOGETHER_SERVER_URL"),
                    problem: .missingPort))
        #expect(
            error(["--database-id", "a/b"]) == .badDatabaseID(value: "a/b", source: .flag("--database-id")))
        #expect(
            error(["--database-id", ".."]) == .badDatabaseID(value: "..", source: .flag("--database-id")))
        #expect(
            ConfigurationError.badServerURL(
                value: "x", source: .envFile(path: "/w/.env", line: 3, name: "DRAWTOGETHER_SERVER_URL"),
                problem: .notTCPURL
            ).description.contains("DRAWTOGETHER_SERVER_URL in /w/.env line 3"))
    }
}
