//! A HAR 1.2 file (HTTP Archive, as Chrome, Firefox and Postman export
//! one): its entries, those that carry OAuth 1.0a listed, one chosen by
//! its number, with its response.
//!
//! The body is `postData.text`, exactly as sent; a HAR without it and with
//! `postData.params` has the body rebuilt from them (`name=value` joined
//! with `&`, as recorded), and a warning says so. A response body recorded
//! in base64 (`content.encoding: "base64"`) is decoded.

use base64::Engine as _;
use serde_json::Value;

use crate::error::{Error, ErrorKind, Part};

use super::json::{self, Refused};
use super::{carries_oauth, shown, Captured, CapturedResponse, Header, Warning};

/// A HAR file, read: its entries, in the file's order.
#[derive(Clone, Debug)]
pub struct Har {
    entries: Vec<HarEntry>,
}

/// One entry of a HAR file: a request and its response.
#[derive(Clone, Debug)]
pub struct HarEntry {
    request: Result<Captured, Error>,
    method: String,
    url: String,
    oauth: bool,
}

impl HarEntry {
    /// The method, as recorded.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The URL, as recorded.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the request carries OAuth 1.0a (an `Authorization: OAuth`
    /// header, or `oauth_*` parameters in its query or form body).
    pub fn carries_oauth(&self) -> bool {
        self.oauth
    }
}

fn unreadable(offset: Option<usize>, reason: impl Into<String>) -> Error {
    Error::unreadable(Part::Har, offset, reason)
}

/// Reads a HAR file.
///
/// ```
/// use oauth1_signer::capture::parse_har;
///
/// let har = r#"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
///   "entries": [
///     {"request": {"method": "GET", "url": "https://x.example/app.js", "httpVersion": "h2",
///                  "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
///      "response": {"status": 200, "statusText": "", "httpVersion": "h2", "headers": [],
///                   "cookies": [], "content": {"size": 0, "mimeType": "text/javascript"},
///                   "redirectURL": "", "headersSize": -1, "bodySize": -1}},
///     {"request": {"method": "GET", "url": "https://api.x.com/2/users/me", "httpVersion": "h2",
///                  "headers": [{"name": "authorization", "value": "OAuth oauth_consumer_key=\"k\""}],
///                  "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
///      "response": {"status": 401, "statusText": "", "httpVersion": "h2",
///                   "headers": [{"name": "date", "value": "Fri, 14 Oct 2011 20:09:18 GMT"}], "cookies": [],
///                   "content": {"size": 66, "mimeType": "application/json",
///                               "text": "{\"errors\":[{\"code\":32,\"message\":\"Could not authenticate you.\"}]}"},
///                   "redirectURL": "", "headersSize": -1, "bodySize": -1}}
///   ]}}"#;
/// let har = parse_har(har)?;
/// assert_eq!(har.oauth_entries(), [1]);
/// let request = har.choose(None)?; // the only entry that carries OAuth
/// assert_eq!(request.url(), "https://api.x.com/2/users/me");
/// let response = request.response().unwrap();
/// assert_eq!(response.status, 401);
/// assert_eq!(response.answer().errors[0].code, "32");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Unreadable`]: text that is not JSON (at the byte where it
/// stops being JSON), or JSON that is not a HAR (no `log.entries` array).
/// An entry that cannot be read is refused when it is chosen.
pub fn parse_har(text: &str) -> Result<Har, Error> {
    let value = json::from_str(text).map_err(|refused| match refused {
        Refused::NotJson(e) => {
            let offset = offset_of(text, e.line(), e.column());
            unreadable(Some(offset), format!("not JSON: {e}"))
        }
        Refused::Twice { key, at } => Error::ambiguous(
            Part::Har,
            offset_of(text, at.line(), at.column()),
            format!(
                "the key {} is given twice in one object (the second ends here): which value \
                 a reader takes cannot be known",
                shown(key.as_bytes())
            ),
        ),
    })?;
    let entries = value
        .get("log")
        .and_then(|log| log.get("entries"))
        .and_then(Value::as_array)
        .ok_or_else(|| unreadable(None, "not a HAR file: it has no log.entries array"))?;
    Ok(Har {
        entries: entries
            .iter()
            .enumerate()
            .map(|(n, e)| entry(n, e))
            .collect(),
    })
}

