//! A command line split into words as the shell it was written for splits
//! it: bash (POSIX quoting, `$'...'`, line continuations, here-documents),
//! or `cmd.exe` followed by the C runtime's argument parser (`^` escapes,
//! `"` quotes, `\"`). Each word keeps the byte offset where it starts.
//!
//! Whatever the shell would replace with a value the text does not hold
//! (`$VAR`, `$(...)`, a backquote, an interactive bash's `!` history
//! expansion, `{a,b}` brace expansion) is refused by name, never read as
//! the characters it is written with.

use crate::error::{Error, ErrorKind, Part};

mod cmd;
mod posix;

pub(crate) use cmd::{looks_like_cmd, split_cmd};
pub(crate) use posix::split_posix;

/// One word of a command line: its bytes after quoting and escapes, and
/// the byte offset in the text where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    pub bytes: Vec<u8>,
    pub at: usize,
}

/// Where the command's standard input comes from, when the text says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stdin {
    /// A here-document or here-string: its bytes.
    Text(Vec<u8>),
    /// `< FILE`: the file's name and where it is written.
    File { path: String, at: usize },
}

/// A command line split: its words and its standard input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Command {
    pub words: Vec<Word>,
    pub stdin: Option<Stdin>,
}

/// A curl command that cannot be read at byte `at`: the shells' and curl's
/// own readers say it alike.
pub(crate) fn unreadable(at: usize, reason: impl Into<String>) -> Error {
    Error::unreadable(Part::CurlCommand, Some(at), reason)
}

