//! A curl command parses back to the request it was written for, over random requests:
//!
//! - what `oauth1 sign --format curl` prints (single quotes, `'\''`, `$'...'` with `\xHH`
//!   for control bytes and bytes that are not UTF-8's, `--path-as-is`, `--globoff`): the
//!   method, the URL, the `Authorization` header and the form body it signed;
//! - the same request written as Chromium's "Copy as cURL" writes it, for bash (`$'...'` with
//!   `\uXXXX`, `!` escaped, lines continued with `\` and CRLF line ends) and for cmd.exe
//!   (`^"...^"`, `\^"`, `^` before each other character, `%^`, a newline as `^` and two line
//!   ends), the quoting rules written here from Chromium's NetworkLogView.ts.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use oauth1_signer::capture::{parse_curl, Curl, CurlCommand, Shell};
use oauth1_signer::RequestSpec;
use proptest::prelude::*;

/// The command the library's writer makes of a request signed in the
/// header, its body a form (as `oauth1 sign --format curl` gives it).
fn curl_line(spec: &RequestSpec, header: &str) -> Result<String, oauth1_signer::Error> {
    let mut headers = vec![("Authorization", header)];
    if spec.form_body.is_some() {
        headers.push(("Content-Type", "application/x-www-form-urlencoded"));
    }
    let body = spec.form_body.as_deref().map(str::as_bytes);
    let command = CurlCommand::new(&spec.method, &spec.url, headers, body)?;
    Ok(format!("{command}\n"))
}

/// Characters a body or header may hold: quotes of both kinds, shell specials, `!`, `%`,
/// `^`, backslashes, control characters, Unicode; never NUL (no shell argument holds one).
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            3 => proptest::sample::select(vec![
                '\'', '"', '\\', '$', '`', '!', '%', '^', '&', '|', '<', '>', '(', ')', ';', '#',
                '*', '?', '[', ']', '{', '}', '~', ' ', '\t', '=', '+', ',', '@',
            ]),
            1 => proptest::sample::select(vec!['\n', '\r', '\u{1}', '\u{1b}', '\u{7f}', '\u{85}']),
            1 => proptest::sample::select(vec!['é', '☃', '😀', '\u{a0}', 'Ω']),
        ],
        0..max,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// A URL path and query: RFC 3986's characters, dot segments, brackets and braces.
fn url() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            2 => proptest::sample::select(vec![
                '/', '.', '-', '_', '~', '%', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';',
                '=', ':', '@', '[', ']', '{', '}', '?',
            ]),
        ],
        0..40,
    )
    .prop_map(|chars| {
        let tail: String = chars.into_iter().collect();
        format!("https://api.x.com/{tail}")
    })
}

fn method() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn sign_s_curl_command_parses_to_the_request_it_signed(
        method in method(),
        url in url(),
        body in proptest::option::of(text(40)),
        header in text(60),
    ) {
        let mut spec = RequestSpec::default();
        spec.method = method.to_owned();
        spec.url = url.clone();
        let body = body.filter(|_| method != "HEAD");
        spec.form_body = body.clone();
        // A header holds no control character (a signer writes none).
        let header: String = header.chars().map(|c| if c.is_control() { 'x' } else { c }).collect();
        let header = format!("OAuth oauth_signature=\"{header}\"");
        let line = curl_line(&spec, &header).unwrap();
        let parsed = parse_curl(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        prop_assert_eq!(parsed.method(), method);
        prop_assert_eq!(parsed.url(), url.as_str());
        prop_assert_eq!(parsed.authorization(), Some(header.as_str()));
        prop_assert_eq!(parsed.body(), body.as_deref().map(str::as_bytes));
        // Only the note that a ^& in $'...' is sent as it is (Firefox's mark).
        prop_assert!(
            parsed.warnings().iter().all(|w| w.code() == "caret-in-ansi-c-quote"),
            "{:?}",
            parsed.warnings()
        );
    }

    #[test]
    fn chromium_s_bash_and_cmd_commands_parse_to_the_request(
        post in any::<bool>(),
        // A browser's URL has no dot segment left (without --path-as-is curl would
        // resolve one).
        url in url().prop_filter("no dot segment", |u| !u.contains("/.")),
        body in text(40),
        header in text(60),
        crlf in any::<bool>(),
    ) {
        // A header value holds no line end (a browser sends none).
        let header = header.replace(['\n', '\r'], " ");
        let body = post.then_some(body);
        // Chromium doubles each backslash for cmd, and the C runtime halves only those
        // before a quote: a backslash elsewhere is sent twice (its own mistake). cmd is
        // checked without backslashes.
        let backslash = url.contains('\\')
            || header.contains('\\')
            || body.as_deref().is_some_and(|b| b.contains('\\'));
        let platforms = match backslash {
            true => &[Platform::Bash][..],
            false => &[Platform::Bash, Platform::Cmd][..],
        };
        for &platform in platforms {
            let command = chromium(&url, &header, body.as_deref(), platform, crlf);
            let shell = match platform {
                Platform::Bash => Shell::Posix,
                Platform::Cmd => Shell::Cmd,
            };
            prop_assert_eq!(Shell::Auto.resolve(&command), shell, "{}", command);
            let parsed = Curl::new()
                .with_shell(shell)
                .parse(&command)
                .unwrap_or_else(|e| panic!("{command}: {e}"));
            // cmd.exe cannot carry a character outside printable ASCII: Chromium writes a
            // space instead (a line end stays one).
            let sent = |s: &str| match platform {
                Platform::Bash => s.to_owned(),
                Platform::Cmd => s
                    .replace("\r\n", "\n")
                    .replace('\r', "\n")
                    .chars()
                    .map(|c| if c == '\n' || (' '..='~').contains(&c) { c } else { ' ' })
                    .collect(),
            };
            let sent_url = sent(&url);
            prop_assert_eq!(parsed.url(), sent_url.as_str(), "{}", command);
            prop_assert_eq!(parsed.method(), if post { "POST" } else { "GET" });
            let value = sent(&header);
            let value = value.trim_matches([' ', '\t']);
            let expected = match (header.trim().is_empty(), value.is_empty()) {
                // Written `x-test;`: an empty header.
                (true, _) => Some(""),
                // Written `x-test: ...` and sent blank (cmd's spaces): curl leaves it out.
                (false, true) => None,
                (false, false) => Some(value),
            };
            prop_assert_eq!(parsed.header("x-test"), expected, "{}", command);
            let sent_body = body.as_deref().map(sent);
            prop_assert_eq!(
                parsed.body(),
                sent_body.as_deref().map(str::as_bytes),
                "{}",
                command
            );
        }
    }
}