/// The byte offset of serde_json's line and column (both from 1).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

impl Har {
    /// Every entry, in the file's order.
    pub fn entries(&self) -> &[HarEntry] {
        &self.entries
    }

    /// The numbers (from 0, in the file's order) of the entries that carry
    /// OAuth 1.0a.
    pub fn oauth_entries(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&n| self.entries[n].oauth)
            .collect()
    }

    /// Entry `n`'s request, with its response.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchEntry`]; or the entry's own error, when it cannot
    /// be read ([`ErrorKind::Unreadable`] naming the entry and the field,
    /// [`ErrorKind::Ambiguous`] for two `Authorization` headers).
    pub fn entry(&self, n: usize) -> Result<Captured, Error> {
        match self.entries.get(n) {
            Some(entry) => entry.request.clone(),
            None => Err(Error::new(ErrorKind::NoSuchEntry {
                entry: n,
                entries: self.entries.len(),
            })),
        }
    }

    /// Entry `n` when given; without it, the only entry that carries
    /// OAuth 1.0a.
    ///
    /// # Errors
    /// As [`entry`](Self::entry); without `n`,
    /// [`ErrorKind::EntryNotChosen`] when no entry, or more than one,
    /// carries OAuth 1.0a.
    pub fn choose(&self, n: Option<usize>) -> Result<Captured, Error> {
        if let Some(n) = n {
            return self.entry(n);
        }
        match self.oauth_entries().as_slice() {
            [one] => self.entry(*one),
            candidates => Err(Error::new(ErrorKind::EntryNotChosen {
                candidates: candidates.to_vec(),
                entries: self.entries.len(),
            })),
        }
    }
}

/// One entry, read.
fn entry(n: usize, value: &Value) -> HarEntry {
    let request = value.get("request");
    let text_of = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let method = text_of(request.and_then(|r| r.get("method")));
    let url = text_of(request.and_then(|r| r.get("url")));
    let captured = read_entry(n, value);
    let oauth = captured.as_ref().is_ok_and(carries_oauth);
    HarEntry {
        request: captured,
        method,
        url,
        oauth,
    }
}

fn read_entry(n: usize, value: &Value) -> Result<Captured, Error> {
    let field = |what: &str| unreadable(None, format!("entry {n} has no {what}"));
    let request = value.get("request").ok_or_else(|| field("request"))?;
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .ok_or_else(|| field("request.method"))?;
    let url = request
        .get("url")
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .ok_or_else(|| field("request.url"))?;
    let mut warnings = Vec::new();
    let url = match url.split_once('#') {
        Some((before, _)) => {
            warnings.push(Warning::new(
                "fragment-dropped",
                None,
                "the recorded URL has a fragment, which no client sends: the request is without it",
            ));
            before
        }
        None => url,
    };
    let headers = headers(request.get("headers"), n, "request.headers")?;
    let body = match request.get("postData") {
        None | Some(Value::Null) => None,
        Some(post) => Some(post_data(post, n, &mut warnings)?),
    };
    let mut headers = headers;
    // A HAR's postData.mimeType is the body's type when no header says.
    if body.is_some()
        && !headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("content-type"))
        && let Some(mime) = request
            .get("postData")
            .and_then(|p| p.get("mimeType"))
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
    {
        headers.push(Header {
            name: "Content-Type".into(),
            value: mime.to_owned(),
            offset: None,
        });
    }
    let response = match value.get("response") {
        Some(r) if r.is_object() => Some(response(r, n)?),
        _ => None,
    };
    let captured = Captured {
        part: Part::Har,
        method: method.to_owned(),
        url: url.to_owned(),
        headers,
        body,
        response,
        warnings,
    };
    captured
        .check_once()
        .map_err(|e| unreadable(None, format!("entry {n}: {e}")))?;
    Ok(captured)
}

