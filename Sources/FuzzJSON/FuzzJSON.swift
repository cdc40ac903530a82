import FuzzSupport
import ReplicaStore

/// Fuzzes `DocumentValue(json:)` and `jsonString()` with the input read as UTF-8 text.
///
/// Properties: any text either parses or throws a `JSONError` whose message can be built; a parsed
/// value prints (compact and pretty) as JSON that parses back to an equal value, and printing is
/// a fixed point (print, parse, print gives the same text).
enum FuzzJSON: FuzzTarget {
    static func check(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let value: DocumentValue
        do {
            value = try DocumentValue(json: text)
        } catch {
            _ = error.description
            return
        }
        let printed = value.jsonString()
        let reparsed: DocumentValue
        do {
            reparsed = try DocumentValue(json: printed)
        } catch {
            expect(false, "printed \(printed) does not parse: \(error)")
            return
        }
        expect(reparsed == value, "printed \(printed) parses to a different value")
        expect(reparsed.jsonString() == printed, "printing \(printed) again gives \(reparsed.jsonString())")
        let pretty = value.jsonString(pretty: true)
        expect((try? DocumentValue(json: pretty)) == value, "pretty \(pretty) does not parse back")
    }
}

#if !FUZZING
    @main extension FuzzJSON {}
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzJSON.testOneInput(data, size)
}
