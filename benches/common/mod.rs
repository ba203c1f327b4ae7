//! The requests the benchmarks and `tests/alloc.rs` sign, defined once.
//!
//! The X docs request is the "Creating a signature" example; the 20-parameter
//! GET carries Hindi, Turkish and emoji text in its query, percent-encoded by
//! `percent-encoding` (not by this crate) the way a client would send it.
//! Each is also here as `oauth1-request` takes it: decoded parameters in a
//! `#[derive(oauth::Request)]` struct, the fastest way that crate offers
//! (its fields are serialised in name order, with no sorting at run time).

#![allow(dead_code)]

use std::future::Future;
use std::num::NonZeroU64;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use oauth1_signer::pipeline::parse_authorization_header;
use oauth1_signer::verify::{Freshness, NonceKey, NonceStore, StoreFuture};
use oauth1_signer::{Credentials, Signer};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

pub const CONSUMER_KEY: &str = "xvz1evFS4wEEPTGEFPHBog";
pub const CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
pub const TOKEN: &str = "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb";
pub const TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";
pub const NONCE: &str = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg";
pub const TIMESTAMP: &str = "1318622958";

/// The protocol parameters a signer with these credentials and the pinned
/// nonce and timestamp sends (HMAC-SHA1, version 1.0), less the signature.
pub const PROTOCOL_PARAMS: [(&str, &str); 6] = [
    ("oauth_consumer_key", CONSUMER_KEY),
    ("oauth_nonce", NONCE),
    ("oauth_signature_method", "HMAC-SHA1"),
    ("oauth_timestamp", TIMESTAMP),
    ("oauth_token", TOKEN),
    ("oauth_version", "1.0"),
];

/// X docs, "Creating a signature".
pub const X_DOCS_URL: &str = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
pub const X_DOCS_BODY: &[u8] =
    b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
/// The same request as decoded parameters (what `oauth1-request` takes) and
/// the query-less URI.
pub const X_DOCS_URI: &str = "https://api.x.com/1.1/statuses/update.json";
pub const X_DOCS_PARAMS: [(&str, &str); 2] = [
    ("include_entities", "true"),
    (
        "status",
        "Hello Ladies + Gentlemen, a signed OAuth request!",
    ),
];

// Text to percent-encode (`benches/encoding.rs`, the encoding cases of
// `benches/instructions`), each repeated to a size by `corpus`.

/// Identifier-like: keys, tokens, ids, screen names; a separator now and then.
pub const IDENTIFIERS: &str = "oauth_consumer_key xvz1evFS4wEEPTGEFPHBog 370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb \
include_entities tweet_mode=extended user_id:783214 screen_name=TwitterDev kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg \
1318622958 since_id=1234567890123456789 max_results.100 expansions~author_id ";

/// English tweet-like text.
pub const TWEET: &str = "Hello Ladies + Gentlemen, a signed OAuth request! Just landed in NYC, the coffee here is \
great (but pricey). Who's up for lunch at 12:30? #travel @friend https://t.co/abc123 ... can't wait to see you all! ";

/// Hindi, Turkish and emoji.
pub const NON_ASCII: &str =
    "नमस्ते दुनिया! भारत की राजधानी नई दिल्ली है। İstanbul'da güzel bir gün; Çok teşekkür ederim, \
Şişli'de öğle yemeği 🎉🚀✨ मुझे हिंदी पसंद है 😀😃 Günaydın! Nasılsın? ❤️‍🔥 🍕🍔 Işık ılık süt iç ";

/// `text` repeated to `len` bytes, cut back to a character boundary.
pub fn corpus(text: &str, len: usize) -> String {
    let mut s = text.repeat(len / text.len() + 1);
    let mut end = len;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

/// RFC 3986 unreserved characters stay; everything else is escaped.
pub const RFC3986: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub const GET20_URI: &str = "https://api.x.com/2/tweets/search/recent";

/// Twenty values of non-ASCII text.
pub const GET20_VALUES: [&str; 20] = [
    "नमस्ते दुनिया",
    "İstanbul'da güzel bir gün",
    "🎉🚀✨",
    "भारत की राजधानी नई दिल्ली है",
    "Çok teşekkür ederim",
    "😀 😃 😄 😁",
    "मुझे हिंदी पसंद है",
    "Şişli'de öğle yemeği",
    "🇹🇷🇮🇳🌍",
    "क्रिकेट मैच आज शाम को",
    "Günaydın! Nasılsın?",
    "❤️‍🔥 🔥",
    "यह एक परीक्षण है",
    "Ağaç, çiçek, böcek",
    "👩‍💻👨‍🔬",
    "स्वागत है",
    "Işık ılık süt iç",
    "🍕🍔🍟🌮",
    "धन्यवाद",
    "Üsküdar'a gider iken",
];

/// Parameter names `q00`..`q19`, paired with [`GET20_VALUES`].
pub fn get20_params() -> Vec<(String, &'static str)> {
    GET20_VALUES
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("q{i:02}"), *v))
        .collect()
}

