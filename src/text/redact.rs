//! What never reaches a log or an output unasked: a secret in any spelling
//! a request or a mistaken client can give it, a signature a server could
//! be replayed with, the verifier and callback of the three legs, and the
//! user information of a URL. The one rule for the explainer's findings,
//! `oauth1 verify`, `oauth1 explain` and `oauth1 serve`'s log.
//!
//! A secret is found however it is written: each of its bytes as itself,
//! as a percent-escape in either case of hex (`%2a`, `%2A`), escaped twice
//! (`%252A`), or a space as `+`. So `cs%26ts`, `Cs%2fx` written `cs%2Fx`,
//! and a key string with lower-case escapes are all found.

use std::borrow::Cow;

use crate::text::value::Text;

/// What a redacted span is replaced with.
pub const REDACTED: &str = "<redacted>";

/// Secrets shorter than this are redacted only where they stand alone
/// (not inside a longer run of letters, digits and `_`): a short secret
/// would otherwise blank every word that holds its letters.
const ANYWHERE_FROM: usize = 8;

/// Secrets shorter than this (a test's `s`) are found only as the whole
/// text: in running text they would blank every `5 s` of a message. No
/// real secret is that short.
const IN_TEXT_FROM: usize = 4;

/// The value of a hex digit, either case.
fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// The bytes a spelling of `want` starts with ([`spells`]): itself, the
/// `%` of an escape, and `+` for a space (`want` again where it is not one).
fn first_bytes(want: u8) -> [u8; 3] {
    [want, b'%', if want == b' ' { b'+' } else { want }]
}

/// How many bytes at `text[i..]` spell the byte `want`: an escape of it
/// (`%XX`, either case of hex), the escape escaped (`%25XX`), `+` for a
/// space, or the byte itself; an escape is preferred, so that a `%` of the
/// secret written `%25` is read as one.
fn spells(text: &[u8], i: usize, want: u8) -> Option<usize> {
    let pair = |j: usize| Some(hex(*text.get(j)?)? * 16 + hex(*text.get(j + 1)?)?);
    let got = *text.get(i)?;
    if got == b'%' {
        match pair(i + 1) {
            Some(b) if b == want => return Some(3),
            Some(b'%') if pair(i + 3) == Some(want) => return Some(5),
            _ => {}
        }
    }
    (got == want || (want == b' ' && got == b'+')).then_some(1)
}

/// How many bytes of `text` from `at` spell `secret` (see the module
/// documentation), if they do.
fn spelled_at(text: &[u8], at: usize, secret: &[u8]) -> Option<usize> {
    let mut i = at;
    for &want in secret {
        i += spells(text, i, want)?;
    }
    Some(i - at)
}

/// Whether `text[at..end]` stands alone: no letter or digit just before
/// or just after it.
fn alone(text: &[u8], at: usize, end: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    !word(at.checked_sub(1).and_then(|j| text.get(j))) && !word(text.get(end))
}

/// The spans of `text` where any of `secrets` is spelled, in order, not
/// overlapping (the longest at each place).
fn spans(text: &[u8], secrets: &[&str]) -> Vec<(usize, usize)> {
    // A place can start a spelling only with one of its secret's first
    // bytes' `first_bytes`: the others are passed over with one look-up.
    let mut starts = [false; 256];
    for &first in secrets.iter().filter_map(|s| s.as_bytes().first()) {
        for b in first_bytes(first) {
            starts[usize::from(b)] = true;
        }
    }
    let mut found = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if !starts[usize::from(text[at])] {
            at += 1;
            continue;
        }
        let longest = secrets
            .iter()
            .filter(|s| !s.is_empty())
            .filter_map(|s| {
                let len = spelled_at(text, at, s.as_bytes())?;
                let whole = at == 0 && len == text.len();
                let shown = s.len() >= ANYWHERE_FROM
                    || (s.len() >= IN_TEXT_FROM && alone(text, at, at + len));
                (whole || shown).then_some(len)
            })
            .max();
        match longest {
            Some(len) => {
                found.push((at, at + len));
                at += len;
            }
            None => at += 1,
        }
    }
    found
}

/// Whether `text` holds any of `secrets`, in any spelling (as
/// [`redact_secrets`] finds them).
///
/// ```
/// use oauth1_signer::text::holds_secret;
///
/// assert!(holds_secret("c%2fs%2be%3dc-0001", &["c/s+e=c-0001"]));
/// assert!(!holds_secret("nothing here", &["c/s+e=c-0001"]));
/// ```
pub fn holds_secret(text: &str, secrets: &[&str]) -> bool {
    !spans(text.as_bytes(), secrets).is_empty()
}

