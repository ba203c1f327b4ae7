//! Providers: the defaults each OAuth 1.0a provider expects ([`Profile`],
//! named by [`Provider`](crate::Provider): its method, transmission, body
//! hash, realm, parameter style and flow quirks), and OAuth Echo
//! ([`echo`]). The parameter styles themselves are the pipeline's
//! ([`ParameterStyle`](crate::pipeline::ParameterStyle)): how a base string
//! is written is a stage of signing.
//!
//! It imports the [`pipeline`](crate::pipeline) wing alone; the pipeline
//! asks it nothing but the style a signer was built with.
//!
//! ```
//! use oauth1_signer::{Provider, SignatureMethod, Transmission};
//!
//! let profile = Provider::WooCommerce.profile();
//! assert_eq!(profile.method, SignatureMethod::HmacSha256);
//! assert_eq!(profile.transmission, Transmission::Query);
//! ```

pub mod echo;
pub(crate) mod profile;

pub use profile::{FlowQuirks, Profile, RealmRule, PROVIDERS};
