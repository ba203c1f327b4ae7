//! Shared by the integration tests: reading the public vectors in `fixtures/`
//! and turning a vector's `inputs` into a [`Signer`] and a [`Request`] exactly
//! as `fixtures/README.md` defines them.
//!
//! The mapping, field by field (an absent field is not sent):
//!
//! | `inputs` field | library call |
//! |---|---|
//! | `consumer_key`, `consumer_secret` | `Credentials::new` (absent secret = `""`) |
//! | `token`, `token_secret` | `Credentials::with_token`; a secret alone: `with_token_secret` |
//! | `signature_method` | `SignatureMethod::from_str`; RSA: `SigningKey::rsa_pem` + `SignerBuilder::with_key` |
//! | `version` | `"1.0"`: `with_version(true)`; absent: `with_version(false)` |
//! | `nonce`, `timestamp` | `with_nonce` / `with_timestamp`; absent: `without_nonce` / `without_timestamp` |
//! | `realm` | `Signer::with_realm` |
//! | `method`, `url` | `OAuthRequest::new` |
//! | `form_body` | `Request::form_body` (`""` is an empty form body) |
//! | `callback`, `verifier` | `Request::callback`, `Request::verifier` |
//! | `extra_oauth_params` | `Request::protocol_params` |
//!
//! Every input struct denies unknown fields, so a fixture field that this
//! mapping does not know about fails loudly instead of being ignored.
//!
//! The submodules serve some of the tests only: `generator` (the
//! differential tests' random requests), `peers` (running the peers in
//! `tests/peers/`), `provider` (the loopback provider), `refused` (the
//! vectors the signer refuses), `stages` (every vector of a fixture file
//! checked stage by stage, for `tests/vectors.rs`), `verify` (the
//! verifier's tests) and `x_docs` (the X docs' request, the one loader of
//! it, which the CLI's tests and the benchmarks include too).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod generator;
pub mod peers;
pub mod provider;
pub mod refused;
pub mod stages;
pub mod verify;
pub mod x_docs;

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::path::PathBuf;

use oauth1_signer::{
    pipeline::parse_authorization_header, Credentials, OAuthRequest, SignatureMethod, Signer,
    SignerBuilder,
};
use serde::Deserialize;
use serde_json::Value;

/// One fixture file: `{"count": N, "vectors": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// A pointer to fixtures/README.md (not listed there).
    #[serde(default)]
    pub schema: Option<String>,
    /// The number of vectors the file says it holds.
    pub count: usize,
    /// The vectors.
    pub vectors: Vec<Vector>,
}

/// One vector, with `inputs` and `expected` left as JSON: their shape depends
/// on the file and the `kind`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    pub id: String,
    pub source: String,
    #[serde(default)]
    pub kind: Option<String>,
    pub inputs: Value,
    pub expected: Value,
    #[serde(default)]
    pub published: Option<Value>,
    #[serde(default)]
    pub reproduces: Option<bool>,
    #[serde(default)]
    pub mismatch: Option<Value>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Whether the published header parses to the same parameters as ours
    /// (used by the fixtures but not listed in fixtures/README.md).
    #[serde(default)]
    pub published_header_params_match: Option<bool>,
}

impl Vector {
    /// The inputs as `T`, or an error saying how they do not fit.
    pub fn inputs<T: for<'de> Deserialize<'de>>(&self) -> Result<T, String> {
        serde_json::from_value(self.inputs.clone())
            .map_err(|e| format!("inputs do not match the documented schema: {e}"))
    }
}

