//! What signing gives back: the signed protocol parameters, ready for any of
//! the three transmissions ([RFC 5849 §3.5]), and the trace of every stage.
//!
//! [RFC 5849 §3.5]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5

use std::fmt;

use crate::error::Part;
use crate::pipeline::credentials::Secret;
use crate::pipeline::header::{append_encoded_to_query, encode_pairs, header_string};
use crate::pipeline::protocol::{
    Form, Name, Protocol, ProtocolParam, ProtocolParams, Transmission,
};
use crate::pipeline::sign::Signature;
use crate::pipeline::style::{mastercard_header, ParameterStyle};

/// The signed protocol parameters of one request (from [`Signer::sign`](crate::Signer::sign)).
///
/// `Debug` hides a PLAINTEXT signature, which is the signing key.
#[derive(Clone)]
pub struct Signed {
    /// Sorted by name, `oauth_signature` among them.
    pub(crate) protocol: Protocol<'static>,
    pub(crate) signature: Signature,
    pub(crate) style: ParameterStyle,
}

impl Signed {
    /// The protocol parameters sent, in the one model a verifier reads
    /// them into ([`Protocol`]): sorted by name, `oauth_signature` among
    /// them, with the realm.
    pub fn protocol(&self) -> &Protocol<'static> {
        &self.protocol
    }

    /// The protocol parameters, `oauth_signature` included, sorted by name.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.protocol.iter()
    }

    /// The signature (`oauth_signature`, not percent-encoded).
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The `Authorization` header value (§3.5.1).
    pub fn authorization_header(&self) -> String {
        self.header_masked(None)
    }

    /// The header, a secret signature written as `mask` (as it is) if one
    /// is given.
    fn header_masked(&self, mask: Option<&str>) -> String {
        match self.style {
            ParameterStyle::Rfc5849 => {
                let params: ProtocolParams<'_> = self
                    .params()
                    .map(|(name, value)| match mask {
                        // Written as it is, not encoded: the mask is no value.
                        Some(mask) if name == Name::Signature.as_str() => {
                            ProtocolParam::new(name, mask, Form::Clean)
                        }
                        _ => ProtocolParam::new(name, value, Form::Encode),
                    })
                    .collect();
                header_string(self.protocol.realm(), &params, "")
            }
            ParameterStyle::Mastercard => {
                mastercard_header(self.params(), self.signature.as_str(), mask)
            }
        }
    }

    /// The protocol parameters form-encoded, to append to a form body with `&`
    /// (§3.5.2).
    pub fn form_params(&self) -> String {
        encode_pairs(self.params())
    }

    /// [`form_params`](Self::form_params), a secret signature written as
    /// `mask` (as it is) if one is given.
    fn form_params_masked(&self, mask: Option<&str>) -> String {
        let Some(mask) = mask else {
            return self.form_params();
        };
        let mut out = String::new();
        for (i, (name, value)) in self.params().enumerate() {
            if i > 0 {
                out.push('&');
            }
            if name == Name::Signature.as_str() {
                out.push_str(name);
                out.push('=');
                out.push_str(mask);
            } else {
                out.push_str(&encode_pairs([(name, value)]));
            }
        }
        out
    }

    /// `body`, a form body as it is to be sent, with the protocol parameters
    /// added at its end, joined by `&` when it is not empty (§3.5.2): the
    /// form-body transmission's body.
    ///
    /// ```
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// // The X docs "Creating a signature" request, its parameters sent in the body.
    /// let credentials = Credentials::new("xvz1evFS4wEEPTGEFPHBog", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
    ///     .with_token("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE");
    /// let signer = Signer::builder(credentials)
    ///     .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
    ///     .with_timestamp("1318622958")
    ///     .build()?;
    /// let body = b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
    /// let url = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
    /// let signed = signer.sign(&OAuthRequest::post(url).form_body(body))?;
    /// let sent = String::from_utf8(signed.form_body_with(body))?;
    /// assert!(sent.starts_with("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21&oauth_consumer_key="));
    /// assert!(sent.contains("&oauth_signature=Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D&"));
    /// assert!(sent.ends_with("&oauth_version=1.0"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn form_body_with(&self, body: &[u8]) -> Vec<u8> {
        body_with(body, &self.form_params())
    }

    /// `url` with the protocol parameters added to its query (§3.5.3).
    pub fn url_with_query(&self, url: &str) -> String {
        append_encoded_to_query(url, &self.form_params())
    }

    /// Where the signed protocol parameters go in `transmission` (RFC 5849
    /// §3.5), for a request to `url` with the form body `form_body` (empty
    /// for none): the one rule every sending edge follows, each writing the
    /// result into its own request type.
    ///
    /// ```
    /// use oauth1_signer::pipeline::Placed;
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer, Transmission};
    ///
    /// let signer = Signer::builder(Credentials::new("ck", "cs"))
    ///     .with_nonce("n0nce")
    ///     .with_timestamp("1318622958")
    ///     .build()?;
    /// let url = "https://shop.example/wp-json/wc/v3/orders?page=2";
    /// let signed = signer.sign(&OAuthRequest::get(url))?;
    /// match signed.placed(Transmission::Query, url, b"") {
    ///     Placed::Url(sent) => assert!(sent.starts_with(&format!("{url}&oauth_consumer_key=ck&"))),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(matches!(signed.placed(Transmission::Header, url, b""), Placed::Header(h) if h.starts_with("OAuth ")));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn placed(&self, transmission: Transmission, url: &str, form_body: &[u8]) -> Placed {
        self.placed_shown(transmission, url, form_body, Mask::Show)
    }

    /// [`placed`](Self::placed) as it may be shown to a person: a secret
    /// signature ([`Signature::is_secret`]: PLAINTEXT's is the signing key)
    /// written as `mask` says, as it is written (its own text in the
    /// signature's place, not percent-encoded), never found and replaced
    /// afterwards. Any other signature is written as it is sent.
    ///
    /// ```
    /// use oauth1_signer::pipeline::{Mask, Placed};
    /// use oauth1_signer::{Credentials, OAuthRequest, SignatureMethod, Signer, Transmission};
    ///
    /// // RFC 5849 §3.4.4: PLAINTEXT's signature is the signing key, "cs&".
    /// let signer = Signer::builder(Credentials::new("ck", "cs"))
    ///     .with_method(SignatureMethod::Plaintext)
    ///     .with_nonce("n0nce")
    ///     .with_timestamp("1318622958")
    ///     .build()?;
    /// let url = "https://h/p?a=1";
    /// let signed = signer.sign(&OAuthRequest::get(url))?;
    /// let Placed::Header(shown) = signed.placed_shown(Transmission::Header, url, b"", Mask::With("<hidden>")) else { unreachable!() };
    /// assert!(shown.contains(r#"oauth_signature="<hidden>""#) && !shown.contains("cs%26"));
    /// let Placed::Url(shown) = signed.placed_shown(Transmission::Query, url, b"", Mask::With("<hidden>")) else { unreachable!() };
    /// assert!(shown.contains("&oauth_signature=<hidden>&"));
    /// let Placed::Url(sent) = signed.placed_shown(Transmission::Query, url, b"", Mask::Show) else { unreachable!() };
    /// assert!(sent.contains("&oauth_signature=cs%26&"));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn placed_shown(
        &self,
        transmission: Transmission,
        url: &str,
        form_body: &[u8],
        mask: Mask<'_>,
    ) -> Placed {
        let mask = match mask {
            Mask::With(mask) if self.signature.is_secret() => Some(mask),
            _ => None,
        };
        match transmission {
            Transmission::Query => {
                Placed::Url(append_encoded_to_query(url, &self.form_params_masked(mask)))
            }
            Transmission::FormBody => {
                Placed::FormBody(body_with(form_body, &self.form_params_masked(mask)))
            }
            Transmission::Header => Placed::Header(self.header_masked(mask)),
        }
    }
}

