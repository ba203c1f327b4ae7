//! Warnings about a request that is signed as RFC 5849 says but that the
//! other side is likely to read otherwise ([`Warning`]): what
//! [`Signer::trace`](crate::Signer::trace) lists before anything is sent.

use crate::error::Part;
use crate::pipeline::clock::unix_now;
use crate::pipeline::params::Param;
use crate::pipeline::protocol::Timestamp;
use crate::pipeline::signed::Warning;
use crate::text::decode::form_decode;
use crate::text::form::pairs;
use crate::text::scan::holds_escape;

/// A warning for each parameter whose name or value is not UTF-8.
pub(crate) fn not_utf8<'p>(
    params: &'p [Param<'_>],
    part: Part,
) -> impl Iterator<Item = Warning> + 'p {
    params.iter().filter_map(move |p| {
        let (name, value) = (p.name(), p.value());
        let in_name = std::str::from_utf8(&name).is_err();
        (in_name || std::str::from_utf8(&value).is_err()).then(|| Warning::NotUtf8 {
            name: String::from_utf8_lossy(&name).into_owned(),
            in_name,
            part,
        })
    })
}

/// How far a pinned timestamp may be from the local clock before it is
/// warned about: as far as a verifier accepts by default
/// ([`Timestamp::WINDOW`]; providers refuse old requests, X after a few
/// minutes).
const TIMESTAMP_SKEW: u64 = Timestamp::WINDOW.as_secs();

/// Warnings about what is signed right but easy to get wrong on the other
/// side: a `+` in a query value, a value that looks encoded already, a JSON
/// form body, a name given twice, a timestamp far from the clock.
pub(crate) fn risky(
    query: &[Param<'_>],
    body: &[Param<'_>],
    raw_query: Option<&str>,
    form_body: Option<&[u8]>,
    timestamp: Option<&str>,
) -> Vec<Warning> {
    let mut out = Vec::new();
    // The raw query text: a `+` there is a space to us (a form query) but a
    // plus sign to a server that reads the query as RFC 3986 text.
    for pair in pairs(raw_query.unwrap_or_default().as_bytes()) {
        if pair.value.is_some_and(|v| v.contains(&b'+')) {
            let name = form_decode(pair.name).map_or_else(
                |_| String::from_utf8_lossy(pair.name).into_owned(),
                |d| String::from_utf8_lossy(d.as_bytes()).into_owned(),
            );
            out.push(Warning::PlusInQuery { name });
        }
    }
    // A decoded value with `%XX` in it: most often a value encoded by hand
    // and then given to an encoder.
    for (params, part) in [(query, Part::Url), (body, Part::FormBody)] {
        for p in params {
            let value = p.value();
            if holds_escape(&value) {
                out.push(Warning::LooksEncoded {
                    name: String::from_utf8_lossy(&p.name()).into_owned(),
                    part,
                });
            }
        }
    }
    if let Some(body) = form_body
        && matches!(body.trim_ascii_start().first(), Some(b'{' | b'['))
    {
        out.push(Warning::JsonFormBody);
    }
    let mut names: Vec<std::borrow::Cow<'_, [u8]>> =
        query.iter().chain(body).map(|p| p.name()).collect();
    names.sort_unstable();
    for pair in names.windows(2) {
        let name = String::from_utf8_lossy(&pair[0]).into_owned();
        let reported = matches!(out.last(), Some(Warning::DuplicateName { name: n }) if *n == name);
        if pair[0] == pair[1] && !reported {
            out.push(Warning::DuplicateName { name });
        }
    }
    if let (Some(Ok(ts)), Ok(now)) = (timestamp.map(str::parse::<u64>), unix_now())
        && ts.abs_diff(now) > TIMESTAMP_SKEW
    {
        out.push(Warning::TimestampSkew { timestamp: ts, now });
    }
    out
}
