import Testing

@testable import ReplicaSync

/// The secretstream wrappers own one C state each: every reference to a sender or receiver
/// advances the same stream, so no frame is ever sealed twice with one nonce.
@Suite struct SecretStreamTests {
    let key = [UInt8](repeating: 7, count: 32)

    @Test func twoReferencesToOneSenderSealOneStream() throws {
        let first = SecretStreamSender(key: key)
        let second = first
        let one = first.seal(Array("same".utf8))
        let two = second.seal(Array("same".utf8))
        // A duplicated state would repeat the nonce, and with it the ciphertext.
        #expect(one != two)

        let receiver = try #require(SecretStreamReceiver(key: key, header: first.header))
        #expect(try receiver.open(one) == Array("same".utf8))
        #expect(try receiver.open(two) == Array("same".utf8))
    }

    @Test func theSecondFrameOpensOnlyAfterTheFirst() throws {
        let sender = SecretStreamSender(key: key)
        let alias = sender
        let one = sender.seal([1])
        let two = alias.seal([2])

        let outOfOrder = try #require(SecretStreamReceiver(key: key, header: sender.header))
        #expect(throws: SyncProtocolError.decryptionFailed) { try outOfOrder.open(two) }

        let inOrder = try #require(SecretStreamReceiver(key: key, header: sender.header))
        let reader = inOrder
        #expect(try inOrder.open(one) == [1])
        // The alias reads on from where the first reference left off.
        #expect(try reader.open(two) == [2])
        #expect(throws: SyncProtocolError.decryptionFailed) { try inOrder.open(two) }
    }

    @Test func aMalformedHeaderIsRefused() {
        #expect(SecretStreamReceiver(key: key, header: [1, 2, 3]) == nil)
    }
}
