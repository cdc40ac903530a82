import Testing

@testable import drawtogether

/// The free space `doctor` reports, and the remembered drawing name read back without the
/// spaces around it: the app's own words for what Foundation's formatters used to say.
@Suite struct DoctorByteCountTests {
    @Test func sizesReadAsAPersonSaysThem() {
        #expect(Doctor.byteCount(0) == "0 bytes")
        #expect(Doctor.byteCount(1) == "1 byte")
        #expect(Doctor.byteCount(999) == "999 bytes")
        #expect(Doctor.byteCount(1_000) == "1.0 KB")
        #expect(Doctor.byteCount(9_449_000) == "9.4 MB")
        #expect(Doctor.byteCount(9_960_000) == "10 MB")
        #expect(Doctor.byteCount(212_400_000_000) == "212 GB")
        #expect(Doctor.byteCount(999_960_000) == "1.0 GB")
        #expect(Doctor.byteCount(UInt64.max) == "18 EB")
    }
}
