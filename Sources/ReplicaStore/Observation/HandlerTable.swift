/// Handlers by the id they were registered with, kept in the order of registration (ids only
/// grow): a commit visits them in that order without sorting their ids. A replica has a handful,
/// added and cancelled rarely, so one is found by looking along them.
struct HandlerTable<Handler> {
    private(set) var entries: [(id: Int, handler: Handler)] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The handler registered as `id`, if it is still registered. Setting nil cancels it;
    /// setting a handler replaces the one of that id, or adds it after every other (`id` must
    /// be above every id the table has held).
    subscript(id: Int) -> Handler? {
        get { entries.first { $0.id == id }?.handler }
        set {
            if let index = entries.firstIndex(where: { $0.id == id }) {
                if let newValue { entries[index].handler = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                precondition(entries.last.map { $0.id < id } ?? true, "handler ids only grow")
                entries.append((id, newValue))
            }
        }
    }
}
