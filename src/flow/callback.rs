//! The provider's side of `oauth_callback` (RFC 5849 §2.1): which
//! callbacks a server records and later sends the user's browser to.
//!
//! A callback is where the authorisation step redirects the user with the
//! verifier (§2.2), so a server that records any absolute URI sends a
//! browser to `javascript:`, `data:`, `vbscript:` or `file:` text chosen by
//! whoever asked for the temporary token. X accepts `oob`, `http(s)` URLs
//! and an app's own scheme registered with it (`twitterclient://callback`
//! in its `POST oauth/request_token` reference); [`check_callback`] takes
//! exactly those, the app schemes being the ones the server names.

use std::fmt;

use crate::error::Error;
use crate::pipeline::RequestUrl;

/// The longest `oauth_callback` [`check_callback`] accepts, in bytes: a
/// server records it with the temporary token until the exchange, so it is
/// bounded. X documents no limit of its own; 2,048 is the longest URL the
/// Sitemaps protocol admits (sitemaps.org: a `<loc>` "must be less than
/// 2,048 characters") and about what Internet Explorer's address bar held
/// (2,083), so every callback a browser can follow fits.
pub const MAX_CALLBACK: usize = 2048;

/// Schemes never accepted as a callback, named by the server or not: the
/// browser runs (`javascript:`, `vbscript:`), renders text the requester
/// chose (`data:`) or opens a local file (`file:`) instead of going to a
/// client.
const NEVER: [&str; 4] = ["javascript", "vbscript", "data", "file"];

/// Why [`check_callback`] or [`check_app_scheme`] refused a value. No
/// variant quotes the value itself: a callback carries the client's state.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallbackError {
    /// The callback is empty (§2.1 requires one: `oob` when there is none).
    Empty,
    /// The callback is longer than the limit ([`MAX_CALLBACK`]).
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// Neither `oob` (case-sensitive, §2.1) nor an absolute URI
    /// (`scheme:...`, RFC 3986 §4.3): a relative path, a host without a
    /// scheme.
    NotAbsolute,
    /// A scheme that is not accepted: not `http`, `https` or an app scheme
    /// the server names, or one of `javascript`, `vbscript`, `data`,
    /// `file`, which never are.
    Scheme {
        /// The scheme, lower-cased (RFC 3986 §3.1 grammar, so printable).
        scheme: String,
    },
    /// An `http` or `https` callback that is no strict absolute URL (the
    /// signer's reading, [`RequestUrl::parse`]): user information, a
    /// missing host, a space or another byte that must be percent-encoded.
    /// The cause, with its byte offset, is the
    /// [`source`](std::error::Error::source).
    Url(Error),
    /// A byte that a `Location` header cannot carry (a space, a control
    /// byte, a non-ASCII byte), or, in a scheme, a byte RFC 3986 §3.1 does
    /// not allow there.
    Byte {
        /// Its byte offset in the callback (or scheme).
        offset: usize,
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for CallbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallbackError::Empty => f.write_str("the callback is empty (oob when there is none)"),
            CallbackError::TooLong { len, limit } => {
                write!(f, "the callback is {len} bytes, over the limit of {limit}")
            }
            CallbackError::NotAbsolute => {
                f.write_str("the callback is neither oob nor an absolute URI")
            }
            CallbackError::Scheme { scheme } => write!(
                f,
                "the callback's scheme {scheme:?} is not accepted \
                 (http, https, or an app's scheme the server names)"
            ),
            // The cause is the source: a reporter prints each once.
            CallbackError::Url(_) => f.write_str("the callback is not a valid http(s) URL"),
            CallbackError::Byte { offset, byte } => write!(
                f,
                "byte 0x{byte:02X} at {offset} cannot be in a callback \
                 (visible ASCII only, as a Location header carries it)"
            ),
        }
    }
}

impl std::error::Error for CallbackError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallbackError::Url(e) => Some(e),
            _ => None,
        }
    }
}