/// `text` with every spelling of each of `secrets` replaced by
/// `<redacted>` (borrowed when there is none). A secret of fewer than 8
/// bytes is replaced only where it stands alone (not inside a longer run of
/// letters, digits and `_`), one of fewer than 4 only when it is the whole
/// text.
///
/// ```
/// use oauth1_signer::text::redact_secrets;
///
/// let secrets = ["kAcSOqF21Fu85e7z*", "LswwdoUa"];
/// assert_eq!(
///     redact_secrets("sig=kacs%2a kAcSOqF21Fu85e7z%2a%26LswwdoUa", &secrets),
///     "sig=kacs%2a <redacted>%26<redacted>"
/// );
/// assert_eq!(redact_secrets("tok+a&x", &["tok a"]), "<redacted>&x");
/// assert_eq!(redact_secrets("docs&csec", &["csec"]), "docs&<redacted>");
/// ```
pub fn redact_secrets<'t>(text: &'t str, secrets: &[&str]) -> Cow<'t, str> {
    let found = spans(text.as_bytes(), secrets);
    if found.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end) in found {
        // Spans start and end at ASCII bytes or at a secret's own
        // boundaries, which are char boundaries of `text` when the secret
        // is text; fall back to a lossy copy otherwise.
        out.push_str(text.get(last..start).unwrap_or_default());
        out.push_str(REDACTED);
        last = end;
    }
    out.push_str(text.get(last..).unwrap_or_default());
    Cow::Owned(out)
}

/// The query parameters whose values [`redact_url`] replaces: a signature
/// can be replayed while its nonce is fresh (a PLAINTEXT one is the
/// secrets themselves); a verifier (§2.3) exchanges its temporary token for
/// the user's token credentials; a callback (§2.1) carries the client's
/// own state, often a session or anti-forgery value. (Spelt out: this
/// wing sits below the pipeline's `Name`.)
const REDACTED_PARAMS: [&str; 3] = ["oauth_signature", "oauth_verifier", "oauth_callback"];

