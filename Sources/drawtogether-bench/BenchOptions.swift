/// The command line: `drawtogether-bench [--quick] [--only SECTION,...] [--keys N]`.
///
/// Each section runs in a child process of its own (`--worker SECTION [SCENARIO]`), so every RSS
/// figure is that section's alone and one section's heap does not slow the next.
struct BenchOptions {
    /// What one run measures.
    enum Section: String, CaseIterable {
        case replica, live, drawing, e2e, relay
    }

    enum OptionError: Error, CustomStringConvertible {
        case unknown(String)
        case missingValue(String)
        case badValue(option: String, value: String)

        var description: String {
            switch self {
            case .unknown(let option): "unknown option \(option) (try --help)"
            case .missingValue(let option): "\(option) needs a value"
            case .badValue(let option, let value): "\(option): '\(value)' is not valid"
            }
        }
    }

    var quick = false
    var sections = Section.allCases
    /// Keys of the map workload and updates of the live-sync figure (10,000; 1,000 with --quick).
    var keys: Int?
    /// Strokes in the drawing of the drawing and end-to-end figures.
    var strokes: Int?
    /// End-to-end: strokes timed per transport.
    var samples: Int?
    /// Set in a child process: the section (and scenario) it runs.
    var worker: (section: Section, scenario: String?)?
    var help = false
    /// Set in a child process: the directory the replica scenarios hand a store over in.
    var handoff: String?
    /// Relay: the client counts tried, in order (`--relay-clients 100,1000`).
    var relayClients: [Int]?

    var keyCount: Int { keys ?? (quick ? 1_000 : 10_000) }
    var strokeCount: Int { strokes ?? (quick ? 1_000 : 10_000) }
    var sampleCount: Int { samples ?? (quick ? 50 : 1_000) }
    /// The longest the end-to-end figure may take per transport before it stops sampling.
    var endToEndBudgetSeconds: Double { quick ? 15 : 40 }
    /// The relay's sweep: up to 1,000 clients when the relay runs alone (`--only relay`), a
    /// shorter one in the full run, so it adds only some seconds.
    var relayClientCounts: [Int] {
        if let relayClients { return relayClients }
        if quick { return [50, 100] }
        return sections == [.relay] ? [100, 250, 500, 750, 1_000] : [100, 250]
    }
    /// Seconds of timed drawing per client count.
    var relaySeconds: Double { quick ? 2 : 5 }

    static let usage = """
        usage: drawtogether-bench [--quick] [--only replica,live,drawing,e2e,relay] [--keys N] [--strokes N] [--samples N]
                                  [--relay-clients N,N,...]

        Prints one JSON object per line ({"figure", "value", "unit", ...}), then a table.
          --quick      everything scaled down (1,000 keys and strokes, 50 end-to-end samples)
          --only       run only these sections
          --keys       keys of the map workload and updates of the live-sync figure (default 10000)
          --strokes    strokes in the drawing for the drawing and end-to-end figures (default 10000)
          --samples    strokes timed end to end per transport (default 1000)
          --relay-clients  client counts of the relay's sweep (default 100,250,500,750,1000 with
                       --only relay, else 100,250; the drawtogether binary must be built beside this one)
        """

    init(arguments: [String]) throws(OptionError) {
        var rest = arguments[...]
        func value(_ option: String) throws(OptionError) -> String {
            guard let next = rest.popFirst() else { throw .missingValue(option) }
            return next
        }
        func count(_ option: String) throws(OptionError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number > 0 else { throw .badValue(option: option, value: text) }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--help", "-h": help = true
            case "--keys": keys = try count(argument)
            case "--strokes": strokes = try count(argument)
            case "--samples": samples = try count(argument)
            case "--handoff": handoff = try value(argument)
            case "--relay-clients":
                let list = try value(argument)
                var counts: [Int] = []
                for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let count = Int(item), count > 0 else {
                        throw .badValue(option: argument, value: String(item))
                    }
                    counts.append(count)
                }
                relayClients = counts
            case "--only":
                let list = try value(argument)
                var chosen: [Section] = []
                for name in list.split(separator: ",") {
                    guard let section = Section(rawValue: String(name)) else {
                        throw .badValue(option: argument, value: String(name))
                    }
                    chosen.append(section)
                }
                sections = chosen
            case "--worker":
                let name = try value(argument)
                guard let section = Section(rawValue: name) else {
                    throw .badValue(option: argument, value: name)
                }
                var scenario: String?
                if let next = rest.first, !next.hasPrefix("--") {
                    scenario = next
                    rest = rest.dropFirst()
                }
                worker = (section, scenario)
            default: throw .unknown(argument)
            }
        }
    }

    /// The options a child process gets, so it measures at the same scale.
    var scaleArguments: [String] {
        ["--keys", "\(keyCount)", "--strokes", "\(strokeCount)", "--samples", "\(sampleCount)"]
            + ["--relay-clients", relayClientCounts.map(String.init).joined(separator: ",")]
            + (quick ? ["--quick"] : [])
    }
}
