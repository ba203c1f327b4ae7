//! bash's word splitting: POSIX quoting, `$'...'`, line continuations and
//! here-documents; expansions whose value the text does not hold refused.

use crate::capture::{shown, Warning};
use crate::error::{Error, Part};

use super::{cut_off, unreadable, Command, Stdin, Word};

/// A pending redirection, waiting for its target word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Redirect {
    /// `<`: standard input from a file.
    From,
    /// `>`, `>>`, `2>&1`...: output, not the request's business.
    To,
    /// `<<` (`strip_tabs` for `<<-`): a here-document; the word is its
    /// delimiter.
    HereDoc { strip_tabs: bool },
    /// `<<<`: a here-string.
    HereString,
}

/// A here-document whose body is read at the end of its line.
#[derive(Clone, Debug)]
struct PendingDoc {
    delimiter: Vec<u8>,
    /// A quoted delimiter: the body is taken literally.
    literal: bool,
    strip_tabs: bool,
    at: usize,
}

/// Splits `text` as bash does. The command ends at the first newline that
/// is not escaped or quoted, or at `|`, `;`, `&`: what follows is another
/// command, and a warning says it was not read.
pub(crate) fn split_posix(text: &str, warnings: &mut Vec<Warning>) -> Result<Command, Error> {
    let b = text.as_bytes();
    let mut lexer = Posix {
        b,
        i: 0,
        out: Command::default(),
        cur: None,
        quoted_in_word: false,
        redirect: None,
        docs: Vec::new(),
        crlf_warned: false,
        first_quote: None,
        plain_end: None,
    };
    lexer.run(warnings)?;
    Ok(lexer.out)
}

struct Posix<'a> {
    b: &'a [u8],
    i: usize,
    out: Command,
    /// The word being read, and where it starts.
    cur: Option<Word>,
    /// Whether any part of the current word was quoted (a quoted
    /// here-document delimiter means a literal body).
    quoted_in_word: bool,
    redirect: Option<(Redirect, usize)>,
    docs: Vec<PendingDoc>,
    crlf_warned: bool,
    /// How many bytes the current word held when a part of it was first
    /// quoted or escaped: a word whose `NAME=` holds a quote is no
    /// assignment to bash.
    first_quote: Option<usize>,
    /// How many bytes the current word held after its last unquoted
    /// character: whether an `=` or `:` before a `~` was unquoted.
    plain_end: Option<usize>,
}