/// `body` with `protocol` at its end, joined by `&` when it is not empty.
fn body_with(body: &[u8], protocol: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 1 + protocol.len());
    out.extend_from_slice(body);
    if !body.is_empty() {
        out.push(b'&');
    }
    out.extend_from_slice(protocol.as_bytes());
    out
}

/// How a secret signature ([`Signature::is_secret`]: PLAINTEXT's, which
/// is the signing key) is written in what is shown to a person
/// ([`Signed::placed_shown`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mask<'a> {
    /// As it is sent: the person asked to see the secrets.
    Show,
    /// This text in the signature's place, as it is (`<hidden>`, `••••••`).
    With(&'a str),
}

/// A signed request's protocol parameters where a transmission puts them
/// ([`Signed::placed`]).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Placed {
    /// The `Authorization` header's value (§3.5.1).
    Header(String),
    /// The request URL, the parameters added to its query (§3.5.3).
    Url(String),
    /// The form body, the parameters added at its end (§3.5.2).
    FormBody(Vec<u8>),
}

impl fmt::Debug for Placed {
    /// Where, and how long: the value holds the signature (a PLAINTEXT one
    /// is the signing key).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Placed::Header(h) => write!(f, "Header({} bytes)", h.len()),
            Placed::Url(u) => write!(f, "Url({} bytes)", u.len()),
            Placed::FormBody(b) => write!(f, "FormBody({} bytes)", b.len()),
        }
    }
}

