//! What the upstream gets: the request as received, its hop-by-hop
//! headers removed (RFC 9110 §7.6.1), the client's copies of the identity
//! headers removed and the verified identity written in their place, the
//! forwarded headers of the operator's family appended; and the upstream
//! itself, a pooled keep-alive client with a deadline for its answer.

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{Either, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderName, HeaderValue, AUTHORIZATION, CONNECTION, FORWARDED};
use hyper::http::request::Parts;
use hyper::{Request, Response, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use oauth1_signer::verify::Verified;

/// A request's body on its way upstream: the signed bytes the proxy read
/// and verified, or the client's body streamed through unread.
pub(crate) type UpBody = Either<Full<Bytes>, Incoming>;

/// The headers that describe one connection, never forwarded (RFC 9110
/// §7.6.1: `Connection` and the fields it names, `Proxy-Connection`,
/// `Keep-Alive`, `TE`, `Transfer-Encoding`, `Upgrade`).
const HOP_BY_HOP: [&str; 6] = [
    "connection",
    "proxy-connection",
    "keep-alive",
    "te",
    "transfer-encoding",
    "upgrade",
];

/// Removes the hop-by-hop headers of `headers`, and those its `Connection`
/// headers name (each a comma-separated list of field names, §7.6.1).
pub(crate) fn remove_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

/// The family of forwarded headers the proxy reads from the one in front
/// (`--forwarded`) and appends to for the upstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Family {
    /// Read neither (the scheme and host are --public-url's); append
    /// X-Forwarded-For, -Proto and -Host
    Ignore,
    /// Read and append X-Forwarded-Proto, X-Forwarded-Host (and -For)
    XForwarded,
    /// Read and append Forwarded (RFC 7239)
    Rfc7239,
}

impl Family {
    /// The library's choice of what to read.
    pub(crate) fn read(self) -> oauth1_signer::verify::Forwarded {
        match self {
            Family::Ignore => oauth1_signer::verify::Forwarded::Ignore,
            Family::XForwarded => oauth1_signer::verify::Forwarded::XForwarded,
            Family::Rfc7239 => oauth1_signer::verify::Forwarded::Rfc7239,
        }
    }
}

/// How the proxy rewrites a verified request's headers.
#[derive(Debug)]
pub(crate) struct Rewrite {
    pub(crate) consumer_header: HeaderName,
    pub(crate) token_header: HeaderName,
    pub(crate) strip_authorization: bool,
    pub(crate) family: Family,
}

impl Rewrite {
    /// The identity headers checked: two names, neither one the proxy or
    /// HTTP itself writes (a token in `Authorization` or `Host` would
    /// replace what the client sent).
    ///
    /// # Errors
    /// Which flag names which header.
    pub(crate) fn check(&self) -> Result<(), String> {
        const TAKEN: [&str; 9] = [
            "authorization",
            "host",
            "content-length",
            "content-type",
            "forwarded",
            "x-forwarded-for",
            "x-forwarded-proto",
            "x-forwarded-host",
            "expect",
        ];
        for (flag, name) in [
            ("--consumer-key-header", &self.consumer_header),
            ("--token-header", &self.token_header),
        ] {
            if TAKEN.contains(&name.as_str()) || HOP_BY_HOP.contains(&name.as_str()) {
                return Err(format!(
                    "{flag} {name}: a header the request itself needs; name one of your own \
                     (X-OAuth1-Consumer-Key)"
                ));
            }
        }
        if self.consumer_header == self.token_header {
            return Err(format!(
                "--consumer-key-header and --token-header both name {}",
                self.consumer_header
            ));
        }
        Ok(())
    }

    /// Removes every copy of the identity headers, in any spelling (header
    /// names are case-insensitive: one `remove` takes every line). Done for
    /// every request, whatever its verdict.
    pub(crate) fn remove_identity(&self, headers: &mut HeaderMap) {
        headers.remove(&self.consumer_header);
        headers.remove(&self.token_header);
    }

