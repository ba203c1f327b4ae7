//! Explaining a captured request (feature `capture`): what a person holds
//! when a provider refuses a request — the request as the client sent it
//! (a curl command, a HAR entry, a raw HTTP request), perhaps a base string
//! (the client's log, or the one the provider echoed), perhaps the
//! provider's answer — explained in one call, which `oauth1 explain` and
//! the page both render.
//!
//! A capture holds everything but the secrets. The consumer key, the
//! token, the signature method, the realm, the nonce, the timestamp, the
//! version, the callback and the verifier are read from its protocol
//! parameters as a verifier reads them ([`Captured::oauth`]), and the
//! request is signed with them and the secrets given. A value the person
//! pinned (a flag, a field, a saved account) that the capture contradicts
//! is no cause found: it is said first, as what it is ([`Contradiction`]),
//! and the capture's value is the one signed, so that the causes are those
//! of the signature the client sent.

use std::fmt;

use crate::capture::{clock_offset, Answer, Captured, CapturedResponse, Carried};
use crate::error::Error;
use crate::explain::explainer::{Explainer, Theirs};
use crate::explain::finding::Explanation;
use crate::explain::response::{find_base_string_in_response, ResponseBaseString};
use crate::outgoing::spec::RequestSpec;
use crate::pipeline::protocol::{Name, Protocol, Transmission};
use crate::pipeline::sign::SignatureMethod;

/// A captured request to explain, with what else the person holds.
///
/// ```
/// use oauth1_signer::capture::parse_http;
/// use oauth1_signer::explain::CaptureExplainer;
/// use oauth1_signer::{RequestSpec, Secret};
///
/// // oauthlib's HMAC-SHA256 request (its test_client.py), as a proxy saved it.
/// let captured = parse_http(
///     b"GET / HTTP/1.1\r\nHost: example.com\r\nAuthorization: OAuth oauth_nonce=\"abc\", \
///       oauth_timestamp=\"1234567890\", oauth_version=\"1.0\", \
///       oauth_signature_method=\"HMAC-SHA256\", oauth_consumer_key=\"client_key\", \
///       oauth_signature=\"JzgJWBxX664OiMW3WE4MEjtYwOjI%2FpaUWHqtdHe68Es%3D\"\r\n\r\n",
///     "http",
/// )?;
/// // Only the secrets (here an empty consumer secret): the key, the method,
/// // the nonce and the timestamp are the capture's.
/// let mut ours = RequestSpec::default();
/// ours.consumer_secret = Some(Secret::new(""));
/// let explained = CaptureExplainer::new(&captured, &ours).explain()?.expect("it carries OAuth");
/// assert!(explained.matches());
/// assert!(explained.contradictions.is_empty());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CaptureExplainer<'a> {
    captured: &'a Captured,
    ours: &'a RequestSpec,
    version_pinned: bool,
    base_string: Option<&'a str>,
    signature: Option<&'a str>,
    response: Option<&'a CapturedResponse>,
}

/// A value the person pinned that the capture contradicts: said first, as
/// what it is, never as a cause found (the capture's value is the one
/// signed).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Contradiction {
    /// The protocol parameter (`oauth_consumer_key`, ..., or `realm`).
    pub name: &'static str,
    /// The value pinned; `None` when it was pinned absent (no
    /// `oauth_version`).
    pub pinned: Option<String>,
    /// The capture's value; `None` when the capture sends none.
    pub captured: Option<String>,
}

impl fmt::Display for Contradiction {
    /// `pinned oauth_consumer_key "a" but the capture was signed with "b"`:
    /// a caller that knows where the pin came from words it its own way
    /// from the fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |v: &Option<String>| match v {
            Some(v) => format!(
                "\"{}\"",
                crate::text::printable::escape_controls(v.as_bytes(), &[])
            ),
            None => "none".to_owned(),
        };
        write!(
            f,
            "{} is pinned to {} but the capture was signed with {}",
            self.name,
            shown(&self.pinned),
            shown(&self.captured)
        )
    }
}

