import EventRuntime
import RelayStore
import TestSupport
import Testing

@Suite struct PostgresConnectionTests {
    @Test func binaryParametersComeBackByteForByteOverTheLoop() throws {
        let test = try PostgresTestLoop()
        let connection = try test.connected()
        _ = try test.run(connection, "CREATE TABLE samples(b bytea, n int8, t text, a bytea[], i int8[])")
        let everyByte = (0...255).map { UInt8($0) } + [0, 0]
        _ = try test.run(
            connection, "INSERT INTO samples VALUES ($1, $2, $3, $4, $5)",
            [
                .bytea(everyByte), .int8(-42), .text("ein Stück ✏️"), .byteaArray([[0], [], everyByte]),
                .int8Array([Int64.min, 0, Int64.max]),
            ])
        let rows = try test.run(
            connection, "SELECT b, n, t, cardinality(a), a[3], i[1], i[3], octet_length(a[2]) FROM samples")
        #expect(rows.rows.count == 1)
        #expect(rows.bytes(0, 0) == everyByte)
        #expect(rows.int64(0, 1) == -42)
        #expect(rows.text(0, 2) == "ein Stück ✏️")
        #expect(rows.int32(0, 3) == 3)
        #expect(rows.bytes(0, 4) == everyByte)
        #expect(rows.int64(0, 5) == Int64.min)
        #expect(rows.int64(0, 6) == Int64.max)
        #expect(rows.int32(0, 7) == 0)
    }

    @Test func statementsQueueInOrderAndAFailureLeavesTheConnectionUsable() throws {
        let test = try PostgresTestLoop()
        let connection = try test.connected()
        var answers: [String] = []
        for value in 1...5 {
            connection.send("SELECT $1::int8 * 10", [.int8(Int64(value))], operation: "multiplying") {
                answers.append((try? $0.get().int64(0, 0)).map { "\($0)" } ?? "failed")
            }
        }
        var failure: PostgresError?
        connection.send("SELECT * FROM no_such_table", operation: "reading a missing table") {
            if case .failure(let error) = $0 { failure = error }
        }
        test.wait(for: "six answers") { answers.count == 5 && failure != nil }
        #expect(answers == ["10", "20", "30", "40", "50"])
        #expect(failure?.kind == .statementFailed(sqlState: "42P01"))
        #expect(failure?.operation == "reading a missing table")
        #expect(try test.run(connection, "SELECT 7::int8").int64(0, 0) == 7)
    }

    @Test func notifyReachesAnotherConnectionThroughThePoll() throws {
        let test = try PostgresTestLoop()
        let listener = try test.connected()
        let sender = try test.connected()
        var received: [PostgresNotification] = []
        listener.onNotification = { received.append($0) }
        _ = try test.run(listener, "LISTEN strokes")
        _ = try test.run(sender, "SELECT pg_notify('strokes', $1)", [.text("drawing d0")])
        test.wait(for: "the notification") { !received.isEmpty }
        #expect(received.map(\.payload) == ["drawing d0"])
        #expect(received.map(\.channel) == ["strokes"])
    }

    @Test func aTerminatedBackendIsReportedOnceAndFailsWhatWasQueued() throws {
        let test = try PostgresTestLoop()
        let victim = try test.connected()
        let killer = try test.connected()
        var lost: [PostgresError] = []
        victim.onFailure = { lost.append($0) }
        let pid = try #require(try test.run(victim, "SELECT pg_backend_pid()::int8").int64(0, 0))
        _ = try test.run(killer, "SELECT pg_terminate_backend($1::int4)", [.int8(pid)])
        var queued: Result<PostgresRows, PostgresError>?
        victim.send("SELECT pg_sleep(0.2)", operation: "sleeping") { queued = $0 }
        test.wait(for: "the broken connection") { !lost.isEmpty && queued != nil }
        #expect(lost.count == 1)
        #expect(lost.first?.kind == .connectionLost)
        #expect(!victim.isReady)
        guard case .failure = queued else {
            Issue.record("a statement on a terminated backend succeeded")
            return
        }
    }

    @Test func aWrongPasswordNamesTheHostAndTheFixButNeverThePassword() throws {
        let test = try PostgresTestLoop()
        try test.cluster.psql(
            "DO $$ BEGIN CREATE ROLE painter LOGIN PASSWORD 'right-horse'; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
        let secret = "wrong-battery-staple"
        let (connection, failure) = try test.connect(
            url: test.cluster.url(database: test.database, user: "painter", password: secret))
        #expect(connection == nil)
        let error = try #require(failure)
        #expect(error.kind == .connectionFailed)
        #expect(error.description.contains(test.cluster.socketDirectory))
        #expect(error.description.contains("password authentication failed"))
        #expect(error.hint == "check the user and password in the URL (or in ~/.pgpass)")
        #expect(!error.description.contains(secret))

        let (good, noFailure) = try test.connect(
            url: test.cluster.url(database: test.database, user: "painter", password: "right-horse"))
        #expect(noFailure == nil)
        #expect(good?.isReady == true)
    }

    @Test func anUnreachableHostIsNamedWithoutThePassword() throws {
        let test = try PostgresTestLoop()
        let (connection, failure) = try test.connect(
            url: "postgresql://relay:hunter22@127.0.0.1:1/drawtogether")
        #expect(connection == nil)
        let error = try #require(failure)
        #expect(error.kind == .connectionFailed)
        #expect(error.target == "127.0.0.1:1 (database drawtogether, user relay)")
        #expect(error.hint.contains("check that PostgreSQL is running there"))
        #expect(!error.description.contains("hunter22"))
    }

    @Test func aMissingDatabaseIsNamedWithWhatToCreate() throws {
        let test = try PostgresTestLoop()
        let (_, failure) = try test.connect(url: test.cluster.url(database: "no_such_drawings"))
        let error = try #require(failure)
        #expect(error.message.contains("no_such_drawings"))
        #expect(error.hint.contains("createdb"))
    }

    @Test func anUnreadableURLIsRefusedBeforeConnecting() throws {
        let loop = try PollEventLoop(clock: .system)
        #expect(throws: PostgresError.self) {
            _ = try PostgresConnection(url: "postgresql://relay:pw@[::1/db", loop: loop) { _ in }
        }
        do {
            _ = try PostgresConnection(url: "postgresql://relay:s3cret@[::1/db", loop: loop) { _ in }
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(!error.description.contains("s3cret"))
        }
    }
}
