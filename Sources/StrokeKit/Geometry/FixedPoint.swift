/// The 1/16-cell grid every stored coordinate and length lies on.
///
/// Quantising when a value enters the model (not only when it is encoded) makes a decoded group
/// equal to the group that was encoded, and makes the encoding exact and deterministic.
public enum FixedPoint {
    /// Fixed-point units per cell.
    public static let unitsPerCell: Double = 16

    /// The largest coordinate magnitude, in cells. Far beyond any drawing, small enough that
    /// products of coordinates stay exact in a `Double`.
    public static let coordinateLimit: Double = 1_048_576

    /// The nearest grid value, clamped to ±`coordinateLimit`; NaN becomes 0.
    public static func quantize(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        let clamped = min(max(value, -coordinateLimit), coordinateLimit)
        // Adding 0 turns -0.0 into 0.0, so equal values also have equal encodings.
        return (clamped * unitsPerCell).rounded(.toNearestOrEven) / unitsPerCell + 0
    }

    /// A length quantised and clamped to `range` (widths and radii).
    public static func quantizeLength(_ value: Double, in range: ClosedRange<Double>) -> Double {
        guard !value.isNaN else { return range.lowerBound }
        return min(max(quantize(value), range.lowerBound), range.upperBound)
    }

    /// The integer number of units of a quantised value (exact).
    static func units(_ value: Double) -> Int64 {
        Int64((value * unitsPerCell).rounded(.toNearestOrEven))
    }

    /// A range of quantised lengths in units, for checking decoded widths and radii.
    static func units(_ range: ClosedRange<Double>) -> ClosedRange<Int64> {
        units(range.lowerBound)...units(range.upperBound)
    }

    /// The value of a number of units (exact for anything `units` returns).
    static func value(units: Int64) -> Double {
        Double(units) / unitsPerCell
    }

    /// The largest coordinate magnitude in units.
    static let coordinateUnitLimit = Int64(coordinateLimit * unitsPerCell)
}
