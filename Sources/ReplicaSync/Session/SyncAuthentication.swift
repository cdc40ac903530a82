import ByteCoding

/// One side's CPace run over the shared token: its scalar and share, then (with the other side's
/// hello) the keys both sides agree on exactly when they hold the same token and saw the same
/// hellos.
///
/// The inputs, in the draft's terms: PRS is the token's UTF-8, CI names this protocol and the
/// database, sid is the initiator's random session id, and ADa/ADb are each hello's clear fields
/// (protocol version, database id, encryption flag), so a hello changed in transit fails the
/// confirmation instead of, say, turning encryption off.
struct SyncAuthentication {
    /// What one run derives; secret except the confirmations, which the two sides send.
    struct Keys {
        /// This side's confirmation, sent in its `response`.
        var localConfirmation: [UInt8]
        /// The confirmation the other side must send.
        var remoteConfirmation: [UInt8]
        var keyToAcceptor: [UInt8]
        var keyToInitiator: [UInt8]
    }

    let role: SyncRole
    let sessionID: [UInt8]
    let share: [UInt8]
    private let scalar: [UInt8]
    private let databaseID: String

    /// Nil only when the scalar is zero (the random bytes were all zero in the low 252 bits).
    init?(token: String, databaseID: String, role: SyncRole, sessionID: [UInt8], scalarSeed: [UInt8]) {
        let generator = CPace.generator(
            token: Array(token.utf8), channel: Self.channel(databaseID: databaseID), sessionID: sessionID)
        let scalar = CPace.scalar(fromRandom: scalarSeed)
        guard let share = CPace.multiply(scalar, generator) else { return nil }
        self.role = role
        self.sessionID = sessionID
        self.share = share
        self.scalar = scalar
        self.databaseID = databaseID
    }

    /// CI: the protocol's name and the database id.
    static func channel(databaseID: String) -> [UInt8] {
        CPace.lengthValueConcatenation([Array("drawtogether-sync".utf8), Array(databaseID.utf8)])
    }

    /// AD: a hello's clear fields other than the share and the session id (which CPace binds on
    /// its own), with the protocol version.
    static func associatedData(of hello: SyncMessage.Hello, version: UInt8) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: 32)
        writer.writeByte(version)
        writer.write(text: hello.databaseID)
        writer.writeByte(hello.wantsEncryption ? 1 : 0)
        return writer.bytes
    }

    /// The keys of this run given both hellos; nil when the other share is invalid or makes the
    /// shared point the identity (refused before any key exists).
    func keys(localHello: SyncMessage.Hello, remoteHello: SyncMessage.Hello, version: UInt8) -> Keys? {
        guard let point = CPace.multiply(scalar, remoteHello.share) else { return nil }
        let local = (share: share, data: Self.associatedData(of: localHello, version: version))
        let remote = (share: remoteHello.share, data: Self.associatedData(of: remoteHello, version: version))
        let (initiator, responder) = role == .initiator ? (local, remote) : (remote, local)
        let intermediate = CPace.intermediateSessionKey(
            sessionID: sessionID, sharedPoint: point, initiatorShare: initiator.share,
            initiatorData: initiator.data, responderShare: responder.share, responderData: responder.data)
        let macKey = CPace.confirmationKey(sessionID: sessionID, intermediateKey: intermediate)
        return Keys(
            localConfirmation: CPace.confirmation(key: macKey, share: local.share, data: local.data),
            remoteConfirmation: CPace.confirmation(key: macKey, share: remote.share, data: remote.data),
            keyToAcceptor: Sodium.hash([Array("drawtogether to acceptor".utf8)], key: intermediate),
            keyToInitiator: Sodium.hash([Array("drawtogether to initiator".utf8)], key: intermediate))
    }
}
