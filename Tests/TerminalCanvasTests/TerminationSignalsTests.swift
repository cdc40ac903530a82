import Testing

@testable import TerminalCanvas

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.serialized) struct TerminationSignalsTests {
    @Test func aCaughtSignalMakesTheDescriptorReadableAndIsTakenOnce() throws {
        let signals = try TerminationSignals()
        #expect(signals.takeSignals().isEmpty)
        // Test runner threads block SIGHUP; unblocked, a raised signal is handled before raise returns.
        var unblock = sigset_t()
        var previousMask = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        #expect(raise(SIGHUP) == 0)
        var descriptor = pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 0) == 1)
        #expect(signals.takeSignals() == [SIGHUP])
        #expect(signals.takeSignals().isEmpty)
    }

    @Test func theHandlersAreRemovedWithTheInstance() throws {
        var previous = sigaction()
        _ = sigaction(SIGTERM, nil, &previous)
        do {
            let signals = try TerminationSignals()
            var installed = sigaction()
            _ = sigaction(SIGTERM, nil, &installed)
            #expect(installed.__sigaction_handler.sa_handler != nil)
            _ = signals
        }
        var after = sigaction()
        _ = sigaction(SIGTERM, nil, &after)
        #expect(
            unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self))
    }
}
