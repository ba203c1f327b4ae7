//! `cmd.exe`'s `^` escapes and continuations, then the Microsoft C
//! runtime's argument splitting.

use crate::capture::{shown, Warning};
use crate::error::Error;

use super::{cut_off, unreadable, Command, Stdin, Word};

/// Splits `text` as `cmd.exe` and then the Microsoft C runtime do: cmd
/// removes each `^` and keeps the character after it (outside `"`), `^` at
/// a line's end continues the command on the next line (and keeps that
/// line's first character as it is); the C runtime splits at spaces and
/// tabs outside `"`, reads `\"` as a quote and `""` inside quotes as one.
pub(crate) fn split_cmd(text: &str, warnings: &mut Vec<Warning>) -> Result<Command, Error> {
    let b = text.as_bytes();
    cmd_variables(b, warnings);
    // cmd.exe: the command line passed on, each byte with its offset.
    let mut line: Vec<(u8, usize)> = Vec::with_capacity(b.len());
    let mut stdin = None;
    let mut quoted = false;
    let mut caret_warned = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\r' && b.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if quoted {
            match c {
                b'"' => quoted = false,
                b'^' if !caret_warned => {
                    // Firefox's "Copy as cURL (Windows)" leaves a header's `"` as
                    // `\"`, which cmd takes for a quote: the `^` escapes after
                    // it are then kept and sent.
                    caret_warned = true;
                    warnings.push(Warning::new(
                        "caret-in-cmd-quotes",
                        Some(i),
                        "a ^ inside \"...\" is kept by cmd.exe and sent (a generator that writes \
                         a quote as \\\" without ^ opens such a quote): the request this command \
                         sends is not the one the browser sent",
                    ));
                }
                b'\n' => {
                    return Err(unreadable(
                        i,
                        "a line ends inside \"...\" (cmd.exe ends the command there)",
                    ))
                }
                _ => {}
            }
            line.push((c, i));
            i += 1;
            continue;
        }
        match c {
            b'^' => {
                let mut next = i + 1;
                if b.get(next) == Some(&b'\r') && b.get(next + 1) == Some(&b'\n') {
                    next += 1;
                }
                match b.get(next) {
                    // A continuation: the line end goes, and the next line's
                    // first character is kept as it is (`^` + LF + LF is a LF).
                    Some(b'\n') => {
                        let mut after = next + 1;
                        if b.get(after) == Some(&b'\r') && b.get(after + 1) == Some(&b'\n') {
                            after += 1;
                        }
                        match b.get(after) {
                            Some(&k) => line.push((k, after)),
                            None => {
                                return Err(cut_off(b.len(), "the line the final ^ continues on"))
                            }
                        }
                        i = after + 1;
                    }
                    Some(&k) => {
                        line.push((k, next));
                        i = next + 1;
                    }
                    None => return Err(cut_off(b.len(), "the character the final ^ escapes")),
                }
            }
            b'"' => {
                quoted = true;
                line.push((c, i));
                i += 1;
            }
            b'\n' => {
                let rest = &b[i..];
                if !rest.trim_ascii().is_empty() {
                    let rest = shown(rest.trim_ascii());
                    warnings.push(
                        Warning::new(
                            "ignored-after-command",
                            Some(i),
                            format!(
                                "the curl command ends at this line end; what follows ({rest}) \
                                 is another command and is not read"
                            ),
                        )
                        .quoting([rest]),
                    );
                }
                break;
            }
            b'&' | b'|' => {
                let rest = shown(b[i..].trim_ascii());
                warnings.push(
                    Warning::new(
                        "ignored-after-command",
                        Some(i),
                        format!(
                            "the curl command ends here; what follows ({rest}) is another \
                             command and is not read"
                        ),
                    )
                    .quoting([rest]),
                );
                break;
            }
            b'<' | b'>' => {
                // A redirection: its target is the next word.
                let input = c == b'<';
                let mut j = i + 1;
                while matches!(b.get(j), Some(b'>' | b'&')) {
                    j += 1;
                }
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                let start = j;
                while j < b.len() && !matches!(b[j], b' ' | b'\t' | b'\r' | b'\n' | b'^') {
                    j += 1;
                }
                if start == j {
                    return Err(unreadable(i, "the redirection has no target"));
                }
                if input {
                    let path = String::from_utf8_lossy(&b[start..j])
                        .trim_matches('"')
                        .to_owned();
                    stdin = Some(Stdin::File { path, at: start });
                }
                // A file descriptor written right before `>` (`2>`) is not a word.
                while line
                    .last()
                    .is_some_and(|(d, at)| d.is_ascii_digit() && *at + 1 == i)
                {
                    line.pop();
                }
                i = j;
            }
            _ => {
                line.push((c, i));
                i += 1;
            }
        }
    }
    // An unclosed quote is passed on; the C runtime closes it at the end.
    Ok(Command {
        words: crt_split(&line),
        stdin,
    })
}

