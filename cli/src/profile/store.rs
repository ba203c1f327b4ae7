//! The profiles file on disk: where it is, and how it is read and changed.
//!
//! Every change is read-modify-write under an advisory lock on
//! `profiles.json.lock` beside it (std's `File::lock`: `flock` on Unix,
//! `LockFileEx` on Windows), and the file is read again under the lock just
//! before it is written: two `oauth1 authorize` runs at once, each minutes
//! long, both keep their profile. The new file is written to a temporary
//! file in the same directory (mode 0600), synced, and renamed over the old
//! one, so a reader, which takes no lock, sees the old file or the new,
//! never half of one. The lock file itself is left in place: removing it
//! would let a third process lock a new file while the second holds the old.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::error::Category;

use super::Profiles;
use crate::caret::printable;
use crate::Failure;

/// The directory of the profiles file: `$OAUTH1_CONFIG_DIR`, else the
/// platform's configuration directory. A relative `$XDG_CONFIG_HOME` is
/// ignored, as the XDG Base Directory spec says, rather than writing
/// secrets under whatever the current directory is.
pub(crate) fn config_dir() -> Result<PathBuf, Failure> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("OAUTH1_CONFIG_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let home = var("HOME").map(PathBuf::from);
    let base = if cfg!(windows) {
        var("APPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        home.map(|h| h.join("Library/Application Support"))
    } else {
        var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home.map(|h| h.join(".config")))
    };
    base.map(|b| b.join("oauth1")).ok_or_else(|| {
        Failure::input("no configuration directory: set OAUTH1_CONFIG_DIR (or HOME)")
    })
}

/// The path of the profiles file.
pub(crate) fn profiles_path() -> Result<PathBuf, Failure> {
    Ok(config_dir()?.join("profiles.json"))
}

fn io_failure(what: &str, path: &Path, e: &std::io::Error) -> Failure {
    let path = printable(path.as_os_str().as_encoded_bytes());
    Failure::Io(format!("cannot {what} {path}: {e}"))
}

/// Reads the profiles file at `path`; none yet is no profiles.
pub(crate) fn read(path: &Path) -> Result<Profiles, Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Profiles::default()),
        Err(e) => return Err(io_failure("read", path, &e)),
    };
    serde_json::from_str(&text).map_err(|e| {
        Failure::input(format!(
            "{} is not a profiles file: {}",
            printable(path.as_os_str().as_encoded_bytes()),
            shape_error(&e)
        ))
    })
}

/// Where and why the profiles file does not parse, without the value that
/// was found there: serde quotes it ("invalid type: integer `123`"), and
/// in this file it is likely a secret.
fn shape_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    // serde_json appends " at line L column C"; we say it our way.
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    let what = match e.classify() {
        // Syntax and EOF messages name what was expected, never the input.
        Category::Syntax | Category::Eof | Category::Io => what.to_owned(),
        Category::Data => match what.split_once(", expected ") {
            // "invalid type: string \"...\"": keep "string", drop the value.
            Some((found, expected)) => {
                let kind = found.split_once(": ").map_or(found, |(_, k)| k);
                let kind = kind.split(['`', '"', '\'']).next().unwrap_or("").trim();
                format!("found {kind}, expected {expected}")
            }
            // The names of our own fields.
            None if what.starts_with("missing field") || what.starts_with("duplicate field") => {
                what.to_owned()
            }
            None => "a value of the wrong type".to_owned(),
        },
    };
    format!("line {}, column {}: {what}", e.line(), e.column())
}

/// The profiles file locked for a change: dropped, the lock is released.
struct Locked {
    path: PathBuf,
    _lock: File,
}

impl Locked {
    /// Creates the directory (0700) and takes the lock, waiting for any
    /// other `oauth1` changing the file.
    fn take(path: &Path) -> Result<Locked, Failure> {
        let dir = path.parent().unwrap_or(Path::new("."));
        create_private_dir(dir).map_err(|e| io_failure("create the directory", dir, &e))?;
        let lock_path = path.with_extension("json.lock");
        let lock = open_private(&lock_path, false)
            .map_err(|e| io_failure("create the lock file", &lock_path, &e))?;
        lock.lock()
            .map_err(|e| io_failure("lock", &lock_path, &e))?;
        Ok(Locked {
            path: path.to_owned(),
            _lock: lock,
        })
    }

