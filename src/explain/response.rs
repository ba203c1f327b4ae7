//! Finding the provider's base string in a saved error response.
//!
//! Providers that follow [OAuth Problem Reporting] echo the base string they
//! computed as `debug_sbs=...` in a form-encoded body
//! (`oauth_problem=signature_invalid&debug_sbs=...`); others write it in
//! text ("Expected signature base string: ...") or in JSON.
//!
//! [OAuth Problem Reporting]: https://wiki.oauth.net/w/page/12238543/ProblemReporting

use super::compare::lenient_decode;

/// Whether `text` starts like a base string: an HTTP method, `&`, then an
/// encoded `http` or `https` URI.
fn looks_like_base_string(text: &str) -> bool {
    let Some((method, rest)) = text.split_once('&') else {
        return false;
    };
    let rest = rest.to_ascii_lowercase();
    !method.is_empty()
        && method
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
        && (rest.starts_with("http%3a%2f%2f")
            || rest.starts_with("https%3a%2f%2f")
            || rest.starts_with("http://")
            || rest.starts_with("https://"))
}

/// The base string a provider echoed in an error response body, if there is
/// one: a `debug_sbs` parameter (OAuth Problem Reporting; decoded once if it
/// was form-encoded), or text such as `Expected signature base string: ...`
/// (the run of non-space characters that starts like a base string).
///
/// ```
/// use oauth1_signer::base_string_from_response;
///
/// let body = "oauth_problem=signature_invalid&debug_sbs=GET%26https%253A%252F%252Fapi.x.com%252F%26a%253D1";
/// assert_eq!(base_string_from_response(body).as_deref(), Some("GET&https%3A%2F%2Fapi.x.com%2F&a%3D1"));
/// let text = "401 Unauthorized\nExpected signature base string: GET&https%3A%2F%2Fh%2F&a%3D1\n";
/// assert_eq!(base_string_from_response(text).as_deref(), Some("GET&https%3A%2F%2Fh%2F&a%3D1"));
/// assert_eq!(base_string_from_response("Could not authenticate you"), None);
/// ```
pub fn base_string_from_response(body: &str) -> Option<String> {
    // `debug_sbs=` in a form body, or as a JSON key.
    let lower = body.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("debug_sbs") {
        let start = from + at + "debug_sbs".len();
        from = start;
        let rest = body[start..].trim_start_matches(['"', ':', '=', ' ']);
        let value: &str = rest
            .split(|c: char| c.is_whitespace() || c == '"' || c == '<')
            .next()
            .unwrap_or_default();
        // In a form body the value ends at the next raw `&` that starts a
        // parameter: a base string's own `&`s are encoded there.
        let form_value = value.split('&').next().unwrap_or_default();
        let decoded =
            String::from_utf8_lossy(&lenient_decode(form_value.as_bytes(), true)).into_owned();
        if looks_like_base_string(&decoded) {
            return Some(decoded);
        }
        if looks_like_base_string(value) {
            return Some(value.to_owned());
        }
    }
    // Any run of non-space text that starts like a base string.
    body.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
        .flat_map(|word| word.char_indices().map(move |(i, _)| &word[i..]))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
        .find(|w| looks_like_base_string(w))
        .map(|w| w.trim_end_matches(['.', ',', ';']).to_owned())
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
}