/// How far the client's clock is off, by the provider's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// `oauth_timestamp` less the server's time, in seconds.
    pub offset: i64,
    /// The request's `oauth_timestamp`.
    pub timestamp: u64,
    /// Whether the server's time is the answer's `Date` (else the window
    /// the provider said it accepts, `oauth_acceptable_timestamps`).
    pub from_date: bool,
}

impl Clock {
    /// How far a client that sent `timestamp` is off: by the answer's
    /// `date` ([`clock_offset`]), else by the window `answer` gives
    /// (`oauth_acceptable_timestamps`, 0 inside it); `None` when neither
    /// says.
    pub fn of(answer: &Answer, timestamp: Option<u64>, date: Option<&str>) -> Option<Clock> {
        let timestamp = timestamp?;
        if let Some(offset) = date.and_then(|d| clock_offset(timestamp, d).ok()) {
            return Some(Clock {
                offset,
                timestamp,
                from_date: true,
            });
        }
        let (first, last) = answer.acceptable_timestamps()?;
        let signed = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
        let offset = if timestamp < first {
            signed(timestamp) - signed(first)
        } else if timestamp > last {
            signed(timestamp) - signed(last)
        } else {
            0
        };
        Some(Clock {
            offset,
            timestamp,
            from_date: false,
        })
    }
}

impl fmt::Display for Clock {
    /// `the client's clock is 600 seconds behind the answer's Date
    /// (oauth_timestamp 1318622358)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = if self.from_date {
            "the answer's Date"
        } else {
            "the window the provider accepts (oauth_acceptable_timestamps)"
        };
        let ts = self.timestamp;
        match self.offset {
            0 => write!(
                f,
                "the client's clock agrees with {from} (oauth_timestamp {ts})"
            ),
            n if n > 0 => write!(
                f,
                "the client's clock is {n} seconds ahead of {from} (oauth_timestamp {ts})"
            ),
            n => write!(
                f,
                "the client's clock is {} seconds behind {from} (oauth_timestamp {ts})",
                n.unsigned_abs()
            ),
        }
    }
}

/// What [`CaptureExplainer::explain`] found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CaptureExplanation {
    /// The values pinned that the capture contradicts, to be said first.
    pub contradictions: Vec<Contradiction>,
    /// The protocol parameters taken from the capture where none was
    /// pinned (`oauth_consumer_key`, ..., `realm`), in that order.
    pub taken: Vec<&'static str>,
    /// The causes of the signature the client sent.
    pub explanation: Explanation,
    /// What the capture carries of OAuth 1.0a, as a verifier reads it.
    pub carried: Carried,
    /// The request as we signed it: the capture's, with the secrets given.
    pub spec: RequestSpec,
    /// Our side, signed (its trace for the reader).
    pub explainer: Explainer,
    /// The provider's answer, read, when a response was given and says
    /// something ([`Answer::is_empty`] otherwise).
    pub answer: Option<Answer>,
    /// How far the client's clock is off, when the answer tells.
    pub clock: Option<Clock>,
    /// The base string found in the response body, when there is one (it
    /// was compared when no base string was given).
    pub found: Option<ResponseBaseString>,
}

impl CaptureExplanation {
    /// Whether the capture is what we compute and nothing pinned
    /// contradicts it.
    pub fn matches(&self) -> bool {
        self.contradictions.is_empty() && self.explanation.matches
    }
}

impl<'a> CaptureExplainer<'a> {
    /// Explains `captured`, signed with the secrets of `ours` (and its RSA
    /// key, provider and body hash). A protocol value `ours` sets (a
    /// consumer key not empty, a token, a signature method, a realm, a
    /// nonce, a timestamp, a callback, a verifier) is pinned: checked
    /// against the capture's; every other is the capture's. Its method,
    /// URL and body are the capture's.
    pub fn new(captured: &'a Captured, ours: &'a RequestSpec) -> Self {
        CaptureExplainer {
            captured,
            ours,
            version_pinned: false,
            base_string: None,
            signature: None,
            response: None,
        }
    }

    /// Whether `ours`'s [`version`](RequestSpec::version) is pinned (by
    /// default the capture says whether `oauth_version` is sent).
    pub fn version_pinned(mut self, pinned: bool) -> Self {
        self.version_pinned = pinned;
        self
    }

