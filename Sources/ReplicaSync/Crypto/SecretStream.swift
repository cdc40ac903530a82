import CSodium

/// One direction of an encrypted connection: `crypto_secretstream_xchacha20poly1305`, which
/// authenticates every message and its position in the stream (reordered, dropped or replayed
/// frames fail to open).
struct SecretStreamSender {
    /// Bytes a sealed message is longer than its plaintext.
    static let overhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)

    private var state = crypto_secretstream_xchacha20poly1305_state()
    /// Sent once to the receiver so it can open the stream.
    let header: [UInt8]

    init(key: [UInt8]) {
        Sodium.ensureInitialised()
        var header = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES))
        _ = crypto_secretstream_xchacha20poly1305_init_push(&state, &header, key)
        self.header = header
    }

    mutating func seal(_ plaintext: [UInt8]) -> [UInt8] {
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.overhead)
        var length: UInt64 = 0
        _ = crypto_secretstream_xchacha20poly1305_push(
            &state, &ciphertext, &length, plaintext, UInt64(plaintext.count), nil, 0,
            UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE))
        return ciphertext
    }
}

/// The receiving direction of a secretstream.
struct SecretStreamReceiver {
    private var state = crypto_secretstream_xchacha20poly1305_state()

    /// Nil when the header is malformed.
    init?(key: [UInt8], header: [UInt8]) {
        Sodium.ensureInitialised()
        guard header.count == Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES),
            crypto_secretstream_xchacha20poly1305_init_pull(&state, header, key) == 0
        else { return nil }
    }

    mutating func open(_ ciphertext: [UInt8]) throws(SyncProtocolError) -> [UInt8] {
        let overhead = SecretStreamSender.overhead
        guard ciphertext.count >= overhead else { throw .decryptionFailed }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - overhead)
        var length: UInt64 = 0
        var tag: UInt8 = 0
        let status = crypto_secretstream_xchacha20poly1305_pull(
            &state, &plaintext, &length, &tag, ciphertext, UInt64(ciphertext.count), nil, 0)
        guard status == 0, tag == UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE) else {
            throw .decryptionFailed
        }
        return Array(plaintext.prefix(Int(length)))
    }
}
