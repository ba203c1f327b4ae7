//! The [`Explainer`]: one request as it was meant, signed once by the
//! pipeline's stages, and compared with what the other side gave: its base
//! string (component by component, in `compare`), its base string and
//! signature (then the key is suspect), its signature alone, or its whole
//! `Authorization` header (its protocol parameters first). When only a
//! signature is given, the search in `search` names the mistake that
//! reproduces it.

use std::collections::{BTreeSet, HashSet};
use std::fmt;

use super::catalogue::{value_cause, Cause};
use super::compare::compare;
use super::finding::{Component, Explanation, Finding, FoundBy};
use super::lenient::lenient_decode;
use super::model::{MParam, Model, Scratch};
use super::ours::{signs_as, Keys, Ours};
use super::search::{search, search_base_string};
use super::tried::key_mistake;
use super::variant::{KeyRule, Variant};
use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::credentials::Secret;
use crate::pipeline::protocol::{Name, Protocol};
use crate::pipeline::request::OAuthRequest;
use crate::pipeline::sign::SignatureMethod;
use crate::pipeline::signed::Trace;
use crate::pipeline::signer::Signer;
use crate::pipeline::url::RequestUrl;

/// The longest `Authorization` header [`Explainer::header`] reads: 1 MiB.
/// Servers refuse far shorter headers (8 to 64 KiB is the usual limit), so
/// no header a provider answered is longer; a longer one is an error
/// ([`ErrorKind::TooLong`]), and exit status 2
/// in `oauth1 explain --their-header`.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// What the other side gave to compare with ours: any of its
/// `Authorization` header, its signature base string and its signature
/// (see [`Explainer::explain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Theirs<'a> {
    /// Their `Authorization` header.
    pub header: Option<&'a str>,
    /// Their signature base string.
    pub base_string: Option<&'a str>,
    /// Their signature (Base64, or percent-encoded as in a header).
    pub signature: Option<&'a str>,
}

/// Explains why the other side's signature differs from ours, for one request.
///
/// Built from the [`Signer`] and the [`OAuthRequest`] as they were meant
/// (pin the nonce and timestamp the other side saw), it signs the request
/// with the pipeline's stages once and keeps the [`Trace`]; each method then
/// compares one kind of evidence with it.
///
/// ```
/// use oauth1_signer::{Credentials, OAuthRequest, Signer, explain::{Cause, Explainer}};
///
/// let signer = Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
///     .with_nonce("n")
///     .with_timestamp("1")
///     .build()?;
/// let request = OAuthRequest::post("https://api.x.com/1.1/statuses/update.json")
///     .form_body(b"status=hello%20world");
/// let explainer = Explainer::new(&signer, &request)?;
///
/// // Their base string encodes the space as '+'.
/// let theirs = explainer.trace().base_string.replace("hello%2520world", "hello%2Bworld");
/// let explanation = explainer.base_string(&theirs);
/// assert!(!explanation.matches);
/// assert_eq!(explanation.findings[0].cause, Cause::SpaceAsPlus);
/// assert_eq!(explanation.findings[0].cause.as_str(), "space-as-plus");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct Explainer {
    trace: Trace,
    model: Model,
    method: SignatureMethod,
    /// The two secrets, decoded from the trace's key; `None` for RSA.
    secrets: Option<(Secret, Secret)>,
    /// Findings for a client not yet trusted ([`Explainer::for_untrusted_client`]).
    untrusted: bool,
}

impl fmt::Debug for Explainer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Explainer")
            .field("trace", &self.trace)
            .field("method", &self.method)
            .finish_non_exhaustive()
    }
}

/// A signature as the other side may have written it: trimmed, and decoded
/// if it was copied percent-encoded out of a header.
fn normalize_signature(sig: &str) -> String {
    let sig = sig.trim().trim_matches('"');
    if sig.contains('%') {
        String::from_utf8_lossy(&lenient_decode(sig.as_bytes(), false)).into_owned()
    } else {
        sig.to_owned()
    }
}

