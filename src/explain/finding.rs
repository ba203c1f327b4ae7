//! What the explainer says: each difference a [`Finding`] naming its
//! [`Cause`] and the [`Component`] it is in, and the [`Explanation`] that
//! gathers them.

use std::fmt;

use super::catalogue::{Cause, Place};
use super::tried::EncodingLevel;

/// Which part of the request a [`Finding`] is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// The HTTP method, first in the base string.
    Method,
    /// The base string URI.
    Uri,
    /// The parameter string as a whole (its order, its outer encoding).
    Parameters,
    /// One parameter, by decoded name.
    Parameter(String),
    /// A parameter of the `Authorization` header that is not signed (`realm`).
    Header(String),
    /// The signing key.
    Key,
    /// The signature itself.
    Signature,
}

impl Component {
    /// Where a finding of the signature search points: `place`, or the
    /// parameter it left out.
    pub(crate) fn of(place: Place, dropped: Option<String>) -> Component {
        match (place, dropped) {
            (Place::Method, _) => Component::Method,
            (Place::Uri, _) => Component::Uri,
            (Place::Key, _) => Component::Key,
            (Place::Parameters, Some(name)) => Component::Parameter(name),
            (Place::Parameters, None) => Component::Parameters,
        }
    }
}

impl fmt::Display for Component {
    /// `method`, `uri`, `parameters`, `parameter:NAME`, `header:NAME`, `key`, `signature`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Component::Method => f.write_str("method"),
            Component::Uri => f.write_str("uri"),
            Component::Parameters => f.write_str("parameters"),
            Component::Parameter(name) => write!(f, "parameter:{name}"),
            Component::Header(name) => write!(f, "header:{name}"),
            Component::Key => f.write_str("key"),
            Component::Signature => f.write_str("signature"),
        }
    }
}

/// How a [`Finding`] was found: what its [`detail`](Finding::detail) says
/// in English, as a value a reader can word in another language (the page
/// does), with the finding's cause and component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FoundBy {
    /// Their base string, header or parameters compared with ours, part by
    /// part: the difference is where the component is.
    Compared,
    /// Our request recomputed with the cause's mistake (and, when `paired`,
    /// one or two others) signs to their signature.
    Reproduced {
        /// Whether it takes this mistake and one or two others together.
        paired: bool,
        /// Whether another mistake or combination (an encoder departing at
        /// a wider level, another cause) writes the same base string here,
        /// so that the signature cannot tell which: the detail names it.
        ambiguous: bool,
    },
    /// Their signature is a catalogued wrong key's over their base string.
    KeyReproduced,
    /// No catalogued mistake, nor a pair of them, reproduces their
    /// signature: the secrets, or the base strings compared, will say.
    NotReproduced,
    /// Their signature was not searched: the method is RSA (no key to
    /// recompute with), or the request is over the search's bounds.
    NotSearched,
}

impl FoundBy {
    /// A stable name: `compared`, `reproduced`, `reproduced-pair`,
    /// `key-reproduced`, `not-reproduced`, `not-searched`.
    pub fn as_str(self) -> &'static str {
        match self {
            FoundBy::Compared => "compared",
            FoundBy::Reproduced { paired: false, .. } => "reproduced",
            FoundBy::Reproduced { paired: true, .. } => "reproduced-pair",
            FoundBy::KeyReproduced => "key-reproduced",
            FoundBy::NotReproduced => "not-reproduced",
            FoundBy::NotSearched => "not-searched",
        }
    }
}

/// One difference and its cause: what we have, what they have, and why.
///
/// `ours` and `theirs` never hold a secret: where a value is one (a
/// PLAINTEXT signature, a key), they say `<redacted>`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The cause, from the catalogue.
    pub cause: Cause,
    /// Where the difference is.
    pub component: Component,
    /// Our text there (encoded as it stands in our base string).
    pub ours: String,
    /// Their text there.
    pub theirs: String,
    /// One sentence for people (English): how it was found.
    pub detail: String,
    /// How it was found, as a value: what [`detail`](Self::detail) says.
    pub found_by: FoundBy,
    /// For an encoding cause found by the signature search: where the
    /// mistaken encoder was used.
    pub level: Option<EncodingLevel>,
}

impl Finding {
    pub(crate) fn new(
        cause: Cause,
        component: Component,
        ours: impl Into<String>,
        theirs: impl Into<String>,
        detail: impl Into<String>,
    ) -> Finding {
        Finding {
            cause,
            component,
            ours: ours.into(),
            theirs: theirs.into(),
            detail: detail.into(),
            found_by: FoundBy::Compared,
            level: None,
        }
    }

    pub(crate) fn found_by(mut self, found_by: FoundBy) -> Finding {
        self.found_by = found_by;
        self
    }

    pub(crate) fn with_level(mut self, level: Option<EncodingLevel>) -> Finding {
        self.level = level;
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.cause, self.component, self.detail)
    }
}

/// What an [`Explainer`](crate::explain::Explainer) found: whether the other side's evidence matches
/// ours, and each cause of the differences.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Explanation {
    /// Whether what they gave (base string, signature, header) is what we
    /// compute.
    pub matches: bool,
    /// The causes, most fundamental first (protocol parameters, then
    /// method, URI, parameters, key). Empty when `matches`.
    pub findings: Vec<Finding>,
    /// Their base string: as given, or the one a signature search found
    /// that reproduces their signature.
    pub their_base_string: Option<String>,
}

impl Explanation {
    pub(crate) fn matching() -> Explanation {
        Explanation {
            matches: true,
            findings: Vec::new(),
            their_base_string: None,
        }
    }

    /// Whether a finding names `cause`.
    pub fn names(&self, cause: Cause) -> bool {
        self.findings.iter().any(|f| f.cause == cause)
    }

    /// The distinct causes named, in the order first found.
    pub fn causes(&self) -> Vec<Cause> {
        let mut out: Vec<Cause> = Vec::new();
        for f in &self.findings {
            if !out.contains(&f.cause) {
                out.push(f.cause);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_display_as_stable_names() {
        assert_eq!(
            Component::Parameter("a b".into()).to_string(),
            "parameter:a b"
        );
        assert_eq!(Component::Uri.to_string(), "uri");
        assert_eq!(Component::of(Place::Key, None), Component::Key);
    }
}
