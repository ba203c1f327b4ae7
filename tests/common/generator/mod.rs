//! The differential tests' request generator (`tests/differential.rs`,
//! `tests/differential_generator.rs`): seeded random requests as JSON in
//! the schema of the vectors' `inputs` (`fixtures/README.md`), drawn from
//! the pools in `pools.rs`, chosen for the classes of input that break
//! signers (long shared prefixes, values of kilobytes, past 32 parameters,
//! IPv6 hosts). About one request in ten is one this crate must refuse,
//! and says which refusal. A [`Profile`] switches off, for one peer only,
//! the classes that peer is known to get wrong (tests/peers/README.md, with
//! evidence). SplitMix64 draws every choice, so a seed gives the same
//! requests on every machine.

mod pools;

use std::path::Path;

use oauth1_signer::{Error, ErrorKind, Part};
use serde_json::{json, Map, Value};

use pools::*;

pub const REQUESTS_PER_PEER: usize = 1500;
pub const DEFAULT_SEED: u64 = 0x5EED_0A07_1A5E_2026;

/// SplitMix64: tiny, fixed forever, so a seed replays the same requests on
/// every machine and every version of every crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What a peer can be given. Each `false` names a documented deviation.
#[derive(Clone, Copy)]
pub struct Profile {
    /// Upper-case scheme/host, default or empty ports, empty paths.
    pub unnormalised_urls: bool,
    /// `+` for a space in the query.
    pub plus_in_query: bool,
    /// Percent-encoded characters in query parameter names.
    pub encoded_query_names: bool,
    /// Sub-delimiters and `:@/?` left raw in query values (they are legal there).
    pub raw_sub_delims_in_query: bool,
    /// The same name in the query and in the body.
    pub name_in_query_and_body: bool,
    /// A repeated query name whose first value is empty.
    pub empty_first_duplicate: bool,
    /// Methods holding characters that must be encoded (`X!Y`).
    pub methods_needing_encoding: bool,
    /// IPv6 literals not in their shortest form (`[0:0:0:0:0:0:0:1]`).
    pub uncompressed_ipv6: bool,
    /// Whether an empty realm is written as `realm=""` in the header.
    pub writes_empty_realm: bool,
}

pub const OAUTHLIB: Profile = Profile {
    unnormalised_urls: true,
    plus_in_query: true,
    encoded_query_names: true,
    raw_sub_delims_in_query: true,
    name_in_query_and_body: true,
    empty_first_duplicate: true,
    methods_needing_encoding: true,
    // P-IPV6: rewrites the host through `ipaddress` (`[::1]`).
    uncompressed_ipv6: false,
    // H-EMPTY-REALM: `prepare_headers` writes the realm only `if realm:`.
    writes_empty_realm: false,
};

pub const OAUTH_1_0A: Profile = Profile {
    // J-URI-CASE, J-URI-PORT, J-URI-PATH: it signs `url.split('?')[0]` as is.
    unnormalised_urls: false,
    // J-QUERY-PLUS: decodes the query with decodeURIComponent, so '+' stays '+'.
    plus_in_query: false,
    // J-QUERY-NAME: never decodes query names.
    encoded_query_names: false,
    // J-QUERY-EQ / J-QUERY-QMARK: splits values at a raw '=' or '?'.
    raw_sub_delims_in_query: false,
    // J-DUP-QB: merges query and body into one object; the query wins.
    name_in_query_and_body: false,
    // J-QUERY-DUP-EMPTY: `?a=&a=1` drops the empty first value.
    empty_first_duplicate: false,
    // J-METHOD: upper-cases the method but does not encode it.
    methods_needing_encoding: false,
    uncompressed_ipv6: true,
    // H-EMPTY-REALM: `toHeader` writes the realm only `if (this.realm)`.
    writes_empty_realm: false,
};