/// Checks a request-token request's `oauth_callback` (RFC 5849 §2.1) as a
/// server records it: `oob` (case-sensitive), an absolute `http` or
/// `https` URL read as strictly as the signer reads a request URL (no user
/// information, a host, only bytes RFC 3986 allows there; a fragment is
/// kept), or `scheme:...` for a scheme in `app_schemes` (compared
/// ignoring case, as RFC 3986 §3.1 says schemes are; the rest visible
/// ASCII). At most [`MAX_CALLBACK`] bytes. `javascript`, `vbscript`,
/// `data` and `file` are refused even when named.
///
/// ```
/// use oauth1_signer::flow::{check_callback, CallbackError};
///
/// assert!(check_callback("oob", &[]).is_ok());
/// assert!(check_callback("https://client.example/back?state=xyz", &[]).is_ok());
/// assert!(check_callback("twitterclient://callback", &["twitterclient"]).is_ok());
/// assert_eq!(
///     check_callback("JavaScript:alert(1)", &[]),
///     Err(CallbackError::Scheme { scheme: "javascript".into() })
/// );
/// assert_eq!(check_callback("/back", &[]), Err(CallbackError::NotAbsolute));
/// assert!(matches!(check_callback("https://client.example@evil.example/", &[]), Err(CallbackError::Url(_))));
/// ```
///
/// # Errors
/// [`CallbackError`]: [`Empty`](CallbackError::Empty),
/// [`TooLong`](CallbackError::TooLong),
/// [`NotAbsolute`](CallbackError::NotAbsolute),
/// [`Scheme`](CallbackError::Scheme) for a scheme not accepted,
/// [`Url`](CallbackError::Url) for an `http(s)` URL the strict reading
/// refuses, [`Byte`](CallbackError::Byte) for a byte no `Location` header
/// carries.
pub fn check_callback(callback: &str, app_schemes: &[&str]) -> Result<(), CallbackError> {
    if callback.is_empty() {
        return Err(CallbackError::Empty);
    }
    if callback.len() > MAX_CALLBACK {
        return Err(CallbackError::TooLong {
            len: callback.len(),
            limit: MAX_CALLBACK,
        });
    }
    if callback == "oob" {
        return Ok(());
    }
    let Some((scheme, _)) = callback.split_once(':') else {
        return Err(CallbackError::NotAbsolute);
    };
    if scheme_error(scheme).is_some() {
        return Err(CallbackError::NotAbsolute);
    }
    let lower = scheme.to_ascii_lowercase();
    if lower == "http" || lower == "https" {
        return RequestUrl::parse(callback)
            .map(|_| ())
            .map_err(CallbackError::Url);
    }
    let named = app_schemes.iter().any(|s| s.eq_ignore_ascii_case(&lower));
    if !named || NEVER.contains(&lower.as_str()) || callback.len() == scheme.len() + 1 {
        // `myapp:` alone names no place to go back to.
        return Err(CallbackError::Scheme { scheme: lower });
    }
    match callback.bytes().position(|b| !b.is_ascii_graphic()) {
        Some(offset) => Err(CallbackError::Byte {
            offset,
            byte: callback.as_bytes()[offset],
        }),
        None => Ok(()),
    }
}

/// Checks a scheme a server means to accept for app callbacks (the
/// `app_schemes` of [`check_callback`]): RFC 3986 §3.1's grammar
/// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), and none of
/// `javascript`, `vbscript`, `data`, `file`.
///
/// ```
/// use oauth1_signer::flow::{check_app_scheme, CallbackError};
///
/// assert!(check_app_scheme("my-app.v2+x").is_ok());
/// assert_eq!(check_app_scheme("my app"), Err(CallbackError::Byte { offset: 2, byte: b' ' }));
/// assert_eq!(check_app_scheme("DATA"), Err(CallbackError::Scheme { scheme: "data".into() }));
/// ```
///
/// # Errors
/// [`CallbackError::Byte`] for a byte the grammar does not allow (the
/// first byte must be a letter), [`CallbackError::Empty`] for an empty
/// scheme, [`CallbackError::Scheme`] for one that is never accepted.
pub fn check_app_scheme(scheme: &str) -> Result<(), CallbackError> {
    if scheme.is_empty() {
        return Err(CallbackError::Empty);
    }
    if let Some(offset) = scheme_error(scheme) {
        return Err(CallbackError::Byte {
            offset,
            byte: scheme.as_bytes()[offset],
        });
    }
    let lower = scheme.to_ascii_lowercase();
    if NEVER.contains(&lower.as_str()) {
        return Err(CallbackError::Scheme { scheme: lower });
    }
    Ok(())
}

