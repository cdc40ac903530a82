import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

@Suite struct StrokeFingerprintTests {
    let plain = Fixtures.stroke([(1, 1), (5, 2), (9, 1)])
    let other = Fixtures.stroke([(1, 4), (9, 4)], colour: 3)
    let rectangleMask = Fixtures.mask(radius: 1, [(2, 0), (2, 3)])
    let ovalMask = Fixtures.mask(radius: 2, [(6, 1)])

    func masked(_ stroke: Stroke, _ mask: StrokeMask) -> Stroke {
        var copy = stroke
        copy.mask = mask
        return copy
    }

    @Test func maskFingerprintIsNilWithoutAMask() {
        #expect(plain.maskFingerprint == nil)
    }

    @Test func maskFingerprintIsStableForTheSameMask() {
        let first = masked(plain, rectangleMask).maskFingerprint
        #expect(first != nil)
        #expect(first == masked(plain, rectangleMask).maskFingerprint)
    }

    @Test func maskFingerprintDiffersForDifferentMasks() {
        #expect(masked(plain, rectangleMask).maskFingerprint != masked(plain, ovalMask).maskFingerprint)
    }

    @Test func equalGroupsHaveEqualFingerprints() {
        #expect(Fixtures.group([plain, other]).fingerprint == Fixtures.group([plain, other]).fingerprint)
        let rebuilt = Fixtures.group([Fixtures.stroke([(1, 1), (5, 2), (9, 1)]), other])
        #expect(rebuilt.fingerprint == Fixtures.group([plain, other]).fingerprint)
    }

    @Test func fingerprintChangesWithPieceCount() {
        #expect(Fixtures.group([plain]).fingerprint != Fixtures.group([plain, plain]).fingerprint)
    }

    @Test func fingerprintChangesWhenAMaskIsAddedChangedOrRemoved() {
        let none = Fixtures.group([plain]).fingerprint
        let rectangle = Fixtures.group([masked(plain, rectangleMask)]).fingerprint
        let oval = Fixtures.group([masked(plain, ovalMask)]).fingerprint
        #expect(none != rectangle)
        #expect(rectangle != oval)
        #expect(Fixtures.group([masked(masked(plain, rectangleMask), .none)]).fingerprint == none)
    }

    @Test func fingerprintIsSensitiveToPieceOrder() {
        let maskedOther = masked(other, ovalMask)
        #expect(
            Fixtures.group([plain, maskedOther]).fingerprint
                != Fixtures.group([maskedOther, plain]).fingerprint)
    }

    @Test func fingerprintChangesOnSplitDeleteRecolourAndMove() {
        let whole = Fixtures.group([plain]).fingerprint
        let split = Fixtures.group([Fixtures.stroke([(1, 1), (5, 2)]), Fixtures.stroke([(5, 2), (9, 1)])])
        var recoloured = plain
        recoloured.ink.colour = 200
        var moved = plain
        moved.transform = StrokeTransform(dx: 0.0625, dy: 0)
        var widened = plain
        widened.ink.width = 1
        var markered = plain
        markered.ink.tool = .marker
        let variants = [
            split.fingerprint, Fixtures.group([Fixtures.stroke([(1, 1), (5, 2)])]).fingerprint,
            Fixtures.group([recoloured]).fingerprint, Fixtures.group([moved]).fingerprint,
            Fixtures.group([widened]).fingerprint, Fixtures.group([markered]).fingerprint,
            Fixtures.group([Fixtures.stroke([(1, 1), (5, 2.0625), (9, 1)])]).fingerprint,
        ]
        #expect(!variants.contains(whole))
        #expect(Set(variants).count == variants.count)
        #expect(split.fingerprint != Fixtures.group([Fixtures.stroke([(1, 1), (5, 2)])]).fingerprint)
    }

    @Test func fingerprintChangesWithTheKey() {
        let a = Fixtures.group([Fixtures.stroke([(1, 1)], key: Fixtures.key(1))])
        let b = Fixtures.group([Fixtures.stroke([(1, 1)], key: Fixtures.key(2))])
        #expect(a.fingerprint != b.fingerprint)
    }

    @Test func seededRandomGroupsHaveDistinctFingerprintsUnlessEqual() {
        var generator = SplitMix64(seed: 99)
        var seen: [StrokeFingerprint: StrokeGroup] = [:]
        for _ in 0..<500 {
            let group = Fixtures.randomGroup(using: &generator)
            if let earlier = seen[group.fingerprint] { #expect(earlier == group) }
            seen[group.fingerprint] = group
        }
        #expect(seen.count == 500)
    }

    @Test func singleByteChangesChangeTheFingerprint() {
        var generator = SplitMix64(seed: 5)
        let bytes = (0..<100).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let original = StrokeFingerprint(of: bytes)
        var fingerprints: Set<StrokeFingerprint> = [original]
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 1
            fingerprints.insert(StrokeFingerprint(of: changed))
        }
        fingerprints.insert(StrokeFingerprint(of: bytes + [0]))
        fingerprints.insert(StrokeFingerprint(of: Array(bytes.dropLast())))
        #expect(fingerprints.count == bytes.count + 3)
        #expect(original.hex.count == 32)
    }

    /// The digest is read a word at a time in place; these are its values as first defined (a
    /// byte at a time), for a length with no whole word, with a part word, and with both.
    @Test func theDigestOfKnownBytesIsUnchanged() {
        #expect(StrokeFingerprint(of: []).hex == "1ac046dda8e86e2a32faa281e87a0961")
        #expect(StrokeFingerprint(of: Array("abc".utf8)).hex == "11d720ab3a692e60bc777185de8af027")
        #expect(StrokeFingerprint(of: Array(0..<20)).hex == "452c77226d11c724a2c23960261b4445")
    }

    @Test func aTextIsFingerprintedAsItsUTF8Bytes() {
        for text in ["", "abc", "AAECAwQFBgcICQoLDA0ODxAREhM=", "ünïcödé ⣿ text of some length"] {
            #expect(StrokeFingerprint(ofUTF8: text) == StrokeFingerprint(of: Array(text.utf8)))
        }
        #expect(StrokeFingerprint(ofUTF8: "abc") != StrokeFingerprint(ofUTF8: "abd"))
    }
}
