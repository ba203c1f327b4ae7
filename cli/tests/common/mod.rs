//! The CLI's test support. From the library's (`tests/common/`), included
//! from there so that each fact is written once: the loopback provider, the
//! peers' runner, and the vectors the signer refuses (which `oauth1 sign` must refuse with the
//! same error). The CLI's own: the binary run hermetically (`bin::hermetic`,
//! the one place that clears the environment; `bin::oauth1` with a profile
//! directory; `exec`, with arguments, standard input and variables),
//! `oauth1 authorize` logging in (`login`),
//! the public vectors as JSON (`vectors`), `oauth1 serve` (`serve`), and an
//! HMAC computed by the tests themselves (`oracle`).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod bin;
pub mod exec;
pub mod login;
pub mod oracle;
#[path = "../../../tests/common/peers.rs"]
pub mod peers;
#[path = "../../../tests/common/provider.rs"]
pub mod provider;
#[path = "../../../tests/common/refused.rs"]
pub mod refused;
pub mod serve;
pub mod vectors;
#[path = "../../../tests/common/x_docs.rs"]
pub mod x_docs;
