//! curl's options, as curl itself lists them (`curl --help all`, curl
//! 7.88.1, with the options added up to curl 8.x): which take a value, so
//! that an option this reader does not act on is stepped over with its
//! value, and an option curl does not have is refused (curl refuses it).
//!
//! An abbreviated long option (`--ge`) is resolved as curl 7.88.1 to 8.5.0
//! resolve one, from the names of their option tables
//! (`curl/long-options.txt`, which cites them): the one name it starts,
//! any case; a prefix of two names is refused, as curl refuses it. curl
//! 8.6.0 and later refuse every abbreviation and send nothing, so a
//! command that sends a request at all sends the one read here.

/// Long options that take a value.
const WITH_VALUE: &[&str] = &[
    "abstract-unix-socket",
    "alt-svc",
    "aws-sigv4",
    "cacert",
    "capath",
    "cert",
    "cert-type",
    "ciphers",
    "config",
    "connect-timeout",
    "connect-to",
    "continue-at",
    "cookie",
    "cookie-jar",
    "create-file-mode",
    "crlfile",
    "curves",
    "data",
    "data-ascii",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "delegation",
    "dns-interface",
    "dns-ipv4-addr",
    "dns-ipv6-addr",
    "dns-servers",
    "doh-url",
    "dump-header",
    "egd-file",
    "engine",
    "etag-compare",
    "etag-save",
    "expect100-timeout",
    "form",
    "form-string",
    "ftp-account",
    "ftp-alternative-to-user",
    "ftp-method",
    "ftp-port",
    "ftp-ssl-ccc-mode",
    "happy-eyeballs-timeout-ms",
    "haproxy-clientip",
    "header",
    "hostpubmd5",
    "hostpubsha256",
    "hsts",
    "interface",
    "ipfs-gateway",
    "json",
    "keepalive-time",
    "key",
    "key-type",
    "krb",
    "krb4",
    "libcurl",
    "limit-rate",
    "local-port",
    "login-options",
    "mail-auth",
    "mail-from",
    "mail-rcpt",
    "max-filesize",
    "max-redirs",
    "max-time",
    "netrc-file",
    "noproxy",
    "oauth2-bearer",
    "output",
    "output-dir",
    "parallel-max",
    "pass",
    "pinnedpubkey",
    "preproxy",
    "proto",
    "proto-default",
    "proto-redir",
    "proxy",
    "proxy-cacert",
    "proxy-capath",
    "proxy-cert",
    "proxy-cert-type",
    "proxy-ciphers",
    "proxy-crlfile",
    "proxy-header",
    "proxy-key",
    "proxy-key-type",
    "proxy-pass",
    "proxy-pinnedpubkey",
    "proxy-service-name",
    "proxy-tls13-ciphers",
    "proxy-tlsauthtype",
    "proxy-tlspassword",
    "proxy-tlsuser",
    "proxy-user",
    "proxy1.0",
    "pubkey",
    "quote",
    "random-file",
    "range",
    "rate",
    "referer",
    "request",
    "request-target",
    "resolve",
    "retry",
    "retry-delay",
    "retry-max-time",
    "sasl-authzid",
    "service-name",
    "socks4",
    "socks4a",
    "socks5",
    "socks5-gssapi-service",
    "socks5-hostname",
    "speed-limit",
    "speed-time",
    "stderr",
    "telnet-option",
    "tftp-blksize",
    "time-cond",
    "tls-max",
    "tls13-ciphers",
    "tlsauthtype",
    "tlspassword",
    "tlsuser",
    "trace",
    "trace-ascii",
    "unix-socket",
    "upload-file",
    "url",
    "url-query",
    "user",
    "user-agent",
    "write-out",
    // Since curl 7.88.
    "variable",
    "ip-tos",
    "vlan-priority",
    "ech",
    "trace-config",
    "upload-flags",
    "knownhosts",
    "sigalgs",
];