    /// A temporary file beside the profiles file, private, named for this
    /// process.
    fn temporary(&self) -> PathBuf {
        self.path
            .with_extension(format!("json.{}.tmp", std::process::id()))
    }

    /// Replaces the file with `bytes`: written to a temporary file, synced,
    /// renamed over it, and the directory synced so the rename lasts.
    fn replace(&self, bytes: &[u8]) -> Result<(), Failure> {
        let tmp = self.temporary();
        let written = open_private(&tmp, true).and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_failure("write", &tmp, &e));
        }
        if let Err(e) = std::fs::rename(&tmp, &self.path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_failure("replace", &self.path, &e));
        }
        sync_dir(self.path.parent().unwrap_or(Path::new(".")));
        Ok(())
    }
}

/// Checks, before a flow that ends in [`update`], that the file at `path`
/// can be changed: its directory created, the lock taken, a temporary file
/// written and removed, and the file (if any) read.
pub(crate) fn check_writable(path: &Path) -> Result<(), Failure> {
    let locked = Locked::take(path)?;
    let tmp = locked.temporary();
    let written = open_private(&tmp, true).and_then(|mut file| {
        file.write_all(b"{}\n")?;
        file.sync_all()
    });
    let _ = std::fs::remove_file(&tmp);
    written.map_err(|e| io_failure("write", &tmp, &e))?;
    read(path).map(drop)
}

/// Changes the file at `path` with `change`, under the lock, on what the
/// file holds now (not what it held when the command started).
pub(crate) fn update<T>(
    path: &Path,
    change: impl FnOnce(&mut Profiles) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let locked = Locked::take(path)?;
    let mut profiles = read(path)?;
    let out = change(&mut profiles)?;
    let mut json = serde_json::to_string_pretty(&profiles)
        .map_err(|e| Failure::Io(format!("cannot write the profiles: {e}")))?;
    json.push('\n');
    locked.replace(json.as_bytes())?;
    Ok(out)
}

/// Opens `path` for writing, readable by its owner only (on Unix; elsewhere
/// the file takes its directory's permissions): a new file (any stale one
/// removed first) if `fresh`, else the file as it is.
fn open_private(path: &Path, fresh: bool) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    if fresh {
        let _ = std::fs::remove_file(path);
        options.create_new(true);
    } else {
        options.create(true);
    }
    options.open(path)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// Syncs a directory, so that a rename in it survives a crash (best effort:
/// not every platform can open a directory).
fn sync_dir(dir: &Path) {
    if cfg!(unix) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn shape(text: &str) -> String {
        shape_error(&serde_json::from_str::<Profiles>(text).err().unwrap())
    }

    #[test]
    fn shape_errors_name_the_place_and_never_the_value() {
        // The secret alone on line 3, from column 1 (serde_json says column
        // 0 where it has read nothing of the line yet).
        let doc = |secret: &str| {
            format!(
                "{{\"profiles\": {{\"a\": {{\"consumer_key\": \"k\",\n\"consumer_secret\":\n\
                 {secret}\n, \"token\": \"t\", \"token_secret\": \"s\"}}}}}}"
            )
        };
        for (secret, found) in [
            ("1234567890123", "integer"),
            ("-12.5e3", "floating point"),
            ("[\"SECRETX\"]", "sequence"),
            ("{\"SECRETX\": 1}", "map"),
            ("true", "boolean"),
        ] {
            let e = shape(&doc(secret));
            let column = e
                .strip_prefix("line 3, column ")
                .and_then(|r| r.split_once(':'))
                .and_then(|(c, _)| c.parse::<usize>().ok());
            assert!(column.is_some_and(|c| c <= secret.len()), "{e}");
            assert!(
                e.ends_with(&format!(": found {found}, expected a string")),
                "{e}"
            );
            assert!(!e.contains("1234") && !e.contains("SECRETX") && !e.contains("12.5"));
        }
        // The object lacking the field ends at column 40 (counted by hand).
        assert_eq!(
            shape("{\"profiles\": {\"a\": {\"consumer_key\": \"k\"}}}"),
            "line 1, column 40: missing field `consumer_secret`"
        );
        // The "}" at column 14 where a value should be.
        assert_eq!(
            shape("{\"profiles\": }"),
            "line 1, column 14: expected value"
        );
    }
}
