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
//! A check that fails (no answer in time, say, while Redis is paused) may
//! still be applied by Redis later; the store then sends a release on the
//! same connection, right after it: delete the key if it still holds this
//! call's value. Redis applies the two in order, so the nonce of a request
//! answered 503 does not count against the client's retry of it.
//!
//! Redis must never evict a nonce before it expires, or a replay of it is
//! accepted: [`connect`](RedisNonceStore::connect) reads the server's
//! `maxmemory-policy` (on every primary of a cluster) and refuses any
//! policy but `noeviction`, and every check reads it again, pipelined
//! after its `SET` in the same round trip and on the same connection (in
//! a cluster, the node of the key's slot): `CONFIG GET maxmemory-policy`.
//! A policy changed by `CONFIG SET`, or a server the connection silently
//! reconnected to (restarted, or failed over) that may evict, is refused
//! from the next check on: the check fails closed, naming the policy, and
//! releases the nonce it wrote; it works again once the policy is
//! `noeviction`. What no check can undo: nonces recorded before the policy
//! changed may be evicted while it evicts, and their replays are accepted
//! once it is `noeviction` again, as after `FLUSHALL`, `FLUSHDB`, or a
//! restart without persistence, each of which forgets the nonces of the
//! current window.
//!
//! [RFC 5849 §3.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.3

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ::redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use ::redis::cluster::ClusterClient;
use ::redis::cluster_async::ClusterConnection;
use ::redis::cluster_routing::{MultipleNodeRoutingInfo, RoutingInfo};
use ::redis::{Client, ConnectionInfo, IntoConnectionInfo, RedisError, Value};

use super::nonce::{Freshness, NonceKey, NonceStore, StoreFuture};
use super::unavailable::StoreError;

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
    eviction_check: bool,
}

impl Default for RedisOptions {
    /// Keys `oauth1:nonce:<64 hex digits>`, one second to connect, one
    /// second for a reply.
    fn default() -> RedisOptions {
        RedisOptions {
            key_prefix: "oauth1:nonce:".to_owned(),
            connect_timeout: Duration::from_secs(1),
            response_timeout: Duration::from_secs(1),
            eviction_check: true,
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

    /// Whether the store reads `maxmemory-policy` and refuses a server
    /// that may evict keys (on by default): at `connect` (every primary of
    /// a cluster), and with every check, in the same round trip as its
    /// `SET` (one more command for Redis, no more waiting), so that a
    /// `CONFIG SET` or a reconnection to a server with another policy
    /// fails closed from the next check on. Turn it off only for a server
    /// whose `CONFIG` command is disabled (some managed services rename
    /// it) and whose policy you know to be `noeviction`: an evicted nonce
    /// is a replay accepted.
    pub fn with_eviction_check(mut self, on: bool) -> RedisOptions {
        self.eviction_check = on;
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
        StoreError::new(format!("redis {}: {what}", self.target)).with_source(e.clone())
    }

    /// One `SET key value NX GET PX ttl` and, in the same round trip,
    /// `CONFIG GET maxmemory-policy` (unless the eviction check is off),
    /// bounded by the deadline; when it fails, or the server may evict,
    /// the release of what it may have written. `node` names, in errors,
    /// the server that answers (empty for a standalone store).
    async fn remember<C: ConnectionLike + Send + 'static>(
        &self,
        mut conn: C,
        node: &str,
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
        // Error replies come back as values, each judged below: a refused
        // policy check must not hide whether the SET wrote.
        let mut pipe = ::redis::pipe();
        pipe.ignore_errors();
        pipe.cmd("SET")
            .arg(&name)
            .arg(&value)
            .arg("NX")
            .arg("GET")
            .arg("PX")
            .arg(ms as u64);
        // The policy of the server that took the SET, read after it on the
        // same connection (a cluster routes the pipeline to the key's
        // node): a CONFIG SET, or a reconnection to a server restarted
        // with another policy, is seen by the next check.
        if self.options.eviction_check {
            pipe.cmd("CONFIG").arg("GET").arg("maxmemory-policy");
        }
        let reply = tokio::time::timeout(self.options.check_deadline(), async {
            match pipe.query_async::<Value>(&mut conn).await {
                // The connection broke, perhaps after Redis applied the
                // command: send it once more (on the new connection the
                // manager makes) with the same value.
                Err(e) if e.is_io_error() || e.is_connection_dropped() => {
                    pipe.query_async::<Value>(&mut conn).await
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
        })
        .and_then(|r| r.map_err(|e| self.error("SET NX GET failed", &e)))
        .and_then(|reply| self.judge(node, reply, &value));
        if reply.is_err() {
            release(conn, name, value);
        }
        reply
    }

    /// The pipeline's replies: the `SET`'s (nil, or what the key held) and,
    /// with the eviction check, the policy.
    fn judge(&self, node: &str, reply: Value, value: &str) -> Result<Freshness, StoreError> {
        let Value::Array(replies) = reply else {
            return Err(StoreError::new(format!(
                "redis {}: SET NX GET: unexpected reply",
                self.target
            )));
        };
        let mut replies = replies.into_iter();
        let set = match replies.next().map(Value::extract_error) {
            Some(Ok(set)) => set,
            Some(Err(e)) => return Err(self.error("SET NX GET failed", &e)),
            None => {
                return Err(StoreError::new(format!(
                    "redis {}: SET NX GET: no reply",
                    self.target
                )))
            }
        };
        if self.options.eviction_check {
            let policy = replies.next().unwrap_or(Value::Nil);
            check_policy(&self.target, node, &policy)?;
        }
        match set {
            Value::Nil => Ok(Freshness::Fresh),
            // A retry of this very call found what its first try wrote.
            Value::BulkString(old) if old == value.as_bytes() => Ok(Freshness::Fresh),
            Value::BulkString(_) => Ok(Freshness::Replayed),
            _ => Err(StoreError::new(format!(
                "redis {}: SET NX GET: unexpected reply",
                self.target
            ))),
        }
    }
}

/// Deletes `name` if it holds `value`: sent on the connection of a check
/// that failed, after it, so that Redis applies it after the check if it
/// applies the check at all (a paused server, a reply lost). Not awaited:
/// the request is answered now, and the release goes out with the
/// connection's next write.
fn release<C: ConnectionLike + Send + 'static>(mut conn: C, name: String, value: String) {
    const RELEASE: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
                           return redis.call('DEL', KEYS[1]) end return 0";
    let mut cmd = ::redis::cmd("EVAL");
    cmd.arg(RELEASE).arg(1).arg(name).arg(value);
    // Written at once; its reply may never come (the response timeout
    // ends the wait), which changes nothing: Redis runs what it was sent.
    tokio::spawn(async move {
        let _ = cmd.query_async::<Value>(&mut conn).await;
    });
}

/// Why a server is refused as a nonce store, and what to do.
fn policy_refused(target: &str, node: &str, why: String) -> StoreError {
    StoreError::new(format!(
        "redis {target}{node}: {why}: a nonce store needs maxmemory-policy noeviction, \
         or an evicted nonce is a replay accepted (set it in redis.conf or with CONFIG SET \
         maxmemory-policy noeviction; if CONFIG is disabled and the policy is known to be \
         noeviction, RedisOptions::with_eviction_check(false))"
    ))
}

/// Refuses a server whose `maxmemory-policy` (read by `CONFIG GET`) may
/// evict keys: `node` names it, `reply` is its answer.
fn check_policy(target: &str, node: &str, reply: &Value) -> Result<(), StoreError> {
    let refused = |why: String| policy_refused(target, node, why);
    let text = |v: &Value| match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) | Value::VerbatimString { text: s, .. } => Some(s.clone()),
        _ => None,
    };
    let policy = match reply {
        Value::Array(items) => items.get(1).and_then(text),
        Value::Map(pairs) => pairs.first().and_then(|(_, v)| text(v)),
        Value::ServerError(e) => {
            return Err(refused(format!(
                "CONFIG GET maxmemory-policy refused: {}",
                crate::text::escape_controls(format!("{e:?}").as_bytes(), &[])
            )))
        }
        _ => None,
    };
    match policy {
        Some(p) if p == "noeviction" => Ok(()),
        Some(p) => Err(refused(format!(
            "maxmemory-policy is {}",
            crate::text::escape_controls(p.as_bytes(), &[])
        ))),
        None => Err(refused(
            "CONFIG GET maxmemory-policy gave no policy".to_owned(),
        )),
    }
}

