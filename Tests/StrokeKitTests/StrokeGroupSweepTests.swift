import StrokeKit
import StrokeKitTestSupport
import Testing

/// A group's sweeps: stored apart from the stroke as drawn, applied in key order, encoded and
/// decoded strictly.
@Suite struct StrokeGroupSweepTests {
    let line = Fixtures.group([Fixtures.stroke([(1.5, 2.5), (30.5, 2.5)])])
    let brush = MaskEraser(brush: EraserBrush(radius: 0.5))

    func mask(across x: Double) -> StrokeMask {
        StrokeMask(sweeps: brush.sweep(along: Fixtures.points([(x, 0.5), (x, 4.5)]), near: line))
    }

    @Test func sweepsApplyToTheBaseWhateverOrderTheyWereAddedIn() {
        let first = Fixtures.key(Fixtures.baseMilliseconds + 1, peer: "aaaaaa")
        let second = Fixtures.key(Fixtures.baseMilliseconds + 2, peer: "bbbbbb")
        let one = line.settingSweep(mask(across: 5.5), for: first).settingSweep(
            mask(across: 20.5), for: second)
        let other = line.settingSweep(mask(across: 20.5), for: second).settingSweep(
            mask(across: 5.5), for: first)
        #expect(one == other)
        #expect(one.pieces == other.pieces)
        #expect(one.pieces.count == 3)
        #expect(one.base == line.base)
        #expect(one.fingerprint == other.fingerprint && one.fingerprint != line.fingerprint)
        #expect(one.settingSweep(nil, for: first).settingSweep(nil, for: second) == line)
    }

    @Test func addingPassesToTheLatestSweepGivesWhatApplyingEverySweepGives() {
        let early = Fixtures.key(Fixtures.baseMilliseconds + 1, peer: "aaaaaa")
        let late = Fixtures.key(Fixtures.baseMilliseconds + 9, peer: "aaaaaa")
        let swept = line.settingSweep(mask(across: 12.5), for: early)
        let passes = brush.sweep(along: Fixtures.points([(4.5, 0.5), (4.5, 4.5)]), near: line)
        let more = brush.sweep(along: Fixtures.points([(24.5, 0.5), (24.5, 4.5)]), near: line)
        let incremental = swept.addingPasses(passes, toSweep: late).addingPasses(more, toSweep: late)
        let whole = swept.settingSweep(StrokeMask(sweeps: passes + more), for: late)
        #expect(incremental == whole)
        #expect(incremental.pieces == whole.pieces)
        #expect(incremental.pieces.count == 4)
    }

    @Test func sweepsCoveringTheWholeStrokeLeaveNoPiecesButKeepTheBase() {
        let all = StrokeMask(
            sweeps: brush.sweep(along: Fixtures.points([(0.5, 2.5), (31.5, 2.5)]), near: line))
        let gone = line.settingSweep(all, for: Fixtures.key(Fixtures.baseMilliseconds + 1))
        #expect(gone.isErasedCompletely)
        #expect(gone.base == line.base)
        #expect(DrawingExporter.export([gone], as: .text) == "")
    }

    @Test func aSweepIsOnlyThePassesNearTheStroke() {
        let far = brush.sweep(along: Fixtures.points([(5.5, 20), (5.5, 30)]), near: line)
        #expect(far.isEmpty)
        let partly = brush.sweep(along: Fixtures.points([(5.5, 20), (5.5, 2.5), (40, 2.5)]), near: line)
        #expect(partly.count == 1)
        #expect(partly.first?.path.count == 3)
    }

    @Test func aSweepSurvivesARoundTripAndItsEncodingIsDeterministic() throws {
        let sweep = mask(across: 7.5).adding(mask(across: 9.25).sweeps)
        let bytes = StrokeGroupCodec.encodeSweep(sweep)
        #expect(try StrokeGroupCodec.decodeSweep(bytes) == sweep)
        #expect(StrokeGroupCodec.encodeSweep(try StrokeGroupCodec.decodeSweep(bytes)) == bytes)
    }

    @Test func aBrokenSweepIsRefusedSayingWhy() {
        let bytes = StrokeGroupCodec.encodeSweep(mask(across: 7.5))
        #expect(throws: StrokeCodecError.unsupportedVersion(9)) {
            try StrokeGroupCodec.decodeSweep([9] + bytes.dropFirst())
        }
        #expect(throws: StrokeCodecError.trailingBytes(count: 1)) {
            try StrokeGroupCodec.decodeSweep(bytes + [0])
        }
        #expect(throws: StrokeCodecError.emptyList(field: "mask sweeps")) {
            try StrokeGroupCodec.decodeSweep([1, 0])
        }
        #expect(throws: StrokeCodecError.self) { try StrokeGroupCodec.decodeSweep(Array(bytes.dropLast())) }
        #expect(throws: StoredGroupProblem.self) {
            try EncodedGroup.sweep(storedValue: "AQ", under: line.key.rawValue, sweepKey: "not a key")
        }
    }

    @Test func aStoredGroupReusesTheEncodingOfWhatDidNotChange() {
        let sweepKey = Fixtures.key(Fixtures.baseMilliseconds + 1)
        let known = EncodedGroup(line.settingSweep(mask(across: 5.5), for: sweepKey))
        let more = known.group.settingSweep(
            mask(across: 20.5), for: Fixtures.key(Fixtures.baseMilliseconds + 2))
        let encoded = EncodedGroup(more, reusing: known)
        #expect(encoded.value == known.value && encoded.fingerprint == known.fingerprint)
        #expect(encoded.sweepValues[sweepKey] == known.sweepValues[sweepKey])
        #expect(encoded == EncodedGroup(more))
    }
}

extension StrokeGroupSweepTests {
    /// The seed of the fuzz corpus (`fuzz/corpus/FuzzStrokeCodec/sweep-one-pass`), byte by byte.
    @Test func theOnePassSeedIsASweepOfOneCellAcrossColumnFive() throws {
        let bytes: [UInt8] = [0x01, 0x01, 0x08, 0x02, 0xB0, 0x01, 0x10, 0x00, 0x80, 0x01]
        let sweep = try StrokeGroupCodec.decodeSweep(bytes)
        #expect(sweep == Fixtures.mask(radius: 0.5, [(5.5, 0.5), (5.5, 4.5)]))
        #expect(StrokeGroupCodec.encodeSweep(sweep) == bytes)
    }
}
