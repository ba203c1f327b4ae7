//! Providers: the defaults each OAuth 1.0a provider expects ([`Profile`],
//! named by [`Provider`](crate::Provider)), the parameter strings of the
//! implementations that deviate from RFC 5849 ([`ParameterStyle`]), and
//! OAuth Echo ([`echo`]).
//!
//! It imports the [`pipeline`](crate::pipeline) and [`text`](crate::text)
//! wings; the pipeline asks it nothing but the style a signer was built with.
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
pub(crate) mod style;

pub use profile::{FlowQuirks, Profile, RealmRule, PROVIDERS};
pub use style::ParameterStyle;
