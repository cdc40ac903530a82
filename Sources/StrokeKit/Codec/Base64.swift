import ByteCoding

/// Standard base64 for the stroke codec: `CanonicalBase64` (ByteCoding), with its refusals as
/// the codec's errors.
public enum Base64 {
    public static func encode(_ bytes: [UInt8]) -> String {
        CanonicalBase64.encode(bytes)
    }

    public static func decode(_ text: String) throws(StrokeCodecError) -> [UInt8] {
        do {
            return try CanonicalBase64.decode(text)
        } catch {
            throw .invalidBase64(position: error.position)
        }
    }
}
