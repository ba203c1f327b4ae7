//! The vectors the signer refuses on purpose: the library's vector tests
//! (tests/vectors.rs) and the CLI's (cli/tests/sign.rs) both check that they
//! are refused, with the same error.

/// Vectors whose inputs the signer refuses on purpose, and why: their
/// expected stages are still checked through the stage functions, and the
/// signer must refuse them with this error.
pub const REFUSED_BY_SIGNER: [(&str, &str); 2] = [
    (
        "oauthlib-client-unicode-body-1",
        "invalid oauth_timestamp: a timestamp is a positive integer in ASCII digits",
    ),
    (
        "oauthlib-client-unicode-body-2",
        "invalid oauth_timestamp: a timestamp is a positive integer in ASCII digits",
    ),
];

/// Why the signer refuses vector `id`, if it does.
pub fn refused_by_signer(id: &str) -> Option<&'static str> {
    REFUSED_BY_SIGNER
        .iter()
        .find(|(refused, _)| *refused == id)
        .map(|&(_, why)| why)
}
