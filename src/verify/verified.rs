//! What a verification found: [`Verified`] for a request that passed, read
//! from the one model of its protocol parameters ([`Protocol`]) and the
//! base string that verified.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use crate::pipeline::protocol::{self, Kept, Name, Protocol};
use crate::pipeline::sign::SignatureMethod;
use crate::text::decode::{lossy_text, percent_decode};
use crate::text::value::Text;

/// A request that passed: what was verified.
///
/// Its texts are kept in one buffer: the base string, the URL and the
/// protocol parameters, each copied once when the request verified.
/// [`protocol`](Self::protocol) is made from them on its first call; the
/// consumer key, the token and the realm are read without it.
#[derive(Clone)]
pub struct Verified {
    /// The base string, the request URL, then the protocol parameters'
    /// texts (`kept` says where).
    pub(super) text: String,
    /// Where the base string ends in `text`, and the request URL after it.
    pub(super) base_end: usize,
    pub(super) url_end: usize,
    pub(super) kept: Kept,
    /// [`Verified::protocol`], made on its first call.
    pub(super) protocol: OnceLock<Protocol<'static>>,
    pub(super) method: SignatureMethod,
    /// Where the base string URI is, encoded, in the base string.
    pub(super) uri: Range<usize>,
    /// The parameters verified, in normalised order, decoded when asked for.
    pub(super) params: VerifiedParams,
}

impl Verified {
    /// What passed: the base string (whose capacity has room for the rest),
    /// the URL and the protocol parameters kept in one buffer.
    pub(super) fn new(
        mut base_string: String,
        uri: Range<usize>,
        request_url: &str,
        protocol: &Protocol<'_>,
        method: SignatureMethod,
        params: VerifiedParams,
    ) -> Verified {
        let base_end = base_string.len();
        base_string.push_str(request_url);
        let url_end = base_string.len();
        let kept = protocol.keep_in(&mut base_string);
        Verified {
            text: base_string,
            base_end,
            url_end,
            kept,
            protocol: OnceLock::new(),
            method,
            uri,
            params,
        }
    }

    /// The protocol parameters that verified, where they were sent, and
    /// the header's realm.
    pub fn protocol(&self) -> &Protocol<'static> {
        self.protocol
            .get_or_init(|| self.kept.protocol(&self.text).into_owned())
    }

    /// The consumer key.
    pub fn consumer_key(&self) -> &str {
        self.kept
            .get(&self.text, Name::ConsumerKey)
            .unwrap_or_default()
    }

    /// The token, if the request named one (an empty `oauth_token` is none).
    pub fn token(&self) -> Option<&str> {
        protocol::token(self.kept.get(&self.text, Name::Token))
    }

    /// The signature method.
    pub fn signature_method(&self) -> SignatureMethod {
        self.method
    }

    /// The header's `realm`, if it had one (never signed).
    pub fn realm(&self) -> Option<&str> {
        self.kept.realm(&self.text)
    }

    /// The URL it was verified against
    /// ([`Verifier::request_url`](crate::verify::Verifier::request_url)).
    pub fn request_url(&self) -> &str {
        &self.text[self.base_end..self.url_end]
    }

    /// The HTTP method, upper-cased, as signed.
    pub fn http_method(&self) -> String {
        decoded_text(&self.base_string().as_bytes()[..self.uri.start.saturating_sub(1)])
    }

    /// The signature base string that verified (§3.4.1.1).
    pub fn base_string(&self) -> &str {
        &self.text[..self.base_end]
    }

    /// The base string URI that verified (§3.4.1.2), decoded.
    pub fn base_string_uri(&self) -> String {
        decoded_text(&self.base_string().as_bytes()[self.uri.clone()])
    }

    /// The normalised parameters that verified (§3.4.1.3.2), as the
    /// parameter string (`a=1&oauth_consumer_key=...`).
    pub fn normalized_params(&self) -> String {
        decoded_text(&self.base_string().as_bytes()[self.uri.end + 1..])
    }

    /// The parameters that verified, as decoded `(name, value)` pairs in
    /// normalised order (bytes that are not UTF-8 replaced): the query's,
    /// the form body's and the protocol parameters (but the signature), as
    /// the request was parsed. In Mastercard's style a form body's are
    /// covered by `oauth_body_hash`, not by the parameter string.
    ///
    /// Each is decoded as it is read, and lent from the `Verified` where
    /// decoding changes nothing (most names and values): reading them
    /// allocates only for text that held an escape.
    ///
    /// ```
    /// use oauth1_signer::verify::{MemoryNonceStore, Received, StaticSecrets, Verifier};
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let credentials = Credentials::new("key", "secret");
    /// let verifier = Verifier::builder(StaticSecrets::new(credentials.clone()), MemoryNonceStore::with_capacity(1000)).build()?;
    /// let url = "https://api.example.com/notes?tag=a%20b";
    /// let header = Signer::new(credentials)
    ///     .authorization_header(&OAuthRequest::post(url).form_body(b"text=hi"))?;
    /// let received = Received::new("POST", url).authorization_header(&header).form_body(b"text=hi");
    /// let verified = verifier.verify_blocking(&received)?;
    /// let tag = verified.params().find(|(name, _)| name == "tag");
    /// assert_eq!(tag.map(|(_, value)| value), Some("a b".into()));
    /// assert_eq!(verified.params().filter(|(name, _)| name.starts_with("oauth_")).count(), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn params(&self) -> impl ExactSizeIterator<Item = (Cow<'_, str>, Cow<'_, str>)> + '_ {
        self.params.pairs()
    }
}