    /// The headers the upstream gets for a request that verified as
    /// `verified`, from `peer`.
    pub(crate) fn headers(&self, headers: &mut HeaderMap, verified: &Verified, peer: SocketAddr) {
        remove_hop_by_hop(headers);
        self.remove_identity(headers);
        if self.strip_authorization {
            headers.remove(AUTHORIZATION);
        }
        // A known key: the secrets refuse one with a control character, so
        // each is a valid value.
        if let Ok(v) = HeaderValue::from_bytes(verified.consumer_key().as_bytes()) {
            headers.insert(self.consumer_header.clone(), v);
        }
        if let Some(Ok(v)) = verified
            .token()
            .map(|t| HeaderValue::from_bytes(t.as_bytes()))
        {
            headers.insert(self.token_header.clone(), v);
        }
        // The scheme and host the request verified against: the client's.
        let url = verified.request_url();
        let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
        let host = rest.split(['/', '?']).next().unwrap_or_default();
        let ip = peer.ip();
        match self.family {
            Family::Ignore | Family::XForwarded => {
                append(headers, "x-forwarded-for", &ip.to_string());
                set(headers, "x-forwarded-proto", scheme);
                set(headers, "x-forwarded-host", host);
            }
            Family::Rfc7239 => {
                // §6: an IPv6 address is quoted and bracketed; `host` is a
                // quoted-string whenever it holds a colon (a port).
                let for_ = match ip {
                    std::net::IpAddr::V4(v4) => v4.to_string(),
                    std::net::IpAddr::V6(v6) => format!("\"[{v6}]\""),
                };
                let element = format!("for={for_};proto={scheme};host=\"{host}\"");
                append(headers, FORWARDED.as_str(), &element);
            }
        }
    }
}

/// Appends `value` to the last line of `name` (`, ` between), or adds a
/// line of its own when there is none (or the last is not text); earlier
/// lines are kept as they came.
fn append(headers: &mut HeaderMap, name: &'static str, value: &str) {
    let mut lines: Vec<HeaderValue> = headers.get_all(name).iter().cloned().collect();
    let joined = match lines.last().and_then(|v| v.to_str().ok()) {
        Some(before) => HeaderValue::from_str(&format!("{before}, {value}")).map(|v| (v, true)),
        None => HeaderValue::from_str(value).map(|v| (v, false)),
    };
    match (joined, lines.last_mut()) {
        (Ok((v, true)), Some(last)) => *last = v,
        (Ok((v, _)), _) => lines.push(v),
        (Err(_), _) => return,
    }
    headers.remove(name);
    for line in lines {
        headers.append(name, line);
    }
}

fn set(headers: &mut HeaderMap, name: &'static str, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        headers.insert(name, v);
    }
}

/// Why the upstream gave no answer.
#[derive(Debug)]
pub(crate) enum UpstreamError {
    /// No answer within `--upstream-timeout` (504).
    Timeout(Duration),
    /// No connection, or it broke (502).
    Failed(String),
}

