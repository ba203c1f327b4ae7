//! Provider profiles: the defaults each OAuth 1.0a provider expects, named,
//! so that a client (or a test double) for it starts right.
//!
//! A [`Profile`] says which signature method, where the protocol
//! parameters go ([`Transmission`]), whether the body is hashed
//! ([`BodyHash`]), whether `oauth_version` is sent, which realm, and the
//! quirks of the provider's three-legged flow ([`FlowQuirks`]). Each is
//! taken from the provider's documentation or from what its users' official
//! client library sends, as each variant's documentation says. Strict
//! RFC 5849 stays the default ([`Provider::Rfc5849`]); a profile is opt-in.
//!
//! Where the provider's own client deviates from RFC 5849 in how it signs,
//! the profile says so ([`ParameterStyle`]); `Profile::signer` signs in
//! that style so that the provider's gateway, which verifies that client,
//! accepts it.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::pipeline::body_hash::{BodyHash, BodyHashAlgorithm, BodyHashPolicy};
use crate::pipeline::builder::SignerBuilder;
use crate::pipeline::credentials::Credentials;
use crate::pipeline::protocol::Transmission;
use crate::pipeline::sign::SignatureMethod;
use crate::pipeline::signer::Signer;
use crate::pipeline::style::ParameterStyle;
use crate::text::word::{self, names};

/// A provider still on OAuth 1.0a.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// RFC 5849 as written: HMAC-SHA1, the header, `oauth_version`.
    Rfc5849,
    /// The X (Twitter) API: HMAC-SHA1, the header; v2 JSON bodies unsigned.
    X,
    /// NetSuite token-based authentication: HMAC-SHA256 (HMAC-SHA1 ended
    /// with 2023.1), the header, `realm` the account id in upper case
    /// (`1234567`, `1234567_SB1` for a sandbox whose host says `-sb1`).
    NetSuite,
    /// WooCommerce's REST API over plain HTTP: one-legged (no token),
    /// HMAC-SHA256, the parameters in the query, no `oauth_version` (the
    /// `woocommerce` client's `get_oauth_url`).
    WooCommerce,
    /// Mastercard's APIs: RSA-SHA256, an SHA-256 `oauth_body_hash` on every
    /// request, the empty body and a form's included, and the official
    /// signers' parameter string ([`ParameterStyle::Mastercard`]).
    Mastercard,
    /// LTI 1.1 tool launches (Canvas, Moodle, Blackboard): HMAC-SHA1, the
    /// parameters in the launch's form body; outcomes are XML with a body
    /// hash (`oauth_body_hash`, SHA-1).
    Lti,
    /// Jira and Confluence Data Center application links: RSA-SHA1, the
    /// header.
    JiraDataCenter,
    /// Magento's integrations: HMAC-SHA256, the header; its
    /// temporary-credentials answer lacks `oauth_callback_confirmed`.
    Magento,
    /// E*TRADE: HMAC-SHA1, the header, callback `oob`; the authorize URL
    /// takes `key` and `token`; tokens are renewed daily
    /// (`renew_access_token`).
    ETrade,
    /// Trello: HMAC-SHA1, the header; the authorize URL takes `name`,
    /// `expiration` and `scope`.
    Trello,
    /// Garmin Connect: HMAC-SHA1, the header.
    Garmin,
    /// Flickr: HMAC-SHA1, the header.
    Flickr,
    /// Discogs: PLAINTEXT over HTTPS.
    Discogs,
}

/// Every provider, in the order above.
pub const PROVIDERS: [Provider; 13] = [
    Provider::Rfc5849,
    Provider::X,
    Provider::NetSuite,
    Provider::WooCommerce,
    Provider::Mastercard,
    Provider::Lti,
    Provider::JiraDataCenter,
    Provider::Magento,
    Provider::ETrade,
    Provider::Trello,
    Provider::Garmin,
    Provider::Flickr,
    Provider::Discogs,
];

