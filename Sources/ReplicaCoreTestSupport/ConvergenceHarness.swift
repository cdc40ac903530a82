import ReplicaCore
import TestSupport

/// A replica as the convergence harness drives it: the in-memory core or a SQLite-backed store.
public protocol ConvergenceNode {
    func fields(_ id: String) throws -> [String: DocumentValue]?
    mutating func run(_ statement: DQLStatement, _ arguments: [String: DocumentValue], wall: Int64) throws
    func versions(of collection: String) throws -> DocumentVersions
    func changes(in collection: String, since: DocumentVersions) throws -> ReplicaDelta
    mutating func merge(_ delta: ReplicaDelta, wall: Int64) throws -> ApplyOutcome
    /// Every document, to compare replicas at the end.
    func snapshot() throws -> [DocumentKey: DocumentState]
}

extension ReplicaState: ConvergenceNode {
    public mutating func run(_ statement: DQLStatement, _ arguments: [String: DocumentValue], wall: Int64)
        throws
    {
        _ = try execute(statement, arguments: arguments, wall: wall)
    }
    public func versions(of collection: String) throws -> DocumentVersions {
        versions(collection: collection, documentID: nil)
    }
    public func changes(in collection: String, since: DocumentVersions) throws -> ReplicaDelta {
        changes(collection: collection, documentID: nil, since: since)
    }
    public mutating func merge(_ delta: ReplicaDelta, wall: Int64) throws -> ApplyOutcome {
        try apply(delta, wall: wall)
    }
    public func snapshot() throws -> [DocumentKey: DocumentState] { allDocuments }
}

/// Several replicas writing at random while their deltas are delayed, duplicated, reordered and
/// sometimes refused; `settle()` then runs anti-entropy until nothing changes.
public struct ConvergenceHarness<Node: ConvergenceNode> {
    public var nodes: [Node]
    public var rng: SplitMix64
    public var walls: [Int64]
    public var queue: [(to: Int, delta: ReplicaDelta)] = []
    public var refusals = 0
    public let collection = "drawings"

    public init(nodes: [Node], seed: UInt64) {
        self.nodes = nodes
        rng = SplitMix64(seed: seed)
        // Skewed clocks, one of them an hour ahead.
        walls = nodes.indices.map { $0 == 1 ? 3_600_000 : Int64($0) * 7 }
    }

    public mutating func run(operations: Int, workload: RandomWorkload) throws {
        try run(operations: operations, workload: workload) { _ in }
    }

    /// `run`, with `between` called after each operation (to compact, or to take a replica
    /// offline); it must not draw from `rng`, so the same seed gives the same operations.
    public mutating func run(
        operations: Int, workload: RandomWorkload, between: (inout ConvergenceHarness) throws -> Void
    ) throws {
        for _ in 0..<operations {
            let index = Int(rng.next() % UInt64(nodes.count))
            walls[index] += Int64(rng.next() % 3)  // often the same millisecond
            let before = try nodes[index].versions(of: collection)
            try workload.step(&nodes[index], wall: walls[index], &rng)
            let delta = try nodes[index].changes(in: collection, since: before)
            if !delta.isEmpty {
                for target in nodes.indices where target != index { queue.append((target, delta)) }
            }
            try deliverSome()
            if rng.next() % 200 == 0 {
                try antiEntropy(from: Int(rng.next() % UInt64(nodes.count)), to: index)
            }
            try between(&self)
        }
    }

    /// Delivers a random queued delta or two; one in five stays queued to be delivered again.
    public mutating func deliverSome() throws {
        let count = queue.count > 60 ? 4 : Int(rng.next() % 3)
        for _ in 0..<count where !queue.isEmpty {
            let pick = Int(rng.next() % UInt64(queue.count))
            let (target, delta) = queue[pick]
            if rng.next() % 5 != 0 { queue.remove(at: pick) }
            if case .refused = try nodes[target].merge(delta, wall: walls[target]) { refusals += 1 }
        }
    }

    public mutating func antiEntropy(from source: Int, to target: Int) throws {
        guard source != target else { return }
        let delta = try nodes[source].changes(
            in: collection, since: try nodes[target].versions(of: collection))
        _ = try nodes[target].merge(delta, wall: walls[target])
    }

    /// Pairwise anti-entropy until a whole round changes nothing.
    public mutating func settle() throws {
        queue.removeAll()
        var changed = true
        while changed {
            changed = false
            for source in nodes.indices {
                for target in nodes.indices where source != target {
                    let delta = try nodes[source].changes(
                        in: collection, since: try nodes[target].versions(of: collection))
                    if case .applied(let new, _) = try nodes[target].merge(delta, wall: walls[target]),
                        new > 0
                    {
                        changed = true
                    }
                }
            }
        }
    }
}