impl Explainer {
    /// Signs `request` with `signer` (through [`Signer::trace`]) and keeps
    /// what the comparisons need.
    ///
    /// # Errors
    /// As [`Signer::trace`]: a request that cannot be signed as given.
    pub fn new(signer: &Signer, request: &OAuthRequest<'_>) -> Result<Explainer, Error> {
        let trace = signer.trace(request)?;
        let url = RequestUrl::parse(request.url)?;
        let scheme = request.url.split(':').next().unwrap_or_default();
        let params = trace
            .collected_params
            .iter()
            .map(|(source, n, v)| MParam::new(n.clone(), v.clone(), *source))
            .collect();
        let realm = trace.signed.protocol().realm().map(str::to_owned);
        let model = Model::new(request.method, &url, scheme, params, realm);
        // The secrets of the key that signed, as given (not split back out
        // of the key text).
        let secrets = signer
            .signing_key()
            .secrets()
            .map(|(cs, ts)| (cs.clone(), ts.clone()));
        Ok(Explainer {
            trace,
            model,
            method: signer.method(),
            secrets,
            untrusted: false,
        })
    }

    /// The explainer as a server may answer a client it has not
    /// authenticated (its signature did not verify): a finding names the
    /// cause and where it is, and shows neither side (`ours` and `theirs`
    /// are empty), since ours is computed with our secrets and our keys,
    /// and theirs may be a guess at a secret; the signature search tries no
    /// PLAINTEXT key, since a signature equal to the key text would confirm
    /// a guess at the secrets, and no key made of one secret alone (the
    /// token secret left out), which whoever holds only the consumer secret
    /// could reproduce, learning which tokens exist. What the client learns
    /// is which catalogued mistake reproduces the signature it sent, which
    /// only a client that holds both secrets can make.
    ///
    /// Build the explainer with the client's own consumer key and token
    /// (and, for a key or token you do not hold, secrets nobody knows, so
    /// that nothing reproduces and the answer looks as for any bad
    /// signature).
    pub fn for_untrusted_client(mut self) -> Explainer {
        self.untrusted = true;
        self
    }

    /// Adds the request's body that is not signed (a JSON body, as for the X
    /// API v2), so that a base string that signs it is named `body-signed`.
    pub fn with_unsigned_body(mut self, body: &[u8]) -> Explainer {
        self.model.set_unsigned_body(body);
        self
    }

    /// Our side: every stage of our signature.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Compares their signature base string with ours, component by
    /// component, and names the cause of each difference. Where a
    /// combination of mistakes of the signature search writes their base
    /// string, its causes are said as from their signature, in its order
    /// (the most fundamental first): each by the comparison's findings of
    /// it (where each difference is), or, where the comparison names it
    /// otherwise, by the search's (naming the real encoder); the
    /// comparison's findings of other causes are then what the combination
    /// writes, and are left out. The comparison takes time
    /// linear in the two base strings (n log n in their parameters); the
    /// search is bounded as from a signature
    /// ([`SEARCH_MAX_SIGNATURES`](crate::explain::SEARCH_MAX_SIGNATURES),
    /// [`SEARCH_MAX_WRITTEN`](crate::explain::SEARCH_MAX_WRITTEN)).
    pub fn base_string(&self, theirs: &str) -> Explanation {
        let compared = compare(&self.model, &self.trace.base_string, theirs);
        if compared.matches {
            return compared;
        }
        let Some(found) = search_base_string(
            self.ours(),
            &self.model,
            self.method,
            theirs.trim().as_bytes(),
        ) else {
            return compared;
        };
        // Each cause of the combination in its order: the comparison's
        // findings of it where it has some (they say where), else the
        // search's.
        let mut findings: Vec<Finding> = Vec::new();
        let mut done: HashSet<Cause> = HashSet::new();
        for f in found.findings {
            if !done.insert(f.cause) {
                if !compared.findings.iter().any(|c| c.cause == f.cause) {
                    findings.push(f);
                }
                continue;
            }
            let located: Vec<&Finding> = compared
                .findings
                .iter()
                .filter(|c| c.cause == f.cause)
                .collect();
            if located.is_empty() {
                findings.push(f);
            } else {
                findings.extend(located.into_iter().cloned());
            }
        }
        Explanation {
            matches: false,
            findings,
            their_base_string: compared.their_base_string,
        }
    }

