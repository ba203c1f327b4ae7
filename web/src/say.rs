//! What the page says when something fails or looks wrong, by a stable code
//! and the values it quotes, so that the page words it in the reader's
//! language: the library's errors, from their [`ErrorKind`] and fields, and
//! its warnings, from their [`Warning`] variant. The library's own
//! `Display` (English) stays beside each, for scripts.
//!
//! An [`ErrorKind`]'s `reason` or `expected` is a sentence, not a field the
//! library keeps stable; where one decides what to say (which of a URL's
//! parts is wrong, which two settings conflict), it is read here, once,
//! and a reason this table does not know is said by its kind alone (the
//! tests reach every reason the page's fields can).

#[cfg(feature = "capture")]
use oauth1_signer::capture::Warning as CaptureWarning;
use oauth1_signer::text::{escape_controls, percent_encode_str};
use oauth1_signer::Warning;
use oauth1_signer::{Error, ErrorKind, Part};
use serde::Serialize;

/// What the page says, by a stable `code` that the page words in the
/// reader's language, and the values it quotes: its own advice about an
/// input (`plus-kept`, `decomposed`...), and what it says of an error or a
/// warning (`err.*`, `warn.*`: this module's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// Which message: `plus-kept`, `err.url-byte`, ...
    pub code: &'static str,
    /// The values it quotes, in order.
    pub args: Vec<Arg>,
}

/// A value a message quotes: data (a name, a value, an offset: shown as
/// it is, never translated), or a word the page has in each language (the
/// name of a part of the request, a space).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Arg {
    /// Data, as it is (JSON: a string).
    Data(String),
    /// The page's word of this key (JSON: `{"word": key}`).
    Word {
        /// Its key in the page's messages.
        word: &'static str,
    },
}

impl Arg {
    /// Data.
    pub fn data(value: impl Into<String>) -> Arg {
        Arg::Data(value.into())
    }

    /// The page's word `key`.
    pub fn word(key: &'static str) -> Arg {
        Arg::Word { word: key }
    }
}

impl Hint {
    /// Message `code` quoting the data `args`.
    pub fn new(code: &'static str, args: impl IntoIterator<Item = String>) -> Hint {
        Hint::with(code, args.into_iter().map(Arg::Data))
    }

    /// Message `code` quoting `args`, data or words.
    pub fn with(code: &'static str, args: impl IntoIterator<Item = Arg>) -> Hint {
        Hint {
            code,
            args: args.into_iter().collect(),
        }
    }
}

/// The word the page has for a part of the input.
pub fn part(part: Part) -> Arg {
    Arg::word(match part {
        Part::Url => "part.url",
        Part::FormBody => "part.body",
        Part::Method => "part.method",
        Part::Realm => "part.realm",
        Part::Header => "part.header",
        Part::Signature => "part.signature",
        Part::CurlCommand => "part.curl",
        Part::Har => "part.har",
        Part::HttpMessage => "part.http",
        _ => "part.input",
    })
}

/// The character of `input` at byte `at` (the whole character), as the
/// page quotes it: a space by name, a control character escaped.
pub fn char_at(input: &str, at: usize) -> Arg {
    let mut start = at.min(input.len());
    while !input.is_char_boundary(start) {
        start -= 1;
    }
    match input[start..].chars().next() {
        Some(' ') => Arg::word("char.space"),
        Some(c) => {
            let mut buf = [0; 4];
            Arg::data(escape_controls(c.encode_utf8(&mut buf).as_bytes(), &[]))
        }
        None => Arg::word("char.end"),
    }
}

/// The character at byte `at` of `input`, percent-encoded (`%20`, `%C5%9F`).
pub fn encoded_at(input: &str, at: usize) -> Arg {
    let mut start = at.min(input.len());
    while !input.is_char_boundary(start) {
        start -= 1;
    }
    let c = input[start..].chars().next().map_or(0, char::len_utf8);
    Arg::data(percent_encode_str(&input[start..start + c]).to_string())
}

/// What the page says for the library's error `e` about `input` (the text
/// the error's offset counts in; empty when it points into none).
pub fn error(e: &Error, input: &str) -> Hint {
    error_in(e, input, 0)
}

