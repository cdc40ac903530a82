/// The checksum stored beside each event row: 64-bit FNV-1a over the row's key (collection,
/// document, peer, counter) and its record, each field length-prefixed so that bytes cannot move
/// from one field to the next unnoticed.
///
/// It guards against a damaged disk or a stray write, not against someone who can write the
/// file (they can recompute it). Every step of FNV-1a is a bijection of the running value, so a
/// change of any one byte always changes the result; several changed bytes leave it equal with a
/// chance of about 2^-64.
///
/// It runs for every row a reopen reads, so it works on the bytes in place: no array per field.
enum EventChecksum {
    static func of(collection: String, document: String, peer: Int64, counter: Int64, record: [UInt8])
        -> Int64
    {
        var hash = Hash()
        hash.mix(text: collection)
        hash.mix(text: document)
        hash.mix(UInt64(bitPattern: peer))
        hash.mix(UInt64(bitPattern: counter))
        hash.mix(UInt64(record.count))
        record.withUnsafeBufferPointer { hash.mix($0) }
        return Int64(bitPattern: hash.value)
    }

    private struct Hash {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325

        mutating func mix(_ bytes: UnsafeBufferPointer<UInt8>) {
            var value = self.value
            for byte in bytes {
                value ^= UInt64(byte)
                value &*= 0x0000_0100_0000_01B3
            }
            self.value = value
        }

        /// The text's UTF-8 length, then its bytes.
        mutating func mix(text: String) {
            var text = text
            text.withUTF8 { bytes in
                mix(UInt64(bytes.count))
                mix(bytes)
            }
        }

        /// The eight bytes of `number`, least significant first.
        mutating func mix(_ number: UInt64) {
            var value = self.value
            for shift in stride(from: 0, to: 64, by: 8) {
                value ^= (number >> UInt64(shift)) & 0xFF
                value &*= 0x0000_0100_0000_01B3
            }
            self.value = value
        }
    }
}
