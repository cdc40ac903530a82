import Glibc

/// The command line and the `DRAWTOGETHER_` variables as the kernel gave them: bytes. Swift's
/// `CommandLine.arguments` repairs invalid UTF-8 with U+FFFD, so `--store` with a Latin-1 path
/// would quietly name another folder; such text is refused instead, naming it.
enum CommandLineBytes {
    /// Text that is not UTF-8, with its bytes.
    enum InvalidText: Error, Equatable, CustomStringConvertible {
        /// `index` counts from 1 after the program name; `flag` is the option it is the value of.
        case argument(index: Int, flag: String?, bytes: [UInt8])
        case variable(name: String, bytes: [UInt8])

        var description: String {
            let (what, bytes) =
                switch self {
                case .argument(let index, let flag, let bytes):
                    (flag.map { "the value of \($0) (argument \(index))" } ?? "argument \(index)", bytes)
                case .variable(let name, let bytes): (name, bytes)
                }
            return
                "\(what) ('\(CommandLineBytes.shown(bytes))') is not valid UTF-8, so drawtogether would read "
                + "another path or name than the one meant; rename it in UTF-8, or choose another"
        }
    }

    /// The arguments after the program name, each checked to be UTF-8.
    static func arguments(_ raw: [[UInt8]]) throws(InvalidText) -> [String] {
        var arguments: [String] = []
        for (offset, bytes) in raw.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let flag = arguments.last.flatMap { $0.hasPrefix("-") ? $0 : nil }
                throw .argument(index: offset + 1, flag: flag, bytes: bytes)
            }
            arguments.append(text)
        }
        return arguments
    }

    /// This process's arguments, as bytes.
    static func processArguments() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }?
                .map { UInt8(bitPattern: $0) } ?? []
        }
    }

    /// Refuses a variable of `names` in this process's environment that is not UTF-8.
    static func checkEnvironment(_ names: [String]) throws(InvalidText) {
        for name in names {
            guard let value = getenv(name) else { continue }
            let bytes = Array(UnsafeBufferPointer(start: value, count: strlen(value))).map {
                UInt8(bitPattern: $0)
            }
            if String(validating: bytes, as: UTF8.self) == nil { throw .variable(name: name, bytes: bytes) }
        }
    }

    /// Printable ASCII as it is, every other byte as `\xNN`; at most 64 bytes of it.
    static func shown(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes.prefix(64) {
            if (0x20..<0x7F).contains(byte), byte != UInt8(ascii: "\\") {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return bytes.count > 64 ? text + "…" : text
    }
}
