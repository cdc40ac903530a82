import MonotonicTime
import Testing

@testable import ReplicaSync

/// CPace against the draft's test vectors (draft-irtf-cfrg-cpace-13, appendix B.3,
/// CPACE-RISTR255-SHA512), and the handshake built on it against an attacker.
@Suite struct CPaceTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    // The draft's inputs.
    static let token = Array("Password".utf8)
    static let channel = bytes("6f630b425f726573706f6e6465720b415f696e69746961746f72")
    static let sessionID = bytes("7e4b4791d6a8ef019b936c79fb7f2c57")
    static let ya = bytes("da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08")
    static let yb = bytes("d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d")

    @Test func theGeneratorMatchesTheDraft() {
        let string = CPace.generatorString(
            token: Self.token, channel: Self.channel, sessionID: Self.sessionID)
        // 100 bytes of zero padding fill SHA-512's first block with the domain and the token.
        #expect(string.count == 1 + 17 + 1 + 8 + 1 + 100 + 1 + 26 + 1 + 16)
        #expect(
            Sodium.sha512(string)
                == Self.bytes(
                    """
                    c63a5750e2439c17ccd8213be14fde2f87e1bc637001a97f5929c77b30ea0e08afbc75ace5d3d73b2842a79d01488c5f
                    d7ea30d475ee609545af1bfd1ff77c8e
                    """))
        #expect(
            CPace.generator(token: Self.token, channel: Self.channel, sessionID: Self.sessionID)
                == Self.bytes("a6fc82c3b8968fbb2e06fee81ca858586dea50d248f0c7ca6a18b0902a30b36b"))
    }

    @Test func sharesSecretPointAndSessionKeyMatchTheDraft() throws {
        let g = CPace.generator(token: Self.token, channel: Self.channel, sessionID: Self.sessionID)
        let shareA = try #require(CPace.multiply(Self.ya, g))
        let shareB = try #require(CPace.multiply(Self.yb, g))
        #expect(shareA == Self.bytes("d40fb265a7abeaee7939d91a585fe59f7053f982c296ec413c624c669308f87a"))
        #expect(shareB == Self.bytes("08bcf6e9777a9c313a3db6daa510f2d398403319c2341bd506a92e672eb7e307"))
        let pointA = try #require(CPace.multiply(Self.ya, shareB))
        let pointB = try #require(CPace.multiply(Self.yb, shareA))
        #expect(pointA == pointB)
        #expect(pointA == Self.bytes("e22b1ef7788f661478f3cddd4c600774fc0f41e6b711569190ff88fa0e607e09"))
        let isk = CPace.intermediateSessionKey(
            sessionID: Self.sessionID, sharedPoint: pointA, initiatorShare: shareA,
            initiatorData: Array("ADa".utf8), responderShare: shareB, responderData: Array("ADb".utf8))
        #expect(
            isk
                == Self.bytes(
                    """
                    4c5469a16b2364c4b944ebc1a79e51d1674ad47db26e8718154f59faebfaa52d8346f30aa58377117eb20d527f2cbc5c
                    76381f7fd372e89df8239f87f2e02ed1
                    """))
    }

    /// B.3.11: a share that does not decode, and the identity, give no shared point.
    @Test func invalidSharesGiveNoSharedPoint() {
        let scalar = Self.bytes("7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05")
        let valid = Self.bytes("2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
        #expect(
            CPace.multiply(scalar, valid)
                == Self.bytes("7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e"))
        #expect(
            CPace.multiply(
                scalar, Self.bytes("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")) == nil
        )
        #expect(CPace.multiply(scalar, [UInt8](repeating: 0, count: 32)) == nil)
    }
}
