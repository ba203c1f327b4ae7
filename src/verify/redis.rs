//! Nonce stores in Redis ([RFC 5849 §3.3]), standalone or cluster, so that
//! every verifier sharing one Redis sees the nonces the others accepted.
//!
//! Each check is one atomic command, `SET key value NX GET PX ttl` (Redis
//! 7.0 or later): it records the nonce only if it is absent and answers
//! what was there. The value is unique to the call, because a connection
//! may send a command twice (the cluster connection retries after an I/O
//! error, and a reply lost after the write looks just like one): a retry
//! that finds its own value knows the nonce was fresh, so a fresh nonce is
//! never reported as a replay.
//!
//! Every failure (no connection, a timeout, an error reply) **fails
//! closed**: [`remember`](NonceStore::remember) answers a [`StoreError`]
//! naming the server and what went wrong, and the verifier rejects the
//! request. The connections reconnect by themselves, so the store works
//! again as soon as Redis is back, without being rebuilt; a check whose
//! connection broke is sent once more on the new connection, with the same
//! value, before it gives up.
//!
//! [RFC 5849 §3.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.3

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ::redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use ::redis::cluster::ClusterClient;
use ::redis::cluster_async::ClusterConnection;
use ::redis::{Client, ConnectionInfo, IntoConnectionInfo, RedisError};

use super::nonce::{Freshness, NonceKey, NonceStore, StoreError, StoreFuture};

/// How a Redis nonce store connects and names its keys.
///
/// ```
/// use std::time::Duration;
/// use oauth1_signer::verify::RedisOptions;
///
/// let options = RedisOptions::default()
///     .with_key_prefix("api:nonce:")
///     .with_connect_timeout(Duration::from_millis(500))
///     .with_response_timeout(Duration::from_millis(200));
/// assert_eq!(options.key_prefix(), "api:nonce:");
/// ```
#[derive(Clone, Debug)]
pub struct RedisOptions {
    key_prefix: String,
    connect_timeout: Duration,
    response_timeout: Duration,
}

impl Default for RedisOptions {
    /// Keys `oauth1:nonce:<64 hex digits>`, one second to connect, one
    /// second for a reply.
    fn default() -> RedisOptions {
        RedisOptions {
            key_prefix: "oauth1:nonce:".to_owned(),
            connect_timeout: Duration::from_secs(1),
            response_timeout: Duration::from_secs(1),
        }
    }
}

impl RedisOptions {
    /// Each key is this prefix followed by the [`NonceKey`] in hexadecimal.
    pub fn with_key_prefix(mut self, prefix: impl Into<String>) -> RedisOptions {
        self.key_prefix = prefix.into();
        self
    }

    /// How long one attempt to connect may take.
    pub fn with_connect_timeout(mut self, timeout: Duration) -> RedisOptions {
        self.connect_timeout = timeout;
        self
    }

    /// How long a command's reply may take.
    pub fn with_response_timeout(mut self, timeout: Duration) -> RedisOptions {
        self.response_timeout = timeout;
        self
    }

    /// The key prefix.
    pub fn key_prefix(&self) -> &str {
        &self.key_prefix
    }

    /// How long one check may take in all, reconnecting included: past it
    /// the check fails closed.
    fn check_deadline(&self) -> Duration {
        self.connect_timeout
            .saturating_add(self.response_timeout)
            .saturating_mul(2)
    }
}

/// What every check needs besides a connection: the key prefix, the
/// deadline, and the per-call values.
struct Checks {
    options: RedisOptions,
    /// Where the store points, for errors: host and port, never a password.
    target: String,
    /// Random per store, so that two stores never write the same value.
    tag: u128,
    calls: AtomicU64,
}

impl Checks {
    fn new(options: RedisOptions, target: String) -> Checks {
        Checks {
            options,
            target,
            tag: rand::random(),
            calls: AtomicU64::new(0),
        }
    }

    fn error(&self, what: &str, e: &RedisError) -> StoreError {
        StoreError::new(format!("redis {}: {what}: {e}", self.target))
    }

    /// One `SET key value NX GET PX ttl`, bounded by the deadline.
    async fn remember<C: ConnectionLike>(
        &self,
        mut conn: C,
        key: &NonceKey,
        keep_for: Duration,
    ) -> Result<Freshness, StoreError> {
        let mut name = String::with_capacity(self.options.key_prefix.len() + 64);
        name.push_str(&self.options.key_prefix);
        name.push_str(&key.to_hex());
        let value = format!(
            "{:032x}-{}",
            self.tag,
            self.calls.fetch_add(1, Ordering::Relaxed)
        );
        // PX counts whole milliseconds and refuses 0: round up, so the key
        // lives at least keep_for.
        let ms = keep_for
            .as_nanos()
            .div_ceil(1_000_000)
            .clamp(1, u128::from(i64::MAX as u64));
        let mut cmd = ::redis::cmd("SET");
        cmd.arg(&name)
            .arg(&value)
            .arg("NX")
            .arg("GET")
            .arg("PX")
            .arg(ms as u64);
        let reply = tokio::time::timeout(self.options.check_deadline(), async {
            match cmd.query_async::<Option<Vec<u8>>>(&mut conn).await {
                // The connection broke, perhaps after Redis applied the
                // command: send it once more (on the new connection the
                // manager makes) with the same value.
                Err(e) if e.is_io_error() || e.is_connection_dropped() => {
                    cmd.query_async::<Option<Vec<u8>>>(&mut conn).await
                }
                answer => answer,
            }
        })
        .await
        .map_err(|_| {
            StoreError::new(format!(
                "redis {}: no answer within {:?}",
                self.target,
                self.options.check_deadline()
            ))
        })?
        .map_err(|e| self.error("SET NX GET failed", &e))?;
        Ok(match reply {
            None => Freshness::Fresh,
            // A retry of this very call found what its first try wrote.
            Some(old) if old == value.as_bytes() => Freshness::Fresh,
            Some(_) => Freshness::Replayed,
        })
    }
}

