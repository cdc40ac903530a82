import CLibPQ
import EventRuntime
import MonotonicTime

/// The one owner of a `PGconn`: connects without blocking (`PQconnectStart`/`PQconnectPoll`),
/// then runs statements one after another on the event loop, parameters and results in binary,
/// and hands out `NOTIFY`s as they arrive. No call waits for the server: everything answers
/// through a callback run on the loop's thread.
///
/// One statement is on the wire at a time; later ones queue. `close()` (or `deinit`) finishes
/// the handle; a broken connection fails what is queued and reports once through `onFailure`.
public final class PostgresConnection {
    public let target: PostgresTarget
    /// Each notification on a channel this connection listens on.
    public var onNotification: ((PostgresNotification) -> Void)?
    /// Called once when an established connection breaks (not for a failed connect).
    public var onFailure: ((PostgresError) -> Void)?
    /// The server process serving this connection (0 before it is connected): the sender of the
    /// notifications of its own statements.
    public private(set) var backendProcessID: Int32 = 0

    private let loop: any EventLoop
    private var handle: OpaquePointer?
    private var socket: Int32 = -1
    private var state: State

    private enum State {
        case connecting(completion: (PostgresError?) -> Void, timer: EventLoopTimer)
        case ready
        case closed
    }

    private struct Statement {
        var sql: String
        var parameters: [PostgresValue]
        var completion: (Result<PostgresRows, PostgresError>) -> Void
        var operation: String
    }

    private var queue: [Statement] = []
    private var inFlight: Statement?
    private var inFlightRows = PostgresRows(rows: [], affected: 0)
    private var inFlightError: PostgresError?

