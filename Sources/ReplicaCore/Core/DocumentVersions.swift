/// The version vector of each document of one collection (or of one document) that a replica
/// holds: what sync sends so the other side can reply with exactly what is missing.
public struct DocumentVersions: Equatable, Sendable {
    public var vectors: [String: VersionVector]

    public init(_ vectors: [String: VersionVector] = [:]) {
        self.vectors = vectors
    }

    public subscript(documentID: String) -> VersionVector {
        vectors[documentID] ?? VersionVector()
    }
}
