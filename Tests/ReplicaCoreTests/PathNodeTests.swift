import TestSupport
import Testing

@testable import ReplicaCore

/// `PathNode` keeps a register's leaf (one live event or none, a subtree removal) inline and
/// everything else in a shared branch: seeded random sequences of its changes, checked after
/// every step against a plain model (an array of live events, three vectors, a dictionary of
/// children), with copies taken on the way that must not see later changes.
@Suite struct PathNodeTests {
    /// What a node held before it had shapes: the live events as an array, in arrival order.
    struct Model: Equatable {
        var live: [Dot] = []
        var subtreeRemoval = VersionVector()
        var mapRemoval = VersionVector()
        var descendantWriteRemoval = VersionVector()
        var children: [String: Model] = [:]

        /// `hasSameIndex` of the old node: live events compared as sets.
        func hasSameIndex(as other: Model) -> Bool {
            subtreeRemoval == other.subtreeRemoval && mapRemoval == other.mapRemoval
                && descendantWriteRemoval == other.descendantWriteRemoval
                && live.sorted() == other.live.sorted()
                && children.count == other.children.count
                && children.allSatisfy { key, child in other.children[key].map(child.hasSameIndex) ?? false }
        }

        var hasLiveEvents: Bool { !live.isEmpty || children.values.contains { $0.hasLiveEvents } }

        mutating func withNode(at path: ArraySlice<String>, _ body: (inout Model) -> Void) {
            guard let first = path.first else { return body(&self) }
            children[first, default: Model()].withNode(at: path.dropFirst(), body)
        }
    }

    /// The model with every live array reversed, at every level.
    static func reversed(_ model: Model) -> Model {
        var result = model
        result.live.reverse()
        result.children = model.children.mapValues(reversed)
        return result
    }

    static let peers = [PeerID(0x11), PeerID(0x22), PeerID(0x33)]

    func randomDot(_ rng: inout SplitMix64) -> Dot {
        // Counter 0 too: hand-made input can hold one, and a node must keep it like any other.
        Dot(peer: Self.peers[Int(rng.next() % 3)], counter: rng.next() % 7)
    }

    func randomVector(_ rng: inout SplitMix64) -> VersionVector {
        var vector = VersionVector()
        for peer in Self.peers where rng.next() % 2 == 0 { vector[peer] = rng.next() % 7 }
        return vector
    }

    func randomPath(_ rng: inout SplitMix64) -> [String] {
        (0..<Int(rng.next() % 3)).map { _ in ["a", "b", "c"][Int(rng.next() % 3)] }
    }

    /// A node holding what `model` holds, built in the model's order (live events as `order`
    /// arranges them).
    func node(from model: Model, order: ([Dot]) -> [Dot] = { $0 }) -> PathNode {
        var node = PathNode()
        for dot in order(model.live) { node.addLive(dot) }
        node.recordSubtreeRemoval(model.subtreeRemoval)
        node.recordMapRemoval(model.mapRemoval)
        node.recordDescendantWriteRemoval(model.descendantWriteRemoval)
        for (key, child) in model.children {
            node.withChild(key) { $0 = self.node(from: child, order: order) }
        }
        return node
    }

    func expect(_ node: PathNode, matches model: Model, sourceLocation: SourceLocation = #_sourceLocation) {
        var live: [Dot] = []
        node.forEachLive { live.append($0) }
        #expect(live == model.live, sourceLocation: sourceLocation)
        #expect(node.liveCount == model.live.count, sourceLocation: sourceLocation)
        #expect(node.firstLive == model.live.first, sourceLocation: sourceLocation)
        #expect(node.subtreeRemoval == model.subtreeRemoval, sourceLocation: sourceLocation)
        #expect(node.mapRemoval == model.mapRemoval, sourceLocation: sourceLocation)
        #expect(node.descendantWriteRemoval == model.descendantWriteRemoval, sourceLocation: sourceLocation)
        #expect(node.hasLiveEvents == model.hasLiveEvents, sourceLocation: sourceLocation)
        #expect(node.hasChildren == !model.children.isEmpty, sourceLocation: sourceLocation)
        #expect(Set(node.children.keys) == Set(model.children.keys), sourceLocation: sourceLocation)
        for (key, child) in model.children {
            guard let nodeChild = node[[key][...]] else {
                Issue.record("no child \(key)", sourceLocation: sourceLocation)
                continue
            }
            expect(nodeChild, matches: child, sourceLocation: sourceLocation)
        }
    }