    /// Compares their base string and the signature they computed over it:
    /// the base strings as [`base_string`](Self::base_string) does, then
    /// whether their signature is ours over their base string. If it is not,
    /// the key differs (`key-mismatch`), and the finding says which part is
    /// suspect when a catalogued key mistake reproduces it.
    pub fn base_string_and_signature(&self, base_string: &str, signature: &str) -> Explanation {
        let mut ex = self.base_string(base_string);
        let theirs = normalize_signature(signature);
        let ours_match = self.trace.signature.ct_eq(&theirs);
        if ours_match && ex.matches {
            return ex;
        }
        let ours = self.ours();
        let Some((cs, ts)) = ours.secrets else {
            return ex;
        };
        let keys = Keys::for_side(&ours, cs, ts);
        let base = base_string.trim().as_bytes();
        let right = keys.get(KeyRule::Right, self.method);
        if right.is_some_and(|k| signs_as(k, base, &theirs)) {
            return ex;
        }
        ex.matches = false;
        let found = keys
            .0
            .iter()
            .find(|(_, _, k)| signs_as(k, base, &theirs))
            .and_then(|(rule, method, _)| {
                let mut d = key_mistake(*rule, *method, self.method)?.describe(None);
                if *method != self.method && *rule != KeyRule::Right {
                    d.push_str(&format!(", with {method}"));
                }
                Some(d)
            });
        let (detail, found_by) = match found {
            Some(d) => (
                d + ": their signature is that key's over their base string",
                FoundBy::KeyReproduced,
            ),
            None => (
                "their signature is not ours over their own base string, and no catalogued \
                 key mistake reproduces it: check the consumer secret and the token secret"
                    .to_owned(),
                FoundBy::NotReproduced,
            ),
        };
        ex.findings.push(
            ours.finding(Cause::KeyMismatch, Component::Key, &theirs, detail)
                .found_by(found_by),
        );
        ex
    }

    /// Explains their signature alone: if it is not ours, recomputes the
    /// base string and key under every catalogued mistake, then every pair,
    /// and names the variants that reproduce it. If none does, the one
    /// finding is `unexplained`. An encoding mistake is tried at each
    /// [`EncodingLevel`](crate::explain::EncodingLevel), and its finding's `level`
    /// says which reproduces the signature.
    ///
    /// The number of variants is bounded whatever the request: each
    /// parameter is tried left out in turn only up to
    /// [`SEARCH_EACH_PARAM_MAX`](crate::explain::SEARCH_EACH_PARAM_MAX) parameters,
    /// so the cost is linear in the size of the request.
    pub fn signature(&self, theirs: &str) -> Explanation {
        let theirs = normalize_signature(theirs);
        if self.trace.signature.ct_eq(&theirs) {
            return Explanation::matching();
        }
        search(self.ours(), &self.model, self.method, &theirs, Vec::new()).0
    }

