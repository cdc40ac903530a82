extension Doctor {
    /// Each setting in effect and where it came from. The token's value is never shown.
    static func settings(
        _ configuration: Configuration, origins: [Configuration.Setting: SettingSource], warnings: [String]
    ) -> [DoctorFinding] {
        func from(_ setting: Configuration.Setting) -> String {
            (origins[setting] ?? .defaultValue).description
        }
        var findings: [DoctorFinding] = [
            .ok(.settings, "store \(configuration.storeDirectory) (from \(from(.store)))"),
            .ok(.settings, "database id '\(configuration.databaseID)' (from \(from(.databaseID)))"),
        ]
        if configuration.token != nil {
            findings.append(.ok(.settings, "token set (from \(from(.token))); its value is not shown"))
        } else {
            findings.append(.ok(.settings, "no token (needed only for --listen, --peer and --server)"))
        }
        if !configuration.servers.isEmpty {
            let list = configuration.servers.map { "tcp://\($0)" }.joined(separator: ", ")
            let label = configuration.servers.count == 1 ? "server" : "servers, tried in turn,"
            findings.append(.ok(.settings, "\(label) \(list) (from \(from(.server)))"))
        }
        if let listen = configuration.listen {
            findings.append(.ok(.settings, "listening on \(listen) (from --listen)"))
        }
        for peer in configuration.peers {
            findings.append(.ok(.settings, "peer \(peer) (from --peer)"))
        }
        findings.append(
            .ok(
                .settings,
                "local discovery \(configuration.discovery ? "on (the default)" : "off (from --no-discovery)")"
            ))
        for warning in warnings {
            findings.append(.problem(.settings, warning))
        }
        return findings
    }
}
