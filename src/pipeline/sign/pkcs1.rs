//! RSA-SHA1 and RSA-SHA256 ([RFC 5849 §3.4.3], feature `rsa`):
//! RSASSA-PKCS1-v1_5 over the base string's SHA-1 or SHA-256, signed with
//! the client's private key and verified with its public key.
//!
//! [RFC 5849 §3.4.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.3

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sha1::Sha1;
use sha2::Sha256;

use super::{Key, Repr, Signature, SignatureMethod, SigningKey};
use crate::error::{Error, ErrorKind};

impl SigningKey {
    /// An RSA key for `RSA-SHA1` or `RSA-SHA256`.
    fn rsa(method: SignatureMethod, key: rsa::PrivateKey) -> Result<SigningKey, Error> {
        let sha256 = match method {
            SignatureMethod::RsaSha1 => false,
            SignatureMethod::RsaSha256 => true,
            other => {
                return Err(Error::new(ErrorKind::InvalidKey {
                    reason: format!(
                        "an RSA private key signs only RSA-SHA1 or RSA-SHA256, not {other}"
                    ),
                }))
            }
        };
        Ok(SigningKey {
            inner: Key::Rsa(Box::new(key), sha256),
            secrets: None,
        })
    }

    /// Reads a PEM private key, PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1
    /// (`BEGIN RSA PRIVATE KEY`), for `RSA-SHA1` or `RSA-SHA256`.
    ///
    /// It reads what OpenSSL and Python's `cryptography` read: a UTF-8 byte
    /// order mark, text before the block (such as `Bag Attributes`),
    /// whitespace around lines, CRLF line ends, lines of any width, other
    /// blocks before or after (a certificate kept in the same file).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] if the PEM holds no RSA private key, naming
    /// what it holds instead: an encrypted key (with the command that
    /// decrypts it), a public key, a certificate, another algorithm's key, a
    /// block without its `END` line, or a body that is not base64 or not a key.
    pub fn rsa_pem(method: SignatureMethod, pem: &str) -> Result<SigningKey, Error> {
        SigningKey::rsa(method, crate::pipeline::pem::read_rsa_private_key(pem)?)
    }
}

/// Whether `theirs` (base64, as received) is an RSASSA-PKCS1-v1_5 signature
/// of `base_string` under `key` (§3.4.3), with SHA-1 for `RSA-SHA1` and
/// SHA-256 for `RSA-SHA256`; false for any other method.
pub(crate) fn rsa_verify(
    method: SignatureMethod,
    key: &rsa::PublicKey,
    base_string: &[u8],
    theirs: &str,
) -> bool {
    let Ok(signature) = STANDARD.decode(theirs.as_bytes()) else {
        return false;
    };
    match method {
        SignatureMethod::RsaSha1 => key
            .verify(
                rsa::Pkcs1v15Sign::new::<Sha1>(),
                &<Sha1 as sha1::Digest>::digest(base_string),
                &signature,
            )
            .is_ok(),
        SignatureMethod::RsaSha256 => key
            .verify(
                rsa::Pkcs1v15Sign::new::<Sha256>(),
                &<Sha256 as sha2::Digest>::digest(base_string),
                &signature,
            )
            .is_ok(),
        _ => false,
    }
}

pub(super) fn rsa_sign<D>(key: &SigningKey, digest: &[u8]) -> Result<Signature, Error>
where
    D: sha2::Digest + rsa::pkcs8::AssociatedOid,
{
    let Key::Rsa(private, _) = &key.inner else {
        return Err(Error::new(ErrorKind::MissingKey {
            method: key.method().as_str(),
        }));
    };
    let sig = private
        .sign(rsa::Pkcs1v15Sign::new::<D>(), digest)
        .map_err(|e| {
            Error::new(ErrorKind::Rsa {
                reason: e.to_string(),
            })
        })?;
    Ok(Signature {
        repr: Repr::Base64(STANDARD.encode(sig)),
    })
}
