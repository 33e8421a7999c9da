/// ISO 8601 UTC text for a time counted from the Unix epoch, without Foundation: days to a civil date
/// by Howard Hinnant's `civil_from_days` (exact for every Int64 day in the proleptic Gregorian calendar).
package enum UTCTime {
    /// `seconds` since 1970-01-01T00:00:00Z plus `fraction` (a count of 10^−`digits` s, below one
    /// second), e.g. `2023-06-20T12:34:56.789Z`; years past 9999 get a `+` (ISO 8601 expanded form).
    package static func iso(seconds: Int64, fraction: Int64 = 0, digits: Int = 0) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
        }
        var text = (year > 9999 ? "+" : "") + pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if digits > 0 { text += "." + pad(fraction, digits) }
        return text + "Z"
    }

    /// Milliseconds since the Unix epoch.
    package static func iso(millis: Int64) -> String {
        let (s, ms) = millis >= 0 ? (millis / 1000, millis % 1000) : ((millis - 999) / 1000, ((millis % 1000) + 1000) % 1000)
        return iso(seconds: s, fraction: ms, digits: 3)
    }
}
