//! `proxy --secrets FILE`: the consumers and tokens the proxy verifies
//! with, read from TOML, re-read on SIGHUP; a file that does not read
//! leaves the last good one in place, and the log says why (never a
//! value from it). Or, without a file, the credentials given as for
//! `serve`, as a table of one consumer.
//!
//! ```toml
//! [[consumer]]
//! key = "ck"
//! secret = "cs"
//!
//! [[token]]
//! token = "t"
//! secret = "ts"
//! consumer = "ck"
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use oauth1_signer::verify::{Lookup, SecretFuture, SecretSource, Secrets, SecretsError};
use oauth1_signer::{Credentials, Secret};
use serde::Deserialize;

use crate::caret::printable;

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    consumer: Vec<ConsumerEntry>,
    #[serde(default)]
    token: Vec<TokenEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConsumerEntry {
    key: String,
    secret: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenEntry {
    token: String,
    secret: String,
    consumer: String,
}

/// The consumers and tokens of one reading of the file.
#[derive(Default)]
pub(crate) struct Table {
    consumers: HashMap<String, Secret>,
    /// Token → its secret and its consumer's key.
    tokens: HashMap<String, (Secret, String)>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("consumers", &self.consumers.len())
            .field("tokens", &self.tokens.len())
            .finish()
    }
}

impl Table {
    /// Reads `text`, the file's contents.
    ///
    /// # Errors
    /// What is wrong and where (a line and column, a table's index and
    /// field), never a value: a secret may be the value at fault.
    pub(crate) fn parse(text: &str) -> Result<Table, String> {
        let file: File = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|span| {
                    let before = &text.as_bytes()[..span.start.min(text.len())];
                    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                    let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
                    format!("line {line}, column {column}: ")
                })
                .unwrap_or_default();
            // serde's "invalid type: integer `123`" quotes the value,
            // which may be a secret written as a number.
            let message = e.message();
            let message =
                if message.starts_with("invalid type") || message.starts_with("invalid value") {
                    "a value of the wrong type (key, secret, token and consumer are strings)"
                } else {
                    message
                };
            format!("{at}{}", printable(message.trim_end().as_bytes()))
        })?;
        let mut table = Table::default();
        for (i, c) in file.consumer.into_iter().enumerate() {
            let at = format!("[[consumer]] {}", i + 1);
            check_name(&c.key, &at, "key")?;
            if table
                .consumers
                .insert(c.key.clone(), Secret::new(c.secret))
                .is_some()
            {
                return Err(format!(
                    "{at}: the key \"{}\" is given twice",
                    printable(c.key.as_bytes())
                ));
            }
        }
        for (i, t) in file.token.into_iter().enumerate() {
            let at = format!("[[token]] {}", i + 1);
            check_name(&t.token, &at, "token")?;
            if !table.consumers.contains_key(&t.consumer) {
                return Err(format!(
                    "{at}: its consumer \"{}\" is not a [[consumer]] key",
                    printable(t.consumer.as_bytes())
                ));
            }
            let token = t.token.clone();
            if table
                .tokens
                .insert(t.token, (Secret::new(t.secret), t.consumer))
                .is_some()
            {
                return Err(format!(
                    "{at}: the token \"{}\" is given twice",
                    printable(token.as_bytes())
                ));
            }
        }
        if table.consumers.is_empty() {
            return Err("no [[consumer]]: no request could verify".to_owned());
        }
        Ok(table)
    }

    /// How many consumers and tokens, for the log.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.consumers.len(), self.tokens.len())
    }

    fn lookup(&self, consumer_key: &str, token: Option<&str>) -> Lookup {
        let Some(consumer_secret) = self.consumers.get(consumer_key) else {
            return Lookup::UnknownConsumer;
        };
        match token {
            None => Lookup::Found(Secrets::new(consumer_secret.clone(), "")),
            // A token is its consumer's only.
            Some(token) => match self.tokens.get(token) {
                Some((secret, owner)) if owner == consumer_key => {
                    Lookup::Found(Secrets::new(consumer_secret.clone(), secret.clone()))
                }
                _ => Lookup::UnknownToken,
            },
        }
    }
}

/// A key or token goes upstream in a header: not empty, and no control
/// character (which no header value may hold).
fn check_name(name: &str, at: &str, field: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(format!("{at}: {field} is empty"));
    }
    if name.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err(format!(
            "{at}: {field} \"{}\" holds a control character (it is sent upstream in a header)",
            printable(name.as_bytes())
        ));
    }
    Ok(())
}

/// The secret source the proxy verifies with: the table of `--secrets`
/// (re-read on SIGHUP), or of the credentials given.
pub(crate) struct ProxySecrets {
    path: Option<PathBuf>,
    table: RwLock<Arc<Table>>,
}