fn cut_off(len: usize, expected: &'static str) -> Error {
    Error::new(ErrorKind::UnexpectedEnd {
        part: Part::CurlCommand,
        offset: len,
        expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_posix(text, &mut Vec::new())
            .unwrap()
            .words
            .into_iter()
            .map(|w| String::from_utf8(w.bytes).unwrap())
            .collect()
    }

    fn cmd_words(text: &str) -> Vec<String> {
        split_cmd(text, &mut Vec::new())
            .unwrap()
            .words
            .into_iter()
            .map(|w| String::from_utf8(w.bytes).unwrap())
            .collect()
    }

    fn refused(text: &str) -> (usize, String) {
        let e = split_posix(text, &mut Vec::new()).unwrap_err();
        (e.offset().unwrap().1, e.to_string())
    }

    #[test]
    fn bash_quotes_as_bash_reads_them() {
        // Each expected word as bash itself prints it (printf '%s|').
        assert_eq!(
            words(r#"curl 'a b' "c d" e\ f"#),
            ["curl", "a b", "c d", "e f"]
        );
        assert_eq!(
            words(r#"x 'it'\''s' "say \"hi\" \$x \a""#),
            ["x", "it's", "say \"hi\" $x \\a"]
        );
        assert_eq!(
            words("x $'\\x27q\\x27 \\u00e9 \\101\\n'"),
            ["x", "'q' é A\n"]
        );
        assert_eq!(words("x a\\\n  b"), ["x", "a", "b"]);
        assert_eq!(words("x ''"), ["x", ""]);
        assert_eq!(words("x $ a$ 'b'$"), ["x", "$", "a$", "b$"]);
        assert_eq!(words("x a# b #c d\n"), ["x", "a#", "b"]);
        assert_eq!(words("x \"a!\" 'b!c' c!"), ["x", "a!", "b!c", "c!"]);
        assert_eq!(words("x {a} '{a,b}'"), ["x", "{a}", "{a,b}"]);
    }

    #[test]
    fn what_bash_would_replace_is_refused_where_it_is() {
        assert_eq!(refused("curl $HOME").0, 5);
        assert!(refused("curl \"a $(id)\"").1.contains("$(...)"));
        assert_eq!(refused("curl `id`").0, 5);
        assert!(refused("curl 'a' \"b!c\"").1.contains("history expansion"));
        assert!(refused("curl a{b,c}").1.contains("brace expansion"));
        assert!(refused("curl 'abc").1.contains("never closed"));
        assert!(refused("curl $'a\\0b'").1.contains("NUL"));
        assert!(refused("curl $'a\\x00'").1.contains("NUL"));
    }

    #[test]
    fn a_tilde_bash_expands_is_refused_where_it_is() {
        // What bash 5.2.15 printed for `printf '%s\n' WORD` run as root
        // (HOME=/root): each of these became a home directory...
        for (text, at) in [
            ("curl -d status=~", 15),
            ("curl --data-urlencode home=~root", 27),
            ("curl -G -d p=~/f", 13),
            ("curl ~", 5),
            ("curl ~root/x", 5),
            ("curl a=b:~", 9),
            ("curl a=~/x:~/y", 7),
            ("curl a[1]=~", 10),
            ("curl a+=~", 8),
            ("curl A_1=~", 9),
            ("curl ~:x", 5),
            ("curl a=x'y':~", 12),
            // (bash leaves ~user as it is for a user the machine has not:
            // which users the running machine has is not in the text.)
            ("curl ~nosuchuser", 5),
            ("curl -d @- x <<< ~", 17),
        ] {
            let (offset, message) = refused(text);
            assert_eq!(offset, at, "{text}");
            assert!(message.contains("tilde expansion"), "{text}: {message}");
        }
        // ...and these it printed as written: a quoted or escaped ~, a
        // tilde-prefix holding a quoted character, a ~ that follows no
        // assignment's = or :, a word whose NAME= is quoted or is no name.
        assert_eq!(
            words(
                r#"curl "q=~" '~' \~ x~ --data=~ -d~ a:~ 1a=~ a-b=~ a=b=~ ~"root" ~'/x' "a"=~ a\=~ \a=~ a=~\:x a=x\:~"#
            ),
            [
                "curl", "q=~", "~", "~", "x~", "--data=~", "-d~", "a:~", "1a=~", "a-b=~", "a=b=~",
                "~root", "~/x", "a=~", "a=~", "a=~", "a=~:x", "a=x:~"
            ]
        );
    }

    #[test]
    fn the_command_ends_where_bash_ends_it() {
        let mut warnings = Vec::new();
        let c = split_posix("curl a | jq .\n", &mut warnings).unwrap();
        assert_eq!(c.words.len(), 2);
        assert_eq!(warnings[0].code(), "ignored-after-command");
        let mut warnings = Vec::new();
        let c = split_posix("curl a > out.json 2>&1\n\n", &mut warnings).unwrap();
        assert_eq!(c.words.len(), 2);
        assert!(warnings.is_empty(), "{warnings:?}");
        let c = split_posix(
            "curl -d @- x <<'EOF'\n{\"a\": \"it's $x\"}\nEOF\n",
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(c.words.len(), 4);
        assert_eq!(
            c.stdin,
            Some(Stdin::Text(b"{\"a\": \"it's $x\"}\n".to_vec()))
        );
        let c = split_posix(
            "curl -d @- x <<EOF\n{\"a\": \"\\$1\"}\nEOF",
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(c.stdin, Some(Stdin::Text(b"{\"a\": \"$1\"}\n".to_vec())));
        assert!(split_posix("curl -d @- x <<EOF\n$HOME\nEOF", &mut Vec::new()).is_err());
        let c = split_posix("curl -d @- x < body.txt", &mut Vec::new()).unwrap();
        assert_eq!(
            c.stdin,
            Some(Stdin::File {
                path: "body.txt".into(),
                at: 15
            })
        );
    }

    #[test]
    fn crlf_line_ends_continue_lines() {
        let mut warnings = Vec::new();
        let c = split_posix("curl 'a' \\\r\n  -H 'b'\r\n", &mut warnings).unwrap();
        assert_eq!(c.words.len(), 4);
        assert_eq!(warnings[0].code(), "crlf-line-ends");
    }

    #[test]
    fn offsets_are_where_each_word_starts() {
        let c = split_posix("curl  'ab' \\\n -H x", &mut Vec::new()).unwrap();
        let at: Vec<usize> = c.words.iter().map(|w| w.at).collect();
        assert_eq!(at, [0, 6, 14, 17]);
    }

    #[test]
    fn cmd_and_the_c_runtime_read_carets_and_quotes() {
        // As Chrome's "Copy as cURL (cmd)" writes: every argument in ^"...^",
        // a quote as \^", a newline as ^ and two line ends.
        let text = "curl ^\"https://h/p?a=1^&b=2^\" ^\n  -H ^\"x: \\^\"q\\^\"^\" ^\n  --data-raw ^\"l1^\n\nl2 %^PATH%^\"";
        assert_eq!(
            cmd_words(text),
            [
                "curl",
                "https://h/p?a=1&b=2",
                "-H",
                "x: \"q\"",
                "--data-raw",
                "l1\nl2 %PATH%"
            ]
        );
        // Firefox's old Windows form: "..." with "" for a quote.
        assert_eq!(
            cmd_words(r#"curl "a ""b"" c" d"#),
            ["curl", "a \"b\" c", "d"]
        );
        // Backslashes are literal unless a quote follows.
        assert_eq!(
            cmd_words(r#"curl a\\b "c\\" d\"e"#),
            ["curl", "a\\\\b", "c\\", "d\"e"]
        );
        assert!(looks_like_cmd(text));
        assert!(!looks_like_cmd("curl 'a' \\\n -H 'b'"));
        assert!(looks_like_cmd("curl \"a\" ^\n -H \"b\""));
    }

    #[test]
    fn a_caret_cmd_keeps_inside_quotes_is_named() {
        // As Firefox's "Copy as cURL (Windows)" writes a header with quotes and a %.
        let mut warnings = Vec::new();
        let c = split_cmd(
            "curl ^\"https://h/^\" -H ^\"a: x=\\\"s^%^3D\\\"^\"",
            &mut warnings,
        )
        .unwrap();
        assert_eq!(c.words[3].bytes, b"a: x=\"s^%^3D\"");
        assert_eq!(warnings[0].code(), "caret-in-cmd-quotes");
    }

    #[test]
    fn cmd_variables_are_named() {
        let mut warnings = Vec::new();
        let _ = split_cmd("curl \"https://h/%TOKEN%\" %^20", &mut warnings).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message().contains("%TOKEN%"));
    }
}
