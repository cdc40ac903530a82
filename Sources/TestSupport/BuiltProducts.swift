import FoundationEssentials

/// Where SwiftPM put the products of this build (the directory holding the test bundle), so
/// end-to-end tests run the very `drawtogether` binary that `swift test` just built.
public enum BuiltProducts {
    public static var directory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of an executable product built next to the tests.
    public static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