/// [`error`] for an error about `input[shift..]`: its offsets said as
/// offsets in `input` (their header, pasted with the field name a log
/// prints before it).
pub fn error_in(e: &Error, input: &str, shift: usize) -> Hint {
    let n = |v: usize| Arg::data((v + shift).to_string());
    match e.kind() {
        ErrorKind::MalformedEscape {
            part: p,
            offset,
            found,
            ..
        } => Hint::with(
            "err.malformed-escape",
            [part(*p), n(*offset), Arg::data(found.clone())],
        ),
        ErrorKind::InvalidByte {
            part: p, offset, ..
        } => {
            let (code, at) = (char_at(input, shift + offset), n(*offset));
            match p {
                Part::Url => Hint::with(
                    "err.url-byte",
                    [code, at, encoded_at(input, shift + offset)],
                ),
                Part::Method => Hint::with("err.method-byte", [code, at]),
                Part::Realm => Hint::with("err.realm-byte", [code, at]),
                Part::Header => Hint::with("err.header-byte", [code, at]),
                // The only text of the outgoing request read as a whole
                // input: a body's media type.
                Part::Input => Hint::with("err.content-type-byte", [code, at]),
                p => Hint::with("err.byte", [part(*p), code, at]),
            }
        }
        ErrorKind::UnexpectedEnd {
            part: p, offset, ..
        } => Hint::with("err.end", [part(*p), n(*offset)]),
        ErrorKind::Empty { part: p, .. } => Hint::with("err.empty", [part(*p)]),
        ErrorKind::InvalidUrl { offset, reason, .. } => {
            Hint::with(url_reason(reason), [n(*offset)])
        }
        ErrorKind::UnknownSignatureMethod { name, .. } => {
            Hint::with("err.unknown-method", [Arg::data(name.clone())])
        }
        ErrorKind::DuplicateProtocolParameter { name, .. } => {
            Hint::with("err.duplicate", [Arg::data(name.clone())])
        }
        ErrorKind::ProtocolParameterInRequest {
            name,
            part: p,
            offset,
            ..
        } => Hint::with(
            "err.protocol-in-request",
            [Arg::data(name.clone()), part(*p), n(*offset)],
        ),
        ErrorKind::InvalidProtocolValue { name, reason, .. } => match *name {
            "oauth_nonce" => Hint::with("err.nonce", []),
            "oauth_timestamp" => Hint::with("err.timestamp", []),
            // Mastercard's style: a value its signers would write ambiguously.
            name if reason.contains("Mastercard") || reason.contains('&') => {
                Hint::with("err.mastercard-value", [Arg::data(name.to_owned())])
            }
            name => Hint::with("err.protocol-value", [Arg::data(name.to_owned())]),
        },
        ErrorKind::NotAProtocolParameter { name, .. } => {
            Hint::with("err.not-protocol", [Arg::data(name.clone())])
        }
        ErrorKind::MissingKey { method, .. } => {
            Hint::with("err.missing-key", [Arg::data((*method).to_owned())])
        }
        ErrorKind::InvalidKey { .. } => Hint::with("err.invalid-key", []),
        ErrorKind::Rsa { .. } => Hint::with("err.rsa", []),
        ErrorKind::TooLong {
            part: p,
            len,
            limit,
            ..
        } => Hint::with("err.too-long", [part(*p), n(*len), n(*limit)]),
        ErrorKind::AmbiguousMediaType { media_type, .. } => {
            Hint::with("err.ambiguous-media-type", [Arg::data(media_type.clone())])
        }
        ErrorKind::Conflict { reason, .. } => Hint::with(conflict(reason), []),
        ErrorKind::ClockBeforeEpoch { .. } | ErrorKind::NoClock { .. } => {
            Hint::with("err.clock", [])
        }
        // A capture's refusals: their reason is the library's sentence
        // (English, quoted as data), the rest said in the reader's language.
        ErrorKind::Ambiguous {
            part: p,
            offset,
            reason,
            ..
        } => Hint::with(
            "err.capture-ambiguous",
            [part(*p), n(*offset), Arg::data(reason.clone())],
        ),
        ErrorKind::Unreadable {
            part: p,
            offset: Some(offset),
            reason,
            ..
        } => Hint::with(
            "err.capture-unreadable-at",
            [part(*p), n(*offset), Arg::data(reason.clone())],
        ),
        ErrorKind::Unreadable {
            part: p, reason, ..
        } => Hint::with(
            "err.capture-unreadable",
            [part(*p), Arg::data(reason.clone())],
        ),
        ErrorKind::NotInCapture {
            offset,
            option,
            path,
            ..
        } => match path.as_str() {
            "-" => Hint::with(
                "err.not-in-capture-stdin",
                [Arg::data(option.clone()), n(*offset)],
            ),
            path => Hint::with(
                "err.not-in-capture",
                [
                    Arg::data(option.clone()),
                    Arg::data(path.to_owned()),
                    n(*offset),
                ],
            ),
        },
        ErrorKind::EntryNotChosen {
            candidates,
            entries,
            ..
        } => match candidates.as_slice() {
            [] => Hint::with("err.entry-none", [Arg::data(entries.to_string())]),
            c => Hint::with(
                "err.entry-not-chosen",
                [
                    Arg::data(c.len().to_string()),
                    Arg::data(entries.to_string()),
                    Arg::data(
                        c.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                ],
            ),
        },
        ErrorKind::NoSuchEntry { entry, entries, .. } => Hint::with(
            "err.no-such-entry",
            [Arg::data(entry.to_string()), Arg::data(entries.to_string())],
        ),
        // A kind the library added since: its own words, quoted.
        _ => Hint::with("err.other", [Arg::data(e.to_string())]),
    }
}

/// The page's code for an [`ErrorKind::InvalidUrl`] reason.
fn url_reason(reason: &str) -> &'static str {
    match reason {
        r if r.starts_with("unsupported scheme") => "err.url-scheme",
        r if r.starts_with("not an absolute URL") => "err.url-relative",
        r if r.starts_with("expected ':' after the scheme") => "err.url-colon",
        r if r.starts_with("expected '//'") => "err.url-slashes",
        "missing host" => "err.url-host",
        r if r.starts_with("user information") => "err.url-userinfo",
        r if r.contains("port") && !r.contains("IPv6") => "err.url-port",
        r if r.contains("IPv") => "err.url-ipv6",
        _ => "err.url",
    }
}

