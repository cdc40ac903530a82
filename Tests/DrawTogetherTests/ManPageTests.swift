import Foundation
import TestSupport
import Testing

@testable import drawtogether

/// drawtogether(1) rendered by groff and by man itself, with every warning turned on: nothing
/// may be said on standard error, and the page must carry what `--help` and the overlay say.
@Suite struct ManPageTests {
    static let binary = BuiltProducts.executable("drawtogether")

    private func page(in directory: TemporaryDirectory) throws -> String {
        let result = try runProcess(Self.binary, ["manpage"])
        #expect(result.status == 0, "\(result.standardError)")
        let path = directory.path + "/drawtogether.1"
        try result.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["MANPAGER"] = "cat"
        environment["PAGER"] = "cat"
        environment["MANWIDTH"] = "100"
        return environment
    }

    @Test func groffRendersItWithoutWarnings() throws {
        let directory = try TemporaryDirectory(prefix: "manpage")
        let path = try page(in: directory)
        for device in ["utf8", "ascii"] {
            let result = try runProcess(
                "/usr/bin/groff", ["-man", "-T\(device)", "-ww", "-z", path], environment: environment)
            #expect(result.status == 0 && result.standardError.isEmpty, "\(device): \(result.standardError)")
        }
    }

    @Test func manShowsItWithTheHelpTextsAndTheKeys() throws {
        let directory = try TemporaryDirectory(prefix: "manpage")
        let path = try page(in: directory)
        let result = try runProcess("/usr/bin/man", ["--warnings", "-l", path], environment: environment)
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        // man formats with hyphenation and justification; compare words, not lines.
        let text = result.standardOutput.replacingOccurrences(of: "\u{2010}", with: "-")
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "ENVIRONMENT"] {
            #expect(text.contains("\n" + heading + "\n"), "no \(heading) section")
        }
        for subcommand in Subcommand.allCases {
            #expect(text.contains("drawtogether \(subcommand.rawValue)") || subcommand == .open)
        }
        for flag in FlagScan.specs.keys where flag.hasPrefix("--") && FlagScan.specs[flag]?.owner == nil {
            #expect(text.contains(flag), "\(flag) is not in the man page")
        }
        for variable in Configuration.Variable.settings + Configuration.Variable.environmentOnly {
            #expect(text.contains(variable), "\(variable) is not in ENVIRONMENT")
        }
        #expect(text.contains("drawtogether \u{2014} draw together") == false)
        #expect(text.contains("mask eraser"))
        #expect(text.contains("Ctrl-Z suspends"))
    }

    @Test func anOptionWhoseSummaryRunsOnToASecondLineIsOneEntry() throws {
        let roff = try runProcess(Self.binary, ["manpage"]).standardOutput
        #expect(
            roff.contains("a comma\\-separated list): the first that answers, the next when it is lost\n"))
        #expect(roff.contains("on the command line other users can read it: prefer"))
        #expect(
            !roff.contains("\\fBcomma") && !roff.contains("\\fBcommand line"),
            "a continuation became an option")
        let summaries = CompletionModel.optionSummaries(
            "options:\n  --server URL   sync through a relay (one;\n                 or more)\n  --no-discovery  off\n\n  later prose"
        )
        #expect(summaries == ["--server": "sync through a relay (one; or more)", "--no-discovery": "off"])
    }

    @Test func roffSpecialsInHelpTextAreEscaped() {
        #expect(ManPage.escaped(".starts with a dot") == "\\&.starts with a dot")
        #expect(ManPage.escaped("a\\b --flag") == "a\\eb \\-\\-flag")
        #expect(ManPage.escaped("x \u{2014} y \u{00E9}") == "x \\(em y \\[u00E9]")
        #expect(
            ManPage.blocks("usage: drawtogether list\n\nProse line\n  kept  as is\n")
                == [".PP", "\\fBdrawtogether list\\fR", ".PP", "Prose line", ".nf", "  kept  as is", ".fi"])
    }
}