/// Long options that take none (each also as `--no-NAME`).
const FLAGS: &[&str] = &[
    "anyauth",
    "append",
    "basic",
    "cert-status",
    "compressed",
    "compressed-ssh",
    "create-dirs",
    "crlf",
    "digest",
    "disable",
    "disable-eprt",
    "disable-epsv",
    "disallow-username-in-url",
    "doh-cert-status",
    "doh-insecure",
    "fail",
    "fail-early",
    "fail-with-body",
    "false-start",
    "form-escape",
    "ftp-create-dirs",
    "ftp-pasv",
    "ftp-pret",
    "ftp-skip-pasv-ip",
    "ftp-ssl-ccc",
    "ftp-ssl-control",
    "get",
    "globoff",
    "haproxy-protocol",
    "head",
    "help",
    "http0.9",
    "http1.0",
    "http1.1",
    "http2",
    "http2-prior-knowledge",
    "http3",
    "http3-only",
    "ignore-content-length",
    "include",
    "insecure",
    "ipv4",
    "ipv6",
    "junk-session-cookies",
    "list-only",
    "location",
    "location-trusted",
    "mail-rcpt-allowfails",
    "manual",
    "metalink",
    "negotiate",
    "netrc",
    "netrc-optional",
    "next",
    "alpn",
    "buffer",
    "clobber",
    "keepalive",
    "npn",
    "progress-meter",
    "sessionid",
    "ntlm",
    "ntlm-wb",
    "parallel",
    "parallel-immediate",
    "path-as-is",
    "post301",
    "post302",
    "post303",
    "progress-bar",
    "proxy-anyauth",
    "proxy-basic",
    "proxy-digest",
    "proxy-insecure",
    "proxy-negotiate",
    "proxy-ntlm",
    "proxy-ssl-allow-beast",
    "proxy-ssl-auto-client-cert",
    "proxy-tlsv1",
    "proxytunnel",
    "raw",
    "remote-header-name",
    "remote-name",
    "remote-name-all",
    "remote-time",
    "remove-on-error",
    "retry-all-errors",
    "retry-connrefused",
    "sasl-ir",
    "show-error",
    "silent",
    "socks5-basic",
    "socks5-gssapi",
    "socks5-gssapi-nec",
    "ssl",
    "ssl-allow-beast",
    "ssl-auto-client-cert",
    "ssl-no-revoke",
    "ssl-reqd",
    "ssl-revoke-best-effort",
    "sslv2",
    "sslv3",
    "styled-output",
    "suppress-connect-headers",
    "tcp-fastopen",
    "tcp-nodelay",
    "tftp-no-options",
    "tlsv1",
    "tlsv1.0",
    "tlsv1.1",
    "tlsv1.2",
    "tlsv1.3",
    "tr-encoding",
    "trace-time",
    "use-ascii",
    "verbose",
    "version",
    "xattr",
    // Since curl 7.88.
    "ca-native",
    "proxy-ca-native",
    "mptcp",
    "skip-existing",
    "tls-earlydata",
    "proxy-http2",
    "out-null",
    "follow",
    // In curl 7.88.1 to 8.5.0's table, and not in `--help all`.
    "eprt",
    "epsv",
    "ftp-ssl",
    "ftp-ssl-reqd",
    "test-event",
    "trace-ids",
    "wdebug",
];

/// Each short option and its long name.
const SHORT: &[(u8, &str)] = &[
    (b'E', "cert"),
    (b'K', "config"),
    (b'C', "continue-at"),
    (b'b', "cookie"),
    (b'c', "cookie-jar"),
    (b'd', "data"),
    (b'D', "dump-header"),
    (b'F', "form"),
    (b'P', "ftp-port"),
    (b'H', "header"),
    (b'm', "max-time"),
    (b'o', "output"),
    (b'x', "proxy"),
    (b'U', "proxy-user"),
    (b'Q', "quote"),
    (b'r', "range"),
    (b'e', "referer"),
    (b'X', "request"),
    (b'Y', "speed-limit"),
    (b'y', "speed-time"),
    (b't', "telnet-option"),
    (b'z', "time-cond"),
    (b'T', "upload-file"),
    (b'u', "user"),
    (b'A', "user-agent"),
    (b'w', "write-out"),
    (b'a', "append"),
    (b'q', "disable"),
    (b'f', "fail"),
    (b'G', "get"),
    (b'g', "globoff"),
    (b'I', "head"),
    (b'0', "http1.0"),
    (b'i', "include"),
    (b'k', "insecure"),
    (b'4', "ipv4"),
    (b'6', "ipv6"),
    (b'j', "junk-session-cookies"),
    (b'l', "list-only"),
    (b'L', "location"),
    (b'M', "manual"),
    (b'n', "netrc"),
    (b':', "next"),
    (b'N', "no-buffer"),
    (b'Z', "parallel"),
    (b'#', "progress-bar"),
    (b'p', "proxytunnel"),
    (b'J', "remote-header-name"),
    (b'O', "remote-name"),
    (b'R', "remote-time"),
    (b'S', "show-error"),
    (b's', "silent"),
    (b'2', "sslv2"),
    (b'3', "sslv3"),
    (b'1', "tlsv1"),
    (b'B', "use-ascii"),
    (b'v', "verbose"),
    (b'V', "version"),
    (b'h', "help"),
];

