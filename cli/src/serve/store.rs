//! The tokens the three legs issued (`legs`), and the secrets they are
//! looked up by: the consumer's with each token's, keyed once when the
//! token is issued. The temporary tokens' bounds are `temporary`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use oauth1_signer::verify::{Lookup, SecretFuture, SecretSource, Secrets};
use oauth1_signer::Secret;

use super::temporary::Temporaries;

/// An access token issued (§2.3).
pub(super) struct Access {
    /// For a diagnosis made with it.
    pub(super) secret: Secret,
    /// The consumer's and this token's, kept (keyed once).
    pub(super) secrets: Secrets,
}

/// The tokens issued: the temporary ones until each is exchanged or
/// expires, the access ones for as long as the server runs.
pub(super) struct Tokens {
    pub(super) temporary: Temporaries,
    pub(super) access: HashMap<String, Access>,
}

/// Which tokens a lookup knows.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// None (the request-token leg) or a temporary token.
    Temporary,
    /// An access token issued by the access-token leg.
    Access,
}

/// The secrets of the consumer `serve` holds and of the tokens it issued,
/// of one kind.
pub(super) struct Issued {
    consumer_key: String,
    /// The consumer's alone (a request-token request's).
    consumer: Secrets,
    tokens: Arc<Mutex<Tokens>>,
    kind: Kind,
}

/// The tokens, locked.
pub(super) fn lock(tokens: &Mutex<Tokens>) -> MutexGuard<'_, Tokens> {
    // A panic while the map was held leaves it whole (each change is one
    // insert or one field): go on with it.
    tokens
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Issued {
    fn lookup(&self, consumer_key: &str, token: Option<&str>) -> Lookup {
        if consumer_key != self.consumer_key {
            return Lookup::UnknownConsumer;
        }
        let Some(token) = token else {
            return match self.kind {
                Kind::Temporary => Lookup::Found(self.consumer.clone()),
                Kind::Access => Lookup::UnknownToken,
            };
        };
        let tokens = lock(&self.tokens);
        let secrets = match self.kind {
            // An exchanged one too: its owner is told it was used (it
            // holds the secret, or the signature would not verify).
            Kind::Temporary => tokens.temporary.secrets(token),
            Kind::Access => tokens.access.get(token).map(|a| a.secrets.clone()),
        };
        drop(tokens);
        secrets.map_or(Lookup::UnknownToken, Lookup::Found)
    }
}

impl SecretSource for Issued {
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
        let found = self.lookup(consumer_key, token);
        Box::pin(std::future::ready(Ok(found)))
    }
}

/// The consumer `serve` holds, whose secret every token's is paired with.
pub(super) struct Consumer {
    pub(super) key: String,
    pub(super) secret: Secret,
    pub(super) public_key: Option<String>,
}

impl Consumer {
    /// The consumer's secrets with `token_secret`, made once when the token
    /// is issued and kept: each request verified with them copies the
    /// keyed MAC instead of keying it afresh.
    pub(super) fn secrets(&self, token_secret: Secret) -> Secrets {
        let secrets = Secrets::new(self.secret.clone(), token_secret);
        match &self.public_key {
            // A key that does not parse was refused at start (`Legs::new`),
            // so the fallback (RSA refused as "no public key") is never
            // taken.
            Some(pem) => secrets
                .clone()
                .with_rsa_public_key_pem(pem)
                .unwrap_or(secrets),
            None => secrets,
        }
    }

    /// The lookup of `tokens` of `kind`.
    pub(super) fn issued(&self, tokens: &Arc<Mutex<Tokens>>, kind: Kind) -> Issued {
        Issued {
            consumer_key: self.key.clone(),
            consumer: self.secrets(Secret::default()),
            tokens: tokens.clone(),
            kind,
        }
    }
}
