import ByteCoding
import CSodium

/// CPace (draft-irtf-cfrg-cpace, suite CPACE-RISTR255-SHA512) from libsodium's ristretto255
/// primitives: the balanced PAKE the handshake runs over the shared token.
///
/// Both sides derive a secret generator from the token, send a share (their random scalar times
/// that generator) and multiply the other's share by their own scalar. What crosses the wire is
/// a random-looking group element per side: no function of it and a guessed token says whether
/// the guess is right unless one also knows a scalar, which only a party to the run has. So a
/// passive listener learns nothing testable, and an active attacker tests one guess per run.
enum CPace {
    /// The suite's domain separation identifier.
    static let domain = Array("CPaceRistretto255".utf8)
    static let pointSize = Int(crypto_core_ristretto255_BYTES)
    static let scalarSize = Int(crypto_core_ristretto255_SCALARBYTES)
    /// SHA-512's input block size (the generator string pads the token to fill one block).
    static let hashBlockSize = 128

    /// `lv_cat`: each part behind its LEB128 length.
    static func lengthValueConcatenation(_ parts: [[UInt8]]) -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: parts.reduce(0) { $0 + $1.count + 2 })
        for part in parts {
            writer.writeVarint(UInt64(part.count))
            writer.writeBytes(part)
        }
        return writer.bytes
    }

    /// `generator_string(DSI, PRS, CI, sid, s_in_bytes)`.
    static func generatorString(token: [UInt8], channel: [UInt8], sessionID: [UInt8]) -> [UInt8] {
        let prefixLength = { (count: Int) in
            lengthValueConcatenation([Array(repeating: 0, count: count)]).count
        }
        let padding = max(0, hashBlockSize - prefixLength(token.count) - prefixLength(domain.count) - 1)
        return lengthValueConcatenation([
            domain, token, Array(repeating: 0, count: padding), channel, sessionID,
        ])
    }

    /// The encoded generator for this token, channel and session.
    static func generator(token: [UInt8], channel: [UInt8], sessionID: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialised()
        let hash = Sodium.sha512(generatorString(token: token, channel: channel, sessionID: sessionID))
        var point = [UInt8](repeating: 0, count: pointSize)
        _ = crypto_core_ristretto255_from_hash(&point, hash)
        return point
    }

    /// A scalar from 32 random bytes: the bits above the group's 252 are cleared (the draft's
    /// recommended sampling).
    static func scalar(fromRandom bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count == scalarSize, "a CPace scalar needs \(scalarSize) random bytes")
        var scalar = bytes
        scalar[scalarSize - 1] &= 0x0F
        return scalar
    }

    /// `scalar * point`, nil when the point does not decode or the result is the identity
    /// (`scalar_mult_vfy`'s abort condition: a hostile share, or a zero scalar).
    static func multiply(_ scalar: [UInt8], _ point: [UInt8]) -> [UInt8]? {
        guard scalar.count == scalarSize, point.count == pointSize else { return nil }
        Sodium.ensureInitialised()
        var result = [UInt8](repeating: 0, count: pointSize)
        guard crypto_scalarmult_ristretto255(&result, scalar, point) == 0 else { return nil }
        return result
    }

    /// The intermediate session key, initiator/responder transcript:
    /// `SHA-512(lv_cat(DSI || "_ISK", sid, K) || lv_cat(Ya, ADa) || lv_cat(Yb, ADb))`.
    static func intermediateSessionKey(
        sessionID: [UInt8], sharedPoint: [UInt8], initiatorShare: [UInt8], initiatorData: [UInt8],
        responderShare: [UInt8], responderData: [UInt8]
    ) -> [UInt8] {
        Sodium.sha512(
            lengthValueConcatenation([domain + Array("_ISK".utf8), sessionID, sharedPoint])
                + lengthValueConcatenation([initiatorShare, initiatorData])
                + lengthValueConcatenation([responderShare, responderData]))
    }

    /// The key-confirmation key of the draft's section on explicit key confirmation:
    /// `SHA-512("CPaceMac" || sid || ISK)`.
    static func confirmationKey(sessionID: [UInt8], intermediateKey: [UInt8]) -> [UInt8] {
        Sodium.sha512(Array("CPaceMac".utf8) + sessionID + intermediateKey)
    }

    /// One side's confirmation: HMAC-SHA-512 of the message it sent, `lv_cat(Y, AD)`.
    static func confirmation(key: [UInt8], share: [UInt8], data: [UInt8]) -> [UInt8] {
        Sodium.hmacSHA512(key: key, message: lengthValueConcatenation([share, data]))
    }
}
