/// `drawtogether serve --listen HOST:PORT`: the relay server.
enum ServeCommand {
    static func run(configuration: Configuration) throws -> Int32 {
        printError("drawtogether: 'serve' is not built yet in this version")
        return 1
    }
}
