import FuzzSupport
import JSONText
import ReplicaCore

/// Fuzzes the one JSON reader and writer (JSONText's `JSONReader` and `JSONString`) and
/// ReplicaStore's mapping onto them (`DocumentValue(json:)`, `jsonString()`), with the input read
/// as UTF-8 text.
///
/// Properties: any text either parses or throws a `JSONSyntaxError` whose offset lies inside the
/// text (or just past its end) and whose `JSONError` message can be built; every string the
/// reader reads re-quotes to a literal that reads back to the same string; a parsed value prints
/// (compact and pretty) as JSON that parses back to an equal value, and printing is a fixed point
/// (print, parse, print gives the same text).
enum FuzzJSON: FuzzTarget {
    static let limits = JSONReader.Limits(
        maximumBytes: DocumentValue.defaultJSONSizeLimit, maximumDepth: DocumentValue.defaultJSONDepthLimit)

    static func check(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        do {
            checkStrings(in: try JSONReader.parse(text, limits: limits))
        } catch {
            let offset = error.offset ?? 0
            expect(offset >= 0 && offset <= text.utf8.count, "\(error) lies outside the text")
        }
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

    /// Every key and string value, quoted by `JSONString`, reads back as itself.
    static func checkStrings(in node: JSONNode) {
        func roundTrips(_ string: String) {
            let quoted = JSONString.quoted(string)
            let back = try? JSONReader.parse(quoted, limits: limits).value
            expect(back == .string(string), "\(quoted) does not read back as the string it quotes")
        }
        switch node.value {
        case .string(let string): roundTrips(string)
        case .array(let elements): elements.forEach(checkStrings)
        case .object(let members):
            for member in members {
                roundTrips(member.key)
                checkStrings(in: member.value)
            }
        case .number, .bool, .null: break
        }
    }
}

#if !FUZZING
    @main extension FuzzJSON {}
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzJSON.testOneInput(data, size)
}
