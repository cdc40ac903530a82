/// StrokeKit: the pure stroke model — points, ink, strokes, masks, the mask eraser, grouping by
/// creation key, the group codec and the cell raster. No I/O and no C libraries.
public enum StrokeKit {}