/// `host:port` of a connection, for errors (no user name, no password).
fn describe(info: &ConnectionInfo) -> String {
    info.addr().to_string()
}

/// Nonces in one Redis server (7.0 or later), over the `redis` crate's
/// [`ConnectionManager`](::redis::aio::ConnectionManager), which reconnects
/// by itself. Cheap to share: wrap it in an `Arc`, or give each verifier
/// its own (they see each other's nonces through Redis).
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
        if checks.options.eviction_check {
            let mut conn = conn.clone();
            let reply = tokio::time::timeout(
                checks.options.check_deadline(),
                ::redis::cmd("CONFIG")
                    .arg("GET")
                    .arg("maxmemory-policy")
                    .query_async::<Value>(&mut conn),
            )
            .await
            .map_err(|_| {
                StoreError::new(format!(
                    "redis {}: no answer to CONFIG GET maxmemory-policy in time",
                    checks.target
                ))
            })?
            .map_err(|e| {
                policy_refused(
                    &checks.target,
                    "",
                    format!("CONFIG GET maxmemory-policy failed: {e}"),
                )
            })?;
            check_policy(&checks.target, "", &reply)?;
        }
        Ok(RedisNonceStore { conn, checks })
    }
}

impl NonceStore for RedisNonceStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        // The manager is a handle: a clone shares its connection.
        Box::pin(self.checks.remember(self.conn.clone(), "", key, keep_for))
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
        if checks.options.eviction_check {
            let mut conn = conn.clone();
            let mut cmd = ::redis::cmd("CONFIG");
            cmd.arg("GET").arg("maxmemory-policy");
            // Every primary: each holds the keys of its slots. The answer
            // is a map from each node's address to its reply.
            let reply = tokio::time::timeout(
                checks.options.check_deadline(),
                conn.route_command(
                    cmd,
                    RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, None)),
                ),
            )
            .await
            .map_err(|_| {
                StoreError::new(format!(
                    "redis {}: no answer to CONFIG GET maxmemory-policy in time",
                    checks.target
                ))
            })?
            .map_err(|e| checks.error("CONFIG GET maxmemory-policy failed", &e))?;
            let Value::Map(nodes) = reply else {
                return Err(StoreError::new(format!(
                    "redis {}: CONFIG GET maxmemory-policy: no answer per node",
                    checks.target
                )));
            };
            for (node, reply) in &nodes {
                let node = match node {
                    Value::BulkString(b) => format!(" (node {})", String::from_utf8_lossy(b)),
                    _ => String::new(),
                };
                check_policy(&checks.target, &node, reply)?;
            }
        }
        Ok(RedisClusterNonceStore { conn, checks })
    }
}

impl NonceStore for RedisClusterNonceStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        Box::pin(self.checks.remember(
            self.conn.clone(),
            " (the node of the key's slot)",
            key,
            keep_for,
        ))
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
