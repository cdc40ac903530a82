import Foundation
import TestSupport
import Testing

/// The checked-in fuzz corpora (fuzz/corpus/<target>/) replayed through the plain-build replayer
/// of each fuzz target, so every seed and every past crash input is a regression test in CI,
/// without libFuzzer.
@Suite struct CorpusFuzzRegressionTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Target names, from the corpus directories.
    static let corpusTargets: [String] = {
        let corpus = packageRoot.appendingPathComponent("fuzz/corpus").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// Target names, from the sources: every Sources/Fuzz*/ that exports the libFuzzer entry.
    static func sourceTargets() throws -> [String] {
        let sources = packageRoot.appendingPathComponent("Sources")
        return try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { name in
            guard name.hasPrefix("Fuzz") else { return false }
            let directory = sources.appendingPathComponent(name)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return files.contains { file in
                let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                return text?.contains("@_cdecl(\"LLVMFuzzerTestOneInput\")") == true
            }
        }.sorted()
    }

    @Test func everyFuzzTargetHasASeedCorpus() throws {
        let targets = try Self.sourceTargets()
        #expect(
            targets.contains("FuzzDQL") && targets.contains("FuzzJSON") && targets.contains("FuzzSyncFrames"))
        #expect(Self.corpusTargets == targets)
    }

    @Test(arguments: corpusTargets)
    func corpusReplaysWithoutFailure(target: String) throws {
        let directory = Self.packageRoot.appendingPathComponent("fuzz/corpus/\(target)").path
        let inputs = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            !$0.hasPrefix(".")
        }
        #expect(!inputs.isEmpty)
        let result = try runProcess(BuiltProducts.executable(target), [directory])
        #expect(
            result.status == 0,
            "\(target) failed on an input; the last one named is the culprit:\n\(result.standardError.suffix(2000))"
        )
        #expect(result.standardOutput.contains("\(target): \(inputs.count) inputs replayed, all passed"))
    }

    @Test func replayerRefusesAMissingInput() throws {
        let result = try runProcess(BuiltProducts.executable("FuzzDQL"), ["/nonexistent/fuzz-input"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot open /nonexistent/fuzz-input"))
    }
}
