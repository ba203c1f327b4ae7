//! The CLI's output code on arbitrary requests: the stage JSON, the trace
//! for people, the curl line, and the caret under an error, as `oauth1 sign`
//! prints them, through the CLI crate's `oauth1_cli::_fuzz`.
//!
//! Input: a flags byte, then `method 0xFF url 0xFF realm 0xFF body`; or, with
//! both top bits set, `offset (u16 LE) len (u8) text` for the caret alone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oauth1_cli::_fuzz::{
    caret_lines, pointed_text, printable, stages_json, stages_text, Caret, Shown,
};
use oauth1_signer::{ErrorKind, RequestSpec, Secret};

mod common;

use common::{fields, text};

const CONSUMER_SECRET: &str = "consumer-SECRET";
const TOKEN_SECRET: &str = "token-SECRET";
const METHODS: [&str; 4] = ["HMAC-SHA1", "HMAC-SHA256", "PLAINTEXT", "HMAC-SHA512"];

fuzz_target!(|data: &[u8]| {
    let [flags, ref rest @ ..] = *data else {
        return;
    };
    if flags & 0xC0 == 0xC0 {
        let [o0, o1, len, ref text @ ..] = *rest else {
            return;
        };
        // Offsets as the library gives them: inside the text or at its end.
        let offset = usize::from(u16::from_le_bytes([o0, o1])) % (text.len() + 1);
        check_caret(text, offset, usize::from(len));
        return;
    }
    let [method, url, realm, body] = fields(rest);
    let mut spec = RequestSpec::default();
    spec.method = text(method).into();
    spec.url = text(url).into();
    spec.realm = (flags & 0x10 != 0).then(|| text(realm).into());
    spec.form_body = (flags & 0x08 != 0).then(|| text(body).into());
    spec.consumer_key = "ck".into();
    spec.consumer_secret = Some(Secret::new(CONSUMER_SECRET));
    if flags & 0x20 != 0 {
        spec.token = Some("tk".into());
        spec.token_secret = Some(Secret::new(TOKEN_SECRET));
    }
    spec.signature_method = Some(METHODS[usize::from(flags & 3)].into());
    spec.nonce = Some("nonce".into());
    spec.timestamp = Some("1".into());
    spec.version = true;
    let show_secrets = flags & 0x04 != 0;

    let trace = match spec.trace() {
        Ok(trace) => trace,
        Err(e) => {
            // As `sign::library_error` does: a caret under the spot.
            let Some((part, offset)) = e.offset() else {
                return;
            };
            if let Some(text) = pointed_text(&spec, part) {
                assert!(offset <= text.len(), "{e}");
                check_caret(text.as_bytes(), offset, e.span_len());
            }
            return;
        }
    };
    let header = spec
        .signer()
        .unwrap()
        .authorization_header(&spec.request(&spec.protocol_params().unwrap()))
        .unwrap();
    assert_eq!(header, trace.authorization_header);
    let shown = Shown::new(&trace, show_secrets);
    let json = stages_json(&trace, &shown, None).unwrap();
    let text = stages_text(&spec, &trace, &shown);
    // The curl command as `oauth1 sign --format curl` writes it (the
    // library's writer). No shell word holds a NUL: it refuses one, naming it.
    let sent = spec.sent(&trace.signed).unwrap();
    let curl = sent.curl(&spec.method).map(|c| format!("{c}\n"));
    let nul = [Some(&spec.method), Some(&spec.url), spec.form_body.as_ref()]
        .into_iter()
        .flatten()
        .any(|t| t.contains('\0'));
    assert_eq!(curl.is_err(), nul, "{curl:?}");
    if let Err(e) = &curl {
        assert!(
            matches!(e.kind(), ErrorKind::InvalidByte { byte: 0, .. }),
            "{e}"
        );
    }

    // The JSON is JSON, and holds the stages.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["base_string"], trace.base_string.as_str());
    assert_eq!(value["normalized_params"], trace.normalized_params.as_str());
    assert_eq!(
        value["collected_params"].as_array().unwrap().len(),
        trace.collected_params.len()
    );
    let plaintext = trace.signature.is_secret();
    if show_secrets || !plaintext {
        assert_eq!(value["authorization_header"], header.as_str());
    }

    // Secrets only when asked for (unless the request itself says "SECRET").
    let asked = [&spec.method, &spec.url]
        .into_iter()
        .any(|t| t.contains("SECRET"))
        || [&spec.realm, &spec.form_body]
            .into_iter()
            .any(|t| t.as_deref().is_some_and(|t| t.contains("SECRET")));
    if !show_secrets && !asked {
        assert!(!json.contains("SECRET"), "{json}");
        assert!(!text.contains("SECRET"), "{text}");
    }

    // The trace is safe on a terminal, and its base string lines, joined,
    // are the signed bytes.
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    // Found by the structure of what was printed, not by searching for a
    // heading: request text can repeat any heading, but only on an indented
    // line of its own section.
    let sections = sections(&text);
    let headings: Vec<&str> = sections.iter().map(|(h, _)| *h).collect();
    let mut want_headings = HEADINGS.to_vec();
    if !trace.warnings.is_empty() {
        want_headings.push("warnings:");
    }
    assert_eq!(headings, want_headings, "{text}");
    let base: String = sections[BASE_STRING_SECTION].1.concat();
    assert_eq!(base, trace.base_string);

    // The curl line is one shell command whose words are exactly what was
    // signed (the library's writer: -X only where curl would not choose the
    // method, -I for a HEAD).
    let Ok(curl) = curl else {
        return;
    };
    let mut want = vec!["curl".to_owned()];
    let body = spec.form_body.is_some();
    match (spec.method.as_str(), body) {
        ("HEAD", false) => want.push("-I".into()),
        ("GET", false) | ("POST", true) => {}
        (method, _) => want.extend(["-X".into(), method.to_owned()]),
    }
    // curl globs a URL holding [ ] { } (an IPv6 host's brackets too)
    // into several unless told not to.
    if spec.url.contains(['[', ']', '{', '}']) {
        want.push("--globoff".into());
    }
    want.extend(["--path-as-is".into(), spec.url.clone()]);
    want.extend(["-H".into(), format!("Authorization: {header}")]);
    if let Some(body) = &spec.form_body {
        want.extend([
            "-H".into(),
            "Content-Type: application/x-www-form-urlencoded".into(),
            "--data-raw".into(),
            body.clone(),
        ]);
    }
    assert_eq!(
        shell_words(curl.strip_suffix('\n').unwrap()),
        want,
        "{curl}"
    );
});

