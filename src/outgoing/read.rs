//! The inverse of the signer's split, written once: which protocol
//! parameters belong to the signer (its key, token, nonce, timestamp,
//! method, version, signature) and which to the request (a callback, a
//! verifier, an extension's), read back into the model.
//!
//! [`RequestSpec::with_protocol`] fills the model from the protocol
//! parameters a verifier read ([`Protocol`]): the request the client meant,
//! to be signed again our way (the explainer's, and a server's diagnosis).
//! [`RequestSpec::lift_request_params`] takes a callback or verifier that was
//! typed into the URL or the form body out of it, into the model, where the
//! signer sends it with the others (the page's fields, a copied URL).

use crate::error::{Error, ErrorKind, Part};
use crate::outgoing::spec::RequestSpec;
use crate::pipeline::params::Params;
use crate::pipeline::protocol::{Name, Protocol};
use crate::pipeline::url::RequestUrl;

impl Name {
    /// Whether the request carries this parameter rather than the signer:
    /// `oauth_callback` (§2.1) and `oauth_verifier` (§2.3), each given to
    /// [`OAuthRequest`](crate::OAuthRequest) for the one call that sends
    /// it; the others are the signer's own (or, for `oauth_body_hash`, the
    /// body's).
    pub fn belongs_to_request(self) -> bool {
        matches!(self, Name::Callback | Name::Verifier)
    }
}

/// A protocol parameter taken out of the URL or the form body
/// ([`RequestSpec::lift_request_params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lifted {
    /// `oauth_callback` or `oauth_verifier`.
    pub name: Name,
    /// [`Part::Url`] or [`Part::FormBody`]: where it was.
    pub from: Part,
}

impl RequestSpec {
    /// The model with the protocol parameters `protocol` (as a verifier
    /// read them) in place of its own: the signature method, nonce,
    /// timestamp, version, callback, verifier and realm they name, and any
    /// other `oauth_*` parameter as an extra one. The consumer key and token
    /// stay the model's (whose secrets sign); `oauth_signature` is not part
    /// of a request.
    ///
    /// ```
    /// use oauth1_signer::{Protocol, RequestSpec};
    ///
    /// let theirs = Protocol::from_header(r#"OAuth oauth_consumer_key="ck", oauth_nonce="n1", oauth_timestamp="7", oauth_signature_method="HMAC-SHA256", oauth_callback="oob", oauth_signature="x""#)?;
    /// let mut spec = RequestSpec::default();
    /// spec.with_protocol(&theirs);
    /// assert_eq!(spec.nonce.as_deref(), Some("n1"));
    /// assert_eq!(spec.signature_method.as_deref(), Some("HMAC-SHA256"));
    /// assert_eq!(spec.callback.as_deref(), Some("oob"));
    /// assert!(!spec.version);
    /// assert!(spec.extra_oauth_params.is_empty());
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn with_protocol(&mut self, protocol: &Protocol<'_>) -> &mut RequestSpec {
        let text = |name| protocol.get(name).map(str::to_owned);
        self.signature_method = text(Name::SignatureMethod);
        self.nonce = text(Name::Nonce);
        self.timestamp = text(Name::Timestamp);
        self.version = protocol.get(Name::Version).is_some();
        self.callback = text(Name::Callback);
        self.verifier = text(Name::Verifier);
        self.realm = protocol.realm().map(str::to_owned);
        self.extra_oauth_params = protocol
            .iter()
            .filter(|(n, _)| Name::from_name(n).is_none_or(|n| n == Name::BodyHash))
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        self
    }

