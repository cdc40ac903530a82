import Foundation
import Glibc
import ReplicaSync
import TestSupport
import Testing

/// The real `drawtogether serve`, reached by a stranger with hand-made bytes: what it answers
/// before authentication, and what it logs about it.
@Suite struct ServeStrangerTests {
    private let home: TemporaryDirectory
    private let relay: ChildProcess
    private let port: UInt16

    init() throws {
        home = try TemporaryDirectory(prefix: "serve-stranger")
        relay = try ChildProcess(
            SyncTestSupport.binary, ["serve", "--listen", "127.0.0.1:0", "--store", home.path + "/relay"],
            environment: SyncTestSupport.environment(
                home: home, extra: ["DRAWTOGETHER_TOKEN": "stranger-test-token-0123456789"]))
        let relay = relay
        _ = ChildProcess.waitFor { SyncTestSupport.listeningPort(in: relay.standardOutput) != nil }
        port = SyncTestSupport.listeningPort(in: relay.standardOutput) ?? 0
    }

    /// Connects, sends `bytes`, and reads until the relay closes (or 15 s pass).
    private func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
    }

    private func messages(in bytes: [UInt8]) -> [SyncMessage] {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var result: [SyncMessage] = []
        while let frame = try? decoder.nextFrame(), let message = try? SyncMessage(frame: frame) {
            result.append(message)
        }
        return result
    }

    @Test func aStrangersGoodbyeCannotForgeALogLineOrReachTheTerminal() throws {
        #expect(port != 0, "\(relay.standardError)")
        let text = "bye\ndrawtogether serve: connected to admin [000000] over tcp\u{1B}]0;owned\u{07}"
        let goodbye = try SyncMessage.goodbye(.protocolViolation, text).frame().encoded()
        _ = try exchange(goodbye)
        #expect(ChildProcess.waitFor { relay.standardError.contains("handshake from 127.0.0.1:") })
        let log = relay.standardError
        #expect(
            !log.split(separator: "\n").contains { $0.hasPrefix("drawtogether serve: connected to admin") })
        #expect(!log.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(
            log.contains(
                "bye\\ndrawtogether serve: connected to admin [000000] over tcp\\u{1B}]0;owned\\u{7}"))
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }

    @Test func aStrangersHelloIsAnsweredWithTheHandshakeAloneAndNoName() throws {
        #expect(port != 0, "\(relay.standardError)")
        // A well-formed hello with some valid share (the ristretto255 base point's encoding).
        let base: [UInt8] = [
            0xE2, 0xF2, 0xAE, 0x0A, 0x6A, 0xBC, 0x4E, 0x71, 0xA8, 0x84, 0xA9, 0x61, 0xC5, 0x00, 0x51, 0x5F,
            0x58, 0xE3, 0x0B, 0x6A, 0xA5, 0x82, 0xDD, 0x8D, 0xB6, 0xA6, 0x59, 0x45, 0xE0, 0x8D, 0x2D, 0x76,
        ]
        let hello = SyncMessage.hello(
            .init(
                databaseID: "default", wantsEncryption: true, sessionID: Array(repeating: 7, count: 16),
                share: base))
        let answer = messages(in: try exchange(try hello.frame().encoded()))
        // Its hello and confirmation, then (the stranger never confirms) a timeout goodbye.
        #expect(answer.prefix(2).map(\.kind) == [.hello, .response])
        #expect(!answer.contains { $0.kind == .identity || $0.kind == .sealed })
        var hostBuffer = [CChar](repeating: 0, count: 256)
        gethostname(&hostBuffer, 255)
        let host = String(
            decoding: hostBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let said = answer.map { "\($0)" }.joined()
        #expect(!said.contains(host) && !said.contains("pid"))
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }

    @Test func anOldPeerIsToldToUpgrade() throws {
        #expect(port != 0, "\(relay.standardError)")
        // Protocol 2's first frame: a hello with database id, peer id, name and flags.
        var payload: [UInt8] = [0, 7] + Array("default".utf8) + [UInt8](repeating: 1, count: 8)
        payload += [0, 3] + Array("old".utf8) + [1]
        let answer = messages(in: try exchange(try Frame(version: 2, type: 1, payload: payload).encoded()))
        guard case .goodbye(.protocolVersionMismatch, let text)? = answer.first else {
            Issue.record("answered \(answer)")
            return
        }
        #expect(text.contains("upgrade"))
        relay.send(SIGTERM)
        #expect(relay.waitForExit() == 0)
    }
}
