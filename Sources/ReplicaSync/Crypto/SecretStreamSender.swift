import CSodium

/// One direction of an encrypted connection: `crypto_secretstream_xchacha20poly1305`, which
/// authenticates every message and its position in the stream (reordered, dropped or replayed
/// frames fail to open).
///
/// A class, so the C state (key and nonce) has one owner: it is allocated once, never copied,
/// and wiped when the sender goes away. A copied state would seal two messages with one nonce.
final class SecretStreamSender {
    /// Bytes a sealed message is longer than its plaintext.
    static let overhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)

    private let state: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>
    /// Sent once to the receiver so it can open the stream.
    let header: [UInt8]

    init(key: [UInt8]) {
        Sodium.ensureInitialised()
        state = .allocate(capacity: 1)
        state.initialize(to: crypto_secretstream_xchacha20poly1305_state())
        var header = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES))
        _ = crypto_secretstream_xchacha20poly1305_init_push(state, &header, key)
        self.header = header
    }

    deinit {
        Sodium.wipeAndFree(state)
    }

    /// Seals the next message of the stream (each call advances the nonce).
    func seal(_ plaintext: [UInt8]) -> [UInt8] {
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.overhead)
        var length: UInt64 = 0
        _ = crypto_secretstream_xchacha20poly1305_push(
            state, &ciphertext, &length, plaintext, UInt64(plaintext.count), nil, 0,
            UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE))
        return ciphertext
    }
}
