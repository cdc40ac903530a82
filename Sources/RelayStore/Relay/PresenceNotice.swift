import ReplicaSync

/// Presence crossing relays: the payload of a `NOTIFY` on a database id's presence channel,
/// sent by the relay a client is connected to, for the other relays to pass to their clients.
///
/// Text, as NOTIFY requires: `dp1 <relay hex> u <presence message hex>` for an update (the
/// update in the sync protocol's own `presence` encoding), `dp1 <relay hex> l <peer hex>` for a
/// peer that left. An update too large for NOTIFY's 8,000 bytes loses the tail of its stroke in
/// progress (the cursor, name and tool always fit).
public struct PresenceNotice: Equatable, Sendable {
    public enum Change: Equatable, Sendable {
        case update(PresenceUpdate)
        case left(peerID: UInt64)
    }

    public static let payloadLimit = 7_999

    /// The relay that sent it (a relay ignores its own).
    public var relayPeerID: UInt64
    public var change: Change

    public init(relayPeerID: UInt64, change: Change) {
        self.relayPeerID = relayPeerID
        self.change = change
    }

    /// The peer the change is about.
    public var peerID: UInt64 {
        switch change {
        case .update(let update): update.peerID
        case .left(let peerID): peerID
        }
    }

    public var payload: String {
        let head = "dp1 \(Self.hex64(relayPeerID))"
        switch change {
        case .left(let peerID):
            return "\(head) l \(Self.hex64(peerID))"
        case .update(var update):
            while true {
                let frame = SyncMessage.presence(update).frame()
                let text = "\(head) u " + Self.hex([frame.type] + frame.payload)
                if text.utf8.count <= Self.payloadLimit || update.strokeInProgress.isEmpty { return text }
                update.strokeInProgress.removeLast(max(1, update.strokeInProgress.count / 4))
            }
        }
    }

    /// Reads a payload; nil for anything this version did not write.
    public init?(payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "dp1", fields[1].count == 16,
            let relay = UInt64(fields[1], radix: 16)
        else { return nil }
        switch fields[2] {
        case "l":
            guard fields[3].count == 16, let peer = UInt64(fields[3], radix: 16) else { return nil }
            self.init(relayPeerID: relay, change: .left(peerID: peer))
        case "u":
            guard let bytes = Self.unhex(fields[3]), let type = bytes.first,
                case .presence(let update)? = try? SyncMessage(
                    frame: Frame(
                        version: SyncMessage.protocolVersion, type: type, payload: Array(bytes.dropFirst())))
            else { return nil }
            self.init(relayPeerID: relay, change: .update(update))
        default:
            return nil
        }
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    private static func unhex(_ text: Substring) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
