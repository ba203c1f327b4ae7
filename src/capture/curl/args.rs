//! A curl command's options read as curl reads them: each option with its
//! value, the data pieces, the headers; an option curl does not have named.

use crate::capture::options::{abbreviated, long, short, Abbreviated, Opt};
use crate::capture::shell::Word;
use crate::capture::{shown, Header, Warning};
use crate::error::Error;
use crate::text::scan::is_tchar;

use super::{ambiguous, text, unreadable};

/// One piece of data, as an option gives it.
pub(super) struct Piece {
    /// The option, as written.
    pub(super) option: String,
    pub(super) at: usize,
    pub(super) kind: DataKind,
    pub(super) value: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DataKind {
    /// `-d`, `--data`, `--data-ascii`: `@file` read with CR, LF and NUL
    /// left out.
    Ascii,
    /// `--data-raw`: no `@`.
    Raw,
    /// `--data-binary`: `@file` read as it is.
    Binary,
    /// `--data-urlencode`.
    UrlEncode,
    /// `--json`: as `--data-binary`, and JSON's media type.
    Json,
    /// `--url-query`: as `--data-urlencode` (`+` first: as it is), into
    /// the query.
    Query,
}

/// What the options say, before it is put together.
#[derive(Default)]
pub(super) struct Options {
    pub(super) urls: Vec<Word>,
    pub(super) method: Option<(String, usize)>,
    pub(super) get: Option<usize>,
    pub(super) head: Option<usize>,
    pub(super) headers: Vec<(Vec<u8>, usize, String)>,
    pub(super) data: Vec<Piece>,
    pub(super) query: Vec<Piece>,
    pub(super) form: Option<usize>,
    pub(super) upload: Option<(String, usize)>,
    pub(super) user: Option<(Vec<u8>, usize)>,
    pub(super) bearer: Option<(Vec<u8>, usize)>,
    /// `-A`, `-e` and `-b name=value`: headers curl writes from them.
    pub(super) user_agent: Option<(Vec<u8>, usize)>,
    pub(super) referer: Option<(Vec<u8>, usize)>,
    pub(super) cookies: Vec<(Vec<u8>, usize)>,
    pub(super) globoff: bool,
    pub(super) path_as_is: bool,
    pub(super) proto_default: Option<String>,
}

/// What one `-H` value does.
pub(super) enum HeaderArg {
    Set(Header),
    /// `Name:` with no value: curl leaves out a header it would add.
    Remove(String),
}

/// One `-H` value: `Name: value`, `Name;` (an empty value), `Name:` (none).
pub(super) fn header(line: &[u8], at: usize) -> Result<HeaderArg, Error> {
    let line = text(line, at, "header")?;
    if line.contains(['\r', '\n']) {
        return Err(unreadable(
            at,
            "a header holds a line end: it would be two header lines",
        ));
    }
    if let Some((name, value)) = line.split_once(':') {
        let name = field_name(name, at)?;
        let value = value.trim_matches([' ', '\t']);
        if value.is_empty() {
            return Ok(HeaderArg::Remove(name));
        }
        return Ok(HeaderArg::Set(Header {
            name,
            value: value.to_owned(),
            offset: Some(at),
        }));
    }
    if let Some(name) = line.strip_suffix(';') {
        return Ok(HeaderArg::Set(Header {
            name: field_name(name, at)?,
            value: String::new(),
            offset: Some(at),
        }));
    }
    Err(unreadable(
        at,
        format!("{} is not a header (Name: value)", shown(line.as_bytes())),
    ))
}

/// A header's name as curl sends it: every byte before the `:` (or `;`),
/// as written. RFC 9110 §5.1: a field name is a token; curl sends
/// `Authorization : x` with the space, a name no server reads as
/// `Authorization` (and one that RFC 9112 §5.1 has a server refuse).
fn field_name(name: &str, at: usize) -> Result<String, Error> {
    if name.is_empty() || !name.bytes().all(is_tchar) {
        return Err(unreadable(
            at,
            format!(
                "the header name {} is not a token (RFC 9110 §5.1: no whitespace, no \
                 separators): curl sends it as written, and no server reads it as the header \
                 it looks like",
                shown(name.as_bytes())
            ),
        ));
    }
    Ok(name.to_owned())
}

/// The options of a curl command, each with its value.
pub(super) fn read_options(words: &[Word], warnings: &mut Vec<Warning>) -> Result<Options, Error> {
    let mut o = Options::default();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        let bytes = &word.bytes;
        // `--` ends the options: every word after it is a URL.
        if bytes == b"--" {
            o.urls.extend(words[i..].iter().cloned());
            break;
        }
        // A word that is not an option is a URL.
        if bytes.len() < 2 || bytes[0] != b'-' {
            o.urls.push(word.clone());
            continue;
        }
        let take_value = |name: &str, rest: Option<Vec<u8>>, i: &mut usize| match rest {
            Some(value) => Ok(value),
            None => match words.get(*i) {
                Some(next) => {
                    *i += 1;
                    Ok(next.bytes.clone())
                }
                None => Err(unreadable(
                    word.at,
                    format!("{name} needs a value, and none follows"),
                )),
            },
        };
        if let Some(name) = bytes.strip_prefix(b"--") {
            let name = String::from_utf8_lossy(name).into_owned();
            let written = format!("--{name}");
            let (opt, on) = match long(&name) {
                Opt::Unknown => (resolve(&name, word.at, warnings)?, true),
                opt => (opt, !name.starts_with("no-")),
            };
            match opt {
                Opt::Value(long) => {
                    let value = take_value(&written, None, &mut i)?;
                    apply(&mut o, long, &written, value, word.at, warnings)?;
                }
                Opt::Flag(long) => flag(&mut o, long, on, word.at)?,
                Opt::Unknown => return Err(unknown(&name, word.at)),
            }
            continue;
        }
        // A cluster of short options: `-sSL`, `-XPOST`, `-d@file`.
        let mut k = 1;
        while k < bytes.len() {
            let letter = bytes[k];
            k += 1;
            let written = format!("-{}", letter as char);
            match short(letter) {
                Opt::Value(long) => {
                    let rest = (k < bytes.len()).then(|| bytes[k..].to_vec());
                    let value = take_value(&written, rest, &mut i)?;
                    apply(&mut o, long, &written, value, word.at, warnings)?;
                    break;
                }
                Opt::Flag(long) => flag(&mut o, long, true, word.at)?,
                Opt::Unknown => {
                    return Err(unknown(&String::from_utf8_lossy(&[letter]), word.at));
                }
            }
        }
    }
    Ok(o)
}

