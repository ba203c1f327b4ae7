//! The request taken apart, and the base string written under a [`Variant`].
//!
//! The model holds what a mistaken implementation starts from: the method,
//! the parts of the base string URI as the stage writes them
//! ([`BaseStringUri`]) and as given, and every signed parameter decoded,
//! each marked with where it came from. With the right variant it writes the
//! bytes the stages write (a test checks this on every vector); with a
//! mistaken one, the bytes that implementation signs. Each variant costs one
//! pass over the parameters and one sort of an already nearly sorted list
//! (the list starts in the right order; a stable merge sort finds the runs),
//! so the time grows linearly with the number of parameters.

use std::collections::HashMap;
use std::ops::Range;

use unicode_normalization::UnicodeNormalization as _;

use crate::pipeline::base_string::BaseStringUri;
use crate::pipeline::url::{default_port, RequestUrl};
use crate::text::value::cmp_encoded;

use super::lenient::{lenient_decode, split_pairs};
use super::variant::{BodyRule, Dups, Order, Uni, Variant};

/// Where a signed parameter came from: the trace says.
pub(crate) use crate::pipeline::ParamSource as Source;

/// One signed parameter, decoded.
#[derive(Clone, Debug)]
pub(crate) struct MParam {
    pub name: Vec<u8>,
    pub value: Vec<u8>,
    pub source: Source,
    /// Whether it is the first (the last) of the parameters with its name.
    first: bool,
    last: bool,
    /// Name and value in NFC, NFD and ISO-8859-1, and (for a query
    /// parameter) its UTF-8 read as ISO-8859-1, where they differ.
    alts: [Option<(Vec<u8>, Vec<u8>)>; 4],
}

impl MParam {
    pub(crate) fn new(name: Vec<u8>, value: Vec<u8>, source: Source) -> MParam {
        MParam {
            name,
            value,
            source,
            first: true,
            last: true,
            alts: [None, None, None, None],
        }
    }
}

/// The base string URI's parts (§3.4.1.2): as the stage writes them, and
/// as given, for a side that does not lower-case or drop what it should.
#[derive(Clone, Debug)]
struct Uri {
    scheme: &'static str,
    host: String,
    port: Option<u16>,
    path: String,
    given_scheme: String,
    given_host: String,
    /// The port named, or the scheme's default.
    given_port: u16,
    /// The port the URL names, if it names one.
    named_port: Option<u16>,
    /// The query as given, without its `?`.
    query: Option<String>,
    /// The fragment as given, without its `#` (never signed nor sent).
    fragment: Option<String>,
}

/// The request as a mistaken implementation starts from it.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub method: String,
    uri: Uri,
    /// Query, protocol, body: the order collected.
    pub params: Vec<MParam>,
    /// Indices of `params` in the right order.
    sorted: Vec<usize>,
    pub realm: Option<String>,
    /// A body that is not signed, as form parameters and as JSON fields.
    body_form: Vec<(Vec<u8>, Vec<u8>)>,
    body_json: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Buffers reused from one variant to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// How many base strings were written with it (for a deterministic
    /// check that the signature search's cost is bounded).
    pub writes: usize,
    text: Vec<u8>,
    joined: Vec<u8>,
    tmp: Vec<u8>,
    uri: Vec<u8>,
}

/// The text of `text` in a normalisation form, if it is UTF-8 and differs.
fn alt(text: &[u8], uni: Uni) -> Option<Vec<u8>> {
    let s = std::str::from_utf8(text).ok()?;
    if s.is_ascii() {
        return None;
    }
    let out: Vec<u8> = match uni {
        Uni::Nfc => s.nfc().collect::<String>().into_bytes(),
        Uni::Nfd => s.nfd().collect::<String>().into_bytes(),
        Uni::Latin1 => s
            .chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect::<Option<Vec<u8>>>()?,
        // Each byte of the UTF-8 text read as one ISO-8859-1 character.
        Uni::QueryLatin1 => s.bytes().map(char::from).collect::<String>().into_bytes(),
        Uni::AsGiven => return None,
    };
    (out != text).then_some(out)
}

