/// The checksum stored beside each event row: 64-bit FNV-1a over the row's key (collection,
/// document, peer, counter) and its record, each field length-prefixed so that bytes cannot move
/// from one field to the next unnoticed.
///
/// It guards against a damaged disk or a stray write, not against someone who can write the
/// file (they can recompute it). Every step of FNV-1a is a bijection of the running value, so a
/// change of any one byte always changes the result; several changed bytes leave it equal with a
/// chance of about 2^-64.
enum EventChecksum {
    static func of(collection: String, document: String, peer: Int64, counter: Int64, record: [UInt8])
        -> Int64
    {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        func mix(_ value: UInt64) {
            mix((0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
        }
        for text in [collection, document] {
            mix(UInt64(text.utf8.count))
            mix(text.utf8)
        }
        mix(UInt64(bitPattern: peer))
        mix(UInt64(bitPattern: counter))
        mix(UInt64(record.count))
        mix(record)
        return Int64(bitPattern: hash)
    }
}
