import EventRuntime
import Foundation
import Glibc
import MonotonicTime
import Testing

/// The real loop, waiting by `epoll(7)` and by `poll(2)`: each test runs against both, and both
/// behave the same — timers by the injected clock and in order, descriptors reported readable
/// and writable as the kernel says, watches replaced and forgotten, work from other threads.
@Suite struct PollEventLoopTests {
    @Test(arguments: DescriptorReadiness.allCases)
    func aTimerIsDueByTheInjectedClockNotTheSystemOne(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(
            clock: MonotonicClock { SyncInstant(milliseconds: 5_000) }, readiness: readiness)
        var fired: [Int64] = []
        loop.schedule(at: SyncInstant(milliseconds: 4_999)) { fired.append(loop.now.milliseconds) }
        loop.schedule(at: SyncInstant(milliseconds: 5_001)) { fired.append(-1) }
        loop.runOnce(maximumWait: .zero)
        #expect(fired == [5_000])
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func dueTimersRunInDeadlineOrderAndWhatTheyScheduleForNowWaitsATurn(readiness: DescriptorReadiness)
        throws
    {
        let loop = try PollEventLoop(
            clock: MonotonicClock { SyncInstant(milliseconds: 1_000) }, readiness: readiness)
        var fired: [String] = []
        loop.schedule(at: SyncInstant(milliseconds: 900)) { fired.append("c") }
        loop.schedule(at: SyncInstant(milliseconds: 500)) {
            fired.append("a")
            loop.schedule(at: loop.now) { fired.append("next turn") }
        }
        loop.schedule(at: SyncInstant(milliseconds: 900)) { fired.append("d") }
        loop.schedule(at: SyncInstant(milliseconds: 700)) { fired.append("b") }
        loop.runOnce(maximumWait: .zero)
        #expect(fired == ["a", "b", "c", "d"])
        loop.runOnce(maximumWait: .zero)
        #expect(fired == ["a", "b", "c", "d", "next turn"])
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func aTimerCancelledByAnEarlierOneOfTheSameTurnDoesNotFire(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(
            clock: MonotonicClock { SyncInstant(milliseconds: 1_000) }, readiness: readiness)
        var fired: [String] = []
        var later: EventLoopTimer?
        loop.schedule(at: SyncInstant(milliseconds: 100)) {
            fired.append("first")
            if let later { loop.cancel(later) }
        }
        later = loop.schedule(at: SyncInstant(milliseconds: 200)) { fired.append("cancelled") }
        loop.runOnce(maximumWait: .zero)
        loop.runOnce(maximumWait: .zero)
        #expect(fired == ["first"])
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func aDescriptorIsReadableWhileInputWaitsAndNotOnceForgotten(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let (reader, writer) = try socketPair()
        defer {
            close(reader)
            close(writer)
        }
        var reads = 0
        loop.register(reader) { reads += 1 }
        loop.runOnce(maximumWait: .zero)
        #expect(reads == 0, "nothing to read yet")
        var byte: UInt8 = 7
        #expect(write(writer, &byte, 1) == 1)
        #expect(loop.run(until: { reads == 1 }, timeout: .seconds(10)))
        // Level-triggered, as poll(2): still readable while the byte is unread.
        loop.runOnce(maximumWait: .milliseconds(100))
        #expect(reads == 2)
        #expect(read(reader, &byte, 1) == 1)
        loop.runOnce(maximumWait: .zero)
        #expect(reads == 2)
        #expect(write(writer, &byte, 1) == 1)
        loop.unregister(reader)
        loop.runOnce(maximumWait: .milliseconds(50))
        #expect(reads == 2, "a forgotten descriptor has no callback")
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func writableIsReportedOnlyWhileAskedFor(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let (one, other) = try socketPair()
        defer {
            close(one)
            close(other)
        }
        var events: [String] = []
        loop.setWritable(one) { events.append("not registered") }
        loop.runOnce(maximumWait: .zero)
        #expect(events.isEmpty, "asking for room on a descriptor nobody watches does nothing")
        loop.register(one) { events.append("read") }
        loop.setWritable(one) { events.append("write") }
        #expect(loop.run(until: { events == ["write"] }, timeout: .seconds(10)))
        loop.setWritable(one, nil)
        loop.runOnce(maximumWait: .milliseconds(50))
        #expect(events == ["write"])
        // Registering again replaces the watch, and stops asking for room.
        loop.setWritable(one) { events.append("write again") }
        loop.register(one) { events.append("new read") }
        loop.runOnce(maximumWait: .milliseconds(50))
        #expect(events == ["write"])
        var byte: UInt8 = 1
        #expect(write(other, &byte, 1) == 1)
        #expect(loop.run(until: { events == ["write", "new read"] }, timeout: .seconds(10)))
        loop.unregister(one)
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func aDescriptorNumberReusedAfterACloseIsWatchedAnew(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let (first, firstPeer) = try socketPair()
        var reads: [String] = []
        loop.register(first) { reads.append("old") }
        loop.runOnce(maximumWait: .zero)
        // Closed without being unregistered, and the number taken by the next socket: `dup2`
        // does both at once, so no other thread of the test run can take the number between.
        let second = try reuseNumber(of: first)
        close(firstPeer)
        let secondPeer = second.peer
        defer {
            close(second.descriptor)
            close(secondPeer)
        }
        let reused = second.descriptor
        loop.register(reused) {
            reads.append("new")
            var byte: UInt8 = 0
            _ = read(reused, &byte, 1)
        }
        var byte: UInt8 = 3
        #expect(write(secondPeer, &byte, 1) == 1)
        #expect(loop.run(until: { reads.contains("new") }, timeout: .seconds(10)))
        #expect(!reads.contains("old"))
        loop.unregister(reused)
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func askingForRoomOnANumberReusedWithoutANewRegistrationIsHeard(readiness: DescriptorReadiness)
        throws
    {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let (first, firstPeer) = try socketPair()
        var writes = 0
        loop.register(first) {}
        loop.setWritable(first) { writes += 1 }
        #expect(loop.run(until: { writes > 0 }, timeout: .seconds(10)))
        // As libpq does when it moves to the next address: the socket is closed and another one
        // opened under the same number, and the owner asks for room again, without registering.
        let second = try reuseNumber(of: first)
        close(firstPeer)
        defer {
            close(second.descriptor)
            close(second.peer)
        }
        writes = 0
        loop.setWritable(second.descriptor) { writes += 1 }
        #expect(loop.run(until: { writes > 0 }, timeout: .seconds(10)))
        loop.unregister(second.descriptor)
    }

    /// A new socket pair whose first end takes `descriptor`'s number, the old socket closed by
    /// the same call (`dup2`): a number reused, as after a close and the next open, with no
    /// moment in which another thread could take it.
    private func reuseNumber(of descriptor: Int32) throws -> (descriptor: Int32, peer: Int32) {
        let (fresh, peer) = try socketPair()
        guard dup2(fresh, descriptor) == descriptor else {
            close(fresh)
            close(peer)
            throw SocketError(operation: "dup2", code: errno)
        }
        close(fresh)
        return (descriptor, peer)
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func aRegularFileIsAlwaysReadableAsPollReportsIt(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let file = open("/proc/self/stat", O_RDONLY)
        try #require(file >= 0)
        defer { close(file) }
        var reads = 0
        loop.register(file) { reads += 1 }
        loop.runOnce(maximumWait: .seconds(5))
        loop.runOnce(maximumWait: .seconds(5))
        #expect(reads == 2)
        loop.unregister(file)
        loop.runOnce(maximumWait: .zero)
        #expect(reads == 2)
    }

    @Test(arguments: DescriptorReadiness.allCases)
    func workFromAnotherThreadWakesAWaitingLoop(readiness: DescriptorReadiness) throws {
        let loop = try PollEventLoop(clock: .system, readiness: readiness)
        let ran = Flag()
        let start = MonotonicClock.system.now()
        Thread.detachNewThread {
            usleep(100_000)
            loop.execute { ran.isSet = true }
        }
        loop.runOnce(maximumWait: .seconds(30))
        #expect(ran.isSet)
        #expect(MonotonicClock.system.now().since(start) < .seconds(20))
    }

    private func socketPair() throws -> (Int32, Int32) {
        var descriptors: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return (descriptors[0], descriptors[1])
    }
}

/// Set by work handed to the loop from another thread; read on the loop's thread after it ran.
private final class Flag: @unchecked Sendable {
    var isSet = false
}