impl Model {
    /// The model of a request to `url`, whose scheme is written `scheme`.
    pub(crate) fn new(
        method: &str,
        url: &RequestUrl<'_>,
        scheme: &str,
        params: Vec<MParam>,
        realm: Option<String>,
    ) -> Model {
        let stage = BaseStringUri::new(url);
        let uri = Uri {
            scheme: stage.scheme(),
            host: stage.host(),
            port: stage.port(),
            path: stage.path_or_root().to_owned(),
            given_scheme: scheme.to_owned(),
            given_host: url.host().to_owned(),
            given_port: url.port().unwrap_or(default_port(url.is_https())),
            named_port: url.port(),
            query: url.query().map(str::to_owned),
            fragment: url.fragment().map(str::to_owned),
        };
        let mut model = Model {
            method: method.to_owned(),
            uri,
            params,
            sorted: Vec::new(),
            realm,
            body_form: Vec::new(),
            body_json: Vec::new(),
        };
        model.prepare();
        model
    }

    /// Marks first and last of each name, the Unicode alternatives and the
    /// right order.
    fn prepare(&mut self) {
        let mut first: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut last: HashMap<Vec<u8>, usize> = HashMap::new();
        for (i, p) in self.params.iter().enumerate() {
            first.entry(p.name.clone()).or_insert(i);
            last.insert(p.name.clone(), i);
        }
        for (i, p) in self.params.iter_mut().enumerate() {
            p.first = first.get(&p.name) == Some(&i);
            p.last = last.get(&p.name) == Some(&i);
            for (k, uni) in [Uni::Nfc, Uni::Nfd, Uni::Latin1, Uni::QueryLatin1]
                .into_iter()
                .enumerate()
            {
                if uni == Uni::QueryLatin1 && p.source != Source::Query {
                    continue;
                }
                let (n, v) = (alt(&p.name, uni), alt(&p.value, uni));
                p.alts[k] = (n.is_some() || v.is_some()).then(|| {
                    (
                        n.unwrap_or_else(|| p.name.clone()),
                        v.unwrap_or_else(|| p.value.clone()),
                    )
                });
            }
        }
        // The right order (§3.4.1.3.2), by the stage's comparison.
        let params = &self.params;
        let mut sorted: Vec<usize> = (0..params.len()).collect();
        sorted.sort_by(|&a, &b| {
            let (a, b) = (&params[a], &params[b]);
            cmp_encoded(&a.name, &b.name).then_with(|| cmp_encoded(&a.value, &b.value))
        });
        self.sorted = sorted;
    }

    /// Adds a body that is not signed, for the `body-signed` mistakes.
    pub(crate) fn set_unsigned_body(&mut self, body: &[u8]) {
        self.body_form = split_pairs(body)
            .map(|(n, v)| (lenient_decode(n, true), lenient_decode(v, true)))
            .collect();
        self.body_json = json_fields(body);
    }

    /// Names of the unsigned body's parameters, under either reading.
    pub(crate) fn unsigned_body_names(&self) -> impl Iterator<Item = &[u8]> {
        self.body_form
            .iter()
            .chain(&self.body_json)
            .map(|(n, _)| n.as_slice())
    }

    /// Replaces the protocol parameters (by another side's header's).
    pub(crate) fn with_protocol(
        &self,
        protocol: &[(String, String)],
        realm: Option<String>,
    ) -> Model {
        let mut params: Vec<MParam> = Vec::new();
        let mut added = false;
        for p in &self.params {
            if p.source == Source::Protocol {
                if !added {
                    params.extend(protocol.iter().map(|(n, v)| {
                        MParam::new(
                            n.as_bytes().to_vec(),
                            v.as_bytes().to_vec(),
                            Source::Protocol,
                        )
                    }));
                    added = true;
                }
            } else {
                params.push(MParam::new(p.name.clone(), p.value.clone(), p.source));
            }
        }
        if !added {
            params.extend(protocol.iter().map(|(n, v)| {
                MParam::new(
                    n.as_bytes().to_vec(),
                    v.as_bytes().to_vec(),
                    Source::Protocol,
                )
            }));
        }
        let mut model = Model {
            params,
            sorted: Vec::new(),
            realm,
            ..self.clone()
        };
        model.prepare();
        model
    }

