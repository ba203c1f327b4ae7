//! The Sign panel: the page's fields to a [`Signer`](oauth1_signer::Signer) and an
//! [`OAuthRequest`](oauth1_signer::OAuthRequest), and the library's
//! [`Signer::trace`](oauth1_signer::Signer::trace) to what the panel shows: every stage,
//! the signing key (masked unless asked), the header and a curl command that
//! sends it. The explain panel builds its request here too, so both panels
//! read the fields alike.
//!
//! All three legs of the flow (RFC 5849 §2) sign here: a callback for the
//! temporary credentials, a verifier for the token credentials. The protocol
//! parameters go where the transmission says (§3.5: the header, the query or
//! the end of the form body), so an `oauth_callback` or `oauth_verifier`
//! typed into the URL or the body is taken out of it (where the library's
//! error points) and sent with the others instead: the signature is the same
//! wherever a parameter travels (§3.4.1.3.1).
//!
//! By what each holds, each using only those above it: `fields` (the
//! panel's fields and its selects' words), `errors` (an error placed in its
//! field), `request` (the fields as the library's request), `hints` (the
//! library's lints as the page says them), `shown` (what the panel shows).
//! Every rule is the library's: the curl command
//! ([`Sent::curl`](oauth1_signer::outgoing::Sent::curl)), the masked
//! signature ([`RequestSpec::sent_shown`](oauth1_signer::RequestSpec::sent_shown)),
//! the URL's fix ([`encode_refused`](oauth1_signer::pipeline::encode_refused)),
//! the hints ([`RequestSpec::lints`](oauth1_signer::RequestSpec::lints)).

mod errors;
mod fields;
mod hints;
mod request;
mod shown;

pub use errors::FieldError;
pub use fields::{
    method_names, profile_shown, provider_names, x_docs_example, BodyType, Fields, ProfileShown,
};
pub use request::{spec_of, with_request};
pub use shown::{sign_json, Lifted, Sent, Signed, Warned, MASK};
