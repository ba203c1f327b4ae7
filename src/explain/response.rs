//! Finding the provider's base string in a saved error response.
//!
//! Providers that follow [OAuth Problem Reporting] echo the base string they
//! computed as `debug_sbs=...` in a form-encoded body
//! (`oauth_problem=signature_invalid&debug_sbs=...`); others write it in
//! text ("Expected signature base string: ...") or in JSON.
//!
//! One pass over the body: each byte is looked at a bounded number of times
//! (a candidate is checked on its first few bytes, and the scan goes on past
//! whatever it consumed), so a body of megabytes costs milliseconds.
//!
//! [OAuth Problem Reporting]: https://wiki.oauth.net/w/page/12238543/ProblemReporting

use super::lenient::lenient_decode;

/// The longest saved response body `oauth1 explain --response-body` reads:
/// 16 MiB. An error response that echoes a base string is a few kilobytes;
/// a longer file is refused by name (exit status 2).
/// [`find_base_string_in_response`] itself takes time linear in any length.
pub const MAX_RESPONSE_BODY_LEN: usize = 16 << 20;

/// The base string found in a response body, and how it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResponseBaseString {
    /// Their base string.
    pub base_string: String,
    /// How many `debug_sbs` values the body holds (0 when the base string
    /// was found in text).
    pub debug_sbs_count: usize,
    /// Which of them (counting from 0) is used: the first that parses as a
    /// base string.
    pub debug_sbs_used: Option<usize>,
}

/// Bytes an HTTP method may have, as providers echo it.
fn is_method_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// Whether `text` starts like a base string: an HTTP method, `&`, then an
/// encoded `http` or `https` URI. Looks at the method and at most 14 bytes
/// after it.
fn looks_like_base_string(text: &[u8]) -> bool {
    let method = text.iter().take_while(|&&b| is_method_byte(b)).count();
    method > 0 && text.get(method) == Some(&b'&') && uri_follows(&text[method + 1..])
}

/// Whether `text` starts with `http%3A%2F%2F`, `https%3A%2F%2F`, `http://`
/// or `https://`, in any case.
fn uri_follows(text: &[u8]) -> bool {
    let starts = |prefix: &[u8]| {
        text.get(..prefix.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(prefix))
    };
    starts(b"http%3a%2f%2f")
        || starts(b"https%3a%2f%2f")
        || starts(b"http://")
        || starts(b"https://")
}

/// Whether a candidate parses as a base string: it starts like one and has
/// the `&` that ends its URI (METHOD&URI&PARAMETERS).
fn parses(text: &[u8]) -> bool {
    looks_like_base_string(text) && text.iter().filter(|&&b| b == b'&').nth(1).is_some()
}

/// Where a value that runs to the end of a word ends.
fn word_end(body: &[u8], from: usize, also: &[u8]) -> usize {
    body[from..]
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b'"' || b == b'<' || also.contains(&b))
        .map_or(body.len(), |i| from + i)
}

/// The base string a provider echoed in an error response body, if there is
/// one: a `debug_sbs` parameter (OAuth Problem Reporting; decoded once if it
/// was form-encoded), or text such as `Expected signature base string: ...`
/// (the run of non-space characters that starts like a base string).
/// As [`find_base_string_in_response`], without saying how it was chosen.
///
/// ```
/// use oauth1_signer::explain::base_string_from_response;
///
/// let body = "oauth_problem=signature_invalid&debug_sbs=GET%26https%253A%252F%252Fapi.x.com%252F%26a%253D1";
/// assert_eq!(base_string_from_response(body).as_deref(), Some("GET&https%3A%2F%2Fapi.x.com%2F&a%3D1"));
/// let text = "401 Unauthorized\nExpected signature base string: GET&https%3A%2F%2Fh%2F&a%3D1\n";
/// assert_eq!(base_string_from_response(text).as_deref(), Some("GET&https%3A%2F%2Fh%2F&a%3D1"));
/// assert_eq!(base_string_from_response("Could not authenticate you"), None);
/// ```
pub fn base_string_from_response(body: &str) -> Option<String> {
    find_base_string_in_response(body).map(|found| found.base_string)
}

/// The base string a provider echoed in an error response body, and how it
/// was chosen. Of several `debug_sbs` values, the first that parses as a
/// base string (METHOD&URI&PARAMETERS, the URI `http` or `https`) is used;
/// [`ResponseBaseString::debug_sbs_count`] says how many there were. With
/// none that parses, the first run of text that does.
///
/// Takes time linear in the length of `body`.
///
/// ```
/// use oauth1_signer::explain::find_base_string_in_response;
///
/// let body = "debug_sbs=none&debug_sbs=GET%26http%253A%252F%252Fh%252F%26a%253D1";
/// let found = find_base_string_in_response(body).unwrap();
/// assert_eq!(found.base_string, "GET&http%3A%2F%2Fh%2F&a%3D1");
/// assert_eq!((found.debug_sbs_count, found.debug_sbs_used), (2, Some(1)));
/// ```
pub fn find_base_string_in_response(body: &str) -> Option<ResponseBaseString> {
    let bytes = body.as_bytes();
    let (count, found) = debug_sbs(bytes);
    if let Some((used, base_string)) = found {
        return Some(ResponseBaseString {
            base_string,
            debug_sbs_count: count,
            debug_sbs_used: Some(used),
        });
    }
    in_text(bytes).map(|base_string| ResponseBaseString {
        base_string,
        debug_sbs_count: count,
        debug_sbs_used: None,
    })
}

