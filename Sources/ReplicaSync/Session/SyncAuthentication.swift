import ByteCoding

/// The proof of the shared token: a keyed BLAKE2b over the whole handshake transcript, so a proof
/// is only valid for this connection, these two peers, these keys and this side's role.
struct SyncAuthentication {
    /// What both sides saw during the handshake, in initiator/acceptor order.
    struct Transcript {
        var databaseID: String
        var initiatorPeerID: UInt64
        var acceptorPeerID: UInt64
        var initiatorNonce: [UInt8]
        var acceptorNonce: [UInt8]
        var initiatorPublicKey: [UInt8]
        var acceptorPublicKey: [UInt8]
        /// Both derived session keys: a passive listener cannot compute them, so it cannot test
        /// guessed tokens against recorded proofs.
        var keyToAcceptor: [UInt8]
        var keyToInitiator: [UInt8]

        var digest: [UInt8] {
            var writer = ByteWriter(reservingCapacity: 64)
            writer.write(text: "drawtogether-sync-auth")
            writer.writeByte(SyncMessage.protocolVersion)
            writer.write(text: databaseID)
            writer.writeFixed(initiatorPeerID, .bigEndian)
            writer.writeFixed(acceptorPeerID, .bigEndian)
            for part in [
                initiatorNonce, acceptorNonce, initiatorPublicKey, acceptorPublicKey, keyToAcceptor,
                keyToInitiator,
            ] {
                writer.write(blob: part)
            }
            return Sodium.hash([writer.bytes], outputSize: 64)
        }
    }

    private let tokenKey: [UInt8]

    init(token: String) {
        // Hashing fixes the key length whatever the token's; the label separates uses.
        tokenKey = Sodium.hash([Array("drawtogether-token".utf8), Array(token.utf8)])
    }

    /// The proof the side playing `role` sends.
    func proof(for role: SyncRole, transcript: Transcript) -> [UInt8] {
        Sodium.hash([Array(role.rawValue.utf8), transcript.digest], key: tokenKey)
    }

    func verify(_ proof: [UInt8], from role: SyncRole, transcript: Transcript) -> Bool {
        Sodium.constantTimeEqual(proof, self.proof(for: role, transcript: transcript))
    }
}
