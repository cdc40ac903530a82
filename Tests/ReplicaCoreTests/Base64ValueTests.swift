import ByteCoding
import TestSupport
import Testing

@testable import ReplicaCore

/// `DocumentValue.base64` is the string that is the canonical base64 text of its bytes, held as
/// the bytes: no reader can tell it from `.string` of that text, and every encoding writes the
/// same bytes for both.
@Suite struct Base64ValueTests {
    private static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
        (0..<Int(random.next() % 160)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test func aBase64ValueIsTheStringOfItsText() {
        var random = SplitMix64(seed: 0xB64)
        for _ in 0..<200 {
            let bytes = Self.randomBytes(&random)
            let text = CanonicalBase64.encode(bytes)
            let packed = DocumentValue.base64(bytes)
            #expect(packed == .string(text) && DocumentValue.string(text) == packed)
            #expect(Set([packed, .string(text)]).count == 1)
            #expect(packed.hashValue == DocumentValue.string(text).hashValue)
            #expect(packed.stringValue == text)
            #expect(packed.base64Bytes == bytes && DocumentValue.string(text).base64Bytes == bytes)
            #expect(packed.jsonString() == DocumentValue.string(text).jsonString())
            // Inside maps and arrays too.
            #expect(DocumentValue.object(["k": packed]) == .object(["k": .string(text)]))
            #expect(DocumentValue.array([packed, .null]) == .array([.string(text), .null]))
            // Any other text, or other bytes, is another value.
            #expect(packed != .string(text + "QUJD") && packed != .base64(bytes + [0]))
            #expect(packed != .string(text + "\n"))
        }
        #expect(DocumentValue.base64([]) == .string(""))
        #expect(DocumentValue.string("not base64").base64Bytes == nil)
        #expect(DocumentValue.string("QR==").base64Bytes == nil)  // unused bits set: not canonical
        #expect(DocumentValue.number(1).base64Bytes == nil && DocumentValue.number(1).stringValue == nil)
    }

    /// Every format writes the bytes the text would have written, so the stored and sent forms
    /// (and every digest of them) do not depend on which form a value was held in.
    @Test func bothFormsEncodeToTheSameBytesInEveryFormat() throws {
        var random = SplitMix64(seed: 0xB65)
        for _ in 0..<100 {
            let bytes = Self.randomBytes(&random)
            let asText = EventFormatFixtureTests.oneValueDelta(.string(CanonicalBase64.encode(bytes)))
            let asBytes = EventFormatFixtureTests.oneValueDelta(.base64(bytes))
            #expect(asBytes.encoded() == asText.encoded())
            #expect(asBytes.encodedFormatTwo() == asText.encodedFormatTwo())
            #expect(asBytes.encodedFormatOne() == asText.encodedFormatOne())
            let events = asBytes.documents[0].events
            #expect(
                DocumentEvent.encodedList(events) == DocumentEvent.encodedList(asText.documents[0].events))
            // Read back from format 3, a value of one byte or more is its bytes, not a new text.
            let read = try ReplicaDelta(decoding: asText.encoded()).documents[0].events[0].value
            #expect(read == .base64(bytes))
            if !bytes.isEmpty {
                guard case .base64(let held)? = read else {
                    Issue.record("a packed value was read as \(String(describing: read))")
                    continue
                }
                #expect(held == bytes)
            }
            // Format 2 carries text, which reads back as text.
            let textRead = try ReplicaDelta(decoding: asBytes.encodedFormatTwo()).documents[0].events[0].value
            #expect(textRead == .string(CanonicalBase64.encode(bytes)))
        }
    }

    /// A write of the same value in the other form changes nothing: `UPDATE_LOCAL_DIFF` and the
    /// coordinator's writes compare values, not forms.
    @Test func writingTheOtherFormOfTheSameValueIsNoChange() {
        var random = SplitMix64(seed: 0xB66)
        let bytes = Self.randomBytes(&random) + [1, 2, 3]
        var state = DocumentState()
        var author = LocalAuthor(peer: PeerID(7), clock: HybridClock(), wall: 1_700_000_000_000)
        let path = ["strokes", "k"]
        let text = CanonicalBase64.encode(bytes)
        #expect(!state.assign([DocumentEntry(path: path, value: .string(text))], author: &author).isEmpty)
        #expect(state.assign([DocumentEntry(path: path, value: .base64(bytes))], author: &author).isEmpty)
        #expect(state.assign(.base64(bytes), at: path, onlyDifferences: true, author: &author).isEmpty)
        #expect(state.value(at: path) == .base64(bytes))
        // Other bytes are a change.
        #expect(
            !state.assign([DocumentEntry(path: path, value: .base64(bytes + [0]))], author: &author).isEmpty)
        #expect(state.value(at: path) == .string(CanonicalBase64.encode(bytes + [0])))
    }
}