    /// Takes each `oauth_callback` and `oauth_verifier` out of the URL's
    /// query and the form body, where a user typed it or a copied URL held
    /// it, into [`callback`](Self::callback) and
    /// [`verifier`](Self::verifier): the signer sends it with the other
    /// protocol parameters, and the signature is the same wherever it
    /// travels (§3.4.1.3.1). Says what it took and from where.
    ///
    /// ```
    /// use oauth1_signer::{Name, Part, RequestSpec};
    ///
    /// let mut spec = RequestSpec::default();
    /// spec.method = "POST".into();
    /// spec.url = "https://api.x.com/oauth/request_token?oauth_callback=oob&x=1".into();
    /// let lifted = spec.lift_request_params()?;
    /// assert_eq!(spec.url, "https://api.x.com/oauth/request_token?x=1");
    /// assert_eq!(spec.callback.as_deref(), Some("oob"));
    /// assert_eq!((lifted[0].name, lifted[0].from), (Name::Callback, Part::Url));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    ///
    /// # Errors
    /// The URL's or the body's own errors (a malformed escape, say), with
    /// their offsets; [`ErrorKind::DuplicateProtocolParameter`] for a
    /// callback or verifier given twice (in its field and in the URL or
    /// body, or in both), at the second.
    pub fn lift_request_params(&mut self) -> Result<Vec<Lifted>, Error> {
        let mut lifted = Vec::new();
        // One at a time: each taking-out moves the offsets after it.
        while let Some((name, part, at, value)) = self.next_request_param()? {
            let slot = match name {
                Name::Callback => &mut self.callback,
                _ => &mut self.verifier,
            };
            if slot.is_some() {
                return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                    name: name.as_str().to_owned(),
                    at: Some((part, at)),
                }));
            }
            *slot = Some(value);
            match part {
                Part::Url => take_pair(&mut self.url, at, true),
                _ => {
                    if let Some(body) = self.form_body.as_mut() {
                        take_pair(body, at, false);
                    }
                }
            }
            lifted.push(Lifted { name, from: part });
        }
        Ok(lifted)
    }

    /// The first `oauth_callback` or `oauth_verifier` of the query, then of
    /// the form body: its name, part, the offset of its name there, and its
    /// decoded value.
    fn next_request_param(&self) -> Result<Option<(Name, Part, usize, String)>, Error> {
        let url = RequestUrl::parse(&self.url)?;
        let mut params = Params::new();
        params.extend_checked_query(&url);
        if let Some(body) = &self.form_body {
            params.extend_form(body.as_bytes())?;
        }
        for p in params.iter() {
            let name = p.name();
            let Some(name) = std::str::from_utf8(&name).ok().and_then(Name::from_name) else {
                continue;
            };
            let Some((part, at)) = p.offset().filter(|_| name.belongs_to_request()) else {
                continue;
            };
            let value = String::from_utf8(p.value().into_owned()).map_err(|_| {
                Error::new(ErrorKind::InvalidProtocolValue {
                    name: name.as_str(),
                    reason: "UTF-8 text",
                })
            })?;
            return Ok(Some((name, part, at, value)));
        }
        Ok(None)
    }
}

/// Takes the `name=value` pair whose name starts at byte `at` out of `text`
/// (a URL's query, or a form body), with one `&` beside it; a query left
/// empty loses its `?`.
fn take_pair(text: &mut String, at: usize, is_url: bool) {
    let Some(rest) = text.get(at..) else {
        return;
    };
    let len = rest
        .find(|c| c == '&' || (is_url && c == '#'))
        .unwrap_or(rest.len());
    let end = at + len;
    let (from, to) = if text[end..].starts_with('&') {
        (at, end + 1)
    } else if text[..at].ends_with('&') {
        (at - 1, end)
    } else {
        (at, end)
    };
    text.replace_range(from..to, "");
    if is_url && let Some(q) = text.find('?') {
        let after = &text[q + 1..];
        if after.is_empty() || after.starts_with('#') {
            text.remove(q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(url: &str, body: Option<&str>) -> RequestSpec {
        RequestSpec {
            method: "POST".into(),
            url: url.into(),
            form_body: body.map(str::to_owned),
            ..RequestSpec::default()
        }
    }

    #[test]
    fn a_pair_is_taken_out_with_one_ampersand() {
        for (url, left) in [
            ("https://h/p?oauth_callback=oob", "https://h/p"),
            ("https://h/p?a=1&oauth_callback=oob", "https://h/p?a=1"),
            ("https://h/p?oauth_callback=oob&a=1", "https://h/p?a=1"),
            (
                "https://h/p?a=1&oauth_callback=oob&b=2",
                "https://h/p?a=1&b=2",
            ),
            ("https://h/p?oauth_callback=oob#f", "https://h/p#f"),
        ] {
            let mut s = spec(url, None);
            s.lift_request_params().unwrap();
            assert_eq!(s.url, left, "{url}");
            assert_eq!(s.callback.as_deref(), Some("oob"));
        }
        let mut s = spec("https://h/p", Some("a=1&oauth_verifier=v%20w&b=2"));
        let lifted = s.lift_request_params().unwrap();
        assert_eq!(s.form_body.as_deref(), Some("a=1&b=2"));
        assert_eq!(s.verifier.as_deref(), Some("v w"));
        assert_eq!(
            lifted,
            [Lifted {
                name: Name::Verifier,
                from: Part::FormBody
            }]
        );
    }

    #[test]
    fn a_parameter_given_twice_is_refused_at_the_second() {
        let mut s = spec("https://h/p?oauth_callback=a", None);
        s.callback = Some("b".into());
        let e = s.lift_request_params().unwrap_err();
        assert_eq!(e.offset(), Some((Part::Url, 12)));
        // The signer's own parameters are not the request's: left for the
        // signer to refuse.
        let mut s = spec("https://h/p?oauth_nonce=a", None);
        assert!(s.lift_request_params().unwrap().is_empty());
        assert_eq!(s.url, "https://h/p?oauth_nonce=a");
    }
}
