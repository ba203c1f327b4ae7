//! Just enough DER to take the SubjectPublicKeyInfo out of an X.509
//! certificate (RFC 5280 §4.1), so the signature can be verified with the
//! public key the source published rather than the one we derive.

use base64::Engine as _;
use oauth1_signer::SignatureMethod;
use rsa::pkcs8::DecodePublicKey as _;
use rsa::{Pkcs1v15Sign, PublicKey};
use sha1::Digest as _;

/// One DER TLV: its tag, the whole TLV, its contents, and what follows it.
struct Tlv<'a> {
    tag: u8,
    whole: &'a [u8],
    body: &'a [u8],
    rest: &'a [u8],
}

fn tlv(input: &[u8]) -> Result<Tlv<'_>, String> {
    let (&tag, after_tag) = input.split_first().ok_or("DER: truncated")?;
    let (&first, after_len) = after_tag.split_first().ok_or("DER: truncated length")?;
    let (len, body_and_rest) = if first < 0x80 {
        (first as usize, after_len)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 || after_len.len() < n {
            return Err("DER: bad length".into());
        }
        (
            after_len[..n]
                .iter()
                .fold(0usize, |acc, &b| acc << 8 | b as usize),
            &after_len[n..],
        )
    };
    if body_and_rest.len() < len {
        return Err("DER: truncated value".into());
    }
    let header = input.len() - body_and_rest.len();
    Ok(Tlv {
        tag,
        whole: &input[..header + len],
        body: &body_and_rest[..len],
        rest: &body_and_rest[len..],
    })
}

fn public_key(cert_pem: &str) -> Result<PublicKey, String> {
    let b64: String = cert_pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .map(str::trim)
        .collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| format!("certificate base64: {e}"))?;
    let certificate = tlv(&der)?.body;
    let mut field = tlv(certificate)?.body; // tbsCertificate
    if field.first() == Some(&0xA0) {
        field = tlv(field)?.rest; // [0] version
    }
    for _ in 0..5 {
        field = tlv(field)?.rest; // serialNumber, signature, issuer, validity, subject
    }
    let spki = tlv(field)?;
    if spki.tag != 0x30 {
        return Err(format!("DER: subjectPublicKeyInfo has tag {:#x}", spki.tag));
    }
    PublicKey::from_public_key_der(spki.whole).map_err(|e| format!("certificate public key: {e}"))
}

/// Verifies an RSA-SHA1 / RSA-SHA256 signature over `base_string` with the
/// certificate's public key.
pub fn verify(
    cert_pem: &str,
    method: SignatureMethod,
    base_string: &[u8],
    signature_b64: &str,
) -> Result<(), String> {
    let key = public_key(cert_pem)?;
    let signature = base64::engine::general_purpose::STANDARD
        .decode(signature_b64)
        .map_err(|e| format!("signature base64: {e}"))?;
    let result = match method {
        SignatureMethod::RsaSha1 => key.verify(
            Pkcs1v15Sign::new::<sha1::Sha1>(),
            &sha1::Sha1::digest(base_string),
            &signature,
        ),
        SignatureMethod::RsaSha256 => key.verify(
            Pkcs1v15Sign::new::<sha2::Sha256>(),
            &sha2::Sha256::digest(base_string),
            &signature,
        ),
        other => return Err(format!("{other} is not an RSA method")),
    };
    result.map_err(|e| format!("RSASSA-PKCS1-v1_5 verification failed: {e}"))
}
