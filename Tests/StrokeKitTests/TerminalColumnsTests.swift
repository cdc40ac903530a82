import StrokeKit
import Testing

/// Widths checked against glibc 2.36's `wcwidth` in C.UTF-8 (what tmux uses on this machine).
@Suite struct TerminalColumnsTests {
    private func columns(_ value: UInt32) -> Int? {
        Unicode.Scalar(value)?.terminalColumns
    }

    @Test func asciiLatinAndBoxDrawingTakeOneColumn() {
        for scalar in "aZ~ éß│─┌…█↑½★❤".unicodeScalars {
            #expect(scalar.terminalColumns == 1, "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func eastAsianWideAndFullwidthCharactersTakeTwo() {
        // Hangul initial, CJK punctuation, kana, ideographs, Yi, Hangul syllables, compatibility
        // ideographs, vertical forms, fullwidth forms and signs, CJK extension B.
        for value: UInt32 in [
            0x1100, 0x3000, 0x3041, 0x30CE, 0x3400, 0x8A2D, 0x8A08, 0x56F3, 0x9FFF, 0xA000, 0xAC00, 0xD7A3,
            0xF900,
            0xFE30, 0xFF21, 0xFF60, 0xFFE0, 0xFFE6, 0x20000, 0x2A6DF, 0x3134A,
        ] {
            #expect(columns(value) == 2, "U+\(String(value, radix: 16))")
        }
    }

    @Test func emojiPresentationSymbolsTakeTwoAndTextPresentationOnesOne() {
        for scalar in "☕⭐⚡✅❌⌚🎨🌍😀🚀🤖🧠".unicodeScalars {
            #expect(scalar.terminalColumns == 2, "U+\(String(scalar.value, radix: 16))")
        }
        // Symbols terminals draw narrow unless a variation selector asks otherwise (glibc: 1).
        for value: UInt32 in [0x2600, 0x2613, 0x2616, 0x2764, 0x1F321, 0x1F1E6] {
            #expect(columns(value) == 1, "U+\(String(value, radix: 16))")
        }
    }

    @Test func combiningMarksJoinersAndVariationSelectorsTakeNone() {
        for value: UInt32 in [
            0x0300, 0x036F, 0x0483, 0x05B0, 0x093C, 0x200B, 0x200D, 0x2060, 0xFE0F, 0xFEFF, 0x3099, 0x1160,
            0xE0100,
        ] {
            #expect(columns(value) == 0, "U+\(String(value, radix: 16))")
        }
        // The soft hyphen and Arabic number signs are format characters that print.
        #expect(columns(0x00AD) == 1)
        #expect(columns(0x0600) == 1)
    }

    @Test func controlCharactersCountOneBecauseTheScreenShowsThemAsBlanks() {
        #expect(columns(0x00) == 1)
        #expect(columns(0x1B) == 1)
        #expect(columns(0x85) == 1)
    }

    @Test func aStringTakesTheSumOfItsScalars() {
        #expect("☕ coffee".terminalColumns == 9)
        #expect("設計図 ノート".terminalColumns == 13)
        #expect("e\u{301}te\u{301}".terminalColumns == 3)
        #expect("👩‍🎨".terminalColumns == 4)  // two wide emoji and a joiner: each is drawn on its own
        #expect("".terminalColumns == 0)
        #expect("plan"[...].terminalColumns == 4)
    }
}
