//! A captured request as an outgoing one (feature `capture`): the one
//! reading of a capture's method, URL and body into a [`RequestSpec`],
//! which the explainer's `CaptureExplainer` and `oauth1 verify
//! --curl/--http/--har` both use.

use crate::capture::Captured;
use crate::error::{Error, Part};
use crate::outgoing::spec::RequestSpec;

impl RequestSpec {
    /// Puts the request `captured` holds in this spec: its method, `url`
    /// (the capture's own, or the one left once its protocol parameters are
    /// taken out of the query), and its body. A body whose media type is a
    /// form's ([`Captured::is_form`]) is `form_body`, which the caller gives
    /// (the capture's body, or what is left of it once its protocol
    /// parameters are taken out; `None` for none); any other body is kept
    /// as bytes with its media type (`application/octet-stream` when it
    /// names none). The credentials, the protocol values and the settings
    /// are left as they are.
    ///
    /// # Errors
    /// [`Captured::is_form`]'s, for a `Content-Type` that cannot be read;
    /// [`InvalidByte`](crate::ErrorKind::InvalidByte) for a form body that is
    /// not UTF-8 ([`Part::FormBody`], at the first such byte).
    pub fn set_captured(
        &mut self,
        captured: &Captured,
        url: &str,
        form_body: Option<&[u8]>,
    ) -> Result<(), Error> {
        let is_form = captured.is_form()?;
        self.method = captured.method().to_owned();
        url.clone_into(&mut self.url);
        self.form_body = None;
        self.body = None;
        self.content_type = None;
        if is_form {
            if let Some(form) = form_body {
                let text = std::str::from_utf8(form).map_err(|e| {
                    let at = e.valid_up_to();
                    Error::invalid_byte(Part::FormBody, at, form[at], "UTF-8 text")
                })?;
                self.form_body = Some(text.to_owned());
            }
        } else if let Some(body) = captured.body() {
            self.body = Some(body.to_vec());
            self.content_type = Some(
                captured
                    .content_type()
                    .unwrap_or("application/octet-stream")
                    .to_owned(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::capture::parse_http;
    use crate::{ErrorKind, RequestSpec};

    #[test]
    fn a_form_body_is_the_form_and_any_other_body_its_bytes() {
        let form = parse_http(
            b"POST /p?a=1 HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\nb=2&c=3",
            "https",
        )
        .unwrap();
        let mut spec = RequestSpec::default();
        spec.set_captured(&form, form.url(), Some(b"b=2")).unwrap();
        assert_eq!(spec.method, "POST");
        assert_eq!(spec.url, "https://h/p?a=1");
        assert_eq!(spec.form_body.as_deref(), Some("b=2"));
        assert_eq!((&spec.body, &spec.content_type), (&None, &None));

        let json = parse_http(
            b"POST /p HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
            "https",
        )
        .unwrap();
        spec.set_captured(&json, json.url(), None).unwrap();
        assert_eq!(spec.form_body, None);
        assert_eq!(spec.body.as_deref(), Some(&b"{}"[..]));
        assert_eq!(spec.content_type.as_deref(), Some("application/json"));

        // No media type: the bytes are octets (RFC 9110 §8.3).
        let bare = parse_http(
            b"PUT /p HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx",
            "https",
        )
        .unwrap();
        spec.set_captured(&bare, bare.url(), None).unwrap();
        assert_eq!(
            spec.content_type.as_deref(),
            Some("application/octet-stream")
        );
    }

    #[test]
    fn a_form_body_that_is_not_utf8_is_refused_where_it_is_not() {
        let form = parse_http(
            b"POST /p HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\na=\xe9\x01x",
            "https",
        )
        .unwrap();
        let e = RequestSpec::default()
            .set_captured(&form, form.url(), form.body())
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidByte { .. }), "{e:?}");
        assert_eq!(e.offset(), Some((crate::Part::FormBody, 2)));
    }
}