impl Provider {
    /// Its name: `rfc5849`, `x`, `netsuite`, `woocommerce`, `mastercard`,
    /// `lti`, `jira-dc`, `magento`, `etrade`, `trello`, `garmin`, `flickr`,
    /// `discogs`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Provider::Rfc5849 => "rfc5849",
            Provider::X => "x",
            Provider::NetSuite => "netsuite",
            Provider::WooCommerce => "woocommerce",
            Provider::Mastercard => "mastercard",
            Provider::Lti => "lti",
            Provider::JiraDataCenter => "jira-dc",
            Provider::Magento => "magento",
            Provider::ETrade => "etrade",
            Provider::Trello => "trello",
            Provider::Garmin => "garmin",
            Provider::Flickr => "flickr",
            Provider::Discogs => "discogs",
        }
    }

    /// Its profile.
    pub fn profile(self) -> Profile {
        let mut p = Profile {
            provider: self,
            method: SignatureMethod::HmacSha1,
            transmission: Transmission::Header,
            body_hash: BodyHash::default(),
            version: true,
            realm: RealmRule::None,
            style: ParameterStyle::Rfc5849,
            flow: FlowQuirks::default(),
        };
        match self {
            Provider::Rfc5849 | Provider::X | Provider::Garmin | Provider::Flickr => {}
            Provider::NetSuite => {
                p.method = SignatureMethod::HmacSha256;
                p.realm = RealmRule::NetSuiteAccount;
            }
            Provider::WooCommerce => {
                p.method = SignatureMethod::HmacSha256;
                p.transmission = Transmission::Query;
                p.version = false;
            }
            Provider::Mastercard => {
                p.method = SignatureMethod::RsaSha256;
                p.body_hash = BodyHash::new(BodyHashPolicy::Always, BodyHashAlgorithm::Sha256);
                p.style = ParameterStyle::Mastercard;
            }
            Provider::Lti => {
                p.transmission = Transmission::FormBody;
                p.body_hash =
                    BodyHash::new(BodyHashPolicy::UnlessForm, BodyHashAlgorithm::FollowMethod);
            }
            Provider::JiraDataCenter => p.method = SignatureMethod::RsaSha1,
            Provider::Magento => {
                p.method = SignatureMethod::HmacSha256;
                p.flow.callback_confirmed = false;
            }
            Provider::ETrade => {
                p.flow.callback = Some("oob");
                p.flow.authorize_key_param = Some("key");
                p.flow.authorize_token_param = "token";
                p.flow.renews = true;
            }
            Provider::Trello => p.flow.authorize_params = &["name", "expiration", "scope"],
            Provider::Discogs => p.method = SignatureMethod::Plaintext,
        }
        p
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The providers' names, in the order of [`PROVIDERS`].
const NAMES: [&str; PROVIDERS.len()] = names!(PROVIDERS);

impl FromStr for Provider {
    type Err = Error;

    /// A provider by its [name](Provider::as_str), ASCII case aside.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownName`](crate::ErrorKind::UnknownName) for any
    /// other word, naming it and the providers' names.
    fn from_str(s: &str) -> Result<Provider, Error> {
        word::parse("provider", &PROVIDERS, &NAMES, s)
    }
}

/// How a provider's realm is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RealmRule {
    /// No realm.
    None,
    /// NetSuite's: the account id in upper case, from the first label of
    /// the host (`1234567.suitetalk.api.netsuite.com` → `1234567`;
    /// `1234567-sb1.…` → `1234567_SB1`).
    NetSuiteAccount,
}

/// The quirks of a provider's three-legged flow (RFC 5849 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FlowQuirks {
    /// Whether the temporary-credentials answer carries
    /// `oauth_callback_confirmed=true` (§2.1); Magento's does not.
    pub callback_confirmed: bool,
    /// The callback to send when none is given (`oob`: the PIN flow).
    pub callback: Option<&'static str>,
    /// The authorize URL's name for the temporary token (`oauth_token`;
    /// E*TRADE's `token`).
    pub authorize_token_param: &'static str,
    /// A name under which the authorize URL also takes the consumer key
    /// (E*TRADE's `key`).
    pub authorize_key_param: Option<&'static str>,
    /// Further authorize-URL parameters the provider reads (Trello's
    /// `name`, `expiration`, `scope`), given by the application.
    pub authorize_params: &'static [&'static str],
    /// Whether access tokens are renewed (E*TRADE's `renew_access_token`,
    /// a signed request with the token; it expires at midnight US Eastern).
    pub renews: bool,
}