/// A HAR `headers` array, HTTP/2's pseudo-headers (`:authority`) left out.
fn headers(value: Option<&Value>, n: usize, what: &str) -> Result<Vec<Header>, Error> {
    let Some(list) = value else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| unreadable(None, format!("entry {n}'s {what} is not an array")))?;
    let mut out = Vec::with_capacity(list.len());
    for (k, h) in list.iter().enumerate() {
        let get = |f: &str| h.get(f).and_then(Value::as_str);
        let (Some(name), Some(value)) = (get("name"), get("value")) else {
            return Err(unreadable(
                None,
                format!("entry {n}'s {what}[{k}] has no name or value"),
            ));
        };
        if name.starts_with(':') {
            continue;
        }
        out.push(Header {
            name: name.to_owned(),
            value: value.trim_matches([' ', '\t']).to_owned(),
            offset: None,
        });
    }
    Ok(out)
}

/// The body of a `postData`: its `text`, or its `params` joined.
fn post_data(post: &Value, n: usize, warnings: &mut Vec<Warning>) -> Result<Vec<u8>, Error> {
    if let Some(text) = post.get("text").and_then(Value::as_str) {
        return Ok(text.as_bytes().to_vec());
    }
    let Some(params) = post.get("params").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    let mut body = String::new();
    for (k, p) in params.iter().enumerate() {
        let get = |f: &str| p.get(f).and_then(Value::as_str);
        let Some(name) = get("name") else {
            return Err(unreadable(
                None,
                format!("entry {n}'s postData.params[{k}] has no name"),
            ));
        };
        if get("fileName").is_some() {
            return Err(unreadable(
                None,
                format!("entry {n}'s postData.params[{k}] is a file: the body is not in the HAR"),
            ));
        }
        if k > 0 {
            body.push('&');
        }
        body.push_str(name);
        body.push('=');
        body.push_str(get("value").unwrap_or_default());
    }
    warnings.push(
        Warning::new(
            "har-params-joined",
            None,
            format!(
                "entry {n} records no postData.text: the body is rebuilt from postData.params as \
                 name=value joined with &, as recorded"
            ),
        )
        .quoting([n.to_string()]),
    );
    Ok(body.into_bytes())
}

