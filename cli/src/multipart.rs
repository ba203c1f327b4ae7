//! `request -F name=value` and `-F name=@file`: a `multipart/form-data` body
//! ([RFC 7578]), as curl builds it, held as bytes (so it has a length, and a
//! redirect can send it again).
//!
//! Its fields are never signed: RFC 5849 §3.4.1.3.1 takes parameters from an
//! `application/x-www-form-urlencoded` body only, so a multipart request is
//! signed over its query and the protocol parameters alone, as X's media
//! upload `APPEND` expects.
//!
//! [RFC 7578]: https://www.rfc-editor.org/rfc/rfc7578

use std::path::Path;

use crate::Failure;

/// A multipart body and its `Content-Type` (with the boundary).
#[derive(Debug)]
pub(crate) struct Multipart {
    pub(crate) content_type: String,
    pub(crate) body: Vec<u8>,
}

/// One part: its `Content-Disposition` parameters, type and content.
struct Part {
    name: String,
    filename: Option<String>,
    content: Vec<u8>,
}

/// The body of the `-F` fields, in order.
pub(crate) fn multipart(fields: &[String]) -> Result<Multipart, Failure> {
    let parts = fields
        .iter()
        .map(|field| part(field))
        .collect::<Result<Vec<Part>, Failure>>()?;
    // A boundary that no part contains (RFC 7578 §4.1); the first almost always is.
    let boundary = (0u64..)
        .map(|i| format!("------------------------oauth1{i:016x}"))
        .find(|b| {
            !parts
                .iter()
                .any(|p| contains(&p.content, b.as_bytes()) || p.name.contains(b.as_str()))
        })
        .unwrap_or_default();
    let mut body = Vec::new();
    for p in &parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let mut disposition = format!("form-data; name=\"{}\"", quoted(&p.name));
        if let Some(filename) = &p.filename {
            disposition.push_str(&format!("; filename=\"{}\"", quoted(filename)));
        }
        body.extend_from_slice(format!("Content-Disposition: {disposition}\r\n").as_bytes());
        if p.filename.is_some() {
            body.extend_from_slice(b"Content-Type: application/octet-stream\r\n");
        }
        body.extend_from_slice(b"\r\n");
        body.extend_from_slice(&p.content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok(Multipart {
        content_type: format!("multipart/form-data; boundary={boundary}"),
        body,
    })
}

/// `name=value`, or `name=@path` for a file's content.
fn part(field: &str) -> Result<Part, Failure> {
    let (name, value) = field
        .split_once('=')
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| {
            Failure::input(format!(
                "-F expects name=value or name=@file: {field:?} has no name="
            ))
        })?;
    let Some(path) = value.strip_prefix('@') else {
        return Ok(Part {
            name: name.to_owned(),
            filename: None,
            content: value.as_bytes().to_vec(),
        });
    };
    let content = std::fs::read(path)
        .map_err(|e| Failure::input(format!("-F {name}: cannot read {path:?}: {e}")))?;
    let filename = Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |f| f.to_string_lossy().into_owned());
    Ok(Part {
        name: name.to_owned(),
        filename: Some(filename),
        content,
    })
}

/// A name or file name inside quotes: `"`, CR and LF percent-encoded, as
/// the HTML standard's multipart encoding does.
fn quoted(text: &str) -> String {
    text.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_files_are_parts_in_order() {
        let dir = std::env::temp_dir().join(format!("oauth1-multipart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a\"b.bin");
        std::fs::write(&file, b"\x00\x01\r\n").unwrap();
        let m = multipart(&[
            "command=APPEND".into(),
            format!("media=@{}", file.display()),
        ])
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let b = "------------------------oauth10000000000000000";
        assert_eq!(m.content_type, format!("multipart/form-data; boundary={b}"));
        let want = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"command\"\r\n\r\nAPPEND\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a%22b.bin\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n\x00\x01\r\n\r\n--{b}--\r\n"
        );
        assert_eq!(String::from_utf8_lossy(&m.body), want);
    }

    #[test]
    fn the_boundary_is_not_in_any_part() {
        let taken = "x------------------------oauth10000000000000000y";
        let m = multipart(&[format!("a={taken}")]).unwrap();
        assert!(
            m.content_type.ends_with("oauth10000000000000001"),
            "{}",
            m.content_type
        );
    }

    #[test]
    fn a_field_without_a_name_or_an_unreadable_file_is_an_error() {
        for (field, want) in [
            ("novalue", "has no name="),
            ("=x", "has no name="),
            (
                "media=@/nonexistent/file",
                "-F media: cannot read \"/nonexistent/file\"",
            ),
        ] {
            match multipart(&[field.into()]) {
                Err(Failure::Input(message, _)) => assert!(message.contains(want), "{message}"),
                other => panic!("{field}: {other:?}"),
            }
        }
    }
}