impl std::fmt::Debug for ProxySecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProxySecrets")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl ProxySecrets {
    /// The secrets of `path`.
    ///
    /// # Errors
    /// The file cannot be read, or is not a table of consumers and tokens.
    pub(crate) fn from_file(path: &Path) -> Result<ProxySecrets, String> {
        let table = read(path)?;
        Ok(ProxySecrets {
            path: Some(path.to_owned()),
            table: RwLock::new(Arc::new(table)),
        })
    }

    /// The credentials given (as for `serve`): one consumer, and its token
    /// when there is one.
    ///
    /// # Errors
    /// A key or token that cannot be sent in a header.
    pub(crate) fn given(c: &Credentials) -> Result<ProxySecrets, String> {
        let mut table = Table::default();
        check_name(c.consumer_key(), "--consumer-key", "the key")?;
        table
            .consumers
            .insert(c.consumer_key().to_owned(), c.consumer_secret().clone());
        if let Some(token) = c.token().filter(|t| !t.is_empty()) {
            check_name(token, "--token", "the token")?;
            table.tokens.insert(
                token.to_owned(),
                (c.token_secret().clone(), c.consumer_key().to_owned()),
            );
        }
        Ok(ProxySecrets {
            path: None,
            table: RwLock::new(Arc::new(table)),
        })
    }

    /// Reads the file again: the new table in place, or the last good one
    /// kept. The line for the log, saying which.
    pub(crate) fn reload(&self) -> String {
        let Some(path) = &self.path else {
            return "SIGHUP: no --secrets file to re-read".to_owned();
        };
        match read(path) {
            Ok(new) => {
                let (consumers, tokens) = new.counts();
                if let Ok(mut held) = self.table.write() {
                    *held = Arc::new(new);
                }
                format!("SIGHUP: --secrets re-read: {consumers} consumers, {tokens} tokens")
            }
            Err(why) => format!("SIGHUP: --secrets not re-read, the last good one kept: {why}"),
        }
    }

    /// The table now (a reload swaps it whole).
    fn now(&self) -> Option<Arc<Table>> {
        self.table.read().ok().map(|t| t.clone())
    }

    /// The consumer's and the token's secrets, for a diagnosis.
    pub(crate) fn pair(&self, consumer_key: &str, token: Option<&str>) -> Option<(Secret, Secret)> {
        let table = self.now()?;
        let consumer = table.consumers.get(consumer_key)?.clone();
        match token {
            None => Some((consumer, Secret::default())),
            Some(token) => match table.tokens.get(token) {
                Some((secret, owner)) if owner == consumer_key => Some((consumer, secret.clone())),
                _ => None,
            },
        }
    }
}

/// A warning when the file at `path` can be read or written by anyone but
/// its owner (`chmod 600` it): it holds every secret.
pub(crate) fn readable_by_others(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path).ok()?.permissions().mode();
        (mode & 0o077 != 0).then(|| {
            format!(
                "warning: --secrets {} can be read by others than its owner (mode {:o}): chmod 600 it",
                printable(path.display().to_string().as_bytes()),
                mode & 0o777
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The file read and parsed; the error names the file.
fn read(path: &Path) -> Result<Table, String> {
    let shown = printable(path.display().to_string().as_bytes());
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    Table::parse(&text).map_err(|e| format!("{shown}: {e}"))
}

impl SecretSource for ProxySecrets {
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
        let found = self.now().map(|t| t.lookup(consumer_key, token));
        Box::pin(async move {
            // A writer panicked mid-swap (ours do not): no secrets.
            found.ok_or_else(|| SecretsError::new("the secrets table is poisoned"))
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    const TWO: &str = r#"
[[consumer]]
key = "ck1"
secret = "cs1"

[[consumer]]
key = "ck2"
secret = "cs2"

[[token]]
token = "t1"
secret = "ts1"
consumer = "ck1"
"#;

    fn found(l: Lookup) -> bool {
        matches!(l, Lookup::Found(_))
    }

    #[test]
    fn a_token_is_its_consumers_only() {
        let t = Table::parse(TWO).unwrap();
        assert!(found(t.lookup("ck1", Some("t1"))));
        assert!(found(t.lookup("ck2", None)));
        assert!(matches!(t.lookup("ck2", Some("t1")), Lookup::UnknownToken));
        assert!(matches!(t.lookup("ck3", None), Lookup::UnknownConsumer));
    }

    #[test]
    fn a_bad_file_says_where_and_never_the_value() {
        let e = Table::parse("[[consumer]]\nkey = \"ck\"\nsecret = 123456789\n").unwrap_err();
        assert!(e.starts_with("line 3, column 10: "), "{e}");
        assert!(!e.contains("123456789"), "{e}");
        let e = Table::parse("[[consumer]]\nkey = \"ck\"\n").unwrap_err();
        assert!(e.contains("missing field `secret`"), "{e}");
        let e = Table::parse("[[consumer]]\nkey = \"ck\"\nsecret = \"s\"\n[[token]]\ntoken = \"t\"\nsecret = \"x\"\nconsumer = \"nope\"\n").unwrap_err();
        assert_eq!(
            e,
            "[[token]] 1: its consumer \"nope\" is not a [[consumer]] key"
        );
        let e = Table::parse("").unwrap_err();
        assert!(e.starts_with("no [[consumer]]"), "{e}");
    }
}
