import StrokeKit
import StrokeKitTestSupport
import TestSupport
import Testing

/// The table files, replaces and removes values as a dictionary from key to value does, whatever
/// the order of the steps (a removal moves the last value into the gap, which is where it could
/// go wrong), and compares equal exactly when a dictionary of the same values would.
@Suite struct StrokeKeyTableTests {
    struct Form: StrokeKeyed, Equatable, Sendable {
        var key: StrokeKey
        var payload: Int
    }

    static let keys =
        (0..<200).map { Fixtures.key(Fixtures.baseMilliseconds + Int64($0 / 2)) }
        + (0..<20).map { StrokeKey(creationMilliseconds: Fixtures.baseMilliseconds, peerSuffix: "z\($0)")! }

    static func check(_ table: StrokeKeyTable<Form>, _ model: [StrokeKey: Form], _ comment: Comment) {
        #expect(table.count == model.count, comment)
        #expect(table.isEmpty == model.isEmpty, comment)
        for key in keys { #expect(table[key] == model[key], comment) }
        #expect(Set(table.keys) == Set(model.keys), comment)
        #expect(table.values.count == model.count, comment)
        var seen = 0
        for (key, value) in table {
            #expect(model[key] == value, comment)
            seen += 1
        }
        #expect(seen == model.count, comment)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func answersAsADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = StrokeKeyTable<Form>()
        var model: [StrokeKey: Form] = [:]
        if seed % 2 == 0 { table.reserveCapacity(150) }
        for step in 0..<3_000 {
            let key = Self.keys.randomElement(using: &random)!
            let form = Form(key: key, payload: step)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key))
            case 1:
                table[key] = nil
                model[key] = nil
            case 2:
                #expect(table.updateValue(form, forKey: key) == model.updateValue(form, forKey: key))
            default:
                table[key] = form
                model[key] = form
            }
            if step % 50 == 0 { Self.check(table, model, "seed \(seed) step \(step)") }
        }
        Self.check(table, model, "seed \(seed) at the end")
    }

    @Test func equalWhenTheyFileEqualValuesInAnyOrder() {
        let forms = Set(Self.keys).sorted().prefix(30).enumerated().map { Form(key: $1, payload: $0) }
        var forward = StrokeKeyTable<Form>()
        for form in forms { forward[form.key] = form }
        var backward = StrokeKeyTable<Form>()
        for form in forms.reversed() { backward[form.key] = form }
        #expect(forward == backward)
        var changed = backward
        changed[forms[3].key] = Form(key: forms[3].key, payload: -1)
        #expect(forward != changed)
        var fewer = backward
        fewer[forms[3].key] = nil
        #expect(forward != fewer)
        fewer[forms[3].key] = forms[3]
        #expect(forward == fewer)
    }
}
