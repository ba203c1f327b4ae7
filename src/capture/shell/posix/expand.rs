//! What bash would replace with a value the text does not hold, refused
//! at its offset: `$` expansions, `!` history, `{a,b}` braces, `~`; and a
//! here-document's unquoted lines, where `$` still expands.

use crate::capture::shown;
use crate::error::Error;

use super::super::unreadable;
use super::Posix;

impl Posix<'_> {
    /// Refuses an unquoted `~` at `at` that bash replaces (the bash
    /// manual, §3.5.2 Tilde Expansion): one that starts a word, or that
    /// follows the first `=` or an unquoted `:` after it in a word that
    /// looks like an assignment (`NAME=`, `NAME[...]=`, `NAME+=`), which
    /// bash outside POSIX mode expands in a command's arguments too (bash
    /// 5.2 prints `/root` for `printf %s status=~` run as root, and
    /// `status=~` in POSIX mode). Its tilde-prefix runs to the first
    /// unquoted `/` or `:` or the word's end; one with a quoted character
    /// (`~"root"`, `~'/x'`) is literal. What it becomes (`$HOME`, a user's
    /// home, `$PWD` for `~+`, or itself for a user that does not exist)
    /// is not in the text.
    pub(super) fn tilde(&self, at: usize) -> Result<(), Error> {
        let after_assignment = match &self.cur {
            None => false,
            Some(word) => {
                let Some(eq) = assignment_eq(&word.bytes, self.first_quote) else {
                    return Ok(());
                };
                let last = word.bytes.len() - 1;
                let plain = self.plain_end == Some(word.bytes.len());
                if !(plain && (last == eq || (last > eq && word.bytes[last] == b':'))) {
                    return Ok(());
                }
                true
            }
        };
        let b = self.b;
        let mut end = at + 1;
        while let Some(&c) = b.get(end) {
            match c {
                b'/' | b':' | b' ' | b'\t' | b'\n' | b'\r' | b';' | b'&' | b'|' | b'<' | b'>'
                | b'(' | b')' => break,
                b'\\' if b.get(end + 1) == Some(&b'\n') => end += 2,
                b'\'' | b'"' | b'\\' => return Ok(()),
                b'$' if matches!(b.get(end + 1), Some(b'\'' | b'"')) => return Ok(()),
                _ => end += 1,
            }
        }
        let place = if after_assignment {
            "after = or : in a word that looks like an assignment (NAME=...)"
        } else {
            "at the start of a word"
        };
        Err(unreadable(
            at,
            format!(
                "{} {place} is tilde expansion: bash replaces it with a home directory \
                 (~ with $HOME, ~user with that user's), which is not in the text; write \
                 '~' or \\~ for the character itself",
                shown(&b[at..end])
            ),
        ))
    }
}

/// One line of a here-document whose delimiter is not quoted: `\$`,
/// `` \` `` and `\\` escape, and expansions are refused.
pub(super) fn unquoted_doc_line(line: &[u8], at: usize, body: &mut Vec<u8>) -> Result<(), Error> {
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'\\' if matches!(line.get(i + 1), Some(b'$' | b'`' | b'\\')) => {
                body.push(line[i + 1]);
                i += 2;
            }
            b'$' => {
                expansion(line, i).map_err(|e| e.shifted(at))?;
                body.push(b'$');
                i += 1;
            }
            b'`' => {
                return Err(unreadable(
                    at + i,
                    "a backquote in a here-document runs a command (command substitution)",
                ))
            }
            c => {
                body.push(c);
                i += 1;
            }
        }
    }
    Ok(())
}

/// The index of the `=` of a word that bash takes for an assignment: an
/// unquoted `NAME=`, `NAME[...]=` or `NAME+=` at its start, NAME a letter
/// or `_` and then letters, digits and `_` (the bash manual, §2
/// Definitions, "name"). `first_quote`: how many of its bytes came before
/// its first quoted one.
fn assignment_eq(word: &[u8], first_quote: Option<usize>) -> Option<usize> {
    let eq = word.iter().position(|&c| c == b'=')?;
    if first_quote.is_some_and(|q| q <= eq) {
        return None;
    }
    let mut name = &word[..eq];
    if let Some(rest) = name.strip_suffix(b"+") {
        name = rest;
    }
    if let Some(rest) = name.strip_suffix(b"]") {
        name = &rest[..rest.iter().position(|&c| c == b'[')?];
    }
    let (first, rest) = name.split_first()?;
    let ok = (first.is_ascii_alphabetic() || *first == b'_')
        && rest.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    ok.then_some(eq)
}

/// Refuses a `$` at `at` that starts an expansion; a `$` that starts none
/// (`$` before a space, `/`, or at the end) is itself.
pub(super) fn expansion(b: &[u8], at: usize) -> Result<(), Error> {
    let what = match b.get(at + 1) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
            let len = b[at + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            format!(
                "${} is a shell variable, replaced by its value, which is not in the text",
                String::from_utf8_lossy(&b[at + 1..at + 1 + len])
            )
        }
        Some(b'{') => {
            "${...} is replaced by a shell variable's value, which is not in the text".into()
        }
        Some(b'(') => {
            "$(...) runs a command and puts its output here, which is not in the text".into()
        }
        Some(b'[') => "$[...] is arithmetic the shell replaces by its result".into(),
        Some(c) if c.is_ascii_digit() || b"@*#?-$!".contains(c) => format!(
            "${} is a special shell parameter, replaced by its value",
            *c as char
        ),
        _ => return Ok(()),
    };
    Err(unreadable(at, what))
}

/// Refuses a `!` at `at` that an interactive bash expands from its history.
pub(super) fn history(b: &[u8], at: usize) -> Result<(), Error> {
    match b.get(at + 1) {
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'=' | b'(') => Ok(()),
        Some(_) => Err(unreadable(
            at,
            "a ! outside single quotes is history expansion in an interactive bash (it \
             replaces !... with an earlier command, or fails with \"event not found\"): \
             write it in '...', as \\!, or as \\041 in $'...'",
        )),
    }
}

/// Refuses an unquoted `{` at `at` that starts a brace expansion
/// (`{a,b}`, `{1..3}`): it makes several words of one.
pub(super) fn brace(b: &[u8], at: usize) -> Result<(), Error> {
    let end = b[at..]
        .iter()
        .position(|c| c.is_ascii_whitespace() || matches!(c, b'\'' | b'"' | b'\\' | b'$'))
        .map_or(b.len(), |k| at + k);
    let run = &b[at..end];
    let Some(close) = run.iter().position(|&c| c == b'}') else {
        return Ok(());
    };
    let inner = &run[1..close];
    let list = inner.contains(&b',');
    let sequence = inner.windows(2).any(|w| w == b"..");
    if list || sequence {
        return Err(unreadable(
            at,
            "an unquoted {...} with a comma or .. is brace expansion: the shell makes several \
             words of it",
        ));
    }
    Ok(())
}
