import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// Mask erasures of one stroke by several peers merge: each is a sweep of its own beside the
/// stroke as drawn, so none of them is lost, undo takes out exactly one, and removing the whole
/// stroke still wins.
@Suite struct SweepMergeTests {
    typealias F = StrokeFixtures

    /// A thin line across row 2, from cell 1 to cell 30.
    static let line = F.group(
        Fixtures.stroke([(1.5, 2.5), (30.5, 2.5)], key: F.key(0, peer: "aaaaaa"), width: 0.25))
    static let whole = " " + String(repeating: "▄", count: 30)
    static let leftGap = " ▄▄▄ " + String(repeating: "▄", count: 26)
    static let rightGap = " " + String(repeating: "▄", count: 24) + " ▄▄▄▄▄"
    static let bothGaps = " ▄▄▄ " + String(repeating: "▄", count: 20) + " ▄▄▄▄▄"
    /// The line with its first five cells erased, its last five, and both.
    static let leftEndGone = String(repeating: " ", count: 6) + String(repeating: "▄", count: 25)
    static let rightEndGone = " " + String(repeating: "▄", count: 25)
    static let bothEndsGone = String(repeating: " ", count: 6) + String(repeating: "▄", count: 20)
    /// A pass of a one-cell brush along the line over cells `from` to `to`.
    static func along(_ from: Double, _ to: Double) -> [(Double, Double)] {
        [(from + 0.5, 2.5), (to + 0.5, 2.5)]
    }

    /// A vertical pass of a one-cell brush through column `x`.
    static func across(_ x: Double) -> [(Double, Double)] { [(x + 0.5, 0.5), (x + 0.5, 4.5)] }

    func peers(_ count: Int = 2) throws -> [TestPeer] {
        let peers = try (0..<count).map { index in
            try TestPeer(peer: 0xA000_0000_0000_0001 + UInt64(index) << 56)
        }
        try peers[0].draw(Self.line)
        for peer in peers.dropFirst() { try deliver(from: peers[0], to: peer) }
        return peers
    }

    func expectConverged(_ peers: [TestPeer], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for peer in peers.dropFirst() {
            #expect(peer.coordinator.drawing == peers[0].coordinator.drawing, sourceLocation: sourceLocation)
            #expect(try peer.storedDocument() == peers[0].storedDocument(), sourceLocation: sourceLocation)
            #expect(try peer.storedText() == peer.text, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [true, false])
    func sweepsAtBothEndsByTwoPeersBothApply(aFirst: Bool) throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        #expect(a.text == ["", "", Self.whole])
        try a.sweep(Self.line.key, along: Self.along(0, 5))
        try b.sweep(Self.line.key, along: Self.along(26, 31))
        #expect(a.text == ["", "", Self.leftEndGone])
        #expect(b.text == ["", "", Self.rightEndGone])
        if aFirst {
            try deliver(from: a, to: b)
            try deliver(from: b, to: a)
        } else {
            try deliver(from: b, to: a)
            try deliver(from: a, to: b)
        }
        #expect(a.text == ["", "", Self.bothEndsGone])
        #expect(b.text == ["", "", Self.bothEndsGone])
        try expectConverged(peers)
        // Duplicated delivery changes nothing.
        let changesSeen = a.remoteChanges.count + b.remoteChanges.count
        try syncBoth(a, b)
        try deliver(from: a, to: b)
        try deliver(from: b, to: a)
        #expect(a.remoteChanges.count + b.remoteChanges.count == changesSeen)
        #expect(a.text == ["", "", Self.bothEndsGone])
        try expectConverged(peers)
    }

    @Test(arguments: [true, false])
    func aWholeStrokeRemovalWinsOverAConcurrentSweep(aFirst: Bool) throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        try a.sweep(Self.line.key, along: Self.across(4))
        try b.erase(Self.line.key)
        if aFirst {
            try deliver(from: a, to: b)
            try deliver(from: b, to: a)
        } else {
            try deliver(from: b, to: a)
            try deliver(from: a, to: b)
        }
        #expect(a.coordinator.drawing[Self.line.key] == nil)
        #expect(b.coordinator.drawing[Self.line.key] == nil)
        #expect(a.text.isEmpty && b.text.isEmpty)
        // The sweep that raced the removal is still stored, but it brings nothing back.
        #expect(try a.storedDocument()["strokes"]?.objectValue?[Self.line.key.rawValue] == nil)
        try syncBoth(a, b)
        try expectConverged(peers)
        #expect(a.text.isEmpty)
    }

