extension JSONReader {
    /// Bounds on what the reader accepts, so a hostile text cannot exhaust memory or stack.
    public struct Limits: Hashable, Sendable {
        /// The longest text in UTF-8 bytes.
        public var maximumBytes: Int
        /// The deepest nesting of arrays and objects; keep it in the hundreds at most, since
        /// reading (and whatever walks the nodes) recurses once per level.
        public var maximumDepth: Int

        public init(maximumBytes: Int, maximumDepth: Int) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }
    }
}