/// The path of a file under `fixtures/`.
pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// Reads and parses `fixtures/<name>`.
pub fn load(name: &str) -> Fixture {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Inputs of a request vector (`kind: request` and headers.json `build`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestInputs {
    pub method: String,
    pub url: String,
    #[serde(default)]
    pub form_body: Option<String>,
    #[serde(default)]
    pub consumer_key: Option<String>,
    #[serde(default)]
    pub consumer_secret: Option<String>,
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub token_secret: Option<String>,
    #[serde(default)]
    pub signature_method: Option<String>,
    #[serde(default)]
    pub timestamp: Option<String>,
    #[serde(default)]
    pub nonce: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub callback: Option<String>,
    #[serde(default)]
    pub verifier: Option<String>,
    #[serde(default)]
    pub realm: Option<String>,
    #[serde(default)]
    pub extra_oauth_params: Vec<(String, String)>,
    #[serde(default)]
    pub rsa_private_key: Option<String>,
    #[serde(default)]
    pub rsa_certificate: Option<String>,
}

impl RequestInputs {
    /// A vector with only a method and a URL: no protocol parameters at all,
    /// so it can only be checked stage by stage (there is nothing to sign).
    pub fn is_base_string_only(&self) -> bool {
        self.consumer_key.is_none()
    }

    /// The signature method named by the vector (HMAC-SHA1 if absent, the
    /// library's default).
    pub fn signature_method(&self) -> Result<SignatureMethod, String> {
        match &self.signature_method {
            Some(m) => m
                .parse()
                .map_err(|e| format!("signature_method {m:?}: {e}")),
            None => Ok(SignatureMethod::default()),
        }
    }

    pub fn consumer_secret(&self) -> &str {
        self.consumer_secret.as_deref().unwrap_or("")
    }

    pub fn token_secret(&self) -> &str {
        self.token_secret.as_deref().unwrap_or("")
    }

    /// Whether `oauth_version="1.0"` is sent.
    pub fn sends_version(&self) -> Result<bool, String> {
        match self.version.as_deref() {
            None => Ok(false),
            Some("1.0") => Ok(true),
            Some(other) => Err(format!(
                "version {other:?}: fixtures/README.md allows only \"1.0\" or absent"
            )),
        }
    }

    pub fn credentials(&self) -> Result<Credentials, String> {
        let key = self
            .consumer_key
            .as_deref()
            .ok_or("no consumer_key: a base-string-only vector cannot be signed")?;
        let credentials = Credentials::new(key, self.consumer_secret());
        Ok(match (&self.token, &self.token_secret) {
            (Some(token), _) => credentials.with_token(token.as_str(), self.token_secret()),
            (None, Some(secret)) => credentials.with_token_secret(secret.as_str()),
            (None, None) => credentials,
        })
    }

    /// The [`Signer`] the vector describes. An RSA vector needs the `rsa`
    /// feature; without it this is an error saying so.
    pub fn signer(&self) -> Result<Signer, String> {
        let method = self.signature_method()?;
        let mut signer = Signer::builder(self.credentials()?)
            .with_version(self.sends_version()?)
            .with_method(method);
        if method.is_rsa() {
            signer = self.with_rsa_key(signer, method)?;
        } else if self.rsa_private_key.is_some() {
            return Err(format!("rsa_private_key given for {method}"));
        }
        signer = match &self.nonce {
            Some(n) => signer.with_nonce(n.as_str()),
            None => signer.without_nonce(),
        };
        signer = match &self.timestamp {
            Some(t) => signer.with_timestamp(t.as_str()),
            None => signer.without_timestamp(),
        };
        if let Some(realm) = &self.realm {
            signer = signer.with_realm(realm.as_str());
        }
        signer
            .build()
            .map_err(|e| format!("SignerBuilder::build: {e}"))
    }

    #[cfg(feature = "rsa")]
    fn with_rsa_key(
        &self,
        signer: SignerBuilder,
        method: SignatureMethod,
    ) -> Result<SignerBuilder, String> {
        let pem = self
            .rsa_private_key
            .as_deref()
            .ok_or(format!("{method} without rsa_private_key"))?;
        let key = oauth1_signer::pipeline::SigningKey::rsa_pem(method, pem)
            .map_err(|e| format!("SigningKey::rsa_pem: {e}"))?;
        Ok(signer.with_key(key))
    }

    #[cfg(not(feature = "rsa"))]
    fn with_rsa_key(
        &self,
        _signer: SignerBuilder,
        method: SignatureMethod,
    ) -> Result<SignerBuilder, String> {
        Err(format!("{method} needs the `rsa` feature"))
    }

    /// Builds the [`Request`] and hands it to `f`.
    pub fn with_request<R>(&self, f: impl FnOnce(&OAuthRequest<'_>) -> R) -> R {
        let mut request =
            OAuthRequest::new(&self.method, &self.url).protocol_params(&self.extra_oauth_params);
        if let Some(body) = &self.form_body {
            request = request.form_body(body.as_bytes());
        }
        if let Some(callback) = &self.callback {
            request = request.callback(callback);
        }
        if let Some(verifier) = &self.verifier {
            request = request.oauth_verifier(verifier);
        }
        f(&request)
    }

    /// The protocol parameters the vector sends (before `oauth_signature`),
    /// in the order fixtures/README.md lists them: for checking the stage
    /// functions without going through the [`Signer`].
    pub fn protocol_params(&self) -> Result<Vec<(&str, &str)>, String> {
        let mut out = Vec::new();
        let Some(key) = &self.consumer_key else {
            return Ok(out);
        };
        out.push(("oauth_consumer_key", key.as_str()));
        if let Some(token) = &self.token {
            out.push(("oauth_token", token.as_str()));
        }
        let method = self.signature_method()?.as_str();
        out.push(("oauth_signature_method", method));
        if let Some(t) = &self.timestamp {
            out.push(("oauth_timestamp", t.as_str()));
        }
        if let Some(n) = &self.nonce {
            out.push(("oauth_nonce", n.as_str()));
        }
        if self.sends_version()? {
            out.push(("oauth_version", "1.0"));
        }
        if let Some(c) = &self.callback {
            out.push(("oauth_callback", c.as_str()));
        }
        if let Some(v) = &self.verifier {
            out.push(("oauth_verifier", v.as_str()));
        }
        for (n, v) in &self.extra_oauth_params {
            if n != "oauth_signature" {
                out.push((n.as_str(), v.as_str()));
            }
        }
        Ok(out)
    }
}

/// Inputs of a `kind: primitive` vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrimitiveInputs {
    pub signature_method: String,
    pub base_string: String,
    #[serde(default)]
    pub consumer_secret: Option<String>,
    #[serde(default)]
    pub token_secret: Option<String>,
    #[serde(default)]
    pub rsa_private_key: Option<String>,
}

/// Inputs of a `kind: normalize` vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NormalizeInputs {
    pub params_form_encoded: String,
}

/// Inputs of a `kind: base_string_uri` vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UriInputs {
    pub url: String,
}

