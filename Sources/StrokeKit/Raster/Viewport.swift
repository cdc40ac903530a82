/// The part of the canvas a screen shows: the canvas cell at its top-left corner and its size in
/// cells. Moving the origin pans a drawing bigger than the terminal.
public struct Viewport: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
}