impl fmt::Debug for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for (n, v) in self.params() {
            if self.signature.is_secret() && n == "oauth_signature" {
                list.entry(&(n, "<redacted PLAINTEXT>"));
            } else {
                list.entry(&(n, v));
            }
        }
        list.finish()
    }
}

/// Every stage of one signature, from [`Signer::trace`](crate::Signer::trace).
///
/// `Debug` hides the signing key, and a PLAINTEXT signature (which is the
/// key; [`Signature::is_secret`] says so); the fields are there for whoever
/// needs them.
#[derive(Clone)]
#[non_exhaustive]
pub struct Trace {
    /// The parameters collected (§3.4.1.3.1), decoded, in the order
    /// collected (the query's, the protocol parameters, the body's), each
    /// as `(where it came from, name, value)`.
    ///
    /// ```
    /// use oauth1_signer::pipeline::ParamSource;
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let signer = Signer::new(Credentials::new("ck", "cs"));
    /// let trace = signer.trace(&OAuthRequest::post("https://h/p?a=1").form_body(b"b=2"))?;
    /// let sources: Vec<(ParamSource, &[u8])> =
    ///     trace.collected_params.iter().map(|(source, name, _)| (*source, &name[..])).collect();
    /// assert_eq!(sources[0], (ParamSource::Query, &b"a"[..]));
    /// assert_eq!(sources[1], (ParamSource::Protocol, &b"oauth_consumer_key"[..]));
    /// assert_eq!(sources.last(), Some(&(ParamSource::Body, &b"b"[..])));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub collected_params: Vec<(ParamSource, Vec<u8>, Vec<u8>)>,
    /// The normalised parameter string (§3.4.1.3.2).
    pub normalized_params: String,
    /// The base string URI (§3.4.1.2).
    pub base_string_uri: String,
    /// The signature base string (§3.4.1.1), exactly the bytes that were signed.
    pub base_string: String,
    /// The text of the HMAC / PLAINTEXT key that signed
    /// ([`SigningKey::key_string`](crate::pipeline::SigningKey::key_string)); `None`
    /// for RSA methods.
    pub signing_key: Option<Secret>,
    /// The signature.
    pub signature: Signature,
    /// The `Authorization` header value.
    pub authorization_header: String,
    /// The protocol parameters sent, for any of the three transmissions
    /// (the header above is `signed.authorization_header()`).
    pub signed: Signed,
    /// What is signed correctly but is likely to make the other side compute
    /// a different signature.
    pub warnings: Vec<Warning>,
}

