/// Numbers as exports write them: exact, shortest, never in exponent form for model values.
///
/// Every coordinate, width and radius in the model lies on the 1/16 grid, so its decimal
/// expansion has at most four fractional digits and can be written exactly by integer arithmetic.
/// Writing it by hand (rather than with `description`) keeps `3` from becoming `3.0` and makes the
/// text the same on every platform.
enum ExportNumber {
    /// The value in shortest exact decimal form when it lies on the 1/16 grid (within the
    /// model's range); anything else falls back to Swift's shortest round-trip form.
    static func format(_ value: Double) -> String {
        let units = value * FixedPoint.unitsPerCell
        guard value.isFinite, units.rounded() == units, abs(units) <= 1e15 else {
            return value.isFinite ? value.description : "0"
        }
        let whole = Int64(units)
        let magnitude = whole.magnitude
        var text = whole < 0 ? "-" : ""
        text += String(magnitude / 16)
        let sixteenths = magnitude % 16
        if sixteenths != 0 {
            // n/16 = n * 0.0625: four digits, then drop the zeros at the end.
            var digits = String(sixteenths * 625)
            digits = String(repeating: "0", count: 4 - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