/// `host:port` of a connection, for errors (no user name, no password).
fn describe(info: &ConnectionInfo) -> String {
    info.addr().to_string()
}

/// Nonces in one Redis server (7.0 or later), over the `redis` crate's
/// [`ConnectionManager`], which reconnects by itself. Cheap to share: wrap
/// it in an `Arc`, or give each verifier its own (they see each other's
/// nonces through Redis).
pub struct RedisNonceStore {
    conn: ConnectionManager,
    checks: Checks,
}

impl RedisNonceStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`, with
    /// `user:password@` when Redis asks for them).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when the URL is not a Redis URL or Redis cannot be
    /// reached within the connect timeout (the error names host and port,
    /// never a password).
    pub async fn connect(url: &str, options: RedisOptions) -> Result<RedisNonceStore, StoreError> {
        let info = url
            .into_connection_info()
            .map_err(|e| StoreError::new(format!("not a redis URL: {e}")))?;
        let target = describe(&info);
        let client =
            Client::open(info).map_err(|e| StoreError::new(format!("redis {target}: {e}")))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(options.connect_timeout))
            .set_response_timeout(Some(options.response_timeout))
            // A few quick reconnection attempts per failure; each later
            // check starts another round, so Redis is found again when back.
            .set_number_of_retries(2)
            .set_min_delay(Duration::from_millis(20))
            .set_max_delay(options.connect_timeout);
        let checks = Checks::new(options, target);
        let conn = tokio::time::timeout(
            checks.options.check_deadline(),
            ConnectionManager::new_with_config(client, config),
        )
        .await
        .map_err(|_| StoreError::new(format!("redis {}: cannot connect in time", checks.target)))?
        .map_err(|e| checks.error("cannot connect", &e))?;
        Ok(RedisNonceStore { conn, checks })
    }
}

impl NonceStore for RedisNonceStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        // The manager is a handle: a clone shares its connection.
        Box::pin(self.checks.remember(self.conn.clone(), key, keep_for))
    }
}

impl fmt::Debug for RedisNonceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisNonceStore")
            .field("target", &self.checks.target)
            .field("key_prefix", &self.checks.options.key_prefix)
            .finish_non_exhaustive()
    }
}

/// Nonces in a Redis Cluster (7.0 or later), over the `redis` crate's async
/// cluster connection: each nonce's key lives on the node owning its slot,
/// and the connection follows the cluster as nodes fail and return.
pub struct RedisClusterNonceStore {
    conn: ClusterConnection,
    checks: Checks,
}

impl RedisClusterNonceStore {
    /// Connects to the cluster through `urls` (some of its nodes, each
    /// `redis://host:port`).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when a URL is not a Redis URL, when `urls` is
    /// empty, or when the cluster cannot be reached in time.
    pub async fn connect(
        urls: &[&str],
        options: RedisOptions,
    ) -> Result<RedisClusterNonceStore, StoreError> {
        let mut nodes = Vec::with_capacity(urls.len());
        for (i, url) in urls.iter().enumerate() {
            let info = url.into_connection_info().map_err(|e| {
                StoreError::new(format!("cluster node {}: not a redis URL: {e}", i + 1))
            })?;
            nodes.push(info);
        }
        let target = match nodes.as_slice() {
            [] => return Err(StoreError::new("redis cluster: no node given")),
            nodes => format!(
                "cluster {}",
                nodes.iter().map(describe).collect::<Vec<_>>().join(",")
            ),
        };
        let client = ClusterClient::builder(nodes)
            .connection_timeout(options.connect_timeout)
            .response_timeout(options.response_timeout)
            .retries(2)
            .min_retry_wait(20)
            .max_retry_wait(u64::try_from(options.connect_timeout.as_millis()).unwrap_or(u64::MAX))
            .build()
            .map_err(|e| StoreError::new(format!("redis {target}: {e}")))?;
        let checks = Checks::new(options, target);
        let conn = tokio::time::timeout(
            checks.options.check_deadline(),
            client.get_async_connection(),
        )
        .await
        .map_err(|_| StoreError::new(format!("redis {}: cannot connect in time", checks.target)))?
        .map_err(|e| checks.error("cannot connect", &e))?;
        Ok(RedisClusterNonceStore { conn, checks })
    }
}

impl NonceStore for RedisClusterNonceStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        Box::pin(self.checks.remember(self.conn.clone(), key, keep_for))
    }
}

impl fmt::Debug for RedisClusterNonceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisClusterNonceStore")
            .field("target", &self.checks.target)
            .field("key_prefix", &self.checks.options.key_prefix)
            .finish_non_exhaustive()
    }
}
