import Foundation
import TestSupport
import Testing

@Suite struct TemporaryDirectoryTests {
    @Test func isRemovedWhenReleased() throws {
        var directory: TemporaryDirectory? = try TemporaryDirectory()
        let path = directory!.path
        #expect(FileManager.default.fileExists(atPath: path))
        directory = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