/// A long option that is no name in full: the option curl 7.88.1 to
/// 8.5.0 take it for (named in a warning), or refused as they refuse it.
fn resolve(name: &str, at: usize, warnings: &mut Vec<Warning>) -> Result<Opt, Error> {
    let full = match abbreviated(name) {
        Abbreviated::One(full) => full,
        Abbreviated::Several(names) => {
            let names: Vec<String> = names.iter().map(|n| format!("--{n}")).collect();
            return Err(ambiguous(
                at,
                format!(
                    "{} abbreviates {} curl options ({}): curl refuses it as ambiguous",
                    shown(format!("--{name}").as_bytes()),
                    names.len(),
                    names.join(", ")
                ),
            ));
        }
        Abbreviated::Unknown => return Err(unknown(name, at)),
    };
    let opt = long(full);
    if opt != Opt::Unknown {
        let (written, full) = (shown(format!("--{name}").as_bytes()), format!("--{full}"));
        warnings.push(
            Warning::new(
                "option-abbreviated",
                Some(at),
                format!(
                    "{written} is read as {full}, as curl 7.88 to 8.5 read it (the one option \
                     it abbreviates); curl 8.6 and later refuse an abbreviated option and send \
                     nothing"
                ),
            )
            .quoting([written, full]),
        );
    }
    Ok(opt)
}