impl Posix<'_> {
    fn push(&mut self, bytes: &[u8], at: usize) {
        self.cur
            .get_or_insert_with(|| Word {
                bytes: Vec::new(),
                at,
            })
            .bytes
            .extend_from_slice(bytes);
    }

    /// Starts a word at `at` even if nothing is pushed (`''` is a word).
    fn start(&mut self, at: usize) {
        self.cur.get_or_insert_with(|| Word {
            bytes: Vec::new(),
            at,
        });
    }

    /// Starts a word at `at` with a quoted part (`'...'`, `"..."`, `$'...'`).
    fn start_quoted(&mut self, at: usize) {
        self.start(at);
        self.quoted_in_word = true;
        self.mark_quoted();
    }

    /// Notes that the current word is quoted or escaped from here on.
    fn mark_quoted(&mut self) {
        if self.first_quote.is_none() {
            self.first_quote = Some(self.cur.as_ref().map_or(0, |w| w.bytes.len()));
        }
    }

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
    fn tilde(&self, at: usize) -> Result<(), Error> {
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

    fn finish(&mut self) -> Result<(), Error> {
        self.first_quote = None;
        self.plain_end = None;
        let quoted = std::mem::take(&mut self.quoted_in_word);
        let Some(word) = self.cur.take() else {
            return Ok(());
        };
        match self.redirect.take() {
            None => self.out.words.push(word),
            Some((Redirect::To, _)) => {}
            Some((Redirect::From, _)) => {
                let path = String::from_utf8_lossy(&word.bytes).into_owned();
                self.set_stdin(Stdin::File { path, at: word.at }, word.at)?;
            }
            Some((Redirect::HereString, _)) => {
                let mut bytes = word.bytes;
                bytes.push(b'\n');
                self.set_stdin(Stdin::Text(bytes), word.at)?;
            }
            Some((Redirect::HereDoc { strip_tabs }, at)) => self.docs.push(PendingDoc {
                delimiter: word.bytes,
                literal: quoted,
                strip_tabs,
                at,
            }),
        }
        Ok(())
    }

    fn set_stdin(&mut self, stdin: Stdin, at: usize) -> Result<(), Error> {
        if self.out.stdin.is_some() {
            return Err(Error::ambiguous(
                Part::CurlCommand,
                at,
                "standard input is redirected twice",
            ));
        }
        self.out.stdin = Some(stdin);
        Ok(())
    }

    fn warn_crlf(&mut self, warnings: &mut Vec<Warning>, at: usize) {
        if !self.crlf_warned {
            self.crlf_warned = true;
            warnings.push(Warning::new(
                "crlf-line-ends",
                Some(at),
                "the command has CRLF line ends (saved on Windows): each CR before a line \
                 end is read as part of the line end, as a shell on Windows would",
            ));
        }
    }

    fn run(&mut self, warnings: &mut Vec<Warning>) -> Result<(), Error> {
        let b = self.b;
        while self.i < b.len() {
            let at = self.i;
            match b[at] {
                b' ' | b'\t' => {
                    self.finish()?;
                    self.i += 1;
                }
                b'\r' if b.get(at + 1) == Some(&b'\n') => {
                    self.warn_crlf(warnings, at);
                    self.i += 1;
                }
                b'\n' => {
                    self.finish()?;
                    self.i += 1;
                    if !self.docs.is_empty() {
                        self.read_docs(warnings)?;
                    }
                    if self.out.words.is_empty() {
                        continue;
                    }
                    return self.end(at, warnings);
                }
                b'\\' => match b.get(at + 1) {
                    Some(b'\n') => self.i += 2,
                    Some(b'\r') if b.get(at + 2) == Some(&b'\n') => {
                        self.warn_crlf(warnings, at + 1);
                        self.i += 3;
                    }
                    Some(_) => {
                        let len = char_len(b, at + 1);
                        self.mark_quoted();
                        self.push(&b[at + 1..at + 1 + len], at);
                        self.i += 1 + len;
                    }
                    None => return Err(cut_off(b.len(), "the line the final '\\' continues on")),
                },
                b'\'' => {
                    self.start_quoted(at);
                    let Some(len) = b[at + 1..].iter().position(|&c| c == b'\'') else {
                        return Err(unreadable(at, "the ' that opens here is never closed"));
                    };
                    self.push(&b[at + 1..at + 1 + len], at);
                    self.i = at + len + 2;
                }
                b'"' => {
                    self.start_quoted(at);
                    self.double_quoted(at)?;
                }
                b'$' if b.get(at + 1) == Some(&b'\'') => {
                    self.start_quoted(at);
                    self.ansi_c(at, warnings)?;
                }
                b'$' if b.get(at + 1) == Some(&b'"') => {
                    // $"...": a string the locale may translate; in the C
                    // locale, and for a command copied to run, itself.
                    self.start_quoted(at);
                    self.i += 1;
                    self.double_quoted(at + 1)?;
                }
                b'$' => {
                    expansion(b, at)?;
                    self.push(b"$", at);
                    self.i += 1;
                }
                b'`' => {
                    return Err(unreadable(
                        at,
                        "a backquote runs a command and puts its output here (command \
                         substitution), which is not in the text",
                    ))
                }
                b'#' if self.cur.is_none() => {
                    // A comment, to the end of the line.
                    let len = b[at..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .unwrap_or(b.len() - at);
                    self.i += len;
                }
                b'|' | b';' | b'&' => {
                    self.finish()?;
                    return self.end(at, warnings);
                }
                b'(' | b')' => {
                    return Err(unreadable(
                        at,
                        "an unquoted parenthesis is shell syntax (a subshell), not part of the \
                         curl command",
                    ))
                }
                b'<' | b'>' => self.redirection(at)?,
                b'!' => {
                    history(b, at)?;
                    self.push(b"!", at);
                    self.i += 1;
                }
                b'{' => {
                    brace(b, at)?;
                    self.push(b"{", at);
                    self.i += 1;
                }
                b'~' => {
                    self.tilde(at)?;
                    self.push(b"~", at);
                    self.i += 1;
                }
                _ => {
                    let len = char_len(b, at);
                    self.push(&b[at..at + len], at);
                    self.plain_end = self.cur.as_ref().map(|w| w.bytes.len());
                    self.i += len;
                }
            }
        }
        self.finish()?;
        if let Some((_, at)) = self.redirect {
            return Err(unreadable(at, "the redirection has no target"));
        }
        if let Some(doc) = self.docs.first() {
            return Err(unreadable(
                doc.at,
                "the here-document that starts here has no body (the command ends first)",
            ));
        }
        Ok(())
    }

    /// The end of the command at `at`: anything but blanks and comments
    /// after it is another command, not read.
    fn end(&mut self, at: usize, warnings: &mut Vec<Warning>) -> Result<(), Error> {
        if let Some((_, r)) = self.redirect {
            return Err(unreadable(r, "the redirection has no target"));
        }
        let rest = &self.b[at..];
        let blank = rest.split(|&c| c == b'\n').all(|line| {
            let line = line.trim_ascii();
            line.is_empty() || line.starts_with(b"#")
        });
        if !blank {
            let rest = shown(rest.trim_ascii());
            warnings.push(
                Warning::new(
                    "ignored-after-command",
                    Some(at),
                    format!(
                        "the curl command ends here; what follows ({rest}) is another command \
                         and is not read"
                    ),
                )
                .quoting([rest]),
            );
        }
        self.i = self.b.len();
        Ok(())
    }

    fn double_quoted(&mut self, open: usize) -> Result<(), Error> {
        let b = self.b;
        let mut i = open + 1;
        loop {
            let Some(&c) = b.get(i) else {
                return Err(unreadable(open, "the \" that opens here is never closed"));
            };
            match c {
                b'"' => break,
                b'\\' => match b.get(i + 1) {
                    Some(b'$' | b'`' | b'"' | b'\\') => {
                        self.push(&b[i + 1..i + 2], open);
                        i += 2;
                    }
                    Some(b'\n') => i += 2,
                    Some(b'\r') if b.get(i + 2) == Some(&b'\n') => i += 3,
                    _ => {
                        self.push(b"\\", open);
                        i += 1;
                    }
                },
                b'$' => {
                    expansion(b, i)?;
                    self.push(b"$", open);
                    i += 1;
                }
                b'`' => {
                    return Err(unreadable(
                        i,
                        "a backquote runs a command and puts its output here (command \
                         substitution), which is not in the text",
                    ))
                }
                b'!' if b.get(i + 1) != Some(&b'"') => {
                    history(b, i)?;
                    self.push(b"!", open);
                    i += 1;
                }
                _ => {
                    let len = char_len(b, i);
                    self.push(&b[i..i + len], open);
                    i += len;
                }
            }
        }
        self.i = i + 1;
        Ok(())
    }

    /// `$'...'`, bash's ANSI-C quoting: backslash escapes replaced.
    fn ansi_c(&mut self, open: usize, warnings: &mut Vec<Warning>) -> Result<(), Error> {
        let b = self.b;
        let mut i = open + 2;
        let mut caret_warned = false;
        loop {
            let Some(&c) = b.get(i) else {
                return Err(unreadable(open, "the $' that opens here is never closed"));
            };
            match c {
                b'\'' => break,
                b'\\' => {
                    let (bytes, len) = ansi_c_escape(b, i)?;
                    self.push(&bytes, open);
                    i += len;
                }
                b'^' if matches!(b.get(i + 1), Some(b'&' | b'|')) => {
                    // Firefox's "Copy as cURL (POSIX)" writes & and | as
                    // ^& and ^| inside $'...', where bash keeps the caret.
                    if !caret_warned {
                        caret_warned = true;
                        warnings.push(Warning::new(
                            "caret-in-ansi-c-quote",
                            Some(i),
                            "a ^ before & or | inside $'...' is kept by bash and sent: \
                             Firefox's \"Copy as cURL (POSIX)\" writes every & and | so, and \
                             its command then does not send the request the browser sent",
                        ));
                    }
                    self.push(b"^", open);
                    i += 1;
                }
                _ => {
                    let len = char_len(b, i);
                    self.push(&b[i..i + len], open);
                    i += len;
                }
            }
        }
        self.i = i + 1;
        Ok(())
    }

    fn redirection(&mut self, at: usize) -> Result<(), Error> {
        let b = self.b;
        // Digits written right before the operator are its file
        // descriptor (`2>`), not a word.
        if let Some(word) = &self.cur {
            let adjacent = word.at + word.bytes.len() == at;
            if adjacent && !self.quoted_in_word && word.bytes.iter().all(u8::is_ascii_digit) {
                self.cur = None;
            }
        }
        self.finish()?;
        if self.redirect.is_some() {
            return Err(unreadable(at, "a redirection where its target should be"));
        }
        let rest = &b[at..];
        let (kind, len) = if rest.starts_with(b"<<<") {
            (Redirect::HereString, 3)
        } else if rest.starts_with(b"<<-") {
            (Redirect::HereDoc { strip_tabs: true }, 3)
        } else if rest.starts_with(b"<<") {
            (Redirect::HereDoc { strip_tabs: false }, 2)
        } else if rest.starts_with(b"<&") || rest.starts_with(b">&") {
            // Duplicating a descriptor: `2>&1`. Its target is a number or -.
            (Redirect::To, 2)
        } else if rest.starts_with(b"<") {
            (Redirect::From, 1)
        } else if rest.starts_with(b">>") || rest.starts_with(b">|") {
            (Redirect::To, 2)
        } else {
            (Redirect::To, 1)
        };
        self.redirect = Some((kind, at));
        self.i = at + len;
        Ok(())
    }

    /// The bodies of the here-documents of the line just ended.
    fn read_docs(&mut self, warnings: &mut Vec<Warning>) -> Result<(), Error> {
        let b = self.b;
        let docs = std::mem::take(&mut self.docs);
        for doc in docs {
            let mut body = Vec::new();
            let mut found = false;
            while self.i < b.len() {
                let end = b[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |k| self.i + k);
                let mut line = &b[self.i..end];
                if line.last() == Some(&b'\r') {
                    self.warn_crlf(warnings, end - 1);
                    line = &line[..line.len() - 1];
                }
                if doc.strip_tabs {
                    while let Some(rest) = line.strip_prefix(b"\t") {
                        line = rest;
                    }
                }
                let line_at = self.i;
                self.i = (end + 1).min(b.len());
                if line == doc.delimiter.as_slice() {
                    found = true;
                    break;
                }
                if doc.literal {
                    body.extend_from_slice(line);
                } else {
                    unquoted_doc_line(line, line_at, &mut body)?;
                }
                body.push(b'\n');
            }
            if !found {
                return Err(unreadable(
                    doc.at,
                    format!(
                        "the here-document that starts here never ends (no line {})",
                        shown(&doc.delimiter)
                    ),
                ));
            }
            self.set_stdin(Stdin::Text(body), doc.at)?;
        }
        Ok(())
    }
}

/// One line of a here-document whose delimiter is not quoted: `\$`,
/// `` \` `` and `\\` escape, and expansions are refused.
fn unquoted_doc_line(line: &[u8], at: usize, body: &mut Vec<u8>) -> Result<(), Error> {
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

/// The length of the UTF-8 character at `at` (1 for a byte that starts none).
fn char_len(b: &[u8], at: usize) -> usize {
    let len = match b[at] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    len.min(b.len() - at)
}

/// Refuses a `$` at `at` that starts an expansion; a `$` that starts none
/// (`$` before a space, `/`, or at the end) is itself.
fn expansion(b: &[u8], at: usize) -> Result<(), Error> {
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
fn history(b: &[u8], at: usize) -> Result<(), Error> {
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
fn brace(b: &[u8], at: usize) -> Result<(), Error> {
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

/// One backslash escape of `$'...'` at `at`: its bytes and its length.
fn ansi_c_escape(b: &[u8], at: usize) -> Result<(Vec<u8>, usize), Error> {
    let Some(&c) = b.get(at + 1) else {
        return Err(unreadable(at, "the $'...' ends in a backslash"));
    };
    let simple = |byte: u8| Ok((vec![byte], 2));
    let digits = |from: usize, max: usize, radix: u32| -> (u32, usize) {
        let mut value = 0u32;
        let mut n = 0;
        while n < max {
            match b.get(from + n).and_then(|&d| (d as char).to_digit(radix)) {
                Some(d) => {
                    value = value * radix + d;
                    n += 1;
                }
                None => break,
            }
        }
        (value, n)
    };
    let nul = || {
        unreadable(
            at,
            "a NUL byte in $'...' ends the argument there (bash cuts it off): the rest is not sent",
        )
    };
    match c {
        b'a' => simple(0x07),
        b'b' => simple(0x08),
        b'e' | b'E' => simple(0x1B),
        b'f' => simple(0x0C),
        b'n' => simple(b'\n'),
        b'r' => simple(b'\r'),
        b't' => simple(b'\t'),
        b'v' => simple(0x0B),
        b'\\' | b'\'' | b'"' | b'?' => simple(c),
        b'0'..=b'7' => {
            let (value, n) = digits(at + 1, 3, 8);
            match u8::try_from(value & 0xFF) {
                Ok(0) | Err(_) => Err(nul()),
                Ok(byte) => Ok((vec![byte], 1 + n)),
            }
        }
        b'x' => {
            let (value, n) = digits(at + 2, 2, 16);
            match (n, u8::try_from(value)) {
                (0, _) => Ok((b"\\x".to_vec(), 2)),
                (_, Ok(0) | Err(_)) => Err(nul()),
                (_, Ok(byte)) => Ok((vec![byte], 2 + n)),
            }
        }
        b'u' | b'U' => {
            let max = if c == b'u' { 4 } else { 8 };
            let (value, n) = digits(at + 2, max, 16);
            if n == 0 {
                return Ok((vec![b'\\', c], 2));
            }
            if value == 0 {
                return Err(nul());
            }
            let Some(ch) = char::from_u32(value) else {
                return Err(unreadable(
                    at,
                    format!("\\{}{value:X} is not a Unicode scalar value", c as char),
                ));
            };
            let mut buf = [0u8; 4];
            Ok((ch.encode_utf8(&mut buf).as_bytes().to_vec(), 2 + n))
        }
        b'c' => match b.get(at + 2) {
            Some(&x) if x.is_ascii() && (x & 0x1F) != 0 => Ok((vec![x & 0x1F], 3)),
            Some(_) => Err(nul()),
            None => Err(unreadable(at, "the $'...' ends in \\c")),
        },
        _ => {
            // An unknown escape is itself, backslash and all.
            let len = char_len(b, at + 1);
            let mut bytes = vec![b'\\'];
            bytes.extend_from_slice(&b[at + 1..at + 1 + len]);
            Ok((bytes, 1 + len))
        }
    }
}