/// The headings of `stages_text`, in order; `warnings:` follows when there are any.
const HEADINGS: [&str; 8] = [
    "request:",
    "collected parameters (decoded; query, then oauth_*, then body):",
    "normalized parameters (encoded, sorted; one per line, joined by '&'):",
    "base string URI:",
    "base string (a line per '&' and per '%26'; joined, they are the signed bytes):",
    "signing key:",
    "signature:",
    "Authorization header:",
];
const BASE_STRING_SECTION: usize = 4;

/// Splits the trace into its sections: a heading at column 0, then its lines,
/// each indented by two spaces (returned without them), then one blank line
/// before the next heading. Anything else is a failure: a line of request
/// text that escaped its indentation would be one.
fn sections(text: &str) -> Vec<(&str, Vec<&str>)> {
    let body = text
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("no final newline: {text:?}"));
    body.split("\n\n")
        .map(|section| {
            let mut lines = section.split('\n');
            let heading = lines.next().unwrap_or_default();
            assert!(
                !heading.is_empty() && !heading.starts_with(' '),
                "not a heading: {heading:?} in {text}"
            );
            let lines: Vec<&str> = lines
                .map(|l| {
                    l.strip_prefix("  ")
                        .unwrap_or_else(|| panic!("not indented: {l:?} in {text}"))
                })
                .collect();
            assert!(!lines.is_empty(), "empty section {heading:?} in {text}");
            (heading, lines)
        })
        .collect()
}

/// Two lines: the text around the spot, printable, and carets under it; a
/// few hundred characters whatever the text's size.
fn check_caret(text: &[u8], offset: usize, len: usize) {
    let out = caret_lines(&Caret::new(text, offset, len));
    let lines: Vec<&str> = out.strip_suffix('\n').unwrap().split('\n').collect();
    let [shown, carets] = lines[..] else {
        panic!("not two lines: {out:?}");
    };
    let shown = shown.strip_prefix("  ").unwrap();
    let carets = carets.strip_prefix("  ").unwrap();
    assert!(!shown.chars().any(char::is_control), "{out:?}");
    let pad = carets.len() - carets.trim_start_matches(' ').len();
    let marks = &carets[pad..];
    assert!(
        !marks.is_empty() && marks.bytes().all(|b| b == b'^'),
        "{out:?}"
    );
    assert!(
        shown.chars().count() <= 400 && carets.len() <= 400,
        "{out:?}"
    );
    // The first caret sits under the first character of the spot.
    if offset < text.len() && !(0x80..0xC0).contains(&text[offset]) {
        let want = printable(&text[offset..]).chars().next();
        assert_eq!(shown.chars().nth(pad), want, "{out:?} at {offset}");
    }
}

/// Splits a POSIX shell line made of words in single quotes, `\'` between
/// them, bash's `$'...'` (with `\\`, `\'`, `\n`, `\r`, `\t` and `\xHH`,
/// as bash's manual lists them) and bare words: exactly what `shell_quote`
/// writes, and nothing else (a `"`, a lone `$` or a backslash outside quotes
/// is a failure).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<Vec<u8>> = None;
    let mut chars = line.chars().peekable();
    let push =
        |w: &mut Vec<u8>, c: char| w.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(Vec::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => push(w, c),
                        None => panic!("unterminated quote: {line:?}"),
                    }
                }
            }
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                let w = word.get_or_insert_with(Vec::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some('\\') => match chars.next() {
                            Some('\\') => w.push(b'\\'),
                            Some('\'') => w.push(b'\''),
                            Some('n') => w.push(b'\n'),
                            Some('r') => w.push(b'\r'),
                            Some('t') => w.push(b'\t'),
                            Some('x') => {
                                let hex: String = chars.by_ref().take(2).collect();
                                let byte = u8::from_str_radix(&hex, 16)
                                    .unwrap_or_else(|_| panic!("bad \\x{hex} in {line:?}"));
                                w.push(byte);
                            }
                            other => {
                                panic!("escape {other:?} not written by shell_quote: {line:?}")
                            }
                        },
                        Some(c) => push(w, c),
                        None => panic!("unterminated $'...': {line:?}"),
                    }
                }
            }
            '\\' => {
                assert_eq!(chars.next(), Some('\''), "{line:?}");
                word.get_or_insert_with(Vec::new).push(b'\'');
            }
            c if c.is_ascii_alphanumeric() || c == '-' => {
                push(word.get_or_insert_with(Vec::new), c)
            }
            c => panic!("unquoted {c:?} in {line:?}"),
        }
    }
    words.extend(word);
    words
        .into_iter()
        .map(|w| String::from_utf8(w).unwrap_or_else(|e| panic!("not UTF-8: {e} in {line:?}")))
        .collect()
}
