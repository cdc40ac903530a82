import ReplicaCore
import TestSupport

/// Random statements on a few documents of `drawings`, with small value domains so that equal
/// values (UPDATE_LOCAL_DIFF no-ops), same-key conflicts and type changes all happen often.
public struct RandomWorkload {
    public enum Scope: Sendable {
        /// Only one scalar field: a last-write-wins register.
        case register
        /// Only entries of the `strokes` map.
        case map
        /// Everything, including DELETE and type changes.
        case document
    }

    public var scope: Scope
    public var documentIDs = ["d0", "d1", "d2"]
    public var keys = (0..<8).map { "k\($0)" }

    public init(scope: Scope) {
        self.scope = scope
    }

    public func randomValue(_ rng: inout SplitMix64) -> DocumentValue {
        switch rng.next() % 4 {
        case 0: return .number(Double(rng.next() % 4))
        case 1: return .bool(rng.next() % 2 == 0)
        default: return .string("v\(rng.next() % 5)")
        }
    }

    public func randomStrokes(_ rng: inout SplitMix64) -> DocumentValue {
        var strokes: [String: DocumentValue] = [:]
        for key in keys where rng.next() % 3 == 0 { strokes[key] = randomValue(&rng) }
        return .object(strokes)
    }

    /// Runs one random statement on `replica`; returns the document it targeted.
    @discardableResult
    public func step<Node: ConvergenceNode>(_ replica: inout Node, wall: Int64, _ rng: inout SplitMix64)
        throws
        -> String
    {
        let id = scope == .document ? documentIDs[Int(rng.next() % UInt64(documentIDs.count))] : "d0"
        let idArgument: [String: DocumentValue] = ["id": .string(id)]
        let key = keys[Int(rng.next() % UInt64(keys.count))]
        if try replica.fields(id) == nil {
            let doc: DocumentValue = .object(["_id": .string(id), "strokes": randomStrokes(&rng)])
            try replica.run(Statements.insert(.updateLocalDiff), ["doc": doc], wall: wall)
            return id
        }
        let roll = rng.next() % 100
        let statement: DQLStatement
        var arguments = idArgument
        switch scope {
        case .register:
            statement = Statements.set(["name"])
            arguments["value"] = randomValue(&rng)
        case .map, .document:
            switch roll {
            case 0..<35:
                statement = Statements.set(["strokes", key])
                arguments["value"] = randomValue(&rng)
            case 35..<55:
                statement = Statements.insert(.updateLocalDiff)
                arguments = ["doc": .object(["_id": .string(id), "strokes": randomStrokes(&rng)])]
            case 55..<75:
                statement = Statements.unset([["strokes", key]])
            case 75..<82:
                statement = Statements.insert(.update)
                arguments = [
                    "doc": .object([
                        "_id": .string(id), "strokes": randomStrokes(&rng), "name": randomValue(&rng),
                    ])
                ]
            case 82..<90 where scope == .document:
                statement = Statements.set(["name"])
                arguments["value"] = randomValue(&rng)
            case 90..<93 where scope == .document:
                statement = Statements.delete()
            case 93..<96 where scope == .document:
                // Type changes: a register where a map was, and a map under a register.
                statement = Statements.set(rng.next() % 2 == 0 ? ["strokes"] : ["name", "first"])
                arguments["value"] = randomValue(&rng)
            case 96..<100 where scope == .document:
                statement = Statements.unset([["strokes"]])
            default:
                statement = Statements.set(["strokes", key])
                arguments["value"] = randomValue(&rng)
            }
        }
        try replica.run(statement, arguments, wall: wall)
        return id
    }
}