    @Test(arguments: [true, false])
    func undoingMySweepLeavesTheOtherPeersSweep(undoBeforeSync: Bool) throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        let mine = try #require(try a.sweep(Self.line.key, along: Self.across(4)))
        try b.sweep(Self.line.key, along: Self.across(25))
        if undoBeforeSync {
            try a.undoSweep(mine, of: Self.line.key)
            try syncBoth(a, b)
        } else {
            try syncBoth(a, b)
            #expect(a.text == ["", "", Self.bothGaps])
            try a.undoSweep(mine, of: Self.line.key)
            try syncBoth(a, b)
        }
        #expect(a.text == ["", "", Self.rightGap])
        #expect(b.text == ["", "", Self.rightGap])
        try expectConverged(peers)
    }

    @Test func aStrokeFullyCoveredBySweepsIsGoneAndComesBackWhenOneIsUndone() throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        let left = try #require(try a.sweep(Self.line.key, along: [(0.5, 2.5), (16.5, 2.5)]))
        try b.sweep(Self.line.key, along: [(15.5, 2.5), (31.5, 2.5)])
        try syncBoth(a, b)
        #expect(a.text.isEmpty && b.text.isEmpty)
        #expect(a.coordinator.drawing[Self.line.key]?.isErasedCompletely == true)
        try a.undoSweep(left, of: Self.line.key)
        try syncBoth(a, b)
        #expect(b.text == ["", "", " " + String(repeating: "▄", count: 14)])
        try expectConverged(peers)
    }

    /// B's sweep arrives while A's own sweep of the same stroke waits for its flush: A shows
    /// both at once, and its flush writes only its own sweep, never an UNSET of B's.
    @Test func aPeersSweepArrivingInsideTheQuietPeriodIsKeptBesideMine() throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        let group = try #require(a.coordinator.drawing[Self.line.key])
        let mine = try #require(SweepKey(creationMilliseconds: a.clock.now + 1, peerSuffix: a.keySuffix))
        let passes = MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
            along: Fixtures.points(Self.across(4)), near: group)
        a.coordinator.edit([Self.line.key: group.addingPasses(passes, toSweep: mine)], now: a.clock.now)
        try b.sweep(Self.line.key, along: Self.across(25))
        try deliver(from: b, to: a)
        #expect(a.text == ["", "", Self.bothGaps])
        try a.settle()
        try syncBoth(a, b)
        #expect(b.text == ["", "", Self.bothGaps])
        try expectConverged(peers)
    }

    /// A removal arriving while A's sweep of the stroke waits for its flush wins: the sweep does
    /// not bring the stroke back.
    @Test func aRemovalArrivingInsideTheQuietPeriodWinsOverMyUnflushedSweep() throws {
        let peers = try peers()
        let (a, b) = (peers[0], peers[1])
        let group = try #require(a.coordinator.drawing[Self.line.key])
        let mine = try #require(SweepKey(creationMilliseconds: a.clock.now + 1, peerSuffix: a.keySuffix))
        let passes = MaskEraser(brush: EraserBrush(radius: 0.5)).sweep(
            along: Fixtures.points(Self.across(4)), near: group)
        a.coordinator.edit([Self.line.key: group.addingPasses(passes, toSweep: mine)], now: a.clock.now)
        try b.erase(Self.line.key)
        try deliver(from: b, to: a)
        #expect(a.coordinator.drawing[Self.line.key] == nil)
        try a.settle()
        try syncBoth(a, b)
        #expect(a.text.isEmpty && b.text.isEmpty)
        try expectConverged(peers)
    }

    /// Three peers, random sweeps, undos of their own sweeps and whole-stroke removals on shared
    /// strokes, delivered between random pairs (repeats included): all converge, and every sweep
    /// that was neither undone nor on a removed stroke is applied.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomSweepsUndosAndRemovalsConverge(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let peers = try (0..<3).map { index in try TestPeer(peer: 0xA000_0000_0000_0001 + UInt64(index) << 56)
        }
        let strokes = (0..<4).map { index in
            F.group(
                Fixtures.stroke(
                    [(1.5, 2.5 + Double(index) * 3), (30.5, 2.5 + Double(index) * 3)],
                    key: F.key(Int64(index), peer: "aaaaaa"), width: 0.25))
        }
        try peers[0].draw(strokes[0], strokes[1], strokes[2], strokes[3])
        for peer in peers.dropFirst() { try deliver(from: peers[0], to: peer) }

        var made: [StrokeKey: Set<SweepKey>] = [:]
        var undone: Set<SweepKey> = []
        var removed: Set<StrokeKey> = []
        var own: [[(StrokeKey, SweepKey)]] = [[], [], []]
        for _ in 0..<60 {
            let index = Int(rng.next() % 3)
            let peer = peers[index]
            let stroke = strokes[Int(rng.next() % 4)].key
            switch rng.next() % 10 {
            case 0..<5:
                let x = Double(rng.next() % 30) + 1
                let y = 2.5 + Double(strokes.firstIndex { $0.key == stroke } ?? 0) * 3
                if let sweepKey = try peer.sweep(stroke, along: [(x, y - 1.5), (x + 1, y + 1.5)]) {
                    made[stroke, default: []].insert(sweepKey)
                    own[index].append((stroke, sweepKey))
                }
            case 5..<7:
                guard !own[index].isEmpty else { continue }
                let (key, sweepKey) = own[index].remove(at: Int(rng.next() % UInt64(own[index].count)))
                if try peer.undoSweep(sweepKey, of: key) { undone.insert(sweepKey) }
            case 7:
                guard peer.coordinator.drawing[stroke] != nil else { continue }
                try peer.erase(stroke)
                removed.insert(stroke)
            default:
                let other = peers[(index + 1 + Int(rng.next() % 2)) % 3]
                try deliver(from: peer, to: other)
            }
        }
        for _ in 0..<2 {
            for from in peers { for to in peers where to !== from { try deliver(from: from, to: to) } }
        }
        try expectConverged(peers)
        #expect(made.values.reduce(0) { $0 + $1.count } >= 10)
        #expect(!undone.isEmpty)
        for stroke in strokes {
            let shown = peers[0].coordinator.drawing[stroke.key]
            if removed.contains(stroke.key) {
                #expect(shown == nil)
            } else {
                let expected = (made[stroke.key] ?? []).subtracting(undone)
                #expect(Set(shown?.sweeps.keys.map { $0 } ?? []) == expected)
                #expect(shown?.base == stroke.base)
            }
        }
    }
}

