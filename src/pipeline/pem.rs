//! Reading an RSA private key from PEM text ([RFC 7468]).
//!
//! `pem-rfc7468`, under the `rsa` crate's own PEM readers, is strict: one
//! block, nothing but one line end after it, lines of exactly 64 columns. Key
//! files met in practice are not: a BOM from a Windows editor, a blank line at
//! the end, CRLF, text before the block, a certificate in the same file. So
//! the blocks are found here, the body's base64 decoded here, and only the DER
//! is handed to `rsa`. Every other label gets an error that names it.
//!
//! [RFC 7468]: https://www.rfc-editor.org/rfc/rfc7468

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use rsa::pkcs1::DecodeRsaPrivateKey as _;
use rsa::pkcs8::DecodePrivateKey as _;
use zeroize::Zeroizing;

use crate::error::{Error, ErrorKind};

const EXPECTED: &str = "expected -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----";

/// One PEM block: its label, whether its headers say it is encrypted
/// (the legacy `Proc-Type: 4,ENCRYPTED` of PKCS#1), and its body.
struct Block<'a> {
    label: &'a str,
    encrypted: bool,
    /// The base64 lines, joined; secret for a private key.
    body: Zeroizing<String>,
    /// The 1-based line of the first body line that is not base64.
    bad_line: Option<usize>,
}

fn invalid(reason: String) -> Error {
    Error::new(ErrorKind::InvalidKey { reason })
}

/// The blocks of `text`, in order; an error for a block left open.
fn blocks(text: &str) -> Result<Vec<Block<'_>>, Error> {
    let mut blocks = Vec::new();
    let mut open: Option<Block<'_>> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        match open.as_mut() {
            None => {
                if let Some(label) = line
                    .strip_prefix("-----BEGIN ")
                    .and_then(|l| l.strip_suffix("-----"))
                {
                    open = Some(Block {
                        label,
                        encrypted: false,
                        body: Zeroizing::new(String::new()),
                        bad_line: None,
                    });
                }
            }
            Some(block) => {
                if line.starts_with("-----BEGIN ") {
                    return Err(unclosed(block.label));
                }
                if let Some(label) = line
                    .strip_prefix("-----END ")
                    .and_then(|l| l.strip_suffix("-----"))
                {
                    if label != block.label {
                        return Err(invalid(format!(
                            "-----BEGIN {}----- is closed by -----END {label}----- \
                             on line {}",
                            block.label,
                            i + 1
                        )));
                    }
                    blocks.extend(open.take());
                } else if let Some((name, value)) = line.split_once(':') {
                    // RFC 1421 headers, before the body.
                    if name.trim() == "Proc-Type" && value.contains("ENCRYPTED") {
                        block.encrypted = true;
                    }
                } else if line.bytes().all(is_base64) {
                    block.body.push_str(line);
                } else if block.bad_line.is_none() {
                    block.bad_line = Some(i + 1);
                }
            }
        }
    }
    match open {
        Some(block) => Err(unclosed(block.label)),
        None => Ok(blocks),
    }
}

