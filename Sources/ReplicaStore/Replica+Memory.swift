extension Replica {
    /// Gives back the memory SQLite's page cache holds for this replica (up to its 2 MB limit:
    /// after an open read every row, or a large transaction wrote many, it is full of pages no
    /// statement needs). The next reads and writes fetch the pages they touch from the file, which
    /// the system keeps cached. For the same few moments as the process's heap is given back
    /// (`HeapRelease`): never per write.
    public func releaseCachedPages() {
        database.connection.releaseCachedPages()
    }

    /// The bytes SQLite's page cache holds for this replica now.
    public var cachedPageBytes: Int { database.connection.cachedPageBytes }
}
