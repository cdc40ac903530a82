import EventRuntime
import Testing

/// The connections of one transport read into one shared buffer: what one connection delivered
/// and its owner kept is not overwritten by the next read, of that connection or another.
@Suite struct SocketTransportTests {
    @Test(arguments: DescriptorReadiness.allCases)
    func bytesKeptFromOneConnectionSurviveReadsOfAnother(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let transport = SocketTransport(loop: loop)
        var accepted: [any Connection] = []
        var kept: [ArraySlice<UInt8>] = []
        let listener = try transport.listen(on: .tcp(host: "127.0.0.1", port: 0)) { connection in
            connection.onBytes = { kept.append($0) }
            accepted.append(connection)
        }
        defer { listener.close() }
        var dialled: [any Connection] = []
        for _ in 0..<2 {
            transport.dial(listener.endpoint) { outcome in
                if case .success(let connection) = outcome { dialled.append(connection) }
            }
        }
        #expect(loop.run(until: { dialled.count == 2 && accepted.count == 2 }, timeout: .seconds(10)))
        dialled[0].write(Array(repeating: 0xAA, count: 1_000))
        #expect(loop.run(until: { kept.reduce(0) { $0 + $1.count } == 1_000 }, timeout: .seconds(10)))
        dialled[1].write(Array(repeating: 0x55, count: 3_000))
        dialled[0].write(Array(repeating: 0xAB, count: 500))
        #expect(loop.run(until: { kept.reduce(0) { $0 + $1.count } == 4_500 }, timeout: .seconds(10)))
        let bytes = kept.flatMap { $0 }
        #expect(bytes.filter { $0 == 0xAA }.count == 1_000)
        #expect(bytes.filter { $0 == 0x55 }.count == 3_000)
        #expect(bytes.filter { $0 == 0xAB }.count == 500)
        #expect(Array(kept[0]).allSatisfy { $0 == 0xAA })
        for connection in dialled + accepted { connection.close() }
    }
}
