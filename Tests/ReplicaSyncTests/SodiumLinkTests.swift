import CSodium
import Testing

@Suite struct SodiumLinkTests {
    /// The system libsodium links and hashes as documented (BLAKE2b-256 of "abc").
    @Test func blake2bOfABCMatchesTheKnownDigest() {
        #expect(sodium_init() >= 0)
        var digest = [UInt8](repeating: 0, count: Int(crypto_generichash_BYTES))
        let message = Array("abc".utf8)
        crypto_generichash(&digest, digest.count, message, UInt64(message.count), nil, 0)
        let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }
}