    /// Their signature base string: the client's log, or what the
    /// provider echoed.
    pub fn their_base_string(mut self, base_string: &'a str) -> Self {
        self.base_string = Some(base_string);
        self
    }

    /// Their signature, in place of the capture's.
    pub fn their_signature(mut self, signature: &'a str) -> Self {
        self.signature = Some(signature);
        self
    }

    /// The provider's answer (a saved response), in place of the one the
    /// capture holds (a HAR entry's).
    pub fn response(mut self, response: &'a CapturedResponse) -> Self {
        self.response = Some(response);
        self
    }

    /// Reads the capture, signs it our way with its protocol values, and
    /// explains their signature (and their base string, given or found in
    /// the answer); reads the answer and the client's clock. `None` when
    /// the capture carries no OAuth 1.0a.
    ///
    /// # Errors
    /// The capture's, as [`Captured::oauth`] and [`Captured::is_form`]
    /// refuse it; [`InvalidByte`](crate::ErrorKind::InvalidByte) for a form
    /// body that is not UTF-8 ([`Part::FormBody`](crate::Part::FormBody), at the first such byte);
    /// a request that cannot be signed as captured ([`RequestSpec::signer`]);
    /// their header or signature, as [`Explainer::explain`] refuses them.
    pub fn explain(&self) -> Result<Option<CaptureExplanation>, Error> {
        let Some(carried) = self.captured.oauth()? else {
            return Ok(None);
        };
        let theirs = carried.protocol();
        let mut spec = self.ours.clone();
        self.fill_request(&mut spec, &carried)?;
        let (contradictions, taken) = self.adopt(&mut spec, theirs);
        let signer = spec.signer()?;
        let params = spec.protocol_params()?;
        let mut explainer = Explainer::new(&signer, &spec.request(&params))?;
        if let (Some(body), None) = (&spec.body, &spec.form_body) {
            explainer = explainer.with_unsigned_body(body);
        }
        let response = self.response.or_else(|| self.captured.response());
        let mut answer = None;
        let mut clock = None;
        let mut found = None;
        if let Some(response) = response {
            let body = String::from_utf8_lossy(response.body.as_deref().unwrap_or_default());
            let status = (response.status != 0).then_some(response.status);
            let read = crate::capture::read_answer(status, body.as_bytes());
            let timestamp = theirs.get(Name::Timestamp).and_then(|t| t.parse().ok());
            clock = Clock::of(&read, timestamp, response.header("date"));
            found = find_base_string_in_response(&body);
            answer = (!read.is_empty()).then_some(read);
        }
        let base = self
            .base_string
            .map(str::trim)
            .or(found.as_ref().map(|f| f.base_string.as_str()));
        let in_header = theirs.transmission() == Transmission::Header;
        let explanation = match (in_header, base) {
            (true, _) => explainer.explain(Theirs {
                header: self.captured.oauth_header(),
                base_string: base,
                signature: self.signature,
            })?,
            // Their parameters in the query or the body: compared as a
            // header's are.
            (false, None) => explainer.protocol(theirs),
            (false, Some(base)) => explainer.explain(Theirs {
                header: None,
                base_string: Some(base),
                signature: self.signature.or(theirs.signature()),
            })?,
        };
        Ok(Some(CaptureExplanation {
            contradictions,
            taken,
            explanation,
            carried,
            spec,
            explainer,
            answer,
            clock,
            found,
        }))
    }

    /// The captured request in `spec`: its method, its URL and body without
    /// the protocol parameters, the body's media type, and where the
    /// protocol parameters travelled.
    fn fill_request(&self, spec: &mut RequestSpec, carried: &Carried) -> Result<(), Error> {
        spec.set_captured(self.captured, carried.url(), carried.form_body())?;
        spec.transmission = Some(carried.protocol().transmission());
        Ok(())
    }