/// Inputs of a headers.json `kind: parse` vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParseInputs {
    pub authorization_header: String,
}

/// Inputs of a headers.json `kind: build_from_params` vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildFromParamsInputs {
    pub params: Vec<(String, String)>,
}

/// Inputs of a percent_encoding.json vector.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodingInputs {
    #[serde(default)]
    pub input: Option<String>,
    pub input_hex: String,
}

/// Decodes lower- or upper-case hex.
pub fn hex_decode(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd-length hex {hex:?}"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| format!("hex {hex:?} at {i}: {e}"))
        })
        .collect()
}

/// A header parsed with [`parse_authorization_header`] and sorted, so two
/// headers compare regardless of parameter order and whitespace.
pub fn header_multiset(header: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = parse_authorization_header(header)
        .map_err(|e| format!("parse_authorization_header({header:?}): {e}"))?;
    pairs.sort();
    Ok(pairs)
}

/// Bytes that print as an escaped byte string (`b"caf\xc3\xa9"`) in failures.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub Vec<u8>);

impl Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// Decoded `(name, value)` byte pairs, sorted: a multiset.
pub fn byte_multiset<N: AsRef<[u8]>, V: AsRef<[u8]>>(
    pairs: impl IntoIterator<Item = (N, V)>,
) -> Vec<(Bytes, Bytes)> {
    let mut out: Vec<(Bytes, Bytes)> = pairs
        .into_iter()
        .map(|(n, v)| (Bytes(n.as_ref().to_vec()), Bytes(v.as_ref().to_vec())))
        .collect();
    out.sort();
    out
}