/// What curl makes of an option's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opt {
    /// An option that takes a value (its long name).
    Value(&'static str),
    /// An option that takes none (its long name, without `no-`).
    Flag(&'static str),
    /// Not an option curl has.
    Unknown,
}

/// The long option `name` (without its `--`).
pub(crate) fn long(name: &str) -> Opt {
    if let Some(&v) = WITH_VALUE.iter().find(|&&v| v == name) {
        return Opt::Value(v);
    }
    if let Some(&f) = FLAGS.iter().find(|&&f| f == name) {
        return Opt::Flag(f);
    }
    // `--no-buffer`, `--no-compressed`: a flag turned off.
    match name.strip_prefix("no-") {
        Some(base) => match FLAGS.iter().find(|&&f| f == base) {
            Some(&f) => Opt::Flag(f),
            None => Opt::Unknown,
        },
        None => Opt::Unknown,
    }
}

/// curl 7.88.1 to 8.5.0's long option names, one a line (the first word),
/// after comment lines that say where they are from.
const CURL_LONG: &str = include_str!("curl/long-options.txt");

/// What a long option that is not a name of [`long`] is to curl 7.88.1 to
/// 8.5.0 (`word` without its `--`): the one name it abbreviates (or spells
/// in other case), or the names it could abbreviate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Abbreviated {
    One(&'static str),
    Several(Vec<&'static str>),
    Unknown,
}

/// Resolves `word` as curl 7.88.1 to 8.5.0's `getparameter` does: each
/// name it is a prefix of, compared in any case (`curl_strnequal`), an
/// exact name first. After `no-` curl wants a name in full.
pub(crate) fn abbreviated(word: &str) -> Abbreviated {
    if word.is_empty() || word.starts_with("no-") {
        return Abbreviated::Unknown;
    }
    let word = word.to_ascii_lowercase();
    let mut hits = Vec::new();
    let names = CURL_LONG
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').next());
    for name in names {
        if name == word {
            return Abbreviated::One(name);
        }
        if name.starts_with(&word) {
            hits.push(name);
        }
    }
    match hits.as_slice() {
        [] => Abbreviated::Unknown,
        [one] => Abbreviated::One(one),
        _ => Abbreviated::Several(hits),
    }
}

/// The short option `letter` (after its `-`).
pub(crate) fn short(letter: u8) -> Opt {
    match SHORT.iter().find(|(l, _)| *l == letter) {
        Some((_, name)) => long(name),
        None => Opt::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_option_has_its_long_one() {
        for &(letter, _) in SHORT {
            assert_ne!(short(letter), Opt::Unknown, "-{}", letter as char);
        }
        assert_eq!(short(b'd'), Opt::Value("data"));
        assert_eq!(short(b'G'), Opt::Flag("get"));
        assert_eq!(long("no-compressed"), Opt::Flag("compressed"));
        assert_eq!(long("no-buffer"), Opt::Flag("buffer"));
        assert_eq!(long("dat"), Opt::Unknown);
        assert_eq!(long("no-data"), Opt::Unknown);
    }

    #[test]
    fn an_abbreviation_is_what_curl_7_88_makes_of_it() {
        // As curl 7.88.1 ran them against a listener on 127.0.0.1:
        // `--ge -d a=1` sent GET /p?a=1, `--path-as` kept /a/../p,
        // `--data-urlen a=b` sent a=b, `--compressed-s` ran;
        // `--hea`, `--dat` were "ambiguous", `--no-buf` "unknown".
        assert_eq!(abbreviated("ge"), Abbreviated::One("get"));
        assert_eq!(abbreviated("GET"), Abbreviated::One("get"));
        assert_eq!(abbreviated("path-as"), Abbreviated::One("path-as-is"));
        assert_eq!(
            abbreviated("data-urlen"),
            Abbreviated::One("data-urlencode")
        );
        assert_eq!(
            abbreviated("compressed-s"),
            Abbreviated::One("compressed-ssh")
        );
        assert!(
            matches!(abbreviated("hea"), Abbreviated::Several(n) if n.contains(&"head") && n.contains(&"header"))
        );
        assert!(matches!(abbreviated("dat"), Abbreviated::Several(n) if n.len() == 5));
        assert_eq!(abbreviated("no-buf"), Abbreviated::Unknown);
        assert_eq!(abbreviated("frobnicate"), Abbreviated::Unknown);
        // Every name curl abbreviates is one this reader knows.
        for line in CURL_LONG.lines().filter(|l| !l.starts_with('#')) {
            let name = line.split(' ').next().unwrap();
            assert_ne!(long(name), Opt::Unknown, "{name}");
            let value = line.contains("ARG_STRING") || line.contains("ARG_FILENAME");
            assert_eq!(matches!(long(name), Opt::Value(_)), value, "{name}");
        }
    }
}