    /// Writes the base string `v` gives into `out` (cleared first).
    pub(crate) fn write(&self, v: &Variant, s: &mut Scratch, out: &mut Vec<u8>) {
        out.clear();
        s.writes += 1;
        let upper = self.method.to_ascii_uppercase();
        let method = if v.method_swapped {
            match upper.as_str() {
                "GET" => "POST",
                "POST" => "GET",
                _ => self.method.as_str(),
            }
        } else if v.head_as_get && upper == "HEAD" {
            "GET"
        } else {
            self.method.as_str()
        };
        if v.method_as_given {
            v.outer.write(method.as_bytes(), out);
        } else if v.method_lower {
            v.outer.write(method.to_ascii_lowercase().as_bytes(), out);
        } else {
            v.outer.write(method.to_ascii_uppercase().as_bytes(), out);
        }
        out.push(b'&');
        self.write_uri(v, &mut s.uri);
        v.outer.write(&s.uri, out);
        out.push(b'&');
        self.write_params(v, s);
        v.outer.write(&s.joined, out);
    }

    /// The base string URI under `v`, not yet encoded: the stage's parts,
    /// but those the mistakes change.
    fn write_uri(&self, v: &Variant, out: &mut Vec<u8>) {
        out.clear();
        let u = &self.uri;
        let (scheme, host) = if v.keep_case {
            (u.given_scheme.as_str(), u.given_host.as_str())
        } else {
            (u.scheme, u.host.as_str())
        };
        match (v.scheme_swapped, scheme.to_ascii_lowercase().as_str()) {
            (true, "https") => out.extend_from_slice(b"http"),
            (true, "http") => out.extend_from_slice(b"https"),
            _ => out.extend_from_slice(scheme.as_bytes()),
        }
        out.extend_from_slice(b"://");
        match v.other_host.then(|| other_x_host(host)).flatten() {
            Some(other) => out.extend_from_slice(other.as_bytes()),
            None => out.extend_from_slice(host.as_bytes()),
        }
        let port = if v.drop_port {
            None
        } else if v.default_port {
            // The port named, or the default of the scheme written.
            match (u.named_port, v.scheme_swapped) {
                (None, true) => Some(default_port(!u.scheme.eq_ignore_ascii_case("https"))),
                _ => Some(u.given_port),
            }
        } else {
            u.port
        };
        if let Some(port) = port {
            out.extend_from_slice(format!(":{port}").as_bytes());
        }
        let start = out.len();
        if v.path_empty && u.path == "/" {
            // An empty path written empty, not `/` (§3.4.1.2 and RFC 3986
            // §6.2.3 give `/`).
        } else if v.path_decoded {
            out.extend(lenient_decode(u.path.as_bytes(), false));
        } else if v.path_tilde {
            for &b in u.path.as_bytes() {
                if b == b'~' {
                    out.extend_from_slice(b"%7E");
                } else {
                    out.push(b);
                }
            }
        } else {
            out.extend_from_slice(u.path.as_bytes());
        }
        if v.path_slash {
            if out.len() > start + 1 && out.last() == Some(&b'/') {
                out.pop();
            } else if out.last() != Some(&b'/') {
                out.push(b'/');
            }
        }
        if let (true, Some(query)) = (v.query_in_uri, &u.query) {
            out.push(b'?');
            out.extend_from_slice(query.as_bytes());
        }
        if let (true, Some(fragment)) = (v.fragment_in_uri, &u.fragment) {
            out.push(b'#');
            out.extend_from_slice(fragment.as_bytes());
        }
    }

