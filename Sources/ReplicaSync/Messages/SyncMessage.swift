/// Every message of the sync protocol. Frames carry one message each; `sealed` carries an
/// encrypted frame.
public enum SyncMessage: Equatable, Sendable {
    /// First message of each side, in the clear: the database, whether it wants encryption, the
    /// session id and its CPace share. Nothing that names the machine or the person.
    case hello(Hello)
    /// The CPace key confirmation (a MAC of the sender's hello under a key only the holders of the
    /// same token derive); the start of this side's encrypted stream when the connection is
    /// encrypted.
    case response(confirmation: [UInt8], streamHeader: [UInt8])
    /// Who the sender is: sent only once the other side proved the token (sealed when encrypted).
    case identity(Identity)
    /// The documents the sender wants.
    case subscribe([SyncSubscription])
    /// The sender's encoded version vectors for a subscription: "send me what I lack".
    case versions(SyncSubscription, [UInt8])
    /// What the receiver lacks, with the sender's versions at the time (a lower bound of what it has).
    case delta(Delta)
    /// The whole state of documents the receiver cannot be sent a delta for (the sender compacted
    /// history the receiver lacks): events and compacted vectors (`ReplicaFullState`), in the
    /// delta's envelope, acknowledged like a delta. Added in protocol version 5.
    case fullState(Delta)
    /// A delta was applied; the receiver's versions after applying it.
    case ack(SyncSubscription, sequence: UInt64, versions: [UInt8])
    case presence(PresenceUpdate)
    /// The peer's presence is gone (it left or went quiet): a relay tells its other clients, who
    /// would otherwise keep the forwarded cursor until their own presence timeout.
    case presenceLeft(peerID: UInt64)
    case keepalive
    /// A relay's own trouble, for its clients' status line ("" when there is none): a relay on
    /// PostgreSQL whose database is unreachable keeps its clients and says so.
    case relayStatus(String)
    /// "Send me the listing of this collection, and keep it current" (a client of a relay).
    case listingRequest(collection: String)
    /// Entries of a collection's listing: the first answer holds every document, later ones what
    /// changed (an entry of nil: the document is gone).
    case listing(collection: String, changes: [SyncListingChange])
    case goodbye(GoodbyeCode, String)
    /// An encrypted frame (only after the handshake, only on encrypted connections).
    case sealed([UInt8])

    /// The hello's fields; the protocol version travels in every frame header.
    public struct Hello: Equatable, Sendable {
        public var databaseID: String
        public var wantsEncryption: Bool
        /// CPace's sid: chosen at random by the initiator, echoed by the acceptor.
        public var sessionID: [UInt8]
        /// The sender's CPace share (an encoded ristretto255 point).
        public var share: [UInt8]

        public init(databaseID: String, wantsEncryption: Bool, sessionID: [UInt8], share: [UInt8]) {
            self.databaseID = databaseID
            self.wantsEncryption = wantsEncryption
            self.sessionID = sessionID
            self.share = share
        }
    }

    /// An authenticated peer's name for itself.
    public struct Identity: Equatable, Sendable {
        public var peerID: UInt64
        public var displayName: String

        public init(peerID: UInt64, displayName: String) {
            self.peerID = peerID
            self.displayName = displayName
        }
    }

    /// A batch of changes for one subscription.
    public struct Delta: Equatable, Sendable {
        public var subscription: SyncSubscription
        public var sequence: UInt64
        public var senderVersions: [UInt8]
        public var changes: [UInt8]

        public init(
            subscription: SyncSubscription, sequence: UInt64, senderVersions: [UInt8], changes: [UInt8]
        ) {
            self.subscription = subscription
            self.sequence = sequence
            self.senderVersions = senderVersions
            self.changes = changes
        }
    }

    /// The message type byte in the frame header.
    public enum Kind: UInt8, Sendable {
        /// 2 was version 2's challenge, folded into the hello in version 3.
        case hello = 1
        case response = 3, subscribe, versions, delta, ack, presence, keepalive, goodbye
        /// Added in protocol version 2 (a version 1 peer refuses unknown types).
        case presenceLeft = 11
        /// Added in protocol version 3.
        case identity = 12
        /// Added in protocol version 4 with the relay tier (no release spoke 4 without it).
        case relayStatus = 13
        /// Added in protocol version 5 with compaction.
        case fullState = 14
        /// Added in protocol version 5 (a relay that keeps in memory only what clients hold).
        case listingRequest = 15, listing
        case sealed = 32
    }

    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .response: .response
        case .identity: .identity
        case .subscribe: .subscribe
        case .versions: .versions
        case .delta: .delta
        case .fullState: .fullState
        case .ack: .ack
        case .presence: .presence
        case .presenceLeft: .presenceLeft
        case .keepalive: .keepalive
        case .relayStatus: .relayStatus
        case .listingRequest: .listingRequest
        case .listing: .listing
        case .goodbye: .goodbye
        case .sealed: .sealed
        }
    }
}
