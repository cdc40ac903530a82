import DrawingSync
import Testing

/// A drawing's process sets malloc up before it loads anything (`HeapRelease.configure`): glibc
/// takes each of the three settings. (What they change is measured, not asserted: the bench's
/// cold open, `drawing.cold_open`, runs with them as the app does.)
@Suite struct HeapReleaseConfigureTests {
    @Test func mallocTakesEverySetting() {
        #if canImport(Glibc)
            #expect(HeapRelease.configure())
            // Set again (the app's open and a test both may): still taken.
            #expect(HeapRelease.configure())
        #else
            #expect(!HeapRelease.configure())
        #endif
    }
}
