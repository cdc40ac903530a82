/// Handlers by the id they were registered with, kept in the order of registration (ids only
/// grow): a commit visits them in that order without sorting their ids, and one is found by a
/// binary search. A replica has a handful, added and cancelled rarely, read on every commit.
struct HandlerTable<Handler> {
    private(set) var entries: [(id: Int, handler: Handler)] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The handler registered as `id`, if it is still registered. Setting nil cancels it;
    /// setting a handler replaces the one of that id, or adds it after every other (`id` must
    /// be above every id the table has held).
    subscript(id: Int) -> Handler? {
        get {
            let (index, found) = position(of: id)
            return found ? entries[index].handler : nil
        }
        set {
            let (index, found) = position(of: id)
            switch (found, newValue) {
            case (true, let handler?): entries[index].handler = handler
            case (true, nil): entries.remove(at: index)
            case (false, let handler?):
                precondition(index == entries.count, "handler ids only grow")
                entries.append((id, handler))
            case (false, nil): break
            }
        }
    }

    /// Where `id` is, or where it would go.
    private func position(of id: Int) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return (low, low < entries.count && entries[low].id == id)
    }
}
