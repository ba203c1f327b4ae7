//! An HTTP `Date` header read as seconds since 1970 (RFC 9110 §5.6.7): the
//! IMF-fixdate every server sends, and the two obsolete forms a recipient
//! must still read.

use crate::error::{Error, Part};

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn refused(text: &str) -> Error {
    Error::unreadable(
        Part::Input,
        None,
        format!(
            "{} is not an HTTP date (Sun, 06 Nov 1994 08:49:37 GMT)",
            super::shown(text.as_bytes())
        ),
    )
}

/// Days from 1970-01-01 to the civil date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn number(text: &str, digits: usize) -> Option<i64> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn time(text: &str) -> Option<i64> {
    let mut parts = text.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (h, m, s) = (number(h, 2)?, number(m, 2)?, number(s, 2)?);
    (h < 24 && m < 60 && s <= 60).then_some(h * 3600 + m * 60 + s)
}

fn month(text: &str) -> Option<i64> {
    MONTHS
        .iter()
        .position(|m| *m == text)
        .and_then(|i| i64::try_from(i + 1).ok())
}

fn seconds(year: i64, month: i64, day: i64, time: i64) -> Option<u64> {
    let max_day = match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=max_day).contains(&day) {
        return None;
    }
    u64::try_from(days_from_civil(year, month, day) * 86_400 + time).ok()
}

/// Seconds since 1970 of an HTTP date: `Sun, 06 Nov 1994 08:49:37 GMT`
/// (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850, its two-digit
/// year read as RFC 9110 says) or `Sun Nov  6 08:49:37 1994` (asctime).
///
/// ```
/// use oauth1_signer::capture::parse_http_date;
///
/// assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT")?, 784111777);
/// assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT")?, 784111777);
/// assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994")?, 784111777);
/// assert!(parse_http_date("yesterday").is_err());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Unreadable`](crate::ErrorKind::Unreadable) for text in none of the three forms.
pub fn parse_http_date(text: &str) -> Result<u64, Error> {
    read(text.trim()).ok_or_else(|| refused(text))
}

fn read(t: &str) -> Option<u64> {
    let words: Vec<&str> = t.split_ascii_whitespace().collect();
    match words.as_slice() {
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        [name, day, mon, year, hms, "GMT"] if name.len() == 4 && name.ends_with(',') => {
            seconds(number(year, 4)?, month(mon)?, number(day, 2)?, time(hms)?)
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        [name, date, hms, "GMT"] if name.ends_with(',') => {
            let mut parts = date.split('-');
            let (day, mon, year) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            // A two-digit year is the one in the past closest to now
            // (RFC 9110 §5.6.7); read with 1970 as the pivot, as a
            // recipient without a clock must.
            let year = number(year, 2)?;
            let year = if year >= 70 { 1900 + year } else { 2000 + year };
            seconds(year, month(mon)?, number(day, 2)?, time(hms)?)
        }
        // asctime: Sun Nov  6 08:49:37 1994
        [_, mon, day, hms, year] => {
            let day = match day.len() {
                1 => number(day, 1)?,
                _ => number(day, 2)?,
            };
            seconds(number(year, 4)?, month(mon)?, day, time(hms)?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms_and_their_limits() {
        // Each value as Python's email.utils.parsedate_to_datetime reads it
        // (1318622958 is the X docs' example oauth_timestamp).
        assert_eq!(
            parse_http_date("Fri, 14 Oct 2011 20:09:18 GMT").unwrap(),
            1_318_622_958
        );
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT").unwrap(), 0);
        assert_eq!(
            parse_http_date("Tue, 29 Feb 2000 12:00:00 GMT").unwrap(),
            951_825_600
        );
        assert!(parse_http_date("Wed, 29 Feb 2001 12:00:00 GMT").is_err());
        assert!(parse_http_date("Fri, 14 Oct 2011 24:09:18 GMT").is_err());
        assert!(parse_http_date("Fri, 14 Oct 2011 20:09:18 UTC").is_err());
        assert!(parse_http_date("Fri, 14 October 2011 20:09:18 GMT").is_err());
    }
}
