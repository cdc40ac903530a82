#if canImport(Glibc)
    import Glibc
#endif

/// Gives the heap pages malloc keeps free back to the system, at the few moments a great deal
/// was just freed: when a staged open has decoded its last slice (the pending entries and the
/// cache's map go), after a flush that wrote very many entries (its statement, events and
/// delivery go), and after a whole open of a large drawing (the maps of its first update go).
/// glibc keeps freed blocks for reuse, so without this a process that flushed a whole
/// 100,000-stroke drawing once stays some 25 MB larger for as long as it runs (`drawing.rss`).
///
/// Never on a hot path: a trim walks the heap (milliseconds at 100,000 strokes), so it is not
/// asked for per frame, per slice or per small flush.
public enum HeapRelease {
    /// A flush that sets or unsets at least this many entries, or a whole open of at least this
    /// many strokes, is followed by a release. A user's flush touches a few strokes; this many
    /// comes from a clear, a paste or a first flush of a whole drawing.
    public static let largeCount = 4_096

    /// Whether a flush of `count` entries (or a whole open of `count` strokes) frees enough to be
    /// worth a release.
    static func follows(_ count: Int) -> Bool {
        count >= largeCount
    }

    /// Asks malloc to give back every free page it can; false where there is no `malloc_trim`
    /// (not glibc). `malloc.h` is not part of Swift's Glibc module, so it is found by name.
    @discardableResult
    static func release() -> Bool {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return false }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
            return true
        #else
            return false
        #endif
    }
}
