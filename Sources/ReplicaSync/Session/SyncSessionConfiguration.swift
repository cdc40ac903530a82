/// Everything one side of a session is, wants and tolerates; one value per node, shared by its
/// sessions (only `encrypts` usually differs by transport).
public struct SyncSessionConfiguration: Sendable {
    public var databaseID: String
    public var peerID: UInt64
    public var displayName: String
    /// The shared secret; proven, never sent. Empty is a valid token (local discovery).
    public var token: String
    /// Encrypt after the handshake (TCP). A connection is encrypted if either side asks.
    public var encrypts: Bool
    /// The documents this side wants; it also serves whatever the other side subscribes to.
    public var subscriptions: [SyncSubscription]
    /// Collections whose listing this side asks for (`SyncMessage.listingRequest`): a client of
    /// a relay that subscribes to some of their documents and lists the rest.
    public var listings: [String] = []
    public var frameSizeLimit: Int = Frame.defaultSizeLimit
    /// The frame limit until the other side has proven the token: a stranger cannot make this
    /// side buffer more than this per connection.
    public var handshakeFrameSizeLimit: Int = Frame.handshakeSizeLimit
    public var handshakeTimeout: Duration = .seconds(10)
    public var keepaliveInterval: Duration = .seconds(5)
    /// A peer silent this long (no keepalive either) is gone.
    public var idleTimeout: Duration = .seconds(20)
    /// Presence not refreshed for this long is forgotten.
    public var presenceTimeout: Duration = .seconds(30)

    public init(
        databaseID: String, peerID: UInt64, displayName: String, token: String, encrypts: Bool,
        subscriptions: [SyncSubscription]
    ) {
        self.databaseID = databaseID
        self.peerID = peerID
        self.displayName = displayName
        self.token = token
        self.encrypts = encrypts
        self.subscriptions = subscriptions
    }
}

/// The randomness one handshake consumes: the CPace session id (used when this side initiates)
/// and the bytes of its secret scalar. Passed in so tests can make it deterministic.
public struct HandshakeSecrets: Sendable {
    public var sessionID: [UInt8]
    public var scalarSeed: [UInt8]

    /// Fresh secrets from the operating system's random source (via libsodium).
    public static func random() -> HandshakeSecrets {
        HandshakeSecrets(
            sessionID: Sodium.randomBytes(SyncMessage.sessionIDSize), scalarSeed: Sodium.randomBytes(32))
    }

    /// Deterministic secrets from a seeded generator (tests only need them distinct per session).
    public init<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        sessionID = (0..<SyncMessage.sessionIDSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        scalarSeed = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Secrets given byte for byte (a recorded run replayed by a test).
    public init(sessionID: [UInt8], scalarSeed: [UInt8]) {
        self.sessionID = sessionID
        self.scalarSeed = scalarSeed
    }
}
