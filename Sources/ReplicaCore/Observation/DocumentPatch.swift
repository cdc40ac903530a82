/// One change to an observed document, as automerge's patches: the value a path shows after a
/// commit, or nil when nothing is there any more. `path` is empty for the whole document (its
/// fields, without `_id`).
///
/// A patch may still restate a value the path already had (a whole map read again for one
/// entry, an event removed that may have been the winner), so a reader that cares compares; but
/// an event that lost to the one already there, or a map marker arriving where a map shows, names
/// no path (see `DocumentState.shownChange`).
public struct DocumentPatch: Equatable, Sendable {
    public var path: [String]
    public var value: DocumentValue?

    public init(path: [String], value: DocumentValue?) {
        self.path = path
        self.value = value
    }

    /// Brings `fields` (a document's fields, nil when it does not exist) up to date with this
    /// patch: maps on the way are made, and a whole-document patch replaces everything.
    public func apply(to fields: inout [String: DocumentValue]?) {
        guard !path.isEmpty else {
            fields = value?.objectValue
            return
        }
        var row = fields ?? [:]
        fields = nil
        ReplicaState.place(value, at: path[...], in: &row)
        fields = row
    }
}

/// What an observer of one document receives (`Replica.observeDocument`).
public enum DocumentObservation: Equatable, Sendable {
    /// The document when observation starts, read on demand (`fields` is nil when it does not
    /// exist).
    case initial(ObservedDocument)
    /// A commit changed what the document shows: every path whose winning event changed (or may
    /// have), with what each shows now. Applied in order to the fields delivered so far, they
    /// give the document as it is now. Never empty: a commit that changed nothing shown is not
    /// delivered.
    case changed([DocumentPatch])
}
