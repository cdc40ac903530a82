/// One fuzz target: a function from arbitrary bytes to "fine" or a trap.
///
/// `check` must return normally for every input the module under test handles correctly, and
/// trap (through `expect`, or by the module crashing) otherwise. The same function backs both
/// builds of a target: libFuzzer's `LLVMFuzzerTestOneInput` in fuzz builds (`fuzz/run`), and the
/// corpus replayer `main` in plain builds (`FuzzTarget+Replay.swift`), which is what CI runs.
public protocol FuzzTarget {
    static func check(_ input: [UInt8])
}

extension FuzzTarget {
    /// The body of a target's `LLVMFuzzerTestOneInput`: copies the input and checks it.
    public static func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        check(Array(UnsafeBufferPointer(start: data, count: size)))
        // libFuzzer reserves non-zero results; 0 means "input processed".
        return 0
    }

    /// Traps with `message` when a property of the module does not hold.
    ///
    /// `fatalError` rather than `precondition`, because it keeps its message in optimized builds
    /// and the message is what the crash report in `fuzz/run` shows.
    public static func expect(
        _ condition: Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        guard !condition else { return }
        fatalError("\(Self.self): \(message())", file: file, line: line)
    }
}
