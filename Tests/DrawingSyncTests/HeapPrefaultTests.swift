import Testing

@testable import DrawingSync

#if canImport(Glibc)
    import Dispatch
    import Glibc
#endif

/// Before a large drawing's replica is read, the heap is grown by what the open will fill and its
/// pages are made on another thread (`HeapRelease.prefault`). What that saves is measured
/// (`drawing.cold_open`), not asserted; these say how much is grown, that the other thread makes
/// every page of what it is given, and that it changes nothing in them.
@Suite struct HeapPrefaultTests {
    @Test func theHeapGrownFollowsTheStoreUpToItsLimit() {
        #expect(HeapRelease.prefaultBytes(forStoreBytes: 0) == 0)
        #expect(HeapRelease.prefaultBytes(forStoreBytes: HeapRelease.smallestPrefaultedStore - 1) == 0)
        #expect(
            HeapRelease.prefaultBytes(forStoreBytes: 13 << 20) == (13 << 20) * HeapRelease.heapPerStoreByte)
        #expect(HeapRelease.prefaultBytes(forStoreBytes: 1 << 30) == HeapRelease.largestPrefault)
        #expect(HeapRelease.prefaultBytes(forStoreBytes: .max) == HeapRelease.largestPrefault)
        // Under the trim threshold `configure()` sets (256 MB), so malloc keeps what was grown.
        #expect(HeapRelease.largestPrefault < 256 << 20)
    }

    #if canImport(Glibc)
        @Test func theOtherThreadMakesEveryPageAndWritesNothing() throws {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let pages = 64
            let mapped = try #require(
                mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            try #require(mapped != MAP_FAILED)
            defer { munmap(mapped, pages * page) }
            // A kernel before 5.14 refuses MADV_POPULATE_WRITE, and the thread makes nothing.
            let populates = madvise(mapped + (pages - 1) * page, page, 23) == 0
            #expect(madvise(mapped + (pages - 1) * page, page, MADV_DONTNEED) == 0)
            // Two pages written before (made already, and holding what must stay).
            let bytes = mapped.assumingMemoryBound(to: UInt8.self)
            bytes[3 * page + 17] = 0xA5
            bytes[40 * page] = 0x5A
            #expect(Self.residentPages(mapped, pages: pages, page: page) == 2)

            // From inside the first page to inside the last: only the whole pages between are given.
            let range = try #require(
                PagePopulator.PageRange(wholePagesOf: mapped + 1, length: pages * page - 2))
            #expect(range.start == UInt(bitPattern: mapped) + UInt(page))
            #expect(range.length == (pages - 2) * page)
            PagePopulator.start([range]).wait()

            // Every page of the range made; the first and the last, outside it, are still not.
            #expect(Self.residentPages(mapped, pages: pages, page: page) == (populates ? pages - 2 : 2))
            #expect(bytes[3 * page + 17] == 0xA5)
            #expect(bytes[40 * page] == 0x5A)
            #expect(
                (0..<pages * page).allSatisfy { [3 * page + 17, 40 * page].contains($0) || bytes[$0] == 0 })
        }

        @Test func lessThanAPageIsNoRange() throws {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let mapped = try #require(
                mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            try #require(mapped != MAP_FAILED)
            defer { munmap(mapped, 2 * page) }
            #expect(PagePopulator.PageRange(wholePagesOf: mapped + 1, length: page) == nil)
            #expect(PagePopulator.PageRange(wholePagesOf: mapped, length: page)?.length == page)
        }

        @Test func aLargeStoreGrowsTheHeapAndASmallOneDoesNot() {
            #expect(HeapRelease.prefault(forStoreBytes: 100_000) == 0)
            // 4 MB of store: 28 MB asked for, grown in whole 8 MB blocks.
            let grown = HeapRelease.prefault(forStoreBytes: 4 << 20)
            #expect(grown > 16 << 20 && grown <= 24 << 20)
        }

        /// How many of the `pages` pages from `base` are resident (`mincore`).
        private static func residentPages(_ base: UnsafeMutableRawPointer, pages: Int, page: Int) -> Int {
            var vector = [UInt8](repeating: 0, count: pages)
            guard mincore(base, pages * page, &vector) == 0 else { return -1 }
            return vector.filter { $0 & 1 != 0 }.count
        }
    #endif
}
