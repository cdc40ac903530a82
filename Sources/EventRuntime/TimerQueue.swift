import MonotonicTime

/// A loop's scheduled timers in firing order (deadline, then the order they were scheduled): a
/// binary min-heap of (deadline, sequence) beside the handlers by sequence. A cancelled timer
/// leaves its heap entry behind, skipped when it comes to the top, and the heap is rebuilt from
/// the live timers once it holds more dead entries than live ones. A relay of a thousand
/// sessions re-arms a timer on nearly every event; finding the nearest deadline and the due
/// timers must not cost a look at every timer each turn.
struct TimerQueue {
    typealias Timer = (deadline: SyncInstant, handler: () -> Void)

    private struct Entry {
        var deadline: SyncInstant
        var sequence: UInt64

        func precedes(_ other: Entry) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    private var handlers: [UInt64: Timer] = [:]
    private var heap: [Entry] = []
    /// The sequence of the timer scheduled last.
    private(set) var lastSequence: UInt64 = 0

    /// Timers scheduled and neither fired nor cancelled.
    var count: Int { handlers.count }

    mutating func schedule(at deadline: SyncInstant, _ handler: @escaping () -> Void) -> UInt64 {
        lastSequence += 1
        handlers[lastSequence] = (deadline, handler)
        push(Entry(deadline: deadline, sequence: lastSequence))
        return lastSequence
    }

    /// Forgets a timer (one that fired or was cancelled already is ignored).
    mutating func remove(_ sequence: UInt64) {
        guard handlers.removeValue(forKey: sequence) != nil else { return }
        if heap.count > 64, heap.count > 2 * handlers.count { rebuild() }
    }

    /// The timer that fires next, left in place.
    mutating func earliest() -> (sequence: UInt64, timer: Timer)? {
        dropDeadEntries()
        guard let top = heap.first, let timer = handlers[top.sequence] else { return nil }
        return (top.sequence, timer)
    }

    /// Takes out the timer that fires next if it is due by `now` and was scheduled no later than
    /// `lastScheduled` (a turn runs only the timers that existed when it started).
    mutating func popDue(by now: SyncInstant, scheduledBy lastScheduled: UInt64) -> Timer? {
        guard let (sequence, timer) = earliest(), timer.deadline <= now, sequence <= lastScheduled else {
            return nil
        }
        popTop()
        handlers[sequence] = nil
        return timer
    }

    private mutating func dropDeadEntries() {
        while let top = heap.first, handlers[top.sequence] == nil { popTop() }
    }

    private mutating func rebuild() {
        heap = handlers.map { Entry(deadline: $0.value.deadline, sequence: $0.key) }
        guard heap.count > 1 else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let first = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[first].precedes(heap[parent]) else { return }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
