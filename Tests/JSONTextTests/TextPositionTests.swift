import JSONText
import TestSupport
import Testing

@Suite struct TextPositionTests {
    @Test(arguments: [
        ("", 0, 1, 1),
        ("abc", 2, 1, 3),
        ("abc", 3, 1, 4),
        ("abc", 99, 1, 4),
        ("abc", -5, 1, 1),
        ("a\nbc", 3, 2, 2),
        ("a\r\nbc", 4, 2, 2),
        ("a\rbc", 3, 2, 2),
        ("a\u{2028}b", 4, 2, 1),
        ("é😀x", 6, 1, 3),
        ("e\u{301}x", 3, 1, 2),
        ("🇫🇷x", 8, 1, 2),
    ])
    func aUTF8OffsetBecomesLineAndColumn(text: String, offset: Int, line: Int, column: Int) {
        #expect(TextPosition(utf8Offset: offset, in: text) == TextPosition(line: line, column: column))
    }

    @Test func describesItselfAsAnEditorWould() {
        #expect(TextPosition(line: 2, column: 5).description == "line 2, column 5")
        #expect(TextPosition.start == TextPosition(line: 1, column: 1))
    }

    @Test func steppingCharacterByCharacterAgreesWithOffsets() {
        var generator = SplitMix64(seed: 0x7E57)
        let pieces = [
            "a", " ", "\n", "\r", "\r\n", "\t", "é", "e\u{301}", "😀", "\u{2028}", "\u{85}", "🇫🇷",
        ]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            var stepped = TextPosition.start
            var offset = 0
            for character in text {
                let scalars = Array(text.unicodeScalars)
                #expect(TextPosition(utf8Offset: offset, in: text) == stepped, "\(scalars)")
                stepped.advance(past: character)
                offset += character.utf8.count
            }
            #expect(TextPosition(utf8Offset: offset, in: text) == stepped)
        }
    }
}