impl std::fmt::Debug for Verified {
    /// What [`Protocol`]'s `Debug` shows of the protocol parameters (never
    /// the signature), and the rest.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verified")
            .field("protocol", &self.kept.protocol(&self.text))
            .field("method", &self.method)
            .field("request_url", &self.request_url())
            .field("base_string", &self.base_string())
            .field("params", &self.params)
            .finish()
    }
}

/// The parameters a request was verified with, kept as they were collected
/// (each name's and value's text copied once into one buffer, with how to
/// read it) and decoded as [`Verified::params`] reads them: a server that
/// never asks pays for a copy, not for decoding, and one that asks
/// allocates only for a name or value that held an escape.
#[derive(Clone, Default)]
pub(super) struct VerifiedParams {
    /// Every name and value as collected, one after another.
    text: Vec<u8>,
    /// Per parameter: its name's and its value's kind (their bytes empty)
    /// and where each ends in `text`.
    items: Vec<(Text<'static>, usize, Text<'static>, usize)>,
}

impl VerifiedParams {
    /// Copies what `params` hold, in one pass, into room for `bound` bytes
    /// (the request's URL, body and header, which hold every collected
    /// name and value as received; the buffer grows if a rewritten URL
    /// holds more).
    pub(super) fn new<'a>(
        bound: usize,
        params: impl Iterator<Item = (Text<'a>, Text<'a>)>,
    ) -> Self {
        let mut kept = VerifiedParams {
            text: Vec::with_capacity(bound),
            items: Vec::with_capacity(params.size_hint().1.unwrap_or(0)),
        };
        for (name, value) in params {
            kept.text.extend_from_slice(name.as_collected());
            let name_end = kept.text.len();
            kept.text.extend_from_slice(value.as_collected());
            kept.items.push((
                name.with_collected(&[]),
                name_end,
                value.with_collected(&[]),
                kept.text.len(),
            ));
        }
        kept
    }

    /// The parameters decoded (bytes that are not UTF-8 replaced), each as
    /// it is read.
    fn pairs(&self) -> impl ExactSizeIterator<Item = (Cow<'_, str>, Cow<'_, str>)> + '_ {
        let text = |kind: &Text<'_>, from: usize, to: usize| {
            lossy_text(kind.with_collected(&self.text[from..to]).decoded())
        };
        // Each pair's text starts where the one before ends: read from the
        // list, not carried from call to call, so that any adapter may
        // take the pairs in any order.
        (0..self.items.len()).map(move |i| {
            let start = i.checked_sub(1).map_or(0, |b| self.items[b].3);
            let (name, name_end, value, end) = &self.items[i];
            (text(name, start, *name_end), text(value, *name_end, *end))
        })
    }
}

impl std::fmt::Debug for VerifiedParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.pairs()).finish()
    }
}

/// Percent-decoded text (what this crate wrote, so well-formed).
fn decoded_text(encoded: &[u8]) -> String {
    match percent_decode(encoded) {
        Ok(d) => lossy_text(d.into_bytes()).into_owned(),
        Err(_) => lossy_text(Cow::Borrowed(encoded)).into_owned(),
    }
}