/// A URL or request target with the value of every `oauth_signature`,
/// `oauth_verifier` and `oauth_callback` in its query (however the name is
/// spelt: `oauth%5Fsignature`) replaced by `<redacted>`, and its user
/// information (`user:password@`) too: a signature in a log can be
/// replayed while its nonce is fresh, and a PLAINTEXT one is the secrets
/// themselves; a verifier exchanges a temporary token for the user's
/// token credentials; a callback carries the client's own state.
///
/// ```
/// use oauth1_signer::text::redact_url;
///
/// assert_eq!(
///     redact_url("/r?a=1&oauth%5Fsignature=cs%26ts&b=2"),
///     "/r?a=1&oauth%5Fsignature=<redacted>&b=2"
/// );
/// assert_eq!(
///     redact_url("/oauth/access_token?oauth_token=t&oauth_verifier=v"),
///     "/oauth/access_token?oauth_token=t&oauth_verifier=<redacted>"
/// );
/// assert_eq!(redact_url("rediss://:hunter2@cache:6380/0"), "rediss://<redacted>@cache:6380/0");
/// assert_eq!(redact_url("/plain?x=1"), "/plain?x=1");
/// ```
pub fn redact_url(url: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(url);
    // User information: between `://` and the first `@` before the path.
    if let Some(scheme_end) = url.find("://") {
        let authority_start = scheme_end + 3;
        let authority_end = url[authority_start..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |i| authority_start + i);
        if let Some(at) = url[authority_start..authority_end].rfind('@') {
            out = Cow::Owned(format!(
                "{}{REDACTED}{}",
                &url[..authority_start],
                &url[authority_start + at..]
            ));
        }
    }
    let Some(q) = out.find('?') else {
        return out;
    };
    let end = out[q..].find('#').map_or(out.len(), |i| q + i);
    // A pair's name, if its value is replaced: the name form-decoded (`+` a
    // space, escapes either case) is one of REDACTED_PARAMS. An escape
    // that is not one decodes to its `%`, which none of them holds.
    fn redacted(pair: &str) -> Option<&str> {
        let (name, _) = pair.split_once('=')?;
        let decoded = Text::Form(name.as_bytes());
        REDACTED_PARAMS
            .iter()
            .any(|n| decoded.eq_bytes(n.as_bytes()))
            .then_some(name)
    }
    let pairs = || out[q + 1..end].split('&');
    if !pairs().any(|pair| redacted(pair).is_some()) {
        return out;
    }
    let mut query = String::with_capacity(end - q);
    for (n, pair) in pairs().enumerate() {
        if n > 0 {
            query.push('&');
        }
        match redacted(pair) {
            Some(name) => {
                query.push_str(name);
                query.push('=');
                query.push_str(REDACTED);
            }
            None => query.push_str(pair),
        }
    }
    Cow::Owned(format!("{}{query}{}", &out[..=q], &out[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_found_in_every_spelling() {
        let s = "kAcSOq F21/Fu85e7z";
        for spelled in [
            "kAcSOq F21/Fu85e7z",
            "kAcSOq+F21/Fu85e7z",
            "kAcSOq%20F21%2FFu85e7z",
            "kAcSOq%20F21%2fFu85e7z",
            "%6BAcSOq%20F21%2FFu85e7z",
            "kAcSOq%2520F21%252fFu85e7z",
        ] {
            let text = format!("x={spelled}&y");
            assert_eq!(redact_secrets(&text, &[s]), "x=<redacted>&y", "{spelled}");
            assert!(holds_secret(&text, &[s]));
        }
        // Not a spelling: another byte, or the case of the secret's letters.
        for other in [
            "kacsoq F21/Fu85e7z",
            "kAcSOq%21F21/Fu85e7z",
            "kAcSOq F21/Fu85e7",
        ] {
            assert!(!holds_secret(other, &[s]), "{other}");
        }
    }

    #[test]
    fn a_spelling_starts_only_with_one_of_its_first_bytes() {
        // What `spans` passes over: every byte that starts a spelling of
        // `want` (itself, an escape either case, the escape escaped, a `+`)
        // is among `first_bytes(want)`.
        for want in 0..=255u8 {
            let tails = [
                String::new(),
                format!("{want:02X}"),
                format!("{want:02x}"),
                format!("25{want:02X}"),
                format!("25{want:02x}"),
            ];
            for got in 0..=255u8 {
                for tail in &tails {
                    let mut text = vec![got];
                    text.extend_from_slice(tail.as_bytes());
                    if spells(&text, 0, want).is_some() {
                        assert!(first_bytes(want).contains(&got), "{want:#04x} as {text:?}");
                    }
                }
            }
        }
        // A secret that starts with a space, spelt with a `+` or an escape.
        let secret = " kAcSOqF21Fu85e7z";
        for spelled in [
            "+kAcSOqF21Fu85e7z",
            "%20kAcSOqF21Fu85e7z",
            " kAcSOqF21Fu85e7z",
        ] {
            assert_eq!(redact_secrets(spelled, &[secret]), REDACTED, "{spelled}");
        }
    }

    #[test]
    fn a_redacted_query_name_is_read_as_a_form_decodes_it() {
        for name in [
            "oauth_signature",
            "oauth%5Fsignature",
            "oauth%5fsignature",
            "%6Fauth_verifier",
        ] {
            let url = format!("/r?a=1&{name}=v&b=2");
            assert_eq!(
                redact_url(&url),
                format!("/r?a=1&{name}={REDACTED}&b=2"),
                "{name}"
            );
        }
        // Not one of them: another name, a bad escape, `+` (a space), no value.
        for url in [
            "/r?oauth_signatures=v",
            "/r?oauth_signature%=v",
            "/r?oauth_signature%2=v",
            "/r?oauth+signature=v",
            "/r?oauth_signature",
        ] {
            assert!(matches!(redact_url(url), Cow::Borrowed(_)), "{url}");
        }
    }

    #[test]
    fn a_short_secret_is_redacted_only_where_it_stands_alone() {
        let short = ["csec", "tsec"];
        assert_eq!(redact_secrets("csec&tsec", &short), "<redacted>&<redacted>");
        assert_eq!(
            redact_secrets("docsec tsecs a_csec", &short),
            "docsec tsecs a_csec"
        );
        assert_eq!(redact_secrets("\"csec\"", &short), "\"<redacted>\"");
        // Shorter still: only as the whole text.
        assert_eq!(redact_secrets("5 s", &["s"]), "5 s");
        assert_eq!(redact_secrets("s", &["s"]), "<redacted>");
        // The longest secret at a place wins.
        assert_eq!(
            redact_secrets("abcdefghij", &["abcdefgh", "abcdefghij"]),
            "<redacted>"
        );
        assert_eq!(redact_secrets("none here", &[""]), "none here");
    }

    #[test]
    fn signatures_and_user_information_leave_urls() {
        for (url, want) in [
            ("/r?oauth_signature=abc", "/r?oauth_signature=<redacted>"),
            ("/r?OAUTH_SIGNATURE=abc", "/r?OAUTH_SIGNATURE=abc"),
            ("/r?oauth_signature", "/r?oauth_signature"),
            (
                "/r?x=1&oauth%5fsignature=a#f",
                "/r?x=1&oauth%5fsignature=<redacted>#f",
            ),
            (
                "https://u:p@h/p?oauth_signature=s",
                "https://<redacted>@h/p?oauth_signature=<redacted>",
            ),
            ("https://h/p?next=a@b", "https://h/p?next=a@b"),
            // The verifier and the callback as the signature: the three
            // legs may carry them in the query.
            (
                "/oauth/access_token?oauth_verifier=v1&oauth_token=t",
                "/oauth/access_token?oauth_verifier=<redacted>&oauth_token=t",
            ),
            (
                "/oauth/request_token?oauth%5Fcallback=https%3A%2F%2Fc%2F%3Fstate%3Ds",
                "/oauth/request_token?oauth%5Fcallback=<redacted>",
            ),
            ("/r?oauth_verifier", "/r?oauth_verifier"),
            ("/r?oauth_verifierx=1", "/r?oauth_verifierx=1"),
        ] {
            assert_eq!(redact_url(url), want, "{url}");
        }
    }
}
