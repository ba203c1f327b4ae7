//! The one list of the protocol parameters' names ([`Name`]), in the
//! order they are signed.

/// The protocol parameters of RFC 5849 (§2, §3.1) and the body hash
/// extension, in the order of their names: the order in which they are
/// signed (§3.4.1.3.2) and sent.
///
/// ```
/// use oauth1_signer::Name;
///
/// assert_eq!(Name::Nonce.as_str(), "oauth_nonce");
/// assert_eq!(Name::from_name("oauth_body_hash"), Some(Name::BodyHash));
/// assert_eq!(Name::from_name("oauth_session_handle"), None); // an extension's
/// // Ordered as their names sort, encoded: the order they are signed in.
/// assert!(Name::BodyHash < Name::Nonce && Name::Signature < Name::SignatureMethod);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Name {
    /// `oauth_body_hash` (OAuth Request Body Hash): the hash of a body that
    /// is not form-encoded.
    BodyHash,
    /// `oauth_callback` (§2.1).
    Callback,
    /// `oauth_consumer_key` (§3.1).
    ConsumerKey,
    /// `oauth_nonce` (§3.3): see [`Nonce`](super::Nonce).
    Nonce,
    /// `oauth_signature` (§3.4), never signed itself.
    Signature,
    /// `oauth_signature_method` (§3.1).
    SignatureMethod,
    /// `oauth_timestamp` (§3.3): see [`Timestamp`](super::Timestamp).
    Timestamp,
    /// `oauth_token` (§3.1).
    Token,
    /// `oauth_verifier` (§2.3): the verification code of the three-legged
    /// flow (not [`verify::Verifier`](crate::verify::Verifier)).
    Verifier,
    /// `oauth_version` (§3.1), `1.0` when sent.
    Version,
}

// Every `Name` has a bit of a `u16` (`Reading::finish`).
const _: () = assert!(NAMES.len() <= 16);

/// Every [`Name`], sorted (the explainer tries each).
#[cfg_attr(not(feature = "explain"), allow(dead_code))]
pub(crate) const NAMES: [Name; 10] = [
    Name::BodyHash,
    Name::Callback,
    Name::ConsumerKey,
    Name::Nonce,
    Name::Signature,
    Name::SignatureMethod,
    Name::Timestamp,
    Name::Token,
    Name::Verifier,
    Name::Version,
];

impl Name {
    /// The parameter's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Name::BodyHash => "oauth_body_hash",
            Name::Callback => "oauth_callback",
            Name::ConsumerKey => "oauth_consumer_key",
            Name::Nonce => "oauth_nonce",
            Name::Signature => "oauth_signature",
            Name::SignatureMethod => "oauth_signature_method",
            Name::Timestamp => "oauth_timestamp",
            Name::Token => "oauth_token",
            Name::Verifier => "oauth_verifier",
            Name::Version => "oauth_version",
        }
    }

    /// The registered parameter named `name` (decoded), if it is one.
    pub fn from_name(name: &str) -> Option<Name> {
        NAMES.into_iter().find(|n| n.as_str() == name)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::value::cmp_encoded;

    #[test]
    fn each_name_is_read_back_and_no_other() {
        for n in NAMES {
            assert_eq!(Name::from_name(n.as_str()), Some(n));
            let mut near = n.as_str().to_owned();
            near.push('x');
            assert_eq!(Name::from_name(&near), None);
            let last = near.len() - 2;
            near.replace_range(last.., "X");
            assert_eq!(Name::from_name(&near), None, "{near}");
            assert_eq!(Name::from_name(&n.as_str().to_uppercase()), None);
        }
        for other in [
            "",
            "oauth_",
            "oauth",
            "realm",
            "oauth_session_handle",
            "xauth_nonce",
        ] {
            assert_eq!(Name::from_name(other), None, "{other}");
        }
    }

    #[test]
    fn the_names_are_sorted_as_encoded() {
        for pair in NAMES.windows(2) {
            // The model orders registered names by `Name`: its order is theirs.
            assert!(pair[0] < pair[1], "{pair:?}");
            let (a, b) = (pair[0].as_str(), pair[1].as_str());
            assert!(cmp_encoded(a.as_bytes(), b.as_bytes()).is_lt(), "{a} {b}");
            assert!(a.starts_with("oauth_"));
        }
    }
}
