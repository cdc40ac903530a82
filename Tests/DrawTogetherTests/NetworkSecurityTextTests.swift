import Testing

@testable import drawtogether

@Suite struct NetworkSecurityTextTests {
    @Test func peerTextIsShownOnOneLineWithControlsVisible() {
        let forged = "bob\ndrawtogether serve: connected to admin\u{1B}[2J\r\t\u{7F}\u{9B}\u{202E}x"
        let shown = DisplayText.escaped(forged)
        #expect(
            shown == "bob\\ndrawtogether serve: connected to admin\\u{1B}[2J\\r\\t\\u{7F}\\u{9B}\\u{202E}x")
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(DisplayText.escaped("Zoë ⣿ 日本") == "Zoë ⣿ 日本")
    }

    @Test func aFailedHandshakeLineNamesTheAddressAndIsEscaped() {
        var log = SyncEventLog(prefix: "drawtogether serve")
        let line = log.line(
            for: .handshakeFailed(
                address: .tcp(host: "203.0.113.9", port: 50_123),
                reason: .remoteClosed(.protocolViolation, "x\ndrawtogether serve: forged"), count: 7))
        #expect(
            line
                == "drawtogether serve: handshake from 203.0.113.9:50123 failed (7 times since the last line): "
                + "the peer refused: x\\ndrawtogether serve: forged")
        // A stranger's failed handshake is not also printed as an ordinary refusal.
        #expect(
            log.line(
                for: .disconnected(
                    peer: "203.0.113.9:50123", endpoint: .tcp(host: "0.0.0.0", port: 7420), dialled: false,
                    reason: .authenticationFailed, wasEstablished: false)) == nil)
    }

    @Test func aNewTokenIs160RandomBitsInBase32() {
        var generator = SystemRandomNumberGenerator()
        let tokens = (0..<50).map { _ in SharedToken.generate(using: &generator) }
        #expect(
            tokens.allSatisfy {
                $0.count == 32 && $0.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) }
            })
        #expect(Set(tokens).count == 50)
        struct Zeros: RandomNumberGenerator { mutating func next() -> UInt64 { 0 } }
        var zeros = Zeros()
        #expect(SharedToken.generate(using: &zeros) == String(repeating: "a", count: 32))
    }

    private func resolve(
        _ arguments: [String], secrets: [String: (String, UInt32)] = [:], warnings: inout [String]
    ) throws -> Configuration {
        var heard: [String] = []
        defer { warnings = heard }
        return try Configuration.resolve(
            options: try CommandLineArguments.parse(arguments).options, environment: ["HOME": "/home/ada"],
            workingDirectory: "/work/dir", readFile: { _ in nil },
            readSecretFile: { path in secrets[path].map { (text: $0.0, mode: $0.1) } },
            warn: { heard.append($0) })
    }

    @Test func aTokenFileIsReadTrimmedAndMustBePrivate() throws {
        var warnings: [String] = []
        let token = "kq3v7xw2m4h6j8n2p5r7t9v3x5z7b2d4"
        let configuration = try resolve(
            ["sync", "--token-file", "secret", "--listen", "0.0.0.0:7420"],
            secrets: ["/work/dir/secret": ("  \(token)\n", 0o600)], warnings: &warnings)
        #expect(configuration.token == token)
        #expect(warnings.isEmpty)
        #expect(
            throws: ConfigurationError.tokenFile(
                path: "/work/dir/secret", problem: .readableByOthers(mode: 0o644, path: "/work/dir/secret"))
        ) {
            try resolve(
                ["sync", "--token-file", "secret"], secrets: ["/work/dir/secret": (token, 0o644)],
                warnings: &warnings)
        }
        #expect(
            ConfigurationError.tokenFile(
                path: "/s", problem: .readableByOthers(mode: 0o640, path: "/s")
            ).description.contains("chmod 600 /s"))
        #expect(throws: ConfigurationError.tokenFile(path: "/work/dir/none", problem: .notFound)) {
            try resolve(["sync", "--token-file", "none"], warnings: &warnings)
        }
        #expect(throws: ConfigurationError.tokenFile(path: "/work/dir/blank", problem: .empty)) {
            try resolve(
                ["sync", "--token-file", "blank"], secrets: ["/work/dir/blank": ("\n", 0o600)],
                warnings: &warnings)
        }
    }

    @Test func aTokenOnTheCommandLineOrAShortOneOnAListenerIsWarnedAbout() throws {
        var warnings: [String] = []
        _ = try resolve(["sync", "--token", "hunter2", "--listen", "0.0.0.0:7420"], warnings: &warnings)
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains("can be read by every user") && $0.contains("--token-file") })
        #expect(warnings.contains { $0.contains("7 characters") && $0.contains("drawtogether token") })
        // A short token only to dial out is not offered to strangers: no length warning.
        _ = try resolve(
            ["sync", "--token-file", "t", "--peer", "10.0.0.2:7420"],
            secrets: ["/work/dir/t": ("hunter2", 0o400)],
            warnings: &warnings)
        #expect(warnings.isEmpty)
    }
}