/// The page's code for an [`ErrorKind::Conflict`] reason.
fn conflict(reason: &str) -> &'static str {
    match reason {
        r if r.starts_with("the form-body transmission") => "err.form-body-transmission",
        r if r.starts_with("Mastercard's style") => "err.mastercard-header-only",
        r if r.starts_with("a body of type application/x-www-form-urlencoded") => {
            "err.bytes-form-type"
        }
        _ => "err.conflict",
    }
}

/// What the page says for a capture's warning `w`: its code, and the values
/// its sentence quotes (a code whose sentence quotes a value or not is two
/// messages: `fragment-dropped` from curl and from a HAR file, `not-oauth`
/// for another signing option and for none).
#[cfg(feature = "capture")]
pub fn capture_warning(w: &CaptureWarning) -> Hint {
    let code = match (w.code(), w.quoted().len()) {
        ("option-abbreviated", 2) => "cwarn.option-abbreviated",
        ("host-header", 1) => "cwarn.host-header",
        ("ignored-after-command", 1) => "cwarn.ignored-after-command",
        ("cmd-variable", 1) => "cwarn.cmd-variable",
        ("fragment-dropped", 1) => "cwarn.fragment-dropped",
        ("fragment-dropped", 0) => "cwarn.fragment-dropped-har",
        ("scheme-assumed", 1) => "cwarn.scheme-assumed",
        ("curl-urlencode", 2) => "cwarn.curl-urlencode",
        ("har-params-joined", 1) => "cwarn.har-params-joined",
        ("trailing-bytes", 1) => "cwarn.trailing-bytes",
        ("not-oauth", 1) => "cwarn.not-oauth-option",
        ("not-oauth", 0) => "cwarn.not-oauth",
        ("file-read", 3) => "cwarn.file-read",
        ("multipart-not-read", 0) => "cwarn.multipart-not-read",
        ("caret-in-ansi-c-quote", 0) => "cwarn.caret-in-ansi-c-quote",
        ("caret-in-cmd-quotes", 0) => "cwarn.caret-in-cmd-quotes",
        ("crlf-line-ends", 0) => "cwarn.crlf-line-ends",
        ("http2-message", 0) => "cwarn.http2-message",
        // A warning the library added since: its own words, quoted.
        _ => return Hint::with("warn.other", [Arg::data(w.to_string())]),
    };
    Hint::new(code, w.quoted().iter().cloned())
}