/// Splits a command line as the Microsoft C runtime does (`parse_cmdline`).
fn crt_split(line: &[(u8, usize)]) -> Vec<Word> {
    let mut words = Vec::new();
    let mut cur: Option<Word> = None;
    let mut quoted = false;
    let mut i = 0;
    let push = |cur: &mut Option<Word>, byte: Option<u8>, at: usize| {
        let word = cur.get_or_insert_with(|| Word {
            bytes: Vec::new(),
            at,
        });
        word.bytes.extend(byte);
    };
    while i < line.len() {
        let (c, at) = line[i];
        match c {
            b' ' | b'\t' if !quoted => {
                words.extend(cur.take());
                i += 1;
            }
            b'\\' => {
                let run = line[i..].iter().take_while(|(d, _)| *d == b'\\').count();
                if line.get(i + run).is_some_and(|(d, _)| *d == b'"') {
                    for _ in 0..run / 2 {
                        push(&mut cur, Some(b'\\'), at);
                    }
                    if run % 2 == 1 {
                        push(&mut cur, Some(b'"'), at);
                        i += run + 1;
                    } else {
                        i += run;
                    }
                } else {
                    for _ in 0..run {
                        push(&mut cur, Some(b'\\'), at);
                    }
                    i += run;
                }
            }
            b'"' => {
                if quoted && line.get(i + 1).is_some_and(|(d, _)| *d == b'"') {
                    push(&mut cur, Some(b'"'), at);
                    i += 2;
                } else {
                    push(&mut cur, None, at);
                    quoted = !quoted;
                    i += 1;
                }
            }
            _ => {
                push(&mut cur, Some(c), at);
                i += 1;
            }
        }
    }
    words.extend(cur);
    words
}

/// Warns of each `%NAME%` in a command for `cmd.exe`, which replaces it
/// with the variable's value when the variable is set (a generator writes
/// `%^` to keep it literal).
fn cmd_variables(b: &[u8], warnings: &mut Vec<Warning>) {
    let mut i = 0;
    while let Some(k) = b[i..].iter().position(|&c| c == b'%') {
        let start = i + k;
        let name_len = b[start + 1..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let name = &b[start + 1..start + 1 + name_len];
        let closed = b.get(start + 1 + name_len) == Some(&b'%');
        if closed
            && name
                .first()
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        {
            let name = String::from_utf8_lossy(name).into_owned();
            warnings.push(
                Warning::new(
                    "cmd-variable",
                    Some(start),
                    format!(
                        "cmd.exe replaces %{name}% with the environment variable's value when it \
                         is set; it is read here as written"
                    ),
                )
                .quoting([name]),
            );
            i = start + name_len + 2;
        } else {
            i = start + 1;
        }
    }
}

/// Whether `text` is written for `cmd.exe`: its first argument opens with
/// `^"` (Chrome and Firefox write every argument so), or its lines are
/// continued with `^` and none with `\`.
pub(crate) fn looks_like_cmd(text: &str) -> bool {
    let rest = text.trim_start();
    let after_curl = rest
        .split_once(|c: char| c.is_ascii_whitespace())
        .map_or("", |(_, r)| r.trim_start());
    if after_curl.starts_with("^\"") {
        return true;
    }
    let ends: Vec<u8> = text
        .lines()
        .filter_map(|l| l.trim_end().bytes().last())
        .collect();
    ends.contains(&b'^') && !ends.contains(&b'\\')
}