/// The offset of the first byte of `scheme` that RFC 3986 §3.1 does not
/// allow there (the first must be a letter), or of its end when it is
/// empty; `None` when it is a scheme.
fn scheme_error(scheme: &str) -> Option<usize> {
    let bytes = scheme.as_bytes();
    match bytes.first() {
        None => Some(0),
        Some(b) if !b.is_ascii_alphabetic() => Some(0),
        Some(_) => bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oob_http_https_and_named_app_schemes_are_accepted() {
        for good in [
            "oob",
            "https://client.example/back?state=xyz",
            "http://127.0.0.1:8080/cb",
            "HTTPS://client.example/back#done",
            "http://[::1]:8080/cb",
        ] {
            assert_eq!(check_callback(good, &[]), Ok(()), "{good}");
        }
        // X's reference names `twitterclient://callback`; its callback
        // guide, `example://` for a mobile app.
        for (good, schemes) in [
            ("twitterclient://callback", &["twitterclient"][..]),
            ("example://", &["example"][..]),
            ("My-App.v2+x:/done", &["other", "my-app.v2+x"][..]),
        ] {
            assert_eq!(check_callback(good, schemes), Ok(()), "{good}");
        }
    }

    #[test]
    fn what_a_browser_must_not_be_sent_to_is_refused_by_name() {
        let scheme = |s: &str| Err(CallbackError::Scheme { scheme: s.into() });
        for (bad, named) in [
            ("javascript:alert(document.cookie)", "javascript"),
            ("JavaScript:alert(1)//https://client.example/", "javascript"),
            ("data:text/html,<script>alert(1)</script>", "data"),
            ("vbscript:msgbox(1)", "vbscript"),
            ("file:///etc/passwd", "file"),
            ("ftp://client.example/", "ftp"),
            ("my-app.v2+x:/done", "my-app.v2+x"),
        ] {
            assert_eq!(check_callback(bad, &[]), scheme(named), "{bad}");
        }
        // Never, even when the server names them.
        for never in NEVER {
            let callback = format!("{never}:x");
            assert_eq!(check_callback(&callback, &NEVER), scheme(never));
            assert_eq!(check_app_scheme(never), scheme(never));
        }
        assert_eq!(check_callback("myapp:", &["myapp"]), scheme("myapp"));
    }

    #[test]
    fn what_is_no_callback_is_named() {
        assert_eq!(check_callback("", &[]), Err(CallbackError::Empty));
        for bad in [
            "OOB",
            "/relative/path",
            "client.example/back",
            "1http://x",
            ":x",
        ] {
            assert_eq!(
                check_callback(bad, &[]),
                Err(CallbackError::NotAbsolute),
                "{bad}"
            );
        }
        for bad in [
            "https:",
            "https://client.example/a b",
            "https://client.example/\r\nSet-Cookie:x",
            "https://client.example/é",
            "https://client.example@evil.example/",
            "https:///path",
            "http:/client.example/",
        ] {
            assert!(
                matches!(check_callback(bad, &[]), Err(CallbackError::Url(_))),
                "{bad:?}"
            );
        }
        assert_eq!(
            check_callback("myapp://a b", &["myapp"]),
            Err(CallbackError::Byte {
                offset: 9,
                byte: b' '
            })
        );
        assert_eq!(
            check_callback("myapp://\u{e9}", &["myapp"]),
            Err(CallbackError::Byte {
                offset: 8,
                byte: 0xC3
            })
        );
    }

    #[test]
    fn a_callback_is_at_most_2048_bytes() {
        let base = "https://client.example/";
        let fits = format!("{base}{}", "a".repeat(MAX_CALLBACK - base.len()));
        assert_eq!(check_callback(&fits, &[]), Ok(()));
        let over = format!("{fits}a");
        assert_eq!(
            check_callback(&over, &[]),
            Err(CallbackError::TooLong {
                len: 2049,
                limit: 2048
            })
        );
        // Checked before anything is read: a megabyte costs no parse.
        let huge = "j".repeat(1 << 20);
        assert_eq!(
            check_callback(&huge, &[]),
            Err(CallbackError::TooLong {
                len: 1 << 20,
                limit: 2048
            })
        );
    }

    #[test]
    fn an_app_scheme_is_a_scheme() {
        assert_eq!(check_app_scheme("myapp"), Ok(()));
        assert_eq!(check_app_scheme(""), Err(CallbackError::Empty));
        assert_eq!(
            check_app_scheme("1app"),
            Err(CallbackError::Byte {
                offset: 0,
                byte: b'1'
            })
        );
        assert_eq!(
            check_app_scheme("app:"),
            Err(CallbackError::Byte {
                offset: 3,
                byte: b':'
            })
        );
    }

    #[test]
    fn errors_read_as_sentences_without_the_value() {
        let e = check_callback("https://u:pw@h/", &[]).unwrap_err();
        assert_eq!(e.to_string(), "the callback is not a valid http(s) URL");
        let cause = std::error::Error::source(&e).unwrap().to_string();
        assert!(cause.contains("user information"), "{cause}");
        assert!(!cause.contains("pw"), "{cause}");
        assert_eq!(
            CallbackError::TooLong {
                len: 2049,
                limit: 2048
            }
            .to_string(),
            "the callback is 2049 bytes, over the limit of 2048"
        );
    }
}
