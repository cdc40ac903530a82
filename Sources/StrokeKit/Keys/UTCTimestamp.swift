/// ISO 8601 UTC timestamps with milliseconds (`2026-03-25T16:20:14.127Z`), written and read by
/// hand with civil-from-days arithmetic, so StrokeKit needs no Foundation.
///
/// The fixed width (24 characters, four-digit year) is what makes string order time order.
enum UTCTimestamp {
    /// 9999-12-31T23:59:59.999Z, the last instant a four-digit year can write.
    static let maximumMilliseconds: Int64 = 253_402_300_799_999
    static let length = 24

    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The timestamp of a Unix time in milliseconds, clamped to 0...`maximumMilliseconds`.
    static func format(_ milliseconds: Int64) -> String {
        let ms = min(max(milliseconds, 0), maximumMilliseconds)
        let days = ms / millisecondsPerDay
        var rest = ms % millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        let second = rest / 1000
        let milli = rest % 1000

        var text = ""
        text.reserveCapacity(length)
        func digits(_ value: Int64, _ count: Int) {
            var scalars = [Character](repeating: "0", count: count)
            var v = value
            for index in stride(from: count - 1, through: 0, by: -1) {
                scalars[index] = Character(Unicode.Scalar(UInt8(48 + v % 10)))
                v /= 10
            }
            text.append(contentsOf: scalars)
        }
        digits(year, 4)
        text.append("-")
        digits(month, 2)
        text.append("-")
        digits(day, 2)
        text.append("T")
        digits(hour, 2)
        text.append(":")
        digits(minute, 2)
        text.append(":")
        digits(second, 2)
        text.append(".")
        digits(milli, 3)
        text.append("Z")
        return text
    }

    /// The Unix milliseconds of a timestamp in exactly the form `format` writes, else nil.
    /// The bytes are read where they lie: no copy, no table of separators built per call.
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count == length, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."),
            b[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                guard b[index] >= 48 && b[index] <= 57 else { return nil }
                value = value * 10 + Int64(b[index] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let milli = number(20, 3)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let ms = days * millisecondsPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + milli
        guard ms >= 0 && ms <= maximumMilliseconds else { return nil }
        return ms
    }

    static func isLeap(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Year, month, day of a count of days since 1970-01-01 (proleptic Gregorian calendar).
    /// Works in 400-year eras of 146 097 days counted from 0000-03-01, so leap days fall at the
    /// end of each era-year.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Days since 1970-01-01 of a civil date (the inverse of `civil(fromDays:)`).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