/// Why a generated request must be refused; one at most per request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refusal {
    Realm,
    OAuthNameInRequest,
    /// A nonce outside the rule the signer and the verifier share (empty,
    /// over 64 characters, or a character other than letters, digits and
    /// `-._~+/=`): the peers sign it, this crate refuses it.
    BadNonce,
    BadTimestamp,
    BadIpLiteral,
    PortZero,
}

/// Each refusal's weight; a realm has the most ways to be wrong.
pub const REFUSALS: &[Refusal] = &[
    Refusal::Realm,
    Refusal::Realm,
    Refusal::OAuthNameInRequest,
    Refusal::BadNonce,
    Refusal::BadTimestamp,
    Refusal::BadIpLiteral,
    Refusal::PortZero,
];

impl Refusal {
    /// Whether `e` is this refusal: the kind, and where it points, derived
    /// from the request by hand.
    pub fn check(self, request: &Value, e: &Error) -> Result<(), String> {
        let url = request["url"].as_str().unwrap();
        // The authority: between "://" and the path, query or end.
        let from = url.find("://").unwrap() + 3;
        let to = url[from..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |i| from + i);
        let ok = match (self, e.kind()) {
            (Refusal::Realm, ErrorKind::InvalidByte { part, offset, .. }) => {
                let realm = request["realm"].as_str().unwrap().as_bytes();
                *part == Part::Realm
                    && realm
                        .get(*offset)
                        .is_some_and(|&b| b == b'"' || b == b'\\' || !(b' '..=b'~').contains(&b))
                    && realm[..*offset]
                        .iter()
                        .all(|&b| b != b'"' && b != b'\\' && (b' '..=b'~').contains(&b))
            }
            (Refusal::OAuthNameInRequest, ErrorKind::ProtocolParameterInRequest { name, .. }) => {
                name.starts_with("oauth_")
            }
            (Refusal::BadNonce, ErrorKind::InvalidProtocolValue { name, .. }) => {
                *name == "oauth_nonce"
            }
            (Refusal::BadTimestamp, ErrorKind::InvalidProtocolValue { name, .. }) => {
                *name == "oauth_timestamp"
            }
            (Refusal::BadIpLiteral | Refusal::PortZero, ErrorKind::InvalidUrl { offset, .. }) => {
                (from..to).contains(offset)
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "refused, but not for {self:?}: {e} ({:?})",
                e.kind()
            ))
        }
    }
}

/// One generated request, and what the generator knows about it.
pub struct Case {
    pub request: Value,
    /// The query's and the body's pairs, decoded (for the coverage check).
    pub params: Vec<(String, Option<String>)>,
    pub refusal: Option<Refusal>,
}

/// Shared prefixes for one request's names and values: a sorting or
/// comparing bug that looks at the first 8 or 16 bytes, or at whole words,
/// shows only when two strings agree that far and differ just after.
struct Family {
    name: String,
    value: String,
}

/// Around the widths a word-at-a-time comparison steps by (8 and 16 bytes,
/// the most often), and well past them.
const PREFIX_LENGTHS: &[usize] = &[
    7, 8, 8, 9, 9, 15, 16, 16, 17, 17, 24, 31, 32, 33, 63, 64, 65, 100, 257,
];
const LONG_LENGTHS: &[usize] = &[1000, 1024, 2047, 4096, 4097, 8192];
const NAME_SUFFIXES: &[&str] = &["", "a", "b", "A", "0", "~", ".", "_", "-", "aa", "ab"];
const ENCODED_SUFFIXES: &[&str] = &["%", " ", "é", "&", "=", "+", "\"", "\\", ","];

fn prefix(rng: &mut Rng, len: usize, plain: bool) -> String {
    const PLAIN: &[u8] = b"aZ09-._~";
    const ANY: &[u8] = b"aZ09-._~ !*'()%+&=,;:@/?\"\\";
    let alphabet = if plain || rng.chance(50) { PLAIN } else { ANY };
    let mut s: String = (0..len).map(|_| *rng.pick(alphabet) as char).collect();
    if !plain && rng.chance(15) {
        // a character of several bytes inside the prefix
        let at = rng.below(len);
        s.replace_range(at..at + 1, "é");
    }
    s
}