fn unclosed(label: &str) -> Error {
    invalid(format!(
        "-----BEGIN {label}----- has no -----END {label}----- line after it"
    ))
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// Why a block that holds no RSA private key cannot be used.
fn not_a_private_key(label: &str) -> String {
    match label {
        "ENCRYPTED PRIVATE KEY" => "encrypted keys are not supported; decrypt it with \
             `openssl pkcs8 -in key.pem -out plain.pem`"
            .into(),
        "PUBLIC KEY" | "RSA PUBLIC KEY" => format!(
            "this is a public key (-----BEGIN {label}-----); signing needs the private key \
             ({EXPECTED})"
        ),
        "CERTIFICATE" | "TRUSTED CERTIFICATE" | "X509 CERTIFICATE" => format!(
            "this is a certificate (-----BEGIN {label}-----), which holds only the public \
             key; signing needs the private key ({EXPECTED})"
        ),
        "OPENSSH PRIVATE KEY" => "an OpenSSH private key is not read here; convert a copy \
             with `ssh-keygen -p -m PKCS8 -f copy-of-key`, which rewrites it as \
             -----BEGIN PRIVATE KEY-----"
            .into(),
        "EC PRIVATE KEY" | "DSA PRIVATE KEY" => format!(
            "this is not an RSA key (-----BEGIN {label}-----); RSA-SHA1 and RSA-SHA256 \
             need an RSA private key"
        ),
        _ => format!("a PEM block labelled {label:?} is not a private key ({EXPECTED})"),
    }
}

/// The name of a PKCS#8 key's algorithm that is not RSA, for the error.
fn algorithm_name(der: &[u8]) -> Option<String> {
    const RSA: &str = "1.2.840.113549.1.1.1";
    let info = rsa::pkcs8::PrivateKeyInfoRef::try_from(der).ok()?;
    let oid = info.algorithm.oid.to_string();
    let name = match oid.as_str() {
        RSA => return None,
        "1.2.840.10045.2.1" => "EC",
        "1.3.101.112" => "Ed25519",
        "1.3.101.113" => "Ed448",
        "1.3.101.110" => "X25519",
        "1.2.840.10040.4.1" => "DSA",
        "1.2.840.113549.1.1.10" => "RSASSA-PSS",
        _ => "",
    };
    Some(if name.is_empty() {
        format!("algorithm {oid}")
    } else {
        format!("{name} (algorithm {oid})")
    })
}

/// The RSA private key in `pem`: the first block labelled `PRIVATE KEY`
/// or `RSA PRIVATE KEY`.
pub(crate) fn read_rsa_private_key(pem: &str) -> Result<rsa::PrivateKey, Error> {
    let text = pem.strip_prefix('\u{FEFF}').unwrap_or(pem);
    let blocks = blocks(text)?;
    let Some(block) = blocks
        .iter()
        .find(|b| matches!(b.label, "PRIVATE KEY" | "RSA PRIVATE KEY"))
    else {
        return Err(invalid(match blocks.first() {
            Some(block) => not_a_private_key(block.label),
            None => format!("no PEM block found ({EXPECTED})"),
        }));
    };
    if block.encrypted {
        return Err(invalid(
            "encrypted keys are not supported; decrypt it with \
             `openssl rsa -in key.pem -out plain.pem`"
                .into(),
        ));
    }
    if let Some(line) = block.bad_line {
        return Err(invalid(format!(
            "line {line} of the -----BEGIN {}----- block is not base64",
            block.label
        )));
    }
    let der = Zeroizing::new(STANDARD.decode(block.body.as_bytes()).map_err(|_| {
        invalid(format!(
            "the body of the -----BEGIN {}----- block is not valid base64 \
             (cut short, or padding in the middle?)",
            block.label
        ))
    })?);
    if block.label == "RSA PRIVATE KEY" {
        rsa::PrivateKey::from_pkcs1_der(&der)
            .map_err(|e| invalid(format!("not a PKCS#1 RSA private key: {e}")))
    } else {
        rsa::PrivateKey::from_pkcs8_der(&der).map_err(|e| {
            invalid(match algorithm_name(&der) {
                Some(name) => format!(
                    "this is a PKCS#8 key for {name}, not RSA; RSA-SHA1 and \
                     RSA-SHA256 need an RSA private key"
                ),
                None => format!("not a PKCS#8 RSA private key: {e}"),
            })
        })
    }
}

/// One DER element (X.690 §8.1): its tag, its contents, and what follows it.
fn der_element(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = der.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7F);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, &rest[n..])
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// The SubjectPublicKeyInfo of an X.509 certificate's DER (RFC 5280 §4.1):
/// the seventh field of `tbsCertificate`, the sixth when `version` is absent.
fn certificate_spki(der: &[u8]) -> Option<&[u8]> {
    const SEQUENCE: u8 = 0x30;
    let (SEQUENCE, cert, _) = der_element(der)? else {
        return None;
    };
    let (SEQUENCE, mut tbs, _) = der_element(cert)? else {
        return None;
    };
    // [0] EXPLICIT version, then serial, signature, issuer, validity, subject.
    if tbs.first() == Some(&0xA0) {
        tbs = der_element(tbs)?.2;
    }
    for _ in 0..5 {
        tbs = der_element(tbs)?.2;
    }
    let (SEQUENCE, _, after) = der_element(tbs)? else {
        return None;
    };
    Some(&tbs[..tbs.len() - after.len()])
}

