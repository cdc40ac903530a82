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

    static func sha512(_ message: [UInt8]) -> [UInt8] {
        ensureInitialised()
        var output = [UInt8](repeating: 0, count: Int(crypto_hash_sha512_BYTES))
        _ = crypto_hash_sha512(&output, message, UInt64(message.count))
        return output
    }

    /// HMAC-SHA-512 with a key of any length (libsodium's one-shot form takes only 32 bytes).
    static func hmacSHA512(key: [UInt8], message: [UInt8]) -> [UInt8] {
        ensureInitialised()
        var state = crypto_auth_hmacsha512_state()
        var output = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha512_BYTES))
        _ = crypto_auth_hmacsha512_init(&state, key, key.count)
        _ = crypto_auth_hmacsha512_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha512_final(&state, &output)
        sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha512_state>.size)
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
