/// The part of the canvas a screen shows: the canvas cell at its top-left corner and its size in
/// cells. Moving the origin pans a drawing bigger than the terminal.
public typealias Viewport = CellRect