/// An option curl does not have: curl refuses the command, and what the
/// option was meant to do to the request is not known.
fn unknown(name: &str, at: usize) -> Error {
    if let Some(base) = name.strip_prefix("expand-") {
        return unreadable(
            at,
            format!("--expand-{base} fills in curl variables ({{{{name}}}}), whose values are not in the text"),
        );
    }
    let dashes = if name.len() == 1 { "-" } else { "--" };
    let option = shown(format!("{dashes}{name}").as_bytes());
    let equals = if name.contains('=') {
        " (curl 8.16 and later read --name=value; earlier ones refuse it)"
    } else {
        ""
    };
    unreadable(
        at,
        format!(
            "{option} is not a curl option known here{equals}: curl 7.88 refuses an option it \
             does not have, and what it would change in the request cannot be known"
        ),
    )
}

/// An option without a value.
fn flag(o: &mut Options, name: &str, on: bool, at: usize) -> Result<(), Error> {
    match name {
        "get" => o.get = on.then_some(at),
        "head" => o.head = on.then_some(at),
        "globoff" => o.globoff = on,
        "path-as-is" => o.path_as_is = on,
        "next" => {
            return Err(ambiguous(
                at,
                "--next (-:) starts a second request: read one command per request",
            ))
        }
        "help" | "version" | "manual" => {
            return Err(unreadable(at, format!("--{name} sends no request")))
        }
        _ => {}
    }
    Ok(())
}

/// An option with its value.
fn apply(
    o: &mut Options,
    name: &str,
    written: &str,
    value: Vec<u8>,
    at: usize,
    warnings: &mut Vec<Warning>,
) -> Result<(), Error> {
    let piece = |kind| Piece {
        option: written.to_owned(),
        at,
        kind,
        value: value.clone(),
    };
    match name {
        "url" => o.urls.push(Word { bytes: value, at }),
        "request" => o.method = Some((text(&value, at, "method")?, at)),
        "header" => o.headers.push((value, at, written.to_owned())),
        "data" | "data-ascii" => o.data.push(piece(DataKind::Ascii)),
        "data-raw" => o.data.push(piece(DataKind::Raw)),
        "data-binary" => o.data.push(piece(DataKind::Binary)),
        "data-urlencode" => o.data.push(piece(DataKind::UrlEncode)),
        "json" => o.data.push(piece(DataKind::Json)),
        "url-query" => o.query.push(piece(DataKind::Query)),
        "form" | "form-string" => o.form = Some(at),
        "upload-file" => o.upload = Some((text(&value, at, "file name")?, at)),
        "user" => o.user = Some((value, at)),
        "oauth2-bearer" => o.bearer = Some((value, at)),
        "user-agent" => o.user_agent = Some((value, at)),
        "referer" => o.referer = Some((value, at)),
        // A cookie string (`name=value`); else a cookie file curl reads,
        // which does not change the signed request.
        "cookie" if value.contains(&b'=') => o.cookies.push((value, at)),
        "proto-default" => o.proto_default = Some(text(&value, at, "scheme")?),
        "config" => {
            return Err(unreadable(
                at,
                format!("{written} reads more options from a file: give them in the command"),
            ))
        }
        "request-target" => {
            return Err(unreadable(
                at,
                "--request-target sends another target than the URL's: the URL signed cannot \
                 be known",
            ))
        }
        "variable" => {
            return Err(unreadable(
                at,
                "--variable sets curl variables, whose values are not read here",
            ))
        }
        "aws-sigv4" => warnings.push(
            Warning::new(
                "not-oauth",
                Some(at),
                "--aws-sigv4 signs with AWS Signature Version 4, not OAuth 1.0a",
            )
            .quoting(["--aws-sigv4".to_owned()]),
        ),
        _ => {}
    }
    Ok(())
}
