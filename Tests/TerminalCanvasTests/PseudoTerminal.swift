import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair for driving `TerminalScreen` in-process: the screen gets the follower
/// side as its terminal, the test writes keystrokes to and reads output from the leader side.
final class PseudoTerminal {
    let leader: Int32
    let follower: Int32
    private(set) var output = ""

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(width: Int, height: Int) throws {
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard leader >= 0 else { throw Failure(description: "cannot open /dev/ptmx (errno \(errno))") }
        // TIOCSPTLCK (unlock) and TIOCGPTN (number): Glibc's grantpt/ptsname are not imported.
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(leader, UInt(0x4004_5431), &unlock) == 0, ioctl(leader, UInt(0x8004_5430), &number) == 0
        else {
            close(leader)
            throw Failure(description: "cannot unlock the pseudo-terminal (errno \(errno))")
        }
        follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else {
            close(leader)
            throw Failure(description: "cannot open /dev/pts/\(number) (errno \(errno))")
        }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(follower, UInt(TIOCSWINSZ), &size)
    }

    deinit {
        close(follower)
        close(leader)
    }

    /// Forgets the output collected so far, so the next wait sees only what comes after.
    func discardOutput() {
        output = ""
    }

    /// Types bytes as if on the keyboard.
    func type(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(leader, $0.baseAddress, $0.count) }
    }

    /// Collects what the program wrote until `condition` holds on everything collected so far,
    /// waiting on the descriptor (never sleeping) up to a generous deadline.
    @discardableResult
    func readOutput(until condition: (String) -> Bool, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(output) {
            guard ContinuousClock.now < deadline else { return false }
            var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(leader, &buffer, buffer.count)
            if count > 0 { output += String(decoding: buffer.prefix(count), as: UTF8.self) }
        }
        return true
    }

    /// Waits until the follower side has input for the program to read.
    func waitForInput(timeout: Int32 = 10_000) -> Bool {
        var descriptor = pollfd(fd: follower, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, timeout) > 0
    }
}
