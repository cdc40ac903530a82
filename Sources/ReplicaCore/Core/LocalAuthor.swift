/// Who is writing locally and when: the replica's peer id and its clock, read at one wall time.
struct LocalAuthor {
    let peer: PeerID
    var clock: HybridClock
    let wall: Int64

    mutating func stamp() -> HybridTimestamp {
        clock.tick(wall: wall)
    }
}