    /// The parameter string under `v`, into `s.joined`, not yet encoded
    /// once more.
    fn write_params(&self, v: &Variant, s: &mut Scratch) {
        // Each item with its place in the order collected.
        let mut items: Vec<(&[u8], &[u8], usize)> = Vec::with_capacity(self.params.len() + 4);
        let mut has_version = false;
        // Seconds written as milliseconds, or the other way round.
        let ms: Option<Vec<u8>> = v
            .timestamp_ms
            .then(|| self.params.iter().find(|p| p.name == b"oauth_timestamp"))
            .flatten()
            .map(|p| match p.value.len() {
                13 => p.value[..10].to_vec(),
                _ => [&p.value[..], b"000"].concat(),
            });
        for &i in &self.sorted {
            let p = &self.params[i];
            has_version |= p.name == b"oauth_version";
            let skip = (v.drop_query && p.source == Source::Query)
                || (v.drop_body && p.source == Source::Body)
                || v.drop_param.map(usize::from) == Some(i)
                || (v.dups == Dups::First && !p.first)
                || (v.dups == Dups::Last && !p.last)
                || (v.version_toggled && p.name == b"oauth_version");
            if skip {
                continue;
            }
            let alt = match v.uni {
                Uni::AsGiven => None,
                Uni::Nfc => p.alts[0].as_ref(),
                Uni::Nfd => p.alts[1].as_ref(),
                Uni::Latin1 => p.alts[2].as_ref(),
                Uni::QueryLatin1 => p.alts[3].as_ref(),
            };
            let (n, val): (&[u8], &[u8]) = match alt {
                Some((n, val)) => (n, val),
                None => (&p.name, &p.value),
            };
            let val = if v.version_1_0a && n == b"oauth_version" {
                b"1.0a"
            } else if let (Some(ms), b"oauth_timestamp") = (&ms, n) {
                ms
            } else {
                val
            };
            items.push((n, val, i));
        }
        let end = self.params.len();
        if (v.version_toggled || v.version_1_0a) && !has_version {
            items.push((
                b"oauth_version",
                if v.version_1_0a { b"1.0a" } else { b"1.0" },
                end,
            ));
        }
        if v.signature_signed {
            items.push((b"oauth_signature", b"", end));
        }
        if let (true, Some(realm)) = (v.realm, &self.realm) {
            items.push((b"realm", realm.as_bytes(), end));
        }
        let body = match v.body {
            BodyRule::NotSigned => &[][..],
            BodyRule::AsForm => &self.body_form[..],
            BodyRule::JsonFields => &self.body_json[..],
        };
        items.extend(
            body.iter()
                .map(|(n, val)| (n.as_slice(), val.as_slice(), end)),
        );

        // Each name and value encoded at the variant's depth, then sorted.
        s.text.clear();
        let mut encoded: Vec<(Range<usize>, Range<usize>, usize)> = Vec::with_capacity(items.len());
        for (k, (n, val, _)) in items.iter().enumerate() {
            let a = s.text.len();
            v.depth.write(v.enc, n, &mut s.text, &mut s.tmp);
            let b = s.text.len();
            v.depth.write(v.enc, val, &mut s.text, &mut s.tmp);
            encoded.push((a..b, b..s.text.len(), k));
        }
        let text = &s.text;
        match v.order {
            Order::Encoded => encoded.sort_by(|x, y| {
                text[x.0.clone()]
                    .cmp(&text[y.0.clone()])
                    .then_with(|| text[x.1.clone()].cmp(&text[y.1.clone()]))
            }),
            Order::Raw => encoded.sort_by(|x, y| {
                let (a, b) = (items[x.2], items[y.2]);
                a.0.cmp(b.0).then_with(|| a.1.cmp(b.1))
            }),
            Order::Collected => encoded.sort_by_key(|x| items[x.2].2),
            Order::NameOnly => {
                encoded.sort_by_key(|x| items[x.2].2);
                encoded.sort_by(|x, y| text[x.0.clone()].cmp(&text[y.0.clone()]));
            }
            Order::PairString => encoded.sort_by(|x, y| {
                let a = text[x.0.clone()]
                    .iter()
                    .chain(b"=")
                    .chain(&text[x.1.clone()]);
                let b = text[y.0.clone()]
                    .iter()
                    .chain(b"=")
                    .chain(&text[y.1.clone()]);
                a.cmp(b)
            }),
        }
        s.joined.clear();
        for (k, (n, val, _)) in encoded.iter().enumerate() {
            if k > 0 {
                s.joined.push(b'&');
            }
            s.joined.extend_from_slice(&text[n.clone()]);
            s.joined.push(b'=');
            s.joined.extend_from_slice(&text[val.clone()]);
        }
    }
}