/// Where a signed parameter came from (RFC 5849 §3.4.1.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSource {
    /// The URL's query.
    Query,
    /// The protocol parameters (`oauth_*`), wherever they are sent.
    Protocol,
    /// The form body.
    Body,
}

/// Something signed as RFC 5849 says that a provider may read otherwise: a
/// likely cause of `401 Could not authenticate you` even though the
/// signature is right. [`Signer::trace`](crate::Signer::trace) lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Warning {
    /// A query or form-body parameter decodes to bytes that are not UTF-8
    /// (such as `x=%E9`). They are signed as those bytes (RFC 5849 §3.6
    /// encodes bytes), but servers that decode parameters as UTF-8 text,
    /// oauthlib among them, sign something else and will not match.
    #[non_exhaustive]
    NotUtf8 {
        /// The parameter's name, decoded (lossily, if the name itself is
        /// not UTF-8).
        name: String,
        /// Whether the name (rather than the value) is not UTF-8.
        in_name: bool,
        /// [`Part::Url`] for the query, [`Part::FormBody`] for the body.
        part: Part,
    },
    /// A query value holds a `+`. A query is form-encoded text, so it is
    /// signed as a space; a server that reads the query as RFC 3986 text
    /// (npm `oauth-1.0a` does) signs a plus sign. Write `%20` for a space,
    /// `%2B` for a plus.
    #[non_exhaustive]
    PlusInQuery {
        /// The parameter's name, decoded.
        name: String,
    },
    /// A value, once decoded, still holds a percent-escape (such as
    /// `Hello%20World` given as `Hello%2520World`): it was most likely
    /// encoded by hand before being encoded again, and is signed
    /// double-encoded.
    #[non_exhaustive]
    LooksEncoded {
        /// The parameter's name, decoded.
        name: String,
        /// [`Part::Url`] for the query, [`Part::FormBody`] for the body.
        part: Part,
    },
    /// The form body looks like JSON (it starts with `{` or `[`): it is
    /// signed as form parameters because it is sent as
    /// `application/x-www-form-urlencoded`, which the server will not
    /// read as JSON. A JSON body is sent as `application/json` and not
    /// signed.
    #[non_exhaustive]
    JsonFormBody,
    /// A name is given more than once (in the query, the body or both).
    /// RFC 5849 signs every value; libraries that keep parameters in a map
    /// sign one.
    #[non_exhaustive]
    DuplicateName {
        /// The repeated name, decoded.
        name: String,
    },
    /// The pinned timestamp is more than five minutes from the local clock:
    /// providers refuse stale requests, whatever the signature.
    #[non_exhaustive]
    TimestampSkew {
        /// The timestamp signed.
        timestamp: u64,
        /// The local clock, in seconds since 1970.
        now: u64,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::NotUtf8 {
                name,
                in_name,
                part,
            } => write!(
                f,
                "the {} of parameter {name:?} in the {} decodes to bytes that are not UTF-8: \
                 signed as those bytes, as RFC 5849 says, but a server that decodes parameters \
                 as UTF-8 text (oauthlib does) will compute another signature",
                if *in_name { "name" } else { "value" },
                if *part == Part::Url {
                    "query"
                } else {
                    part.as_str()
                },
            ),
            Warning::PlusInQuery { name } => write!(
                f,
                "the query value of {name:?} holds a '+': signed as a space (the query is \
                 form-encoded), but a server that reads it as a plus sign will compute another \
                 signature; write %20 for a space, %2B for a plus"
            ),
            Warning::LooksEncoded { name, part } => write!(
                f,
                "the value of {name:?} in the {} still holds a percent-escape once decoded: \
                 if it was encoded by hand, it is being encoded twice",
                if *part == Part::Url {
                    "query"
                } else {
                    part.as_str()
                },
            ),
            Warning::JsonFormBody => f.write_str(
                "the form body looks like JSON: it is signed as form parameters; send JSON as \
                 application/json (then it is not signed)",
            ),
            Warning::DuplicateName { name } => write!(
                f,
                "parameter {name:?} is given more than once: every value is signed, as RFC 5849 \
                 says, but libraries that keep parameters in a map sign only one"
            ),
            Warning::TimestampSkew { timestamp, now } => write!(
                f,
                "the timestamp {timestamp} is {} seconds from the local clock ({now}): \
                 providers refuse requests whose timestamp is minutes off",
                timestamp.abs_diff(*now)
            ),
        }
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plaintext = self.signature.is_secret();
        f.debug_struct("Trace")
            .field("normalized_params", &self.normalized_params)
            .field("base_string_uri", &self.base_string_uri)
            .field("base_string", &self.base_string)
            .field("signing_key", &self.signing_key)
            .field("signature", &self.signature)
            .field(
                "authorization_header",
                if plaintext {
                    &"<redacted: contains the PLAINTEXT signature>"
                } else {
                    &self.authorization_header
                },
            )
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Credentials, OAuthRequest, SignatureMethod, Signer};

    fn signer(method: SignatureMethod) -> Signer {
        Signer::builder(
            Credentials::new("ck-PUBLIC", "cs-SECRET").with_token("tk-PUBLIC", "ts-SECRET"),
        )
        .with_method(method)
        .with_nonce("n")
        .with_timestamp("1")
        .build()
        .unwrap()
    }

    #[test]
    fn debug_shows_what_is_sent_and_hides_a_plaintext_signature() {
        let request = OAuthRequest::get("https://h/p?q=1");
        // PLAINTEXT: the signature is the key, `cs-SECRET&ts-SECRET`.
        let s = signer(SignatureMethod::Plaintext);
        let signed = format!("{:?}", s.sign(&request).unwrap());
        let trace = format!("{:?}", s.trace(&request).unwrap());
        for shown in [&signed, &trace] {
            assert!(shown.contains("ck-PUBLIC"), "{shown}");
            assert!(!shown.contains("SECRET"), "{shown}");
        }
        assert!(
            signed.contains("(\"oauth_signature\", \"<redacted PLAINTEXT>\")"),
            "{signed}"
        );
        assert!(
            signed.contains("(\"oauth_token\", \"tk-PUBLIC\")"),
            "{signed}"
        );
        for want in [
            "normalized_params: \"oauth_consumer_key=ck-PUBLIC&oauth_nonce=n&\
             oauth_signature_method=PLAINTEXT&oauth_timestamp=1&oauth_token=tk-PUBLIC\
             &oauth_version=1.0&q=1\"",
            "base_string_uri: \"https://h/p\"",
            "base_string: \"GET&https%3A%2F%2Fh%2Fp&oauth_consumer_key%3Dck-PUBLIC",
            "signing_key: Some(Secret(<redacted>))",
            "signature: Signature(<redacted PLAINTEXT>)",
            "authorization_header: \"<redacted: contains the PLAINTEXT signature>\"",
        ] {
            assert!(trace.contains(want), "{want}: {trace}");
        }

        // HMAC-SHA1: the signature is no secret, and is shown.
        let s = signer(SignatureMethod::HmacSha1);
        let t = s.trace(&request).unwrap();
        let sig = t.signature.as_str().to_owned();
        let signed = format!("{:?}", s.sign(&request).unwrap());
        assert!(
            signed.contains(&format!("(\"oauth_signature\", {sig:?})")),
            "{signed}"
        );
        let trace = format!("{t:?}");
        assert!(
            trace.contains(&format!("signature: Signature({sig:?})")),
            "{trace}"
        );
        assert!(
            trace.contains("authorization_header: \"OAuth oauth_consumer_key=\\\"ck-PUBLIC\\\""),
            "{trace}"
        );
        assert!(!signed.contains("SECRET") && !trace.contains("SECRET"));
    }
}