    /// Puts the capture's protocol values in `spec`, and says which pinned
    /// ones it contradicts and which were taken.
    fn adopt(
        &self,
        spec: &mut RequestSpec,
        theirs: &Protocol<'_>,
    ) -> (Vec<Contradiction>, Vec<&'static str>) {
        let mut contradictions = Vec::new();
        let mut taken = Vec::new();
        let mut settle = |name: &'static str, pinned: Option<String>, captured: Option<&str>| {
            match pinned {
                None => {
                    if captured.is_some() {
                        taken.push(name);
                    }
                }
                Some(p) if Some(p.as_str()) == captured => {}
                Some(p) => contradictions.push(Contradiction {
                    name,
                    pinned: Some(p),
                    captured: captured.map(str::to_owned),
                }),
            }
            captured.map(str::to_owned)
        };
        let key = Some(spec.consumer_key.clone()).filter(|k| !k.is_empty());
        spec.consumer_key = settle(
            Name::ConsumerKey.as_str(),
            key,
            theirs.get(Name::ConsumerKey),
        )
        .unwrap_or_default();
        spec.token = settle(
            Name::Token.as_str(),
            spec.token.take(),
            theirs.get(Name::Token),
        );
        // A method is one method whatever its case; one the signer does not
        // know is left ours, for the comparison to name.
        let their_method = theirs.get(Name::SignatureMethod);
        let parsed = their_method.and_then(|m| m.parse::<SignatureMethod>().ok());
        let pinned_method = spec.signature_method.take();
        let same_method = match (&pinned_method, parsed) {
            (Some(p), Some(t)) => p.parse::<SignatureMethod>().ok() == Some(t),
            _ => false,
        };
        spec.signature_method = match parsed {
            Some(_) if same_method => their_method.map(str::to_owned),
            Some(_) => settle(Name::SignatureMethod.as_str(), pinned_method, their_method),
            None => pinned_method,
        };
        spec.nonce = settle(
            Name::Nonce.as_str(),
            spec.nonce.take(),
            theirs.get(Name::Nonce),
        );
        spec.timestamp = settle(
            Name::Timestamp.as_str(),
            spec.timestamp.take(),
            theirs.get(Name::Timestamp),
        );
        spec.callback = settle(
            Name::Callback.as_str(),
            spec.callback.take(),
            theirs.get(Name::Callback),
        );
        spec.verifier = settle(
            Name::Verifier.as_str(),
            spec.verifier.take(),
            theirs.get(Name::Verifier),
        );
        spec.realm = settle("realm", spec.realm.take(), theirs.realm());
        let version = theirs.get(Name::Version);
        if self.version_pinned && spec.version != version.is_some() {
            contradictions.push(Contradiction {
                name: Name::Version.as_str(),
                pinned: spec.version.then(|| "1.0".to_owned()),
                captured: version.map(str::to_owned),
            });
        } else if !self.version_pinned && version.is_some() {
            taken.push(Name::Version.as_str());
        }
        spec.version = version.is_some();
        (contradictions, taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::read_answer;

    /// RFC 9110 §5.6.7's example date, Sun, 06 Nov 1994 08:49:37 GMT, is
    /// 784111777 seconds after the epoch (`date -u -d ... +%s`).
    #[test]
    fn the_clock_is_said_either_way() {
        let none = read_answer(Some(401), b"");
        let c = Clock::of(
            &none,
            Some(784_111_177),
            Some("Sun, 06 Nov 1994 08:49:37 GMT"),
        );
        let c = c.unwrap();
        assert_eq!((c.offset, c.from_date), (-600, true));
        assert_eq!(
            c.to_string(),
            "the client's clock is 600 seconds behind the answer's Date (oauth_timestamp 784111177)"
        );
        let a = read_answer(
            Some(401),
            b"oauth_problem=timestamp_refused&oauth_acceptable_timestamps=100-200",
        );
        assert_eq!(Clock::of(&a, Some(250), None).unwrap().offset, 50);
        assert_eq!(Clock::of(&a, Some(40), None).unwrap().offset, -60);
        assert_eq!(Clock::of(&a, Some(150), None).unwrap().offset, 0);
        assert_eq!(Clock::of(&none, Some(150), None), None);
    }
}
