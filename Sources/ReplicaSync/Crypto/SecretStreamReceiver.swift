import CSodium

/// The receiving direction of a secretstream.
///
/// A class for the same reason as `SecretStreamSender`: one owner for the C state, wiped on
/// `deinit`.
final class SecretStreamReceiver {
    private let state: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>

    /// Nil when the header is malformed.
    init?(key: [UInt8], header: [UInt8]) {
        Sodium.ensureInitialised()
        guard header.count == Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES) else { return nil }
        let state = UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>.allocate(capacity: 1)
        state.initialize(to: crypto_secretstream_xchacha20poly1305_state())
        // `deinit` does not run for an instance whose init fails before it is complete.
        guard crypto_secretstream_xchacha20poly1305_init_pull(state, header, key) == 0 else {
            Sodium.wipeAndFree(state)
            return nil
        }
        self.state = state
    }

    deinit {
        Sodium.wipeAndFree(state)
    }

    /// Opens the next message of the stream; a message out of its place fails.
    func open(_ ciphertext: [UInt8]) throws(SyncProtocolError) -> [UInt8] {
        let overhead = SecretStreamSender.overhead
        guard ciphertext.count >= overhead else { throw .decryptionFailed }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - overhead)
        var length: UInt64 = 0
        var tag: UInt8 = 0
        let status = crypto_secretstream_xchacha20poly1305_pull(
            state, &plaintext, &length, &tag, ciphertext, UInt64(ciphertext.count), nil, 0)
        guard status == 0, tag == UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE) else {
            throw .decryptionFailed
        }
        return Array(plaintext.prefix(Int(length)))
    }
}
