//! What a verifier's two backends answer when they cannot answer: a nonce
//! store's [`StoreError`] and a secret source's [`SecretsError`].
//!
//! The two are one definition (`unavailable!`) and two types. They are
//! two contracts: a [`NonceStore`](crate::verify::NonceStore) can only
//! return the first and a [`SecretSource`](crate::verify::SecretSource)
//! only the second, so the verifier's answer
//! ([`Reason::StoreUnavailable`](crate::verify::Reason::StoreUnavailable) or
//! [`Reason::SecretsUnavailable`](crate::verify::Reason::SecretsUnavailable))
//! and the error's own message ("nonce store unavailable", "secret source
//! unavailable") follow from the type, with nothing an implementer could
//! set wrong.

use std::fmt;

/// The type `$name` of a backend's failure: `reason`, a cause, and a
/// message that names the backend (`$what`).
macro_rules! unavailable {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            reason: String,
            source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
        }

        impl $name {
            /// An error saying what failed (no secret, no request data in it).
            pub fn new(reason: impl Into<String>) -> $name {
                $name {
                    reason: reason.into(),
                    source: None,
                }
            }

            /// The error with its cause (the client library's own error), which
            /// [`source`](std::error::Error::source) gives: its message is not
            /// copied into this one's.
            pub fn with_source(
                mut self,
                source: impl std::error::Error + Send + Sync + 'static,
            ) -> $name {
                self.source = Some(Box::new(source));
                self
            }

            /// What failed.
            pub fn reason(&self) -> &str {
                &self.reason
            }

            /// What failed and its causes, each once, joined by `: ` (for a log
            /// line and a verifier's [`Reason`](crate::verify::Reason)).
            pub fn describe(&self) -> String {
                match std::error::Error::source(self) {
                    Some(cause) => format!("{}: {}", self.reason, crate::text::error_chain(cause)),
                    None => self.reason.clone(),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($what, " unavailable: {}"), self.reason)
            }
        }

        impl std::error::Error for $name {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                self.source
                    .as_deref()
                    .map(|e| e as &(dyn std::error::Error + 'static))
            }
        }
    };
}

unavailable!(
    /// A store could not answer. A verifier fails closed: the request is
    /// rejected, never accepted unchecked.
    StoreError,
    "nonce store"
);

unavailable!(
    /// A [`SecretSource`](crate::verify::SecretSource) could not answer (its
    /// database is down, say). A verifier fails closed: the request is
    /// refused as
    /// [`SecretsUnavailable`](crate::verify::Reason::SecretsUnavailable)
    /// (503), never accepted unchecked.
    SecretsError,
    "secret source"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_names_its_backend_and_keeps_its_cause_apart() {
        let io = std::io::Error::other("connection reset");
        let store = StoreError::new("redis 127.0.0.1:6379").with_source(io);
        assert_eq!(
            store.to_string(),
            "nonce store unavailable: redis 127.0.0.1:6379"
        );
        assert_eq!(store.describe(), "redis 127.0.0.1:6379: connection reset");
        assert_eq!(
            std::error::Error::source(&store).map(ToString::to_string),
            Some("connection reset".to_owned())
        );
        let secrets = SecretsError::new("database down");
        assert_eq!(
            secrets.to_string(),
            "secret source unavailable: database down"
        );
        assert_eq!(secrets.reason(), "database down");
        assert_eq!(secrets.describe(), "database down");
    }
}