const EXPECTED_PUBLIC: &str =
    "expected -----BEGIN PUBLIC KEY-----, -----BEGIN RSA PUBLIC KEY----- or -----BEGIN CERTIFICATE-----";

/// The RSA public key in `pem`, for verifying: the first block labelled
/// `PUBLIC KEY` (SubjectPublicKeyInfo), `RSA PUBLIC KEY` (PKCS#1) or
/// `CERTIFICATE` (the key it certifies).
pub(crate) fn read_rsa_public_key(pem: &str) -> Result<rsa::PublicKey, Error> {
    use rsa::pkcs1::DecodeRsaPublicKey as _;
    use rsa::pkcs8::DecodePublicKey as _;
    let text = pem.strip_prefix('\u{FEFF}').unwrap_or(pem);
    let blocks = blocks(text)?;
    let Some(block) = blocks.iter().find(|b| {
        matches!(
            b.label,
            "PUBLIC KEY" | "RSA PUBLIC KEY" | "CERTIFICATE" | "X509 CERTIFICATE"
        )
    }) else {
        return Err(invalid(match blocks.first() {
            Some(block) => format!(
                "a PEM block labelled {:?} is not a public key or certificate; \
                 verifying needs the client's public key ({EXPECTED_PUBLIC})",
                block.label
            ),
            None => format!("no PEM block found ({EXPECTED_PUBLIC})"),
        }));
    };
    if let Some(line) = block.bad_line {
        return Err(invalid(format!(
            "line {line} of the -----BEGIN {}----- block is not base64",
            block.label
        )));
    }
    let der = STANDARD.decode(block.body.as_bytes()).map_err(|_| {
        invalid(format!(
            "the body of the -----BEGIN {}----- block is not valid base64",
            block.label
        ))
    })?;
    match block.label {
        "RSA PUBLIC KEY" => rsa::PublicKey::from_pkcs1_der(&der)
            .map_err(|e| invalid(format!("not a PKCS#1 RSA public key: {e}"))),
        "PUBLIC KEY" => rsa::PublicKey::from_public_key_der(&der)
            .map_err(|e| invalid(format!("not an RSA public key: {e}"))),
        _ => {
            let spki = certificate_spki(&der)
                .ok_or_else(|| invalid("not an X.509 certificate (RFC 5280)".into()))?;
            rsa::PublicKey::from_public_key_der(spki)
                .map_err(|e| invalid(format!("the certificate's key is not RSA: {e}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_key_is_read_from_each_form_it_comes_in() {
        use rsa::traits::PublicKeyParts as _;
        let cert = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauth_net_testcases_rsa.cert"
        ));
        let spki = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauthlib_tests_rsa_public.pem"
        ));
        let from_cert = read_rsa_public_key(cert).unwrap();
        let from_private = read_rsa_private_key(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauth_net_testcases_rsa_pkcs8.pem"
        )))
        .unwrap();
        // The certificate certifies the oauth.net private key's public half.
        assert_eq!(from_cert.n(), from_private.n());
        assert_eq!(read_rsa_public_key(spki).unwrap().n().bit_width(), 1024);
        let e = read_rsa_public_key(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauthlib_tests_rsa_pkcs1.pem"
        )))
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("\"RSA PRIVATE KEY\" is not a public key"),
            "{e}"
        );
        assert!(!e.to_string().contains("MII"), "{e}");
        assert!(read_rsa_public_key(&cert.replacen("MII", "MIJ", 1)).is_err());
        assert!(certificate_spki(&[0x30, 0x03, 0x30, 0x01]).is_none());
    }
}
