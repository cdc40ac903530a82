import Foundation
import ReplicaCoreTestSupport
import TestSupport
import Testing

@testable import ReplicaCore
@testable import ReplicaStore

/// A replica file whose header is intact but whose pages in the middle are overwritten (a bad
/// disk, a copy cut short and patched): SQLite reports `SQLITE_CORRUPT` only when a statement
/// reads such a page, so the error must name the file and what to do wherever that happens.
@Suite struct ReplicaDamageTests {
    static let pageSize = 4096

    /// A closed replica with 300 documents of about 400 bytes, spread over dozens of pages.
    func replicaSpanningManyPages() throws -> (TemporaryDirectory, path: String) {
        let directory = try TemporaryDirectory()
        do {
            let replica = try Replica(directory: directory.path)
            try replica.write { transaction in
                for index in 0..<300 {
                    let document: DocumentValue = .object([
                        "_id": .string("d\(index)"), "name": .string(String(repeating: "x", count: 400)),
                    ])
                    try transaction.execute(Statements.insert(), arguments: ["doc": document])
                }
            }
        }
        return (directory, directory.path + "/" + ReplicaDatabase.fileName)
    }

    /// Overwrites three whole pages halfway through the file, page headers included.
    func damageTheMiddle(of path: String) throws -> Int {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let pages = Int(try handle.seekToEnd()) / Self.pageSize
        for page in (pages / 2)..<(pages / 2 + 3) {
            try handle.seek(toOffset: UInt64(page * Self.pageSize))
            handle.write(Data(repeating: 0xA5, count: Self.pageSize))
        }
        return pages
    }

    func isDamageNamingTheFile(_ error: any Error, _ path: String) -> Bool {
        guard case ReplicaError.damaged(let damagedPath, let detail) = error else { return false }
        let message = "\(error)"
        return damagedPath == path && detail.contains("malformed") && message.contains(path)
            && message.contains("is damaged") && !message.contains("SELECT")
    }

    @Test func aDamagedPageInTheMiddleIsReportedAsADamagedReplicaNamingTheFile() throws {
        let (directory, path) = try replicaSpanningManyPages()
        let pages = try damageTheMiddle(of: path)
        #expect(pages >= 30)
        #expect {
            _ = try Replica.openReadOnly(directory: directory.path)
        } throws: { error in
            isDamageNamingTheFile(error, path)
        }
        #expect {
            _ = try Replica(directory: directory.path)
        } throws: { error in
            isDamageNamingTheFile(error, path)
        }
    }

    @Test func theUndamagedReplicaOpensSoTheDamageIsWhatIsReported() throws {
        let (directory, _) = try replicaSpanningManyPages()
        let replica = try Replica.openReadOnly(directory: directory.path)
        #expect(try replica.execute(Statements.select(id: false)).documents.count == 300)
    }

    @Test func aDamagedHeaderIsStillNotAReplica() throws {
        let (directory, path) = try replicaSpanningManyPages()
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        handle.write(Data(repeating: 0x5A, count: 100))
        try handle.close()
        #expect {
            _ = try Replica.openReadOnly(directory: directory.path)
        } throws: { error in
            guard case ReplicaError.notAReplica(let notPath, _) = error else { return false }
            return notPath == path && "\(error)".contains("is not a DrawTogether replica")
        }
    }
}
