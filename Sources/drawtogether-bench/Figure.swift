import FoundationEssentials
import Glibc
import JSONText

/// One measured number: what it is, its value and unit, and labelled details (sample size, notes).
struct Figure {
    /// A detail value: a number or a string, as JSON prints it.
    enum Detail {
        case number(Double)
        case text(String)
    }

    var name: String
    var value: Double
    var unit: String
    var details: [(key: String, value: Detail)] = []

    init(_ name: String, _ value: Double, _ unit: String, _ details: [(key: String, value: Detail)] = []) {
        self.name = name
        self.value = value
        self.unit = unit
        self.details = details
    }

    /// `{"figure": ..., "value": ..., "unit": ..., details...}` on one line.
    var jsonLine: String {
        var fields = [
            "\"figure\": \(JSONString.quoted(name))", "\"value\": \(Self.number(value))",
            "\"unit\": \(JSONString.quoted(unit))",
        ]
        for (key, detail) in details {
            switch detail {
            case .number(let number): fields.append("\(JSONString.quoted(key)): \(Self.number(number))")
            case .text(let text): fields.append("\(JSONString.quoted(key)): \(JSONString.quoted(text))")
            }
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The value as the table shows it: integers plainly, others to four significant digits.
    var displayValue: String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return Self.significant(value, digits: 4)
    }

    var noteText: String {
        details.map { key, detail in
            switch detail {
            case .number(let number): "\(key)=\(Self.number(number))"
            case .text(let text): "\(key): \(text)"
            }
        }.joined(separator: "; ")
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return significant(value, digits: 6)
    }

    /// `value` with `digits` significant digits (`%g`: JSON reads its exponent form too).
    static func significant(_ value: Double, digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(digits)g", $0) }
        return String(
            decoding: buffer.prefix(max(0, min(Int(count), buffer.count - 1))).map { UInt8(bitPattern: $0) },
            as: UTF8.self)
    }

}
