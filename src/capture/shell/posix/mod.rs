//! bash's word splitting: POSIX quoting, `$'...'`, line continuations and
//! here-documents; expansions whose value the text does not hold refused.

use crate::capture::{shown, Warning};
use crate::error::{Error, Part};

use super::{cut_off, unreadable, Command, Stdin, Word};

mod escape;
mod expand;

use escape::{ansi_c_escape, char_len};
use expand::{brace, expansion, history, unquoted_doc_line};

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