    /// Every comparison that what they gave allows, as one explanation: their
    /// header on its own ([`header`](Self::header)), and their base string
    /// with their signature ([`base_string_and_signature`](Self::base_string_and_signature)),
    /// or either alone. It matches when every comparison does; a finding that
    /// two comparisons make is listed once, in the order first found; their
    /// base string is the first one given or found.
    ///
    /// ```
    /// use oauth1_signer::explain::{Cause, Explainer, Theirs};
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let signer = Signer::builder(Credentials::new("key", "secret")).with_nonce("n").with_timestamp("1").build()?;
    /// let request = OAuthRequest::get("https://api.x.com/1.1/search.json?q=a+b");
    /// let explainer = Explainer::new(&signer, &request)?;
    /// let theirs = "GET&https%3A%2F%2Fapi.x.com%2F1.1%2Fsearch.json&oauth_consumer_key%3Dkey%26oauth_nonce%3Dn%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1%26oauth_version%3D1.0%26q%3Da%252Bb";
    /// let ex = explainer.explain(Theirs { base_string: Some(theirs), ..Theirs::default() })?;
    /// assert!(!ex.matches && ex.names(Cause::SpaceAsPlus));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    ///
    /// # Errors
    /// Their header, as [`header`](Self::header) refuses it;
    /// [`ErrorKind::Empty`] for a blank signature ([`Part::Signature`]) or
    /// when they gave nothing ([`Part::Input`]).
    pub fn explain(&self, theirs: Theirs<'_>) -> Result<Explanation, Error> {
        let blank = |s: Option<&str>| s.is_some_and(|s| s.trim().is_empty());
        if blank(theirs.signature) {
            return Err(Error::new(ErrorKind::Empty {
                part: Part::Signature,
            }));
        }
        let mut parts: Vec<Explanation> = Vec::new();
        if let Some(header) = theirs.header {
            parts.push(self.header(header)?);
        }
        match (theirs.base_string, theirs.signature) {
            (Some(b), Some(s)) => parts.push(self.base_string_and_signature(b, s)),
            (Some(b), None) => parts.push(self.base_string(b)),
            (None, Some(s)) => parts.push(self.signature(s)),
            (None, None) if parts.is_empty() => {
                return Err(Error::new(ErrorKind::Empty { part: Part::Input }))
            }
            (None, None) => {}
        }
        // A set, not a search of the list per finding: their base string may
        // differ in thousands of parameters.
        let mut seen = HashSet::new();
        let mut findings = Vec::new();
        for f in parts.iter().flat_map(|p| &p.findings) {
            if seen.insert((
                f.cause,
                &f.component,
                &f.ours,
                &f.theirs,
                &f.detail,
                f.level,
            )) {
                findings.push(f.clone());
            }
        }
        Ok(Explanation {
            matches: parts.iter().all(|p| p.matches),
            findings,
            their_base_string: parts.iter().find_map(|p| p.their_base_string.clone()),
        })
    }

    /// Explains their `Authorization` header: its protocol parameters are
    /// compared with ours first (a different nonce or timestamp changes
    /// every base string), then their signature is checked against our
    /// request signed with *their* protocol parameters, and searched as
    /// [`signature`](Self::signature) does if it still differs.
    ///
    /// Their header is read in time linear in its length, up to
    /// [`MAX_HEADER_LEN`] bytes.
    ///
    /// # Errors
    /// A header that [`parse_authorization_header`](crate::pipeline::parse_authorization_header) refuses;
    /// [`ErrorKind::Empty`] for an empty or blank one;
    /// [`ErrorKind::DuplicateProtocolParameter`] naming a parameter given twice
    /// (RFC 5849 §3.5 allows each once: which one a provider checks is a guess);
    /// [`ErrorKind::TooLong`] over [`MAX_HEADER_LEN`].
    pub fn header(&self, theirs: &str) -> Result<Explanation, Error> {
        if theirs.len() > MAX_HEADER_LEN {
            return Err(Error::new(ErrorKind::TooLong {
                part: Part::Header,
                len: theirs.len(),
                limit: MAX_HEADER_LEN,
            }));
        }
        Ok(self.protocol(&Protocol::from_header(theirs)?))
    }