/// The upstream: its origin and path prefix, and the pooled client.
pub(crate) struct Upstream {
    /// `http://host:port`, without a trailing slash.
    origin: String,
    /// A path the received target is appended to (empty, or `/api`).
    prefix: String,
    client: Client<HttpConnector, UpBody>,
    timeout: Duration,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("origin", &self.origin)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl Upstream {
    /// The upstream at `url` (`http://HOST:PORT[/PREFIX]`), answering
    /// within `timeout`.
    ///
    /// # Errors
    /// A URL that is not `http://` with a host, or has a query or fragment.
    pub(crate) fn new(url: &str, timeout: Duration) -> Result<Upstream, String> {
        let uri: Uri = url
            .parse()
            .map_err(|e| format!("--upstream {url}: not a URL ({e})"))?;
        if uri.scheme_str() != Some("http") {
            return Err(format!(
                "--upstream {url}: expected http://HOST:PORT (TLS to the upstream is not offered)"
            ));
        }
        let Some(authority) = uri.authority() else {
            return Err(format!("--upstream {url}: no host"));
        };
        if authority.as_str().contains('@') || uri.query().is_some() || url.contains('#') {
            return Err(format!(
                "--upstream {url}: expected http://HOST:PORT[/PATH], no user, query or fragment"
            ));
        }
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            .timer(TokioTimer::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(connector);
        Ok(Upstream {
            origin: format!("http://{authority}"),
            prefix: uri.path().trim_end_matches('/').to_owned(),
            client,
            timeout,
        })
    }

    /// Sends the request (`parts` rewritten, `body`) and waits for the
    /// answer's head.
    ///
    /// # Errors
    /// No answer in time, or none at all.
    pub(crate) async fn send(
        &self,
        mut parts: Parts,
        body: UpBody,
    ) -> Result<Response<Incoming>, UpstreamError> {
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let uri = format!("{}{}{}", self.origin, self.prefix, target);
        parts.uri = uri
            .parse()
            .map_err(|e| UpstreamError::Failed(format!("the upstream URL {uri}: {e}")))?;
        parts.version = hyper::Version::HTTP_11;
        let request = Request::from_parts(parts, body);
        match tokio::time::timeout(self.timeout, self.client.request(request)).await {
            Err(_) => Err(UpstreamError::Timeout(self.timeout)),
            Ok(Err(e)) => Err(UpstreamError::Failed(crate::failure::chain(&e))),
            Ok(Ok(mut response)) => {
                remove_hop_by_hop(response.headers_mut());
                Ok(response)
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn hop_by_hop_and_the_fields_connection_names_are_removed() {
        let mut h = HeaderMap::new();
        h.append(
            "connection",
            HeaderValue::from_static("close, X-Secret-Hop"),
        );
        h.append("connection", HeaderValue::from_static("x-other"));
        h.append("x-secret-hop", HeaderValue::from_static("1"));
        h.append("X-Other", HeaderValue::from_static("2"));
        h.append("keep-alive", HeaderValue::from_static("timeout=5"));
        h.append("te", HeaderValue::from_static("trailers"));
        h.append("upgrade", HeaderValue::from_static("websocket"));
        h.append("proxy-connection", HeaderValue::from_static("keep-alive"));
        h.append("x-kept", HeaderValue::from_static("3"));
        remove_hop_by_hop(&mut h);
        let left: Vec<&str> = h.keys().map(HeaderName::as_str).collect();
        assert_eq!(left, ["x-kept"]);
    }

    #[test]
    fn an_identity_header_is_none_the_request_needs() {
        let rewrite = |c: &str, t: &str| Rewrite {
            consumer_header: HeaderName::from_bytes(c.as_bytes()).unwrap(),
            token_header: HeaderName::from_bytes(t.as_bytes()).unwrap(),
            strip_authorization: false,
            family: Family::Ignore,
        };
        assert!(rewrite("x-oauth1-consumer-key", "x-oauth1-token")
            .check()
            .is_ok());
        assert!(rewrite("Authorization", "x-oauth1-token").check().is_err());
        assert!(rewrite("x-a", "Connection").check().is_err());
        assert!(rewrite("x-a", "X-A").check().is_err());
    }

    #[test]
    fn append_joins_to_the_last_line() {
        let mut h = HeaderMap::new();
        h.append("x-forwarded-for", HeaderValue::from_static("1.1.1.1"));
        h.append("x-forwarded-for", HeaderValue::from_static("2.2.2.2"));
        append(&mut h, "x-forwarded-for", "127.0.0.1");
        let lines: Vec<&str> = h
            .get_all("x-forwarded-for")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(lines, ["1.1.1.1", "2.2.2.2, 127.0.0.1"]);
    }

    #[test]
    fn an_upstream_is_plain_http_with_a_host() {
        assert!(Upstream::new("https://a", Duration::from_secs(1)).is_err());
        assert!(Upstream::new("http://u@a:1", Duration::from_secs(1)).is_err());
        assert!(Upstream::new("http://a:1/?q", Duration::from_secs(1)).is_err());
        let u = Upstream::new("http://127.0.0.1:9/api/", Duration::from_secs(1)).unwrap();
        assert_eq!(
            (u.origin.as_str(), u.prefix.as_str()),
            ("http://127.0.0.1:9", "/api")
        );
    }
}