    /// One random change, made to both.
    func step(_ node: inout PathNode, _ model: inout Model, _ rng: inout SplitMix64) {
        let path = randomPath(&rng)
        switch rng.next() % 6 {
        case 0, 1:
            let dot = randomDot(&rng)
            node.withNode(at: path[...]) { $0.addLive(dot) }
            model.withNode(at: path[...]) { $0.live.append(dot) }
        case 2:
            // Removes a random part, and is asked about each live event once, in order.
            let peer = Self.peers[Int(rng.next() % 3)]
            let counter = rng.next() % 7
            let doomed: (Dot) -> Bool = { $0.peer == peer || $0.counter == counter }
            var asked: [Dot] = []
            var expected: [Dot] = []
            node.withNode(at: path[...]) { node in
                node.removeLive { dot in
                    asked.append(dot)
                    return doomed(dot)
                }
            }
            model.withNode(at: path[...]) { model in
                expected = model.live
                model.live.removeAll(where: doomed)
            }
            #expect(asked == expected)
        case 3:
            let vector = randomVector(&rng)
            node.withNode(at: path[...]) { $0.recordSubtreeRemoval(vector) }
            model.withNode(at: path[...]) { $0.subtreeRemoval.formUnion(vector) }
        case 4:
            let vector = randomVector(&rng)
            node.withNode(at: path[...]) { $0.recordMapRemoval(vector) }
            model.withNode(at: path[...]) { $0.mapRemoval.formUnion(vector) }
        default:
            let vector = randomVector(&rng)
            node.withNode(at: path[...]) { $0.recordDescendantWriteRemoval(vector) }
            model.withNode(at: path[...]) { $0.descendantWriteRemoval.formUnion(vector) }
        }
    }

    /// `steps` seeded random steps from an empty node and model, `body` called after each with
    /// the step's number and both.
    func walk(seed: UInt64, steps: Int, _ body: (Int, PathNode, Model) -> Void) {
        var rng = SplitMix64(seed: seed)
        var node = PathNode()
        var model = Model()
        for count in 0..<steps {
            step(&node, &model, &rng)
            body(count, node, model)
        }
    }

    @Test(arguments: UInt64(1)...40)
    func aNodeHoldsWhatAPlainModelHolds(seed: UInt64) {
        var copies: [(PathNode, Model)] = []
        walk(seed: seed, steps: 200) { count, node, model in
            expect(node, matches: model)
            if count % 17 == 0 { copies.append((node, model)) }
        }
        // Copies share branches with the node that went on changing; none saw those changes.
        for (copy, copyModel) in copies { expect(copy, matches: copyModel) }
    }

    @Test(arguments: UInt64(1)...40)
    func equalityIsTheModelsAndSameIndexIgnoresTheOrderOfLiveEvents(seed: UInt64) {
        var earlier: [(PathNode, Model)] = []
        walk(seed: seed, steps: 120) { count, node, model in
            // The same content built another way (from nothing, so leaves where the node may
            // hold branches that lost their second event) is equal.
            let rebuilt = self.node(from: model)
            #expect(rebuilt == node)
            #expect(rebuilt.hasSameIndex(as: node))
            let reversed = self.node(from: model, order: { $0.reversed() })
            #expect((reversed == node) == (Self.reversed(model) == model))
            #expect(reversed.hasSameIndex(as: node))
            for (other, otherModel) in earlier {
                #expect((other == node) == (otherModel == model))
                #expect(other.hasSameIndex(as: node) == otherModel.hasSameIndex(as: model))
            }
            if count % 11 == 0 { earlier.append((node, model)) }
        }
    }
}
