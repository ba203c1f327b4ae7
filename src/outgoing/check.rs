//! What a [`RequestSpec`] refuses before anything is signed or sent: two
//! bodies, a form given as another body, a `Content-Type` that cannot be
//! a header or has no body, a transmission its style or body cannot take;
//! and the body as sent before the protocol parameters join it.

use crate::error::{Error, ErrorKind, Part};
use crate::outgoing::spec::{RequestSpec, FORM_URLENCODED};
use crate::pipeline::protocol::Transmission;
use crate::pipeline::style::{ParameterStyle, MASTERCARD_HEADER_ONLY};
use crate::text::scan::find_non_field_byte;

impl RequestSpec {
    /// The body as sent before the protocol parameters are added, with its
    /// media type: the form body, else the other body, else none.
    pub(crate) fn own_body(&self) -> Option<(&[u8], &str)> {
        match (&self.form_body, &self.body) {
            (Some(form), _) => Some((form.as_bytes(), FORM_URLENCODED)),
            (None, Some(body)) => Some((
                body.as_slice(),
                self.content_type
                    .as_deref()
                    .unwrap_or("application/octet-stream"),
            )),
            (None, None) => None,
        }
    }

    /// Refuses what cannot be sent: two bodies, a form given as `body`, a
    /// `content_type` without a body, the form-body transmission without a
    /// form body.
    pub(crate) fn check(&self) -> Result<(), Error> {
        let conflict = |reason| Err(Error::new(ErrorKind::Conflict { reason }));
        if self.form_body.is_some() && self.body.is_some() {
            return conflict(
                "a request has one body: form parameters (\"form_body\", -d), which are signed, \
                 or another body (\"body\", --body), which is not; not both",
            );
        }
        // A header value: CR LF would start another header, and other
        // controls reach whoever prints it (RFC 9110 §5.5: visible ASCII,
        // spaces and tabs; obs-text is not written).
        if let Some(ct) = &self.content_type
            && let Some(at) = find_non_field_byte(ct.as_bytes())
        {
            return Err(Error::invalid_byte(
                    Part::Input,
                    at,
                    ct.as_bytes()[at],
                    "a Content-Type is visible ASCII, spaces and tabs (\"content_type\", --content-type)",
                ));
        }
        // A type that only looks like the form's is refused with its own error.
        let form_type = self
            .content_type
            .as_deref()
            .map(crate::pipeline::request::is_form_urlencoded)
            .transpose()?
            .unwrap_or(false);
        if self.body.is_some() && form_type {
            return conflict(
                "a body of type application/x-www-form-urlencoded is form parameters: give it as \
                 \"form_body\" (-d), whose parameters are signed",
            );
        }
        if self.content_type.is_some() && self.body.is_none() {
            return conflict("\"content_type\" is the type of \"body\", and there is no body");
        }
        let style = self.profile().map(|p| p.style).unwrap_or_default();
        if self.transmission() != Transmission::Header && style != ParameterStyle::Rfc5849 {
            return conflict(MASTERCARD_HEADER_ONLY);
        }
        if self.transmission() == Transmission::FormBody && self.form_body.is_none() {
            return conflict(
                "the form-body transmission adds the protocol parameters to a form body, and \
                 this request has none: give one (\"form_body\", -d; empty is allowed), or \
                 send them in the header or the query",
            );
        }
        Ok(())
    }
}
