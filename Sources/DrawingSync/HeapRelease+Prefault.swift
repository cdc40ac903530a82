#if canImport(Glibc)
    import Dispatch
    import Glibc
#endif

/// The heap a large open will fill, grown before it starts and its pages made on the other core.
///
/// A cold open of 100,000 strokes fills some 100 MB of heap the process never had, and the kernel
/// clears each fresh page as the open first writes it: at the slow moments of a shared machine that
/// was a fifth of the replica's open. Here the heap is grown by what the open will take (blocks
/// malloc keeps once freed, under the thresholds `configure()` sets), and another thread has the
/// kernel make those pages (`MADV_POPULATE_WRITE`), which leaves their contents alone, so it can
/// run while this thread already allocates from them. The open then finds them made.
extension HeapRelease {
    /// Heap a drawing's open holds for each byte of its store file: a store of 100,000 strokes
    /// (13.3 MB) holds about 100 MB of heap once opened and decoded for its first frame.
    static let heapPerStoreByte = 7
    /// The most grown ahead: below the trim threshold `configure()` sets, so the heap keeps it.
    static let largestPrefault = 192 << 20
    /// Stores smaller than this open in a few milliseconds; nothing is grown for them.
    static let smallestPrefaultedStore = 1 << 20
    /// The heap is grown in blocks this large: under the mapping threshold, so from the heap.
    static let prefaultBlock = 8 << 20

    /// How much heap is grown ahead for a store file of `storeBytes`; 0 for a small one.
    static func prefaultBytes(forStoreBytes storeBytes: Int) -> Int {
        guard storeBytes >= smallestPrefaultedStore else { return 0 }
        let (product, overflow) = storeBytes.multipliedReportingOverflow(by: heapPerStoreByte)
        return overflow ? largestPrefault : min(product, largestPrefault)
    }

    /// Sets malloc up (`configure()`) and, for a store file of `storeBytes` (the replica the
    /// process is about to open), grows the heap by what its open will take and has its pages
    /// made on another thread. Returns how many bytes were grown; 0 when nothing was (a small
    /// store, or no glibc).
    @discardableResult
    public static func prefault(forStoreBytes storeBytes: Int) -> Int {
        #if canImport(Glibc)
            guard configure() else { return 0 }
            let ranges = growHeap(by: prefaultBytes(forStoreBytes: storeBytes))
            guard !ranges.isEmpty else { return 0 }
            _ = PagePopulator.start(ranges)
            return ranges.reduce(0) { $0 + $1.length }
        #else
            return 0
        #endif
    }

    #if canImport(Glibc)
        /// Allocates `bytes` in blocks and frees them again: the heap keeps them (under the trim
        /// threshold) for the allocations that follow. Returns the whole pages of each block.
        static func growHeap(by bytes: Int) -> [PagePopulator.PageRange] {
            var blocks: [UnsafeMutableRawPointer] = []
            for _ in 0..<(bytes / prefaultBlock) {
                guard let block = malloc(prefaultBlock) else { break }
                blocks.append(block)
            }
            let ranges = blocks.compactMap {
                PagePopulator.PageRange(wholePagesOf: $0, length: prefaultBlock)
            }
            for block in blocks { free(block) }
            return ranges
        }
    #endif
}

#if canImport(Glibc)
    /// Has the kernel make pages on a thread of its own, without changing what they hold.
    enum PagePopulator {
        /// The whole pages of a span of memory, by address.
        struct PageRange: Sendable, Equatable {
            let start: UInt
            let length: Int

            /// The whole pages inside `length` bytes from `base`; nil when there is none.
            init?(wholePagesOf base: UnsafeMutableRawPointer, length: Int) {
                let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
                let first = (UInt(bitPattern: base) + page - 1) & ~(page - 1)
                let end = (UInt(bitPattern: base) + UInt(length)) & ~(page - 1)
                guard end > first else { return nil }
                start = first
                self.length = Int(end - first)
            }
        }

        /// Populates `ranges` on one of Dispatch's threads (as the replica writes a received
        /// block beside its merge); the group says when it is done.
        static func start(_ ranges: [PageRange]) -> DispatchGroup {
            let done = DispatchGroup()
            DispatchQueue.global(qos: .userInitiated).async(group: done) {
                for range in ranges {
                    // MADV_POPULATE_WRITE (Linux 5.14): the pages are made present and writable,
                    // as a write would make them, but nothing is written. An older kernel
                    // refuses it, and nothing is done.
                    _ = madvise(UnsafeMutableRawPointer(bitPattern: range.start), range.length, 23)
                }
            }
            return done
        }
    }
#endif
