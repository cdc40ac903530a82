import CSodium

/// The few libsodium primitives sync uses, as byte-array functions. libsodium is initialised once
/// on first use; `sodium_init` is safe to call from any thread.
enum Sodium {
    private static let initialised: Bool = sodium_init() >= 0

    static func ensureInitialised() {
        precondition(initialised, "libsodium failed to initialise")
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        ensureInitialised()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// BLAKE2b with an optional key (at most 64 bytes) and an output of 16...64 bytes.
    static func hash(_ parts: [[UInt8]], key: [UInt8] = [], outputSize: Int = 32) -> [UInt8] {
        ensureInitialised()
        // The streaming state is an over-aligned C struct Swift imports as opaque: hash one buffer.
        let message = parts.flatMap { $0 }
        var output = [UInt8](repeating: 0, count: outputSize)
        key.withUnsafeBufferPointer { keyBuffer in
            _ = crypto_generichash(
                &output, outputSize, message, UInt64(message.count),
                key.isEmpty ? nil : keyBuffer.baseAddress, key.count)
        }
        return output
    }

    /// Zeroes one allocated C value (a key or a stream state) before freeing it, so no secret is
    /// left behind in freed memory.
    static func wipeAndFree<Value>(_ pointer: UnsafeMutablePointer<Value>) {
        sodium_memzero(pointer, MemoryLayout<Value>.size)
        pointer.deallocate()
    }

    /// Compares secrets in constant time.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return sodium_memcmp(a, b, a.count) == 0
    }
}

/// A `crypto_kx` key pair derived from a seed (the seed is the injected randomness).
struct KeyExchangeKeyPair {
    let publicKey: [UInt8]
    let secretKey: [UInt8]

    init(seed: [UInt8]) {
        Sodium.ensureInitialised()
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_kx_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_kx_SECRETKEYBYTES))
        _ = crypto_kx_seed_keypair(&publicKey, &secretKey, seed)
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Session keys as (initiator-to-acceptor, acceptor-to-initiator); nil for a public key
    /// libsodium rejects (a low-order point sent by a hostile peer).
    func sessionKeys(remotePublicKey: [UInt8], isInitiator: Bool) -> (
        toAcceptor: [UInt8], toInitiator: [UInt8]
    )? {
        var receive = [UInt8](repeating: 0, count: Int(crypto_kx_SESSIONKEYBYTES))
        var transmit = receive
        if isInitiator {
            guard
                crypto_kx_client_session_keys(&receive, &transmit, publicKey, secretKey, remotePublicKey) == 0
            else { return nil }
            return (transmit, receive)
        }
        guard crypto_kx_server_session_keys(&receive, &transmit, publicKey, secretKey, remotePublicKey) == 0
        else { return nil }
        return (receive, transmit)
    }
}
