/// One map entry a local write sets without DQL (see `ReplicaState.upsert(_:into:wall:)`): where
/// it is, from the document root (`["strokes", key]`), and its value.
public struct DocumentEntry: Equatable, Sendable {
    public var path: [String]
    public var value: DocumentValue

    public init(path: [String], value: DocumentValue) {
        self.path = path
        self.value = value
    }
}