impl Default for FlowQuirks {
    /// RFC 5849's flow.
    fn default() -> FlowQuirks {
        FlowQuirks {
            callback_confirmed: true,
            callback: None,
            authorize_token_param: "oauth_token",
            authorize_key_param: None,
            authorize_params: &[],
            renews: false,
        }
    }
}

/// A provider's defaults (see [`Provider::profile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Profile {
    /// Whose.
    pub provider: Provider,
    /// The signature method.
    pub method: SignatureMethod,
    /// Where the protocol parameters go.
    pub transmission: Transmission,
    /// When and how the body is hashed.
    pub body_hash: BodyHash,
    /// Whether `oauth_version="1.0"` is sent.
    pub version: bool,
    /// How the realm is made.
    pub realm: RealmRule,
    /// How the parameter string is written.
    pub style: ParameterStyle,
    /// The flow's quirks.
    pub flow: FlowQuirks,
}

impl Profile {
    /// A signer builder with the profile's method, version and style (for
    /// an RSA method give the key with
    /// [`with_key`](SignerBuilder::with_key); for a realm, see
    /// [`realm_for`](Self::realm_for)).
    ///
    /// ```
    /// use oauth1_signer::{Credentials, OAuthRequest, Provider};
    ///
    /// let profile = Provider::WooCommerce.profile();
    /// let signer = profile.signer(Credentials::new("ck_123", "cs_456")).build()?;
    /// let signed = signer.sign(&OAuthRequest::get("http://shop.example.com/wp-json/wc/v3/products"))?;
    /// let url = signed.url_with_query("http://shop.example.com/wp-json/wc/v3/products");
    /// assert!(url.contains("oauth_signature_method=HMAC-SHA256") && !url.contains("oauth_version"));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn signer(&self, credentials: Credentials) -> SignerBuilder {
        Signer::builder(credentials)
            .with_method(self.method)
            .with_version(self.version)
            .with_parameter_style(self.style)
    }

    /// The realm for a request to `url`, by the profile's rule.
    ///
    /// ```
    /// use oauth1_signer::Provider;
    ///
    /// let netsuite = Provider::NetSuite.profile();
    /// assert_eq!(netsuite.realm_for("https://1234567.suitetalk.api.netsuite.com/services/rest/record/v1/customer").as_deref(), Some("1234567"));
    /// assert_eq!(netsuite.realm_for("https://1234567-sb1.suitetalk.api.netsuite.com/x").as_deref(), Some("1234567_SB1"));
    /// assert_eq!(Provider::X.profile().realm_for("https://api.x.com/2/tweets"), None);
    /// ```
    pub fn realm_for(&self, url: &str) -> Option<String> {
        match self.realm {
            RealmRule::None => None,
            RealmRule::NetSuiteAccount => {
                let host = url.split_once("://")?.1;
                let label = host.split(['.', '/', ':', '?']).next()?;
                (!label.is_empty()).then(|| label.replace('-', "_").to_ascii_uppercase())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_provider_word_reads_as_its_provider_and_prints_back() {
        // The names of docs/providers.md's table (its `--provider` column),
        // and `rfc5849`, RFC 5849 as written.
        for (word, provider) in [
            ("rfc5849", Provider::Rfc5849),
            ("x", Provider::X),
            ("netsuite", Provider::NetSuite),
            ("woocommerce", Provider::WooCommerce),
            ("mastercard", Provider::Mastercard),
            ("lti", Provider::Lti),
            ("jira-dc", Provider::JiraDataCenter),
            ("magento", Provider::Magento),
            ("etrade", Provider::ETrade),
            ("trello", Provider::Trello),
            ("garmin", Provider::Garmin),
            ("flickr", Provider::Flickr),
            ("discogs", Provider::Discogs),
        ] {
            assert_eq!(word.parse::<Provider>(), Ok(provider));
            assert_eq!(provider.to_string(), word);
        }
        assert_eq!("NetSuite".parse(), Ok(Provider::NetSuite));
        let e = "myspace".parse::<Provider>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown provider \"myspace\" (expected rfc5849, x, netsuite, woocommerce, \
             mastercard, lti, jira-dc, magento, etrade, trello, garmin, flickr, discogs)"
        );
    }
}