/// `api.x.com` for `api.twitter.com` and the other way round.
pub(crate) fn other_x_host(host: &str) -> Option<String> {
    let lower = host.to_ascii_lowercase();
    if let Some(sub) = lower.strip_suffix("twitter.com") {
        Some(format!("{sub}x.com"))
    } else {
        lower
            .strip_suffix("x.com")
            .map(|sub| format!("{sub}twitter.com"))
    }
}

/// The fields of a JSON object body, as a library that signs them as
/// parameters sees them: strings as they are, anything else as JSON text.
#[cfg(feature = "json")]
fn json_fields(body: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let Ok(map) = serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(body) else {
        return Vec::new();
    };
    map.into_iter()
        .map(|(k, v)| {
            let v = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (k.into_bytes(), v.into_bytes())
        })
        .collect()
}

#[cfg(not(feature = "json"))]
fn json_fields(_body: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(url: &str, v: &Variant) -> String {
        let parsed = RequestUrl::parse(url).unwrap();
        let scheme = url.split(':').next().unwrap();
        let model = Model::new("GET", &parsed, scheme, Vec::new(), None);
        let mut out = Vec::new();
        model.write_uri(v, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_right_uri_is_the_stages_and_each_mistake_changes_its_part() {
        for url in [
            "HTTP://Example.COM:80",
            "https://h:443/a%2fb/?q=1",
            "http://[::1]:8080",
            "https://API.X.com:8443/p",
        ] {
            assert_eq!(
                uri(url, &Variant::default()),
                crate::pipeline::base_string_uri(url).unwrap().to_string(),
                "{url}"
            );
        }
        let with = |change: fn(&mut Variant)| {
            let mut v = Variant::default();
            change(&mut v);
            v
        };
        let url = "HTTPS://API.X.com/a%2Fb/";
        assert_eq!(
            uri(url, &with(|v| v.keep_case = true)),
            "HTTPS://API.X.com/a%2Fb/"
        );
        assert_eq!(
            uri(url, &with(|v| v.default_port = true)),
            "https://api.x.com:443/a%2Fb/"
        );
        assert_eq!(
            uri(url, &with(|v| v.other_host = true)),
            "https://api.twitter.com/a%2Fb/"
        );
        assert_eq!(
            uri(url, &with(|v| v.path_decoded = true)),
            "https://api.x.com/a/b/"
        );
        assert_eq!(
            uri(url, &with(|v| v.path_slash = true)),
            "https://api.x.com/a%2Fb"
        );
        assert_eq!(
            uri("http://h:8080", &with(|v| v.drop_port = true)),
            "http://h/"
        );
        assert_eq!(
            uri("http://h:8080", &with(|v| v.path_slash = true)),
            "http://h:8080/"
        );
    }

    #[test]
    fn x_hosts_swap() {
        assert_eq!(
            other_x_host("api.x.com").as_deref(),
            Some("api.twitter.com")
        );
        assert_eq!(
            other_x_host("API.Twitter.com").as_deref(),
            Some("api.x.com")
        );
        assert_eq!(other_x_host("example.com"), None);
    }

    #[test]
    fn unicode_alternatives_only_where_they_differ() {
        assert_eq!(
            alt("é".as_bytes(), Uni::Nfd),
            Some("e\u{301}".as_bytes().to_vec())
        );
        assert_eq!(alt("é".as_bytes(), Uni::Nfc), None);
        assert_eq!(alt("é".as_bytes(), Uni::Latin1), Some(vec![0xE9]));
        assert_eq!(alt("☃".as_bytes(), Uni::Latin1), None);
        assert_eq!(alt(b"abc", Uni::Nfd), None);
    }
}
