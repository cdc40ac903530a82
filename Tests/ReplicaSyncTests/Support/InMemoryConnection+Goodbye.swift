import EventRuntime
import ReplicaSync

extension InMemoryConnection {
    /// The goodbye among the frames this end received, if any (as `RawClient.goodbye`).
    var goodbye: SyncMessage? {
        var decoder = FrameDecoder()
        decoder.append(received)
        while let frame = try? decoder.nextFrame() {
            if let message = try? SyncMessage(frame: frame), message.kind == .goodbye { return message }
        }
        return nil
    }
}