fn family(rng: &mut Rng, plain_names: bool) -> Family {
    let name_len = *rng.pick(PREFIX_LENGTHS);
    let value_len = if rng.chance(10) {
        *rng.pick(LONG_LENGTHS)
    } else {
        *rng.pick(PREFIX_LENGTHS)
    };
    Family {
        name: prefix(rng, name_len, plain_names),
        value: prefix(rng, value_len, false),
    }
}

fn suffix(rng: &mut Rng, plain: bool) -> &'static str {
    if plain || rng.chance(70) {
        rng.pick::<&str>(NAME_SUFFIXES)
    } else {
        rng.pick::<&str>(ENCODED_SUFFIXES)
    }
}

/// A value of some kilobytes: the pool's values strung together.
fn long_value(rng: &mut Rng) -> String {
    let len = *rng.pick(LONG_LENGTHS);
    let mut s = String::new();
    while s.len() < len {
        s.push_str(rng.pick::<&str>(VALUES));
    }
    s
}

fn value(rng: &mut Rng, fam: &Family) -> Option<String> {
    match rng.below(100) {
        0..=5 => None,
        6..=11 => Some(String::new()),
        12..=41 => Some(format!("{}{}", fam.value, suffix(rng, false))),
        42..=44 => Some(long_value(rng)),
        _ => Some(rng.pick(VALUES).to_string()),
    }
}