extension TestPeer {
    /// The short id this peer's keys carry.
    var keySuffix: String { StrokeKeyClock.shortID(forPeerID: replica.peerID.rawValue) }

    /// Erases across the stroke under `key` along `points` with a one-cell brush, as one sweep
    /// of this peer's (as one drag of the mask eraser does), and flushes; nil when this peer has
    /// no such stroke or the sweep hides nothing more of it.
    @discardableResult
    func sweep(_ key: StrokeKey, along points: [(Double, Double)], radius: Double = 0.5) throws -> SweepKey? {
        guard let group = coordinator.drawing[key] else { return nil }
        clock.now += 1
        guard let sweepKey = SweepKey(creationMilliseconds: clock.now, peerSuffix: keySuffix) else {
            return nil
        }
        let passes = MaskEraser(brush: EraserBrush(radius: radius)).sweep(
            along: Fixtures.points(points), near: group)
        let erased = group.addingPasses(passes, toSweep: sweepKey)
        guard erased.pieces != group.pieces else { return nil }
        coordinator.edit([key: erased], now: clock.now)
        try settle()
        return sweepKey
    }

    /// Takes one sweep back out, as undo does; false when the stroke or the sweep is not here.
    @discardableResult
    func undoSweep(_ sweepKey: SweepKey, of key: StrokeKey) throws -> Bool {
        guard let group = coordinator.drawing[key], group.sweeps[sweepKey] != nil else { return false }
        coordinator.edit([key: group.settingSweep(nil, for: sweepKey)], now: clock.now)
        try settle()
        return true
    }

    /// The canvas as `export --format text` prints it, one string a row.
    var text: [String] {
        Self.rows(DrawingExporter.export(coordinator.drawing.groups, as: .text))
    }

    /// The stored document read afresh, as the export command reads it.
    func storedText() throws -> [String] {
        var model = DrawingModel()
        _ = model.update(fromDocument: try storedDocument())
        return Self.rows(DrawingExporter.export(model.drawing(), as: .text))
    }

    /// The drawing's document as the replica holds it.
    func storedDocument() throws -> [String: DocumentValue] {
        let result = try replica.execute(
            "SELECT * FROM drawings WHERE _id = :id", arguments: ["id": .string(drawingID)])
        return result.documents.first ?? [:]
    }

    private static func rows(_ text: String) -> [String] {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }
}
