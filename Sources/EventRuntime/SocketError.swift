import Glibc

/// A failed socket call: what was being done, and the system's errno and message.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var code: Int32

    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The error of the last failed system call.
    public static func system(_ operation: String) -> SocketError {
        SocketError(operation: operation, code: errno)
    }

    public var description: String {
        let hint =
            code == EADDRINUSE ? " (another process listens there: stop it, or choose another address)" : ""
        return "\(operation) failed: \(String(cString: strerror(code)))\(hint)"
    }
}