/// How many `debug_sbs` values `body` has, and the first that parses (its
/// index and text).
fn debug_sbs(body: &[u8]) -> (usize, Option<(usize, String)>) {
    const KEY: &[u8] = b"debug_sbs";
    let (mut count, mut found) = (0, None);
    let mut from = 0;
    while let Some(at) = find_ignoring_case(&body[from..], KEY) {
        let start = from + at + KEY.len();
        let value = start
            + body[start..]
                .iter()
                .take_while(|&&b| matches!(b, b'"' | b':' | b'=' | b' '))
                .count();
        count += 1;
        // In a form body the value ends at the next raw `&` that starts a
        // parameter: a base string's own `&`s are encoded there.
        let form_end = word_end(body, value, b"&");
        from = form_end.max(start);
        if found.is_some() {
            continue;
        }
        let decoded = lenient_decode(&body[value..form_end], true);
        if parses(&decoded) {
            found = Some((count - 1, String::from_utf8_lossy(&decoded).into_owned()));
        } else if looks_like_base_string(&body[value..]) {
            // Not form-encoded: the base string with its own `&`s.
            let end = word_end(body, value, b"");
            if parses(&body[value..end]) {
                found = Some((
                    count - 1,
                    String::from_utf8_lossy(&body[value..end]).into_owned(),
                ));
            } else {
                // Values further in this word are parts of it, with fewer
                // `&`s: none parses either. Count them, and go on past it.
                let mut rest = &body[form_end..end];
                while let Some(at) = find_ignoring_case(rest, KEY) {
                    count += 1;
                    rest = &rest[at + KEY.len()..];
                }
            }
            from = end;
        }
    }
    (count, found)
}

/// Where `needle` (a few bytes) first occurs in `hay`, in any ASCII case.
fn find_ignoring_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The first run of text (between spaces, quotes and angle brackets) with a
/// part that parses as a base string, from an upper-case letter to the end
/// of the run, its trailing `.,;` cut.
fn in_text(body: &[u8]) -> Option<String> {
    let delim = |b: u8| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'<' | b'>' | b'`');
    // The run of method bytes before the current one starts here.
    let mut run = 0;
    for (i, &b) in body.iter().enumerate() {
        if b == b'&' {
            // Each run is looked at once: a method is the part of it from its
            // first upper-case letter.
            let method = (run..i).find(|&k| body[k].is_ascii_uppercase());
            run = i + 1;
            let Some(start) = method else { continue };
            if !uri_follows(&body[i + 1..]) {
                continue;
            }
            // The `&` that ends the URI: looked for up to the next `&` only, so
            // each byte is passed over once.
            let next = body[i + 1..]
                .iter()
                .position(|&c| c == b'&' || delim(c))
                .map(|k| i + 1 + k);
            if next.is_none_or(|k| body[k] != b'&') {
                continue;
            }
            let end = body[i + 1..]
                .iter()
                .position(|&c| delim(c))
                .map_or(body.len(), |k| i + 1 + k);
            let text = String::from_utf8_lossy(&body[start..end]);
            return Some(text.trim_end_matches(['.', ',', ';']).to_owned());
        }
        if !is_method_byte(b) {
            run = i + 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_base_string_in_common_shapes() {
        let want = "POST&https%3A%2F%2Fapi.x.com%2F1.1%2Fx.json&a%3D1%26b%3D2";
        for body in [
            format!(
                "oauth_problem=signature_invalid&debug_sbs={}",
                want.replace('%', "%25").replace('&', "%26")
            ),
            format!("oauth_problem=signature_invalid&debug_sbs={want}"),
            format!("{{\"errors\":[{{\"message\":\"bad\"}}],\"debug_sbs\":\"{want}\"}}"),
            format!("Invalid signature. Expected signature base string: {want}"),
            format!("<p>signature base string: {want}</p>"),
            format!("base string was {want}."),
        ] {
            assert_eq!(
                base_string_from_response(&body).as_deref(),
                Some(want),
                "{body}"
            );
        }
        assert_eq!(
            base_string_from_response("{\"errors\":[{\"code\":32}]}"),
            None
        );
    }

    #[test]
    fn of_several_debug_sbs_the_first_that_parses_is_used_and_counted() {
        let body = "debug_sbs=garbage&debug_sbs=GET%26http%3A%2F%2Fh%2F&debug_sbs=POST%26https%253A%252F%252Fh%252F%26a%253D1&debug_sbs=GET%26http%253A%252F%252Fx%252F%26b%253D2";
        let found = find_base_string_in_response(body).unwrap();
        assert_eq!(found.base_string, "POST&https%3A%2F%2Fh%2F&a%3D1");
        assert_eq!(found.debug_sbs_count, 4);
        assert_eq!(found.debug_sbs_used, Some(2));
        let one =
            find_base_string_in_response("debug_sbs=GET%26http%253A%252F%252Fh%252F%26a%253D1")
                .unwrap();
        assert_eq!((one.debug_sbs_count, one.debug_sbs_used), (1, Some(0)));
    }

    #[test]
    fn text_that_starts_like_a_base_string_but_does_not_parse_is_passed_over() {
        let body = "see GET&http://h/ then POST&https%3A%2F%2Fh%2F&a%3D1.";
        assert_eq!(
            base_string_from_response(body).as_deref(),
            Some("POST&https%3A%2F%2Fh%2F&a%3D1")
        );
        assert_eq!(
            base_string_from_response("xGET&http://h/&a=1").as_deref(),
            Some("GET&http://h/&a=1")
        );
        assert_eq!(base_string_from_response("get&http://h/&a=1"), None);
    }
}
