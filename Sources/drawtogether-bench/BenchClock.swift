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

    /// VmRSS from /proc/self/status in MB (10^6 bytes), or nil where there is no such file.
    static func residentMegabytes() -> Double? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix("VmRSS:") else { continue }
            let digits = line.dropFirst(6).filter(\.isNumber)
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