/// What the page says for the library's warning `w`.
pub fn warning(w: &Warning) -> Hint {
    let name = |n: &str| Arg::data(n.to_owned());
    match w {
        Warning::NotUtf8 {
            name: n,
            in_name,
            part: p,
            ..
        } => Hint::with(
            if *in_name {
                "warn.not-utf8-name"
            } else {
                "warn.not-utf8"
            },
            [name(n), part(*p)],
        ),
        Warning::PlusInQuery { name: n, .. } => Hint::with("warn.plus-in-query", [name(n)]),
        Warning::LooksEncoded {
            name: n, part: p, ..
        } => Hint::with("warn.looks-encoded", [name(n), part(*p)]),
        Warning::JsonFormBody { .. } => Hint::with("warn.json-form-body", []),
        Warning::DuplicateName { name: n, .. } => Hint::with("warn.duplicate-name", [name(n)]),
        Warning::TimestampSkew { timestamp, now, .. } => Hint::with(
            "warn.timestamp-skew",
            [
                Arg::data(timestamp.to_string()),
                Arg::data(timestamp.abs_diff(*now).to_string()),
            ],
        ),
        _ => Hint::with("warn.other", [Arg::data(w.to_string())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oauth1_signer::pipeline::RequestUrl;

    /// Every reason the URL field can meet is one the page has words for.
    #[test]
    fn each_url_reason_has_its_words() {
        for (url, code) in [
            ("ftp://h/", "err.url-scheme"),
            ("api.x.com/2/tweets", "err.url-relative"),
            ("https;//h/", "err.url-colon"),
            ("https:/h/", "err.url-slashes"),
            ("https:///p", "err.url-host"),
            ("https://u:p@h/", "err.url-userinfo"),
            ("https://h:8x/", "err.url-port"),
            ("https://h:99999/", "err.url-port"),
            ("https://h:0/", "err.url-port"),
            ("https://[::1/", "err.url-ipv6"),
            ("https://[::1]x/", "err.url-ipv6"),
            ("https://[fe80::1%25eth0]/", "err.url-ipv6"),
            ("https://[v1.x]/", "err.url-ipv6"),
            ("https://[zz]/", "err.url-ipv6"),
            ("https://h/?q=a b", "err.url-byte"),
            ("https://h/?q=%2G", "err.malformed-escape"),
        ] {
            let e = RequestUrl::parse(url).unwrap_err();
            assert_eq!(error(&e, url).code, code, "{url}: {e}");
        }
    }

    /// A capture's warnings are said by the page's code, with the values
    /// their sentence quotes.
    #[cfg(feature = "capture")]
    #[test]
    fn each_capture_warning_has_its_words() {
        use oauth1_signer::capture::{parse_http, Curl, Shell};
        let curl = |text: &str| {
            Curl::new()
                .with_shell(Shell::Posix)
                .parse(text)
                .unwrap()
                .warnings()
                .iter()
                .map(capture_warning)
                .collect::<Vec<_>>()
        };
        // (An option curl does not have is refused now, as curl refuses it.)
        let said = curl("curl 'https://h/p#top' --aws-sigv4 aws:amz");
        let codes: Vec<_> = said.iter().map(|h| h.code).collect();
        assert!(codes.contains(&"cwarn.fragment-dropped"), "{codes:?}");
        assert!(codes.contains(&"cwarn.not-oauth-option"), "{codes:?}");
        let fragment = said.iter().find(|h| h.code == "cwarn.fragment-dropped");
        assert_eq!(fragment.unwrap().args, [Arg::data("\"#top\"")]);
        let said = curl("curl h/p");
        let codes: Vec<_> = said.iter().map(|h| h.code).collect();
        assert_eq!(codes, ["cwarn.scheme-assumed", "cwarn.not-oauth"]);
        assert_eq!(said[0].args, [Arg::data("http")]);
        // An abbreviated option (curl 7.88 to 8.5 take --ge for --get), a Host of its own.
        let said = curl("curl --ge -H 'Host: other.example' https://h/p");
        let codes: Vec<_> = said.iter().map(|h| h.code).collect();
        assert!(codes.contains(&"cwarn.option-abbreviated"), "{codes:?}");
        assert!(codes.contains(&"cwarn.host-header"), "{codes:?}");
        let http = parse_http(b"GET /p HTTP/2\r\nHost: h\r\n\r\n\r\n\r\n", "https").unwrap();
        let codes: Vec<_> = http.warnings().iter().map(capture_warning).collect();
        assert_eq!(codes[0].code, "cwarn.http2-message");
        assert!(
            codes
                .iter()
                .any(|h| h.code == "cwarn.trailing-bytes" && h.args == [Arg::data("4")]),
            "{codes:?}"
        );
    }

    #[test]
    fn a_byte_is_quoted_whole_with_its_escape() {
        let url = "https://h/?e=ş";
        let e = RequestUrl::parse(url).unwrap_err();
        let said = error(&e, url);
        assert_eq!(
            said.args,
            [Arg::data("ş"), Arg::data("13"), Arg::data("%C5%9F")]
        );
        let e = RequestUrl::parse("https://h/?q=a b").unwrap_err();
        assert_eq!(
            error(&e, "https://h/?q=a b").args[0],
            Arg::word("char.space")
        );
    }
}