/// The 20-parameter GET's URL, its query percent-encoded as a client sends it.
pub fn get20_url() -> String {
    let mut url = String::from(GET20_URI);
    for (i, (name, value)) in get20_params().iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str(name);
        url.push('=');
        url.extend(utf8_percent_encode(value, RFC3986));
    }
    url
}

/// The X docs request's parameters as `oauth1-request`'s derive macro takes them.
#[derive(oauth::Request)]
pub struct XDocsDerived<'a> {
    include_entities: &'a str,
    status: &'a str,
}

/// [`X_DOCS_PARAMS`] in a [`XDocsDerived`].
pub fn x_docs_derived() -> XDocsDerived<'static> {
    XDocsDerived {
        include_entities: X_DOCS_PARAMS[0].1,
        status: X_DOCS_PARAMS[1].1,
    }
}

/// The 20-parameter GET's, likewise.
#[derive(oauth::Request)]
pub struct Get20Derived<'a> {
    q00: &'a str,
    q01: &'a str,
    q02: &'a str,
    q03: &'a str,
    q04: &'a str,
    q05: &'a str,
    q06: &'a str,
    q07: &'a str,
    q08: &'a str,
    q09: &'a str,
    q10: &'a str,
    q11: &'a str,
    q12: &'a str,
    q13: &'a str,
    q14: &'a str,
    q15: &'a str,
    q16: &'a str,
    q17: &'a str,
    q18: &'a str,
    q19: &'a str,
}

/// [`GET20_VALUES`] in a [`Get20Derived`].
pub fn get20_derived() -> Get20Derived<'static> {
    let v = GET20_VALUES;
    Get20Derived {
        q00: v[0],
        q01: v[1],
        q02: v[2],
        q03: v[3],
        q04: v[4],
        q05: v[5],
        q06: v[6],
        q07: v[7],
        q08: v[8],
        q09: v[9],
        q10: v[10],
        q11: v[11],
        q12: v[12],
        q13: v[13],
        q14: v[14],
        q15: v[15],
        q16: v[16],
        q17: v[17],
        q18: v[18],
        q19: v[19],
    }
}

/// The X docs' credentials (consumer and token).
pub fn credentials() -> Credentials {
    Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET)
}

/// A signer with [`credentials`] and the X docs' timestamp, pinned to `nonce`.
pub fn signer_with_nonce(nonce: &str) -> Signer {
    Signer::builder(credentials())
        .with_nonce(nonce)
        .with_timestamp(TIMESTAMP)
        .build()
        .unwrap()
}

/// A signer with [`credentials`], pinned to the X docs' nonce and timestamp.
pub fn signer() -> Signer {
    signer_with_nonce(NONCE)
}

/// `oauth1-request` set up as [`signer`] is: the same credentials, nonce,
/// timestamp and `oauth_version`.
pub fn peer() -> oauth::Builder<'static, oauth::HmacSha1, &'static str> {
    let mut b = oauth::Builder::with_token(
        oauth::Token::from_parts(CONSUMER_KEY, CONSUMER_SECRET, TOKEN, TOKEN_SECRET),
        oauth::HMAC_SHA1,
    );
    b.nonce(NONCE)
        .timestamp(NonZeroU64::new(TIMESTAMP.parse().unwrap()))
        .version(true);
    b
}

/// The `oauth_signature` of a header, decoded.
pub fn signature_of(header: &str) -> String {
    parse_authorization_header(header)
        .unwrap()
        .into_iter()
        .find(|(n, _)| n == "oauth_signature")
        .map(|(_, v)| v)
        .unwrap()
}

/// Polls a future that is ready at once (no I/O anywhere in it).
pub fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("waited on something"),
    }
}

/// A nonce store that is not measured: every nonce is fresh, at once.
pub struct Unmeasured;

impl NonceStore for Unmeasured {
    fn remember<'a>(&'a self, _: &'a NonceKey, _: Duration) -> StoreFuture<'a> {
        Box::pin(std::future::ready(Ok(Freshness::Fresh)))
    }
}
