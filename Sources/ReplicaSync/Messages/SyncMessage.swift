/// Every message of the sync protocol. Frames carry one message each; `sealed` carries an
/// encrypted frame.
public enum SyncMessage: Equatable, Sendable {
    /// First message of each side: who it is and which database it holds.
    case hello(Hello)
    /// A fresh random nonce and the key-exchange public key, bound into the proof of the token.
    case challenge(nonce: [UInt8], publicKey: [UInt8])
    /// The proof of the shared token over both challenges; the start of this side's
    /// encrypted stream when the connection is encrypted.
    case response(proof: [UInt8], streamHeader: [UInt8])
    /// The documents the sender wants.
    case subscribe([SyncSubscription])
    /// The sender's encoded version vectors for a subscription: "send me what I lack".
    case versions(SyncSubscription, [UInt8])
    /// What the receiver lacks, with the sender's versions at the time (a lower bound of what it has).
    case delta(Delta)
    /// A delta was applied; the receiver's versions after applying it.
    case ack(SyncSubscription, sequence: UInt64, versions: [UInt8])
    case presence(PresenceUpdate)
    /// The peer's presence is gone (it left or went quiet): a relay tells its other clients, who
    /// would otherwise keep the forwarded cursor until their own presence timeout.
    case presenceLeft(peerID: UInt64)
    case keepalive
    case goodbye(GoodbyeCode, String)
    /// An encrypted frame (only after the handshake, only on encrypted connections).
    case sealed([UInt8])

    /// The hello's fields; the protocol version travels in every frame header.
    public struct Hello: Equatable, Sendable {
        public var databaseID: String
        public var peerID: UInt64
        public var displayName: String
        public var wantsEncryption: Bool

        public init(databaseID: String, peerID: UInt64, displayName: String, wantsEncryption: Bool) {
            self.databaseID = databaseID
            self.peerID = peerID
            self.displayName = displayName
            self.wantsEncryption = wantsEncryption
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
        case hello = 1, challenge, response, subscribe, versions, delta, ack, presence, keepalive, goodbye
        /// Added in protocol version 2 (a version 1 peer refuses unknown types).
        case presenceLeft = 11
        case sealed = 32
    }

    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .challenge: .challenge
        case .response: .response
        case .subscribe: .subscribe
        case .versions: .versions
        case .delta: .delta
        case .ack: .ack
        case .presence: .presence
        case .presenceLeft: .presenceLeft
        case .keepalive: .keepalive
        case .goodbye: .goodbye
        case .sealed: .sealed
        }
    }
}
