import Foundation

/// An HTTP-date (RFC 9110 §5.6.7) as seconds since the Unix epoch.
///
/// Recipients must accept all three forms the RFC lists, so this parses
/// each by hand rather than through a `DateFormatter`, whose behaviour
/// depends on the locale and which is costly to create:
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the only form senders may generate);
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`;
/// - ANSI C `asctime()`: `Sun Nov  6 08:49:37 1994`.
struct HTTPDate: Sendable, Hashable, Comparable {
    var secondsSince1970: Int64

    init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    init(_ date: Date) { secondsSince1970 = Int64(date.timeIntervalSince1970.rounded(.down)) }

    var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSince1970)) }

    static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// `nil` for anything that is not one of the three forms (RFC 9111 §5.3
    /// says an invalid `Expires` means "already expired"; callers decide).
    init?(parsing text: some StringProtocol) {
        let tokens = String(text).split(whereSeparator: { (c: Character) in c == " " || c == "\t" }).map(String.init)
        if tokens.count == 6, tokens[0].hasSuffix(","), tokens[5] == "GMT" {
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            guard let day = Int(tokens[1]), let month = Self.month(tokens[2]), let year = Int(tokens[3]),
                  tokens[3].count == 4 else { return nil }
            self.init(year: year, month: month, day: day, time: tokens[4])
        } else if tokens.count == 4, tokens[0].hasSuffix(","), tokens[3] == "GMT" {
            // RFC 850: day-name "," SP DD-Mon-YY SP time SP "GMT"; a two-digit
            // year more than 50 years ahead is taken as the past century (RFC 9110 §5.6.7).
            let parts = tokens[1].split(separator: "-")
            guard parts.count == 3, let day = Int(parts[0]), let month = Self.month(String(parts[1])),
                  parts[2].count == 2, let short = Int(parts[2]) else { return nil }
            let year = short + 2000 > Self.currentYear + 50 ? 1900 + short : 2000 + short
            self.init(year: year, month: month, day: day, time: tokens[2])
        } else if tokens.count == 5, !tokens[0].hasSuffix(",") {
            // asctime: day-name SP month SP ( 2DIGIT / SP 1DIGIT ) SP time SP year
            guard let month = Self.month(tokens[1]), let day = Int(tokens[2]), let year = Int(tokens[4]),
                  tokens[4].count == 4 else { return nil }
            self.init(year: year, month: month, day: day, time: tokens[3])
        } else {
            return nil
        }
    }

    private init?(year: Int, month: Int, day: Int, time: String) {
        let clock = time.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (1...31).contains(day), (1...9999).contains(year) else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        secondsSince1970 = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// IMF-fixdate, the form to send (`If-Modified-Since` built from a date).
    var imfFixdate: String {
        let days = Int(secondsSince1970.floorDivided(by: 86_400))
        let seconds = Int(secondsSince1970 - Int64(days) * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        let weekday = ((days % 7) + 7 + 4) % 7   // 1970-01-01 was a Thursday
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(Self.weekdays[weekday]), \(two(day)) \(Self.months[month - 1]) \(year) "
            + "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) GMT"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Month names are case-sensitive in the grammar; accepting any case
    /// costs nothing and matches what browsers do.
    private static func month(_ name: String) -> Int? {
        months.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }.map { $0 + 1 }
    }

    private static var currentYear: Int {
        civil(fromDays: Int(Int64(Date().timeIntervalSince1970).floorDivided(by: 86_400))).year
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`), so no calendar object is needed.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysSince1970(year:month:day:)``.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