pub fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// RFC 5849 §3.6, written out: what the base string and the header hold.
pub fn rfc_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if is_unreserved(b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Encodes text the way a client might: unreserved bytes as they are, the
/// rest as `%XX` in either hex case; a space maybe as `+`; legal raw
/// characters maybe left raw.
fn client_encode(rng: &mut Rng, text: &str, plus: bool, raw_ok: &[u8]) -> String {
    let mut out = String::new();
    for &b in text.as_bytes() {
        if is_unreserved(b) || (raw_ok.contains(&b) && rng.chance(50)) {
            out.push(b as char);
        } else if b == b' ' && plus && rng.chance(50) {
            out.push('+');
        } else if rng.chance(25) {
            out.push_str(&format!("%{b:02x}"));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `count` pairs (a few fewer when a peer cannot take some): names from the
/// pool, from the request's shared prefix, or repeated; a repeated name
/// sometimes gets a burst of values that share a long prefix.
fn pairs(
    rng: &mut Rng,
    p: Profile,
    fam: &Family,
    count: usize,
    avoid: &[String],
    plain_names: bool,
) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < 4 * count {
        attempts += 1;
        let name = match rng.below(100) {
            0..=14 if !out.is_empty() => out[rng.below(out.len())].0.clone(), // a duplicate name
            15..=39 => format!("{}{}", fam.name, suffix(rng, plain_names)),
            _ => rng.pick(NAMES).to_string(),
        };
        let needs_encoding = !name.bytes().all(is_unreserved);
        if avoid.contains(&name) || (plain_names && needs_encoding) {
            continue;
        }
        let burst = if rng.chance(12) { 2 + rng.below(4) } else { 1 };
        for _ in 0..burst {
            let value = if burst > 1 {
                Some(format!("{}{}", fam.value, suffix(rng, false)))
            } else {
                value(rng, fam)
            };
            if !p.empty_first_duplicate {
                let empty = |v: &Option<String>| v.as_deref().unwrap_or("").is_empty();
                if out.iter().any(|(n, v)| *n == name && empty(v))
                    || (empty(&value) && out.iter().any(|(n, _)| *n == name))
                {
                    continue;
                }
            }
            out.push((name.clone(), value));
        }
    }
    out
}

fn encode_pairs(
    rng: &mut Rng,
    pairs: &[(String, Option<String>)],
    plus: bool,
    names_encoded: bool,
    raw_ok: &[u8],
) -> String {
    pairs
        .iter()
        .map(|(n, v)| {
            let n = if names_encoded {
                client_encode(rng, n, plus, raw_ok)
            } else {
                n.clone()
            };
            match v {
                None => n,
                Some(v) => format!("{n}={}", client_encode(rng, v, plus, raw_ok)),
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn random_case(rng: &mut Rng, p: Profile, id: usize, keys: &[String]) -> Case {
    let refusal = if rng.chance(10) {
        Some(*rng.pick(REFUSALS))
    } else {
        None
    };
    let mut req = Map::new();
    req.insert("id".into(), json!(format!("r{id}")));
    let method = if p.methods_needing_encoding && rng.chance(5) {
        rng.pick(ODD_METHODS)
    } else {
        rng.pick(METHODS)
    };
    req.insert("method".into(), json!(method));

    let https = rng.chance(60);
    let mut scheme = if https {
        "https".to_string()
    } else {
        "http".to_string()
    };
    let mut host = if refusal == Some(Refusal::BadIpLiteral) {
        rng.pick(BAD_IP_LITERALS).to_string()
    } else if rng.chance(15) {
        if p.uncompressed_ipv6 && rng.chance(25) {
            rng.pick(IPV6_UNCOMPRESSED).to_string()
        } else {
            rng.pick(IPV6_HOSTS).to_string()
        }
    } else {
        rng.pick(HOSTS).to_string()
    };
    if p.unnormalised_urls && rng.chance(25) {
        scheme = scheme.to_uppercase();
        host = host.to_uppercase();
    }
    let port = match rng.below(6) {
        _ if refusal == Some(Refusal::PortZero) => rng.pick(&[":0", ":00"]).to_string(),
        _ if host == "[::1]" && rng.chance(50) => ":8080".to_string(),
        0 if p.unnormalised_urls => (if https { ":443" } else { ":80" }).to_string(),
        1 if p.unnormalised_urls => ":".to_string(),
        2 => format!(":{}", rng.pick(&[8080, 3000, 8443, 1, 65535])),
        3 => (if https { ":80" } else { ":443" }).to_string(),
        _ => String::new(),
    };
    let mut path: String = (0..rng.below(4))
        .map(|_| format!("/{}", rng.pick(SEGMENTS)))
        .collect();
    if path.is_empty() && (!p.unnormalised_urls || rng.chance(50)) {
        path.push('/');
    }
    if rng.chance(10) {
        path.push('/');
    }

    // Parameter counts: mostly a few; sometimes past the 32 the signer keeps
    // inline (the protocol parameters come on top).
    let has_body = matches!(
        method.to_ascii_uppercase().as_str(),
        "POST" | "PUT" | "PATCH"
    ) && rng.chance(60);
    let (query_count, body_count) = if rng.chance(10) {
        // Around 32 with the protocol parameters, or well past it.
        let total = if rng.chance(50) {
            22 + rng.below(15)
        } else {
            37 + rng.below(50)
        };
        let in_body = if has_body { rng.below(total + 1) } else { 0 };
        (total - in_body, in_body)
    } else {
        (rng.below(7), rng.below(6))
    };
    let plain_query_names = !p.encoded_query_names;
    let fam = family(rng, plain_query_names);

    // Names already used by one source are kept out of the other for a peer
    // that merges query and body.
    let mut query = pairs(rng, p, &fam, query_count, &[], plain_query_names);
    let query_names: Vec<String> = if p.name_in_query_and_body {
        vec![]
    } else {
        query.iter().map(|(n, _)| n.clone()).collect()
    };
    let mut body = if has_body {
        pairs(rng, p, &fam, body_count, &query_names, false)
    } else {
        vec![]
    };
    if refusal == Some(Refusal::OAuthNameInRequest) {
        let pair = (rng.pick(OAUTH_NAMES).to_string(), value(rng, &fam));
        if has_body && rng.chance(50) {
            let at = rng.below(body.len() + 1);
            body.insert(at, pair);
        } else {
            let at = rng.below(query.len() + 1);
            query.insert(at, pair);
        }
    }

    let raw_query: &[u8] = if p.raw_sub_delims_in_query {
        b"!*'():@/?,;$"
    } else {
        b""
    };
    let mut url = format!("{scheme}://{host}{port}{path}");
    if !query.is_empty() {
        url.push('?');
        url.push_str(&encode_pairs(
            rng,
            &query,
            p.plus_in_query,
            p.encoded_query_names,
            raw_query,
        ));
    }
    if p.unnormalised_urls && rng.chance(5) {
        url.push_str("#frag");
    }
    req.insert("url".into(), json!(url));
    if has_body {
        req.insert(
            "form_body".into(),
            json!(encode_pairs(rng, &body, true, true, b"!*'():@/?,;$")),
        );
    }

    let sig = *rng.pick(SIGNATURE_METHODS);
    req.insert("signature_method".into(), json!(sig));
    req.insert("consumer_key".into(), json!(rng.pick(CONSUMER_KEYS)));
    if sig.starts_with("RSA") {
        req.insert("rsa_private_key".into(), json!(rng.pick(keys)));
    } else if rng.chance(90) {
        req.insert("consumer_secret".into(), json!(rng.pick(SECRETS)));
    }
    if rng.chance(70) {
        req.insert("token".into(), json!(rng.pick(TOKENS)));
        if !sig.starts_with("RSA") {
            req.insert("token_secret".into(), json!(rng.pick(SECRETS)));
        }
    }
    if refusal == Some(Refusal::BadTimestamp) {
        req.insert("timestamp".into(), json!(rng.pick(BAD_TIMESTAMPS)));
    } else if rng.chance(95) {
        let t = match rng.below(20) {
            0 => "1".to_string(),
            1 => "18446744073709551615".to_string(),
            _ => (1_300_000_000 + rng.below(500_000_000)).to_string(),
        };
        req.insert("timestamp".into(), json!(t));
    }
    if refusal == Some(Refusal::BadNonce) {
        let long = "n".repeat(65);
        let bad = ["", "a b", "nonce\"x", "a,b", "x\\y", "été", long.as_str()];
        req.insert("nonce".into(), json!(rng.pick(&bad)));
    } else if rng.chance(95) {
        // The rule's whole alphabet, `+ / =` (which need escapes) among it.
        let alphabet: &[u8] = if rng.chance(20) {
            b"aZ09qK-._~+/="
        } else {
            b"aZ09qK"
        };
        let nonce: String = (0..rng.below(40) + 1)
            .map(|_| *rng.pick(alphabet) as char)
            .collect();
        req.insert("nonce".into(), json!(nonce));
    }
    if rng.chance(70) {
        req.insert("version".into(), json!("1.0"));
    }
    if rng.chance(10) {
        req.insert(
            "callback".into(),
            json!(rng.pick(&[
                "oob",
                "http://client.example/cb?x=1&y=ö",
                "https://printer.example.com/ready",
                "http://cb.example/?a=\"b\"&c=d,e",
            ])),
        );
    }
    if rng.chance(10) {
        req.insert(
            "verifier".into(),
            json!(rng.pick(&["hfdp7dh39dks9884", "ü 1", "v\"e,r=i\\f"])),
        );
    }
    if refusal == Some(Refusal::Realm) {
        req.insert("realm".into(), json!(rng.pick(BAD_REALMS)));
    } else if rng.chance(20) {
        req.insert("realm".into(), json!(rng.pick(REALMS)));
    }
    query.extend(body);
    Case {
        request: Value::Object(req),
        params: query,
        refusal,
    }
}

fn keys() -> [String; 2] {
    let read = |path: &str| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
    };
    [
        read("fixtures/keys/oauthlib_tests_rsa_pkcs1.pem"),
        read("fixtures/keys/oauth_net_testcases_rsa_pkcs8.pem"),
    ]
}

/// The requests one seed gives for one peer.
pub fn batch(seed: u64, profile: Profile) -> Vec<Case> {
    let keys = keys();
    let mut rng = Rng(seed);
    (0..REQUESTS_PER_PEER)
        .map(|i| random_case(&mut rng, profile, i, &keys))
        .collect()
}
