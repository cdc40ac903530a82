/// `drawtogether sync [--once]`: a headless peer.
enum SyncCommand {
    static func run(configuration: Configuration, once: Bool) throws -> Int32 {
        printError("drawtogether: 'sync' is not built yet in this version")
        return 1
    }
}
