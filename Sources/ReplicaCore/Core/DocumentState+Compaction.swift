extension DocumentState {
    /// Drops the removed events that are causally stable: every replica that counts holds them
    /// and everything they remove. `stable` is what every such replica has acknowledged holding
    /// (the pointwise minimum of their version vectors; it is met with this document's own). An
    /// event goes when it is removed (a superseded value, a map marker under a register, an
    /// UNSET or a DELETE) and `stable` covers its dot and its whole context: then no event still
    /// to arrive is one it removes, so nothing it said is needed again.
    ///
    /// Dropped dots stay covered by `versionVector` and by `compacted` (raised to the last dropped
    /// dot of each peer, no further), so a copy of a dropped event that arrives again (a
    /// duplicated or late delta) is ignored instead of coming back.
    /// Returns the dots dropped, in order.
    @discardableResult
    public mutating func compact(stable: VersionVector) -> [Dot] {
        let stable = stable.meet(versionVector)
        var dropped: [Dot] = []
        store.forEachInDotOrder { event in
            if event.isRemoved && stable.contains(event.dot) && event.context.isCovered(by: stable) {
                dropped.append(event.dot)
            }
        }
        // The compacted vector grows only as far as what went: a peer that holds every dropped
        // dot can still be sent a delta, however much more was stable.
        var covering = VersionVector()
        for dot in dropped where covering[dot.peer] < dot.counter { covering[dot.peer] = dot.counter }
        for dot in dropped { dropEvent(dot) }
        markCompacted(covering)
        return dropped
    }
}