#[derive(Clone, Copy)]
enum Platform {
    Bash,
    Cmd,
}

/// A word as Chromium's escapeStringPosix writes it.
fn chromium_posix(s: &str) -> String {
    let special = |c: char| c <= '\u{1f}' || ('\u{7f}'..='\u{9f}').contains(&c) || c == '!';
    if !s.chars().any(|c| special(c) || c == '\'') {
        return format!("'{s}'");
    }
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if special(c) => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A word as Chromium's escapeStringWin writes it.
fn chromium_win(s: &str) -> String {
    let allowed =
        |c: char| c.is_ascii_alphanumeric() || c.is_whitespace() || "_-:=+~'/.,?;*".contains(c);
    let mut step = String::new();
    for c in s.replace('\\', "\\\\").replace('"', "\\\"").chars() {
        if !allowed(c) {
            step.push('^');
        }
        step.push(c);
    }
    // %(?=[a-zA-Z0-9_]) as %^
    let chars: Vec<char> = step.chars().collect();
    let mut out = String::from("^\"");
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if c == '%'
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '_')
        {
            out.push('^');
        }
    }
    let out: String = out
        .chars()
        .map(|c| {
            if c == '\n' || c == '\r' || (' '..='~').contains(&c) {
                c
            } else {
                ' '
            }
        })
        .collect();
    let out = out
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\n', "^\n\n");
    out + "^\""
}

/// A GET with header `x-test: value`, or a POST of `body`, as Chromium's
/// generateCurlCommand writes it.
fn chromium(url: &str, value: &str, body: Option<&str>, platform: Platform, crlf: bool) -> String {
    let escape = |s: &str| match platform {
        Platform::Bash => chromium_posix(s),
        Platform::Cmd => chromium_win(s),
    };
    let mut url_word = String::new();
    for c in escape(url).chars() {
        if "[]{}".contains(c) {
            url_word.push('\\');
        }
        url_word.push(c);
    }
    // A value of only whitespace is written `name;`: `name:` would remove the header.
    let header = match value.trim().is_empty() {
        true => "x-test;".to_owned(),
        false => format!("x-test: {value}"),
    };
    let mut parts = vec![url_word, format!("-H {}", escape(&header))];
    if let Some(body) = body {
        parts.push(format!("--data-raw {}", escape(body)));
    }
    parts.push("--compressed".to_owned());
    let end = if crlf { "\r\n" } else { "\n" };
    let join = match platform {
        Platform::Bash => format!(" \\{end}  "),
        Platform::Cmd => format!(" ^{end}  "),
    };
    format!("curl {}", parts.join(&join))
}

#[test]
fn chromium_s_cmd_command_sends_a_backslash_twice() {
    // `\a` written by Chromium for cmd is ^"^\^\a^": cmd leaves \\a, and the C runtime
    // keeps both backslashes, which precede no quote.
    let command = chromium("https://h/", "\\a", None, Platform::Cmd, false);
    assert!(command.contains("^\"x-test: ^\\^\\a^\""), "{command}");
    let parsed = Curl::new().with_shell(Shell::Cmd).parse(&command).unwrap();
    assert_eq!(parsed.header("x-test"), Some("\\\\a"));
}

#[test]
fn a_nul_byte_sign_would_print_is_refused_by_name() {
    // No shell argument can hold a NUL: bash cuts a $'...' there.
    let mut spec = RequestSpec::default();
    spec.method = "POST".into();
    spec.url = "https://h/".into();
    spec.form_body = Some("a=\u{0}b".into());
    // The writer refuses it, by where it is in the body...
    let e = curl_line(&spec, "OAuth a=\"1\"").unwrap_err();
    assert_eq!(e.offset(), Some((oauth1_signer::Part::Input, 2)), "{e}");
    // ...and the reader refuses a command that holds one.
    let e = parse_curl("curl --data-raw $'a=\\x00b' https://h/").unwrap_err();
    assert!(
        e.to_string()
            .contains("a NUL byte in $'...' ends the argument"),
        "{e}"
    );
}
