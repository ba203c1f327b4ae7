//! The library's test support (`tests/common/`) that the CLI's tests share,
//! included from there so that each fact is written once: the loopback
//! provider, and the vectors the signer refuses (which `oauth1 sign` must
//! refuse with the same error); and an HMAC computed by the tests themselves.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod bin;
pub mod oracle;
#[path = "../../../tests/common/provider.rs"]
pub mod provider;
#[path = "../../../tests/common/refused.rs"]
pub mod refused;
pub mod serve;
