/// The erased parts of a stroke: the union of the eraser sweeps that touched it.
///
/// A mask hides ink without changing the path, which is how a graze along the edge of a wide
/// stroke is kept; cuts change the path instead (see `MaskEraser`).
public struct StrokeMask: Hashable, Sendable {
    public private(set) var sweeps: [MaskSweep]

    public static let none = StrokeMask(sweeps: [])

    public init(sweeps: [MaskSweep]) {
        self.sweeps = sweeps
    }

    public var isEmpty: Bool { sweeps.isEmpty }

    /// The mask with more sweeps added on top.
    public func adding(_ more: [MaskSweep]) -> StrokeMask {
        StrokeMask(sweeps: sweeps + more)
    }
}
