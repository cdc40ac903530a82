import EventRuntime
import MonotonicTime

/// What the front end shows about sync: who is connected, how fresh the data is, what is waiting,
/// and the last refusal with its reason.
public struct SyncNodeStatus: Equatable, Sendable {
    /// One authenticated peer.
    public struct Peer: Equatable, Sendable {
        public var peerID: UInt64
        public var displayName: String
        public var transport: SyncTransport
        /// Where the connection comes from (TCP: the remote's address and port), for the logs.
        public var address: SocketEndpoint?
        /// The endpoint this node dialled to reach the peer, as configured (a relay of a list
        /// shows which one it is on); nil when the peer dialled in.
        public var dialled: SocketEndpoint?

        public init(
            peerID: UInt64, displayName: String, transport: SyncTransport, address: SocketEndpoint? = nil,
            dialled: SocketEndpoint? = nil
        ) {
            self.peerID = peerID
            self.displayName = displayName
            self.transport = transport
            self.address = address
            self.dialled = dialled
        }
    }

    /// A connection that ended with a reason worth showing.
    public struct Refusal: Equatable, Sendable {
        public var reason: SyncCloseReason
        public var at: SyncInstant
        /// The peer's name when its hello got through, else the endpoint.
        public var peer: String
        /// This node dialled the connection (a `--peer` or the `--server` it keeps redialling),
        /// rather than accepting it from someone else.
        public var dialled: Bool

        public init(reason: SyncCloseReason, at: SyncInstant, peer: String, dialled: Bool = true) {
            self.reason = reason
            self.at = at
            self.peer = peer
            self.dialled = dialled
        }
    }

    public var peers: [Peer] = []
    public var lastSyncAt: SyncInstant?
    public var pendingDeltaCount = 0
    /// The last connection refused (`SyncCloseReason.isRefusal`) since a handshake last
    /// succeeded; peers that merely left do not set it.
    public var lastRefusal: Refusal?
    /// Whether every connected peer has sent its first delta for every subscription.
    public var isCaughtUp = false

    public init() {}
}
