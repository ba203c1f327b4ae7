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

use super::{shown, Warning};

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

fn unreadable(at: usize, reason: impl Into<String>) -> Error {
    Error::new(ErrorKind::Unreadable {
        part: Part::CurlCommand,
        offset: Some(at),
        reason: reason.into(),
    })
}

fn cut_off(len: usize, expected: &'static str) -> Error {
    Error::new(ErrorKind::UnexpectedEnd {
        part: Part::CurlCommand,
        offset: len,
        expected,
    })
}

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

    fn finish(&mut self) -> Result<(), Error> {
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
            return Err(Error::new(ErrorKind::Ambiguous {
                part: Part::CurlCommand,
                offset: at,
                reason: "standard input is redirected twice".into(),
            }));
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
                        self.push(&b[at + 1..at + 1 + len], at);
                        self.i += 1 + len;
                    }
                    None => return Err(cut_off(b.len(), "the line the final '\\' continues on")),
                },
                b'\'' => {
                    self.start(at);
                    self.quoted_in_word = true;
                    let Some(len) = b[at + 1..].iter().position(|&c| c == b'\'') else {
                        return Err(unreadable(at, "the ' that opens here is never closed"));
                    };
                    self.push(&b[at + 1..at + 1 + len], at);
                    self.i = at + len + 2;
                }
                b'"' => {
                    self.start(at);
                    self.quoted_in_word = true;
                    self.double_quoted(at)?;
                }
                b'$' if b.get(at + 1) == Some(&b'\'') => {
                    self.start(at);
                    self.quoted_in_word = true;
                    self.ansi_c(at, warnings)?;
                }
                b'$' if b.get(at + 1) == Some(&b'"') => {
                    // $"...": a string the locale may translate; in the C
                    // locale, and for a command copied to run, itself.
                    self.start(at);
                    self.quoted_in_word = true;
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
                _ => {
                    let len = char_len(b, at);
                    self.push(&b[at..at + len], at);
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
            warnings.push(Warning::new(
                "ignored-after-command",
                Some(at),
                format!(
                    "the curl command ends here; what follows ({}) is another command and is \
                     not read",
                    shown(rest.trim_ascii())
                ),
            ));
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
                    warnings.push(Warning::new(
                        "ignored-after-command",
                        Some(i),
                        format!(
                            "the curl command ends at this line end; what follows ({}) is another \
                             command and is not read",
                            shown(rest.trim_ascii())
                        ),
                    ));
                }
                break;
            }
            b'&' | b'|' => {
                warnings.push(Warning::new(
                    "ignored-after-command",
                    Some(i),
                    format!(
                        "the curl command ends here; what follows ({}) is another command and \
                         is not read",
                        shown(b[i..].trim_ascii())
                    ),
                ));
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
            warnings.push(Warning::new(
                "cmd-variable",
                Some(start),
                format!(
                    "cmd.exe replaces %{}% with the environment variable's value when it is set; \
                     it is read here as written",
                    String::from_utf8_lossy(name)
                ),
            ));
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