    /// Starts connecting to `url`; `completion` runs on the loop once connected (nil) or failed.
    /// Throws only for a URL libpq cannot read. (libpq resolves a host name synchronously; give
    /// an address or a socket directory where that matters.)
    public init(
        url: String, loop: any EventLoop, timeout: Duration = .seconds(10),
        completion: @escaping (PostgresError?) -> Void
    ) throws(PostgresError) {
        let target = try PostgresTarget(url: url)
        guard let handle = PQconnectStart(url) else {
            throw PostgresError(
                kind: .connectionFailed, operation: "connecting", target: target.description,
                message: "libpq is out of memory")
        }
        self.target = target
        self.loop = loop
        state = .closed
        self.handle = handle
        // Server notices (a terminated backend's farewell) are not printed on standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        let timer = loop.schedule(at: loop.now + timeout) { [weak self] in
            self?.failConnect(.timedOut, message: "no answer within \(timeout)")
        }
        state = .connecting(completion: completion, timer: timer)
        if PQstatus(handle) == CONNECTION_BAD {
            // Reported on the loop, like every other outcome.
            loop.schedule(at: loop.now) { [weak self] in
                self?.failConnect(.connectionFailed, message: self?.libpqMessage() ?? "")
            }
            return
        }
        advanceConnect()
    }

    deinit {
        finishHandle()
    }

    /// Whether the connection is up and has not broken.
    public var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    /// Queues one statement (`$1`, `$2`… name the parameters); `completion` runs on the loop
    /// after the server answered — for a statement outside a transaction, after its COMMIT.
    public func send(
        _ sql: String, _ parameters: [PostgresValue] = [], operation: String,
        completion: @escaping (Result<PostgresRows, PostgresError>) -> Void
    ) {
        if case .closed = state {
            let failure = error(.connectionLost, operation, message: "the connection is closed")
            loop.schedule(at: loop.now) { completion(.failure(failure)) }
            return
        }
        queue.append(
            Statement(sql: sql, parameters: parameters, completion: completion, operation: operation))
        if case .ready = state, inFlight == nil { sendNext() }
    }

    /// Finishes the connection; queued statements fail with `.connectionLost`.
    public func close() {
        guard case .ready = state else {
            if case .connecting(_, let timer) = state { loop.cancel(timer) }
            state = .closed
            finishHandle()
            return
        }
        state = .closed
        failAll(error(.connectionLost, "closing", message: "the connection was closed"))
        finishHandle()
    }

    // MARK: Connecting

    private func advanceConnect() {
        guard let handle, case .connecting(let completion, let timer) = state else { return }
        let status = PQconnectPoll(handle)
        watchSocket()
        switch status {
        case PGRES_POLLING_READING:
            loop.setWritable(socket, nil)
        case PGRES_POLLING_WRITING:
            loop.setWritable(socket) { [weak self] in self?.advanceConnect() }
        case PGRES_POLLING_OK:
            loop.cancel(timer)
            guard PQsetnonblocking(handle, 1) == 0 else {
                failConnect(.connectionFailed, message: libpqMessage())
                return
            }
            state = .ready
            backendProcessID = PQbackendPID(handle)
            loop.setWritable(socket, nil)
            completion(nil)
            if inFlight == nil { sendNext() }
        default:
            failConnect(.connectionFailed, message: libpqMessage())
        }
    }

    /// libpq may change its socket while connecting (one address after another).
    private func watchSocket() {
        guard let handle else { return }
        let current = PQsocket(handle)
        guard current != socket else { return }
        if socket >= 0 { loop.unregister(socket) }
        socket = current
        guard socket >= 0 else { return }
        loop.register(socket) { [weak self] in self?.readable() }
    }

    private func failConnect(_ kind: PostgresError.Kind, message: String) {
        guard case .connecting(let completion, let timer) = state else { return }
        loop.cancel(timer)
        state = .closed
        let failure = error(kind, "connecting", message: message)
        failAll(failure)
        finishHandle()
        completion(failure)
    }

    // MARK: Statements

    private func sendNext() {
        guard let handle, inFlight == nil, !queue.isEmpty else { return }
        let statement = queue.removeFirst()
        inFlight = statement
        inFlightRows = PostgresRows(rows: [], affected: 0)
        inFlightError = nil
        let sent = Self.withParameters(statement.parameters) { types, values, lengths, formats in
            PQsendQueryParams(
                handle, statement.sql, Int32(statement.parameters.count), types, values, lengths, formats, 1)
        }
        guard sent == 1 else {
            connectionBroke(message: libpqMessage())
            return
        }
        flush()
    }

    /// Hands libpq's output buffer to the socket; asks for a writable callback while it is full.
    private func flush() {
        guard let handle else { return }
        switch PQflush(handle) {
        case 0: loop.setWritable(socket, nil)
        case 1: loop.setWritable(socket) { [weak self] in self?.flush() }
        default: connectionBroke(message: libpqMessage())
        }
    }

    private func readable() {
        guard let handle else { return }
        if case .connecting = state {
            advanceConnect()
            return
        }
        guard case .ready = state else { return }
        guard PQconsumeInput(handle) == 1 else {
            connectionBroke(message: libpqMessage())
            return
        }
        // Results first: a commit's own notifications then reach listeners after its completion.
        collectResults()
        deliverNotifications()
    }

    private func collectResults() {
        while let handle, inFlight != nil, PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                finishStatement()
                continue
            }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
                inFlightRows = PostgresRows(copying: result)
            default:
                let sqlState = PQresultErrorField(result, clibpq_diag_sqlstate()).map { String(cString: $0) }
                let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
                if inFlightError == nil, let statement = inFlight {
                    inFlightError = error(
                        .statementFailed(sqlState: sqlState ?? "XX000"), statement.operation, message: message
                    )
                }
            }
        }
        if let handle, PQstatus(handle) == CONNECTION_BAD { connectionBroke(message: libpqMessage()) }
    }

    private func finishStatement() {
        guard let statement = inFlight else { return }
        inFlight = nil
        let outcome: Result<PostgresRows, PostgresError> =
            inFlightError.map { .failure($0) } ?? .success(inFlightRows)
        statement.completion(outcome)
        sendNext()
    }

    private func deliverNotifications() {
        guard let handle else { return }
        while let notify = PQnotifies(handle) {
            let notification = PostgresNotification(
                channel: String(cString: notify.pointee.relname),
                payload: String(cString: notify.pointee.extra),
                senderProcessID: notify.pointee.be_pid)
            PQfreemem(notify)
            onNotification?(notification)
        }
    }

    // MARK: Failure and teardown

    private func connectionBroke(message: String) {
        guard case .ready = state else { return }
        state = .closed
        let failure = error(
            .connectionLost, inFlight?.operation ?? "waiting for the server", message: message)
        failAll(failure)
        finishHandle()
        onFailure?(failure)
    }

    private func failAll(_ failure: PostgresError) {
        let pending = (inFlight.map { [$0] } ?? []) + queue
        inFlight = nil
        queue = []
        for statement in pending { statement.completion(.failure(failure)) }
    }

    private func finishHandle() {
        if socket >= 0 { loop.unregister(socket) }
        socket = -1
        if let handle { PQfinish(handle) }
        handle = nil
    }

    private func libpqMessage() -> String {
        handle.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "no connection"
    }

    private func error(_ kind: PostgresError.Kind, _ operation: String, message: String) -> PostgresError {
        PostgresError(kind: kind, operation: operation, target: target.description, message: message)
    }

    /// Lays the parameters out for `PQsendQueryParams`: every value in one buffer, pointers into it.
    private static func withParameters<T>(
        _ parameters: [PostgresValue],
        _ body: (
            UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> T
    ) -> T {
        let binaries = parameters.map(\.binary)
        var storage: [CChar] = []
        storage.reserveCapacity(binaries.reduce(0) { $0 + ($1?.count ?? 0) } + 1)
        var offsets: [Int?] = []
        for binary in binaries {
            offsets.append(binary.map { _ in storage.count })
            storage.append(contentsOf: (binary ?? []).map { CChar(bitPattern: $0) })
        }
        storage.append(0)
        let types = parameters.map { Oid($0.typeOID) }
        let lengths = binaries.map { Int32(clamping: $0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return storage.withUnsafeBufferPointer { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { $0.map { buffer.baseAddress! + $0 } }
            return body(types, values, lengths, formats)
        }
    }
}

/// One `NOTIFY` received on a listened channel.
public struct PostgresNotification: Equatable, Sendable {
    public var channel: String
    public var payload: String
    /// The server process that sent it (the sender's own connection sees its own notifications).
    public var senderProcessID: Int32
}
