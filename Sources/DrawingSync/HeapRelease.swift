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

    /// Sets malloc up for a process that opens a drawing, where it gives its free heap back
    /// itself (`release()`, `IdleHeapRelease`): blocks up to 32 MB come from the heap rather than
    /// a mapping of their own, the heap is not shrunk each time its top is freed, and it grows 16
    /// MB at a time. A mapped block is given back when freed, and the next one of its size is
    /// mapped again, and a shrunk heap grows again: each time the kernel clears every page anew
    /// (about a fifth of the pages a cold open of 100,000 strokes touched; at a slow moment of
    /// this shared machine, clearing fresh pages was a fifth of the replica's open). Resident size
    /// once released is the same (`drawing.rss`). False where there is no `mallopt` (not glibc).
    @discardableResult
    public static func configure() -> Bool {
        #if canImport(Glibc)
            typealias Option = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return false }
            let mallopt = unsafeBitCast(symbol, to: Option.self)
            // malloc.h's M_TRIM_THRESHOLD, M_TOP_PAD and M_MMAP_THRESHOLD.
            let settings: [(option: Int32, value: Int32)] = [(-1, 256 << 20), (-2, 16 << 20), (-3, 32 << 20)]
            // Every setting is given, whether or not one before it was taken.
            return settings.map { mallopt($0.option, $0.value) == 1 }.allSatisfy { $0 }
        #else
            return false
        #endif
    }

    /// Asks malloc to give back every free page it can; false where there is no `malloc_trim`
    /// (not glibc). `malloc.h` is not part of Swift's Glibc module, so it is found by name.
    @discardableResult
    public static func release() -> Bool {
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
