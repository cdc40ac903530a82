import Glibc

/// The monotonic clock every figure is measured with, and the process's resident memory.
enum BenchClock {
    /// Nanoseconds on CLOCK_MONOTONIC (never jumps with wall-clock changes).
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds from `start` (a `now()` reading) until now.
    static func seconds(since start: UInt64) -> Double {
        Double(now() &- start) / 1e9
    }

    /// Runs `body` and returns its result with the seconds it took.
    static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let start = now()
        let result = try body()
        return (result, seconds(since: start))
    }

    /// Nanoseconds of CPU this thread has used (user and system), on CLOCK_THREAD_CPUTIME_ID.
    static func threadCPU() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// `measure`, with the CPU seconds this thread used as well: on a machine shared with other
    /// work, the wall time of a run swings with the load while its CPU time does not, so two
    /// figures of one run (a write and the floor) are compared on both.
    static func measureWithCPU<T>(_ body: () throws -> T) rethrows -> (
        result: T, seconds: Double, cpuSeconds: Double
    ) {
        let (start, cpuStart) = (now(), threadCPU())
        let result = try body()
        return (result, seconds(since: start), Double(threadCPU() &- cpuStart) / 1e9)
    }

    /// Minor page faults this thread has taken (first touches of fresh pages, mostly): what a
    /// step costs beyond its instructions, counted the same under any load.
    static func threadMinorFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1, Linux): left out of Swift's Glibc module, which sees no _GNU_SOURCE.
        getrusage(1, &usage)
        return usage.ru_minflt
    }

    /// VmRSS from /proc/self/status in MB (10^6 bytes), or nil where there is no such file.
    static func residentMegabytes() -> Double? {
        statusMegabytes("VmRSS:")
    }

    /// RssAnon (the resident part of the heap and other private memory, without the pages of
    /// the binary and its libraries, which are RssFile) in MB.
    static func anonymousResidentMegabytes() -> Double? {
        statusMegabytes("RssAnon:")
    }

    /// VmHWM (the most this process has been resident) in MB.
    static func peakResidentMegabytes() -> Double? {
        statusMegabytes("VmHWM:")
    }

    /// What malloc holds, in MB: the bytes of the blocks in use, and the bytes of freed blocks
    /// it keeps in its heap rather than giving back (they count in VmRSS once touched). Read
    /// from glibc's `malloc_info` report (the totals after the last arena), since `malloc.h`,
    /// which declares `mallinfo2`, is not part of Swift's Glibc module; nil without it.
    static func heapMegabytes() -> (inUse: Double, freeKept: Double)? {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        let report = String(cString: buffer)
        guard let totals = report.split(separator: "</heap>", omittingEmptySubsequences: false).last else {
            return nil
        }
        var sizes: [String: Double] = [:]
        for line in totals.split(separator: "\n") {
            guard
                let type = line.split(separator: "type=\"").dropFirst().first?.prefix(while: { $0 != "\"" }),
                let digits = line.split(separator: "size=\"").dropFirst().first?.prefix(while: \.isNumber),
                let value = Double(String(digits))
            else { continue }
            sizes[(line.contains("<system") ? "system." : "") + type] = value
        }
        guard let current = sizes["system.current"], let rest = sizes["rest"] else { return nil }
        let free = rest + (sizes["fast"] ?? 0)
        return ((current - free + (sizes["mmap"] ?? 0)) / 1e6, free / 1e6)
    }

    /// A size line of /proc/self/status (`VmRSS:`, `VmHWM:`) in MB.
    private static func statusMegabytes(_ field: String) -> Double? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix(field) else { continue }
            let digits = line.dropFirst(field.count).filter(\.isNumber)
            guard let kilobytes = Double(String(digits)) else { return nil }
            return kilobytes * 1024 / 1e6
        }
        return nil
    }
}

/// Order statistics of a sample of durations.
struct DurationSample {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    var count: Int { values.count }

    /// The nearest-rank percentile (p in 0...100); 0 for an empty sample.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(50) }
    var mean: Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
}