/// An entry's response.
fn response(value: &Value, n: usize) -> Result<CapturedResponse, Error> {
    let status = value
        .get("status")
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .ok_or_else(|| unreadable(None, format!("entry {n}'s response has no status")))?;
    let headers = headers(value.get("headers"), n, "response.headers")?;
    let content = value.get("content");
    let text = content.and_then(|c| c.get("text")).and_then(Value::as_str);
    let base64 = content
        .and_then(|c| c.get("encoding"))
        .and_then(Value::as_str)
        .is_some_and(|e| e.eq_ignore_ascii_case("base64"));
    let body = match (text, base64) {
        (None, _) => None,
        (Some(t), false) => Some(t.as_bytes().to_vec()),
        (Some(t), true) => Some(
            base64::engine::general_purpose::STANDARD
                .decode(t.trim())
                .map_err(|e| {
                    unreadable(
                        None,
                        format!("entry {n}'s response.content.text is not base64: {e}"),
                    )
                })?,
        ),
    };
    Ok(CapturedResponse {
        status,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn har(entries: &str) -> String {
        format!(
            r#"{{"log": {{"version": "1.2", "creator": {{"name": "t", "version": "1"}}, "entries": [{entries}]}}}}"#
        )
    }

    const OAUTH_GET: &str =
        r#"{"request": {"method": "GET", "url": "https://h/p?oauth_token=t", "headers": []}}"#;
    const PLAIN: &str = r#"{"request": {"method": "GET", "url": "https://h/x", "headers": []}}"#;

    #[test]
    fn entries_that_carry_oauth_are_listed_and_one_is_chosen() {
        let h = parse_har(&har(&format!("{PLAIN}, {OAUTH_GET}, {PLAIN}, {OAUTH_GET}"))).unwrap();
        assert_eq!(h.oauth_entries(), [1, 3]);
        let e = h.choose(None).unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::EntryNotChosen {
                candidates: vec![1, 3],
                entries: 4
            }
        );
        assert!(e.to_string().contains("numbers 1, 3"), "{e}");
        assert_eq!(
            h.choose(Some(3)).unwrap().url(),
            "https://h/p?oauth_token=t"
        );
        assert_eq!(h.choose(Some(0)).unwrap().url(), "https://h/x");
        assert!(matches!(
            h.choose(Some(4)).unwrap_err().kind(),
            ErrorKind::NoSuchEntry {
                entry: 4,
                entries: 4
            }
        ));
        let none = parse_har(&har(PLAIN)).unwrap();
        assert!(matches!(
            none.choose(None).unwrap_err().kind(),
            ErrorKind::EntryNotChosen { entries: 1, .. }
        ));
    }

    #[test]
    fn the_body_is_post_data_text_or_its_params() {
        let text = r#"{"request": {"method": "POST", "url": "https://h/", "headers": [],
            "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "a=1%202&oauth_nonce=n"}}}"#;
        let c = parse_har(&har(text)).unwrap().choose(None).unwrap();
        assert_eq!(c.body(), Some(&b"a=1%202&oauth_nonce=n"[..]));
        assert!(c.is_form().unwrap());
        let params = r#"{"request": {"method": "POST", "url": "https://h/", "headers": [],
            "postData": {"mimeType": "application/x-www-form-urlencoded",
                         "params": [{"name": "a", "value": "1"}, {"name": "oauth_nonce", "value": "n"}]}}}"#;
        let c = parse_har(&har(params)).unwrap().choose(None).unwrap();
        assert_eq!(c.body(), Some(&b"a=1&oauth_nonce=n"[..]));
        assert_eq!(c.warnings()[0].code(), "har-params-joined");
    }

    #[test]
    fn what_cannot_be_read_is_named() {
        let e = parse_har("{\"log\": \n {\"entries\": [}").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Unreadable {
                    offset: Some(23),
                    ..
                }
            ),
            "{e}"
        );
        assert!(parse_har("{\"log\": {}}").is_err());
        // RFC 8259 §4: names SHOULD be unique; a second "url" is not read
        // as the last (serde_json's Value) nor the first.
        let twice = r#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a/", "url": "https://b/", "headers": []}}]}}"#;
        let e = parse_har(twice).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Ambiguous {
                    part: Part::Har,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string().contains("the key \"url\" is given twice"),
            "{e}"
        );
        let no_url = r#"{"request": {"method": "GET", "headers": []}}"#;
        let h = parse_har(&har(no_url)).unwrap();
        let e = h.entry(0).unwrap_err();
        assert!(e.to_string().contains("entry 0 has no request.url"), "{e}");
        let two = r#"{"request": {"method": "GET", "url": "https://h/", "headers": [
            {"name": "Authorization", "value": "OAuth a=1"}, {"name": "authorization", "value": "OAuth a=2"}]}}"#;
        let e = parse_har(&har(two)).unwrap().entry(0).unwrap_err();
        assert!(e.to_string().contains("two Authorization headers"), "{e}");
    }

    #[test]
    fn a_base64_response_body_is_decoded() {
        let entry = r#"{"request": {"method": "GET", "url": "https://h/", "headers": []},
            "response": {"status": 401, "headers": [{"name": ":status", "value": "401"}],
                         "content": {"text": "b2F1dGhfcHJvYmxlbT1ub25jZV91c2Vk", "encoding": "base64"}}}"#;
        let c = parse_har(&har(entry)).unwrap().entry(0).unwrap();
        let r = c.response().unwrap();
        assert_eq!(r.body.as_deref(), Some(&b"oauth_problem=nonce_used"[..]));
        assert!(r.headers.is_empty());
    }
}