/// `[[name, value], ...]` from JSON.
pub fn json_pairs(value: &Value) -> Result<Vec<(String, String)>, String> {
    serde_json::from_value(value.clone()).map_err(|e| format!("expected [[name, value], ...]: {e}"))
}

/// The checks of one vector: failures are collected (each naming the file,
/// the vector id and the stage) rather than stopping at the first, and the
/// `expected` stages that were compared are recorded so that a stage present
/// in the fixture but never compared is reported too.
#[derive(Debug)]
pub struct Checker<'v> {
    pub file: &'v str,
    pub id: &'v str,
    expected: &'v Value,
    compared: BTreeSet<String>,
    pub failures: Vec<String>,
}

impl<'v> Checker<'v> {
    pub fn new(file: &'v str, vector: &'v Vector) -> Self {
        Checker {
            file,
            id: &vector.id,
            expected: &vector.expected,
            compared: BTreeSet::new(),
            failures: Vec::new(),
        }
    }

    /// Records a failure at `stage`.
    pub fn fail(&mut self, stage: &str, message: impl std::fmt::Display) {
        self.failures
            .push(format!("{} {} [{stage}]: {message}", self.file, self.id));
    }

    /// Compares `got` with `want` at `stage`.
    pub fn eq<T: PartialEq + Debug + ?Sized>(&mut self, stage: &str, got: &T, want: &T) -> bool {
        if got == want {
            return true;
        }
        self.fail(
            stage,
            format_args!("\n     got: {got:?}\nexpected: {want:?}"),
        );
        false
    }

    /// Unwraps `result`, or records its error at `stage`.
    pub fn ok<T, E: std::fmt::Display>(&mut self, stage: &str, result: Result<T, E>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(stage, format_args!("error: {e}"));
                None
            }
        }
    }

    /// The expected value of `stage`, if the vector has one; marks it compared.
    pub fn expected(&mut self, stage: &str) -> Option<&'v Value> {
        let value = self.expected.get(stage)?;
        self.compared.insert(stage.to_owned());
        Some(value)
    }

    /// The expected value of `stage` as a string.
    pub fn expected_str(&mut self, stage: &str) -> Option<&'v str> {
        let value = self.expected(stage)?;
        match value.as_str() {
            Some(s) => Some(s),
            None => {
                self.fail(
                    stage,
                    format_args!("expected value is not a string: {value}"),
                );
                None
            }
        }
    }

    /// The expected `[[name, value], ...]` of `stage`.
    pub fn expected_pairs(&mut self, stage: &str) -> Option<Vec<(String, String)>> {
        let value = self.expected(stage)?;
        let pairs = json_pairs(value);
        self.ok(stage, pairs)
    }

    /// Whether the vector has an expected value for `stage` (without marking it).
    pub fn has(&self, stage: &str) -> bool {
        self.expected.get(stage).is_some()
    }

    /// The expected stages never compared, minus those in `skipped`.
    pub fn uncompared(&self, skipped: &[&str]) -> Vec<String> {
        match self.expected.as_object() {
            Some(map) => map
                .keys()
                .filter(|k| !self.compared.contains(*k) && !skipped.contains(&k.as_str()))
                .cloned()
                .collect(),
            // A bare string (percent_encoding.json) is compared as a whole.
            None => Vec::new(),
        }
    }

    /// Reports every expected stage that no check looked at.
    pub fn finish(mut self, skipped: &[&str]) -> Vec<String> {
        for stage in self.uncompared(skipped) {
            self.fail(&stage, "present in the fixture but never compared");
        }
        self.failures
    }
}
