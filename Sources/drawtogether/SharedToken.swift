/// The shared secret peers prove to each other: how a new one is made, and what is worth a
/// warning about one in use.
enum SharedToken {
    /// Tokens shorter than this get a warning where strangers can try them (`serve`, `--listen`).
    static let recommendedLength = 16
    /// RFC 4648 base32, lower case: no characters a shell or a `.env` file treats specially, none
    /// that look alike in most fonts once the case is fixed.
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    /// A new token of 160 random bits: 32 base32 characters.
    static func generate<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bits: UInt64 = 0
        var bitCount = 0
        var text = ""
        for _ in 0..<20 {
            bits = bits << 8 | UInt64(UInt8.random(in: 0...255, using: &generator))
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                text.append(alphabet[Int(bits >> UInt64(bitCount) & 31)])
            }
        }
        return text
    }
}

/// Why `--token-file FILE` cannot be used.
enum TokenFileProblem: Equatable, Sendable, CustomStringConvertible {
    case notFound
    case unreadable(reason: String)
    /// Group or others may read it (`mode` is the permission bits).
    case readableByOthers(mode: UInt32, path: String)
    case empty

    var description: String {
        switch self {
        case .notFound: "does not exist; fix the path given to --token-file"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .readableByOthers(let mode, let path):
            "can be read by other users (mode \(String(mode, radix: 8))); run 'chmod 600 \(path)' and try again"
        case .empty: "is empty; put the token in it (make one with 'drawtogether token')"
        }
    }
}