    /// Explains the protocol parameters they sent, read wherever they were
    /// ([`Protocol::from_header`], or a verifier's
    /// [`Rejection::protocol`](crate::verify::Rejection::protocol)): compared
    /// with ours first, then their signature checked against our request
    /// signed with *their* protocol parameters, and searched as
    /// [`signature`](Self::signature) does if it still differs.
    pub fn protocol(&self, their: &Protocol<'_>) -> Explanation {
        // Our own protocol parameters, as the signer sent them: the model,
        // not our header read back.
        let ours = self.trace.signed.protocol();
        let ours_get = |name: &str| ours.named(name);
        let mut findings = Vec::new();
        if ours.realm() != their.realm() {
            findings.push(Finding::new(
                Cause::RealmDiffers,
                Component::Header("realm".to_owned()),
                if self.untrusted {
                    ""
                } else {
                    ours.realm().unwrap_or_default()
                },
                if self.untrusted {
                    ""
                } else {
                    their.realm().unwrap_or_default()
                },
                match (ours.realm(), their.realm()) {
                    (Some(_), None) => "we send realm, they do not",
                    (None, Some(_)) => "they send realm, we do not",
                    _ => "they send another realm",
                },
            ));
        }
        let names: BTreeSet<&str> = ours.iter().chain(their.iter()).map(|(n, _)| n).collect();
        for name in names {
            if name == Name::Signature.as_str() {
                continue;
            }
            let (o, t) = (ours_get(name), their.named(name));
            if o == t {
                continue;
            }
            let cause = match value_cause(name.as_bytes()) {
                Cause::ValueDiffers if o.is_none() => Cause::ParamExtra,
                Cause::ValueDiffers if t.is_none() => Cause::ParamMissing,
                cause => cause,
            };
            let detail = match (o, t) {
                (Some(_), None) => format!("we send {name}, they do not"),
                (None, Some(_)) => format!("they send {name}, we do not"),
                _ => format!("they send another {name}"),
            };
            let (o, t) = if self.untrusted { (None, None) } else { (o, t) };
            findings.push(Finding::new(
                cause,
                Component::Parameter(name.to_owned()),
                o.unwrap_or_default(),
                t.unwrap_or_default(),
                detail,
            ));
        }
        let Some(their_sig) = their.signature() else {
            findings.push(Finding::new(
                Cause::Unexplained,
                Component::Signature,
                if self.untrusted {
                    String::new()
                } else {
                    self.ours().shown(self.trace.signature.as_str())
                },
                "",
                "their header has no oauth_signature",
            ));
            return Explanation {
                matches: false,
                findings,
                their_base_string: None,
            };
        };
        let method = their
            .get(Name::SignatureMethod)
            .and_then(|m| m.parse::<SignatureMethod>().ok())
            .unwrap_or(self.method);
        let protocol: Vec<(String, String)> = their
            .iter()
            .filter(|(n, _)| *n != Name::Signature.as_str())
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        let adopted = self
            .model
            .with_protocol(&protocol, their.realm().map(str::to_owned));
        let (mut ex, _) = search(self.ours(), &adopted, method, their_sig, findings);
        ex.matches = ex.matches && ex.findings.is_empty();
        ex
    }

    /// Our side of a signature comparison.
    fn ours(&self) -> Ours<'_> {
        Ours {
            signature: self.trace.signature.as_str(),
            redact: self.method == SignatureMethod::Plaintext,
            untrusted: self.untrusted,
            secrets: self
                .secrets
                .as_ref()
                .map(|(cs, ts)| (cs.expose(), ts.expose())),
        }
    }
}

#[doc(hidden)]
impl Explainer {
    /// How many base strings the signature search writes for `theirs` (for
    /// tests: a bounded number, whatever the number of parameters).
    pub fn _signature_search_writes(&self, theirs: &str) -> usize {
        let theirs = normalize_signature(theirs);
        search(self.ours(), &self.model, self.method, &theirs, Vec::new()).1
    }

    /// The base string our model writes under no mistake (for tests: it must
    /// be the stages' own).
    pub fn _rebuilt_base_string(&self) -> String {
        let mut out = Vec::new();
        self.model
            .write(&Variant::default(), &mut Scratch::default(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}
