import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// The stored form of a group, kept as one reference to a shared box with no fingerprint of its
/// own: it must round-trip and compare exactly as the form that held every field inline did.
@Suite struct EncodedGroupTests {
    /// A random group: half the time one of `Fixtures.randomGroup` (pieces, inks, transforms,
    /// masks anywhere on the canvas), else a short random line with up to three sweeps across it.
    static func sweptGroup(using random: inout SplitMix64) -> StrokeGroup {
        if Bool.random(using: &random) { return Fixtures.randomGroup(using: &random) }
        let key = Fixtures.key(Int64.random(in: 0...StrokeKey.maximumMilliseconds / 2, using: &random))
        let points = (0..<Int.random(in: 2...8, using: &random)).map { _ in
            (Double.random(in: 0...60, using: &random), Double.random(in: 0...30, using: &random))
        }
        var group = Fixtures.group([Fixtures.stroke(points, key: key)])
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let x = Double.random(in: 0...60, using: &random)
            let sweepKey = Fixtures.key(
                Int64.random(in: 0...StrokeKey.maximumMilliseconds, using: &random), peer: "sweeper")
            group = group.settingSweep(Fixtures.mask(radius: 1, [(x, 0), (x, 30)]), for: sweepKey)
        }
        return group
    }

    @Test(arguments: 0..<30 as Range<UInt64>)
    func aStoredFormRoundTripsAndCarriesTheFingerprintOfItsBytes(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xE4C0_DED0 + seed)
        let group = Self.sweptGroup(using: &random)
        let encoded = EncodedGroup(group)
        #expect(encoded.group == group && encoded.key == group.key)
        let bytes = StrokeGroupCodec.encode(group)
        #expect(encoded.value == Base64.encode(bytes))
        #expect(encoded.fingerprint == StrokeFingerprint(of: bytes))
        // Kept for as long as the drawing is open: in an array of their size.
        #expect(encoded.storedBytes == bytes && encoded.storedBytes.capacity <= bytes.count + 48)
        #expect(Set(encoded.sweepValues.keys) == Set(group.sweeps.keys))

        var masks: [SweepKey: StrokeMask] = [:]
        for (sweepKey, value) in encoded.sweepValues {
            let sweep = try EncodedGroup.sweep(
                storedValue: value, under: group.key.rawValue, sweepKey: sweepKey.rawValue)
            masks[sweep.key] = sweep.mask
        }
        let read = try EncodedGroup(
            storedValue: encoded.value, under: group.key.rawValue, sweeps: masks,
            sweepValues: encoded.sweepValues)
        #expect(read == encoded)
        #expect(read.group == group && read.fingerprint == encoded.fingerprint)
        // Read again with the form it came from: not decoded again, and equal still.
        let again = try EncodedGroup(
            storedValue: encoded.value, under: group.key.rawValue, sweeps: masks,
            sweepValues: encoded.sweepValues, known: read)
        #expect(again == read && again.group.base == read.group.base)
    }

    @Test(arguments: 0..<30 as Range<UInt64>)
    func formsAreEqualExactlyWhenTheirGroupsAndValuesAre(seed: UInt64) {
        var random = SplitMix64(seed: 0xE9A1_0000 + seed)
        let group = Self.sweptGroup(using: &random)
        let other = Self.sweptGroup(using: &random)
        let encoded = EncodedGroup(group)
        let copy = encoded
        #expect(copy == encoded)
        // Two encodings of one group are two boxes, equal by what they hold.
        #expect(EncodedGroup(group) == encoded)
        #expect((EncodedGroup(other) == encoded) == (other == group))
        // A sweep taken out: another group, other sweep values, the same stroke as drawn.
        if let sweepKey = group.sweepKeys.first {
            let fewer = EncodedGroup(group.settingSweep(nil, for: sweepKey), reusing: encoded)
            #expect(fewer != encoded)
            #expect(fewer.value == encoded.value && fewer.fingerprint == encoded.fingerprint)
            #expect(fewer.sweepValues.count == encoded.sweepValues.count - 1)
        }
    }
}
