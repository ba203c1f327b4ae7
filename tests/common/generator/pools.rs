//! What the generator (`mod.rs`) draws from: hosts and IPv6 literals, path
//! segments, parameter names and values, secrets, methods, realms,
//! consumer keys and tokens, and the bad realms, IP literals and timestamps
//! that a request this crate must refuse is made of.

// Classes excluded for BOTH peers, because each of them deviates there (and
// our own behaviour on them is pinned by unit tests and the fixtures instead):
// - raw spaces, raw non-ASCII and `[]{}|^"<>` in URLs: we refuse them (a
//   client must encode them), oauthlib errors (P-RAW-CHARS), oauth-1.0a signs
//   them literally;
// - malformed escapes and invalid UTF-8: we refuse / sign the bytes; the peers
//   error or substitute U+FFFD (P-BAD-ESCAPE, J-QUERY-BADPCT);
// - `Object.prototype` names (J-QUERY-PROTO) are simply not in the name pool.
// User parameters named `oauth_*` (where oauthlib P-OAUTH-UNESCAPE and
// oauth-1.0a J-DUP-PROTO deviate) are generated, but we refuse them, so they
// are checked as refusals, not compared.

pub const HOSTS: &[&str] = &[
    "api.x.com",
    "upload.twitter.com",
    "example.com",
    "photos.example.net",
    "localhost",
    "127.0.0.1",
    "i.b",
];
/// IPv6 literals in their shortest, lower-case form (what Python's
/// `ipaddress` writes, so oauthlib keeps them as they are).
pub const IPV6_HOSTS: &[&str] = &[
    "[::1]",
    "[2001:db8::1]",
    "[::]",
    "[fe80::1:2]",
    "[2001:db8:85a3::8a2e:370:7334]",
    "[::ffff:c000:280]",
];
pub const IPV6_UNCOMPRESSED: &[&str] = &["[0:0:0:0:0:0:0:1]", "[2001:0db8::0001]"];
/// Bracketed hosts that are not IPv6 addresses (or not signable ones).
pub const BAD_IP_LITERALS: &[&str] = &[
    "[]",
    "[::1::2]",
    "[12345::]",
    "[::g]",
    "[1:2:3]",
    "[v1.x]",
    "[fe80::1%25eth0]",
    "[127.0.0.1]",
];
pub const SEGMENTS: &[&str] = &[
    "1.1",
    "2",
    "statuses",
    "update.json",
    "users",
    "me",
    "r%20v",
    "X",
    "%E2%98%83",
    "%e2%98%83",
    "a;b",
    "x:y",
    "@me",
    "(p)",
    "~user",
    "caf%C3%A9",
    "a%2Fb",
    "tweets",
    "search",
    "q!",
];
pub const NAMES: &[&str] = &[
    "status",
    "q",
    "include_entities",
    "a",
    "b",
    "c",
    "x-y",
    "a.b",
    "u_v",
    "~t",
    "count",
    "id",
    "text",
    "é",
    "名前",
    "a b",
    "k&v",
    "x=y",
    "!*'()",
    "realm",
    // Near the `oauth_` prefix, but not in it: signed like any other name.
    "oauth",
    "oauthx",
    "oauth-x",
    "Oauth_x",
];
/// Query or body names the signer refuses (it sends protocol parameters in
/// the header; RFC 5849 §3.5 forbids sending one twice).
pub const OAUTH_NAMES: &[&str] = &[
    "oauth_foo",
    "oauth_nonce",
    "oauth_signature",
    "oauth_token",
    "oauth_",
];
pub const VALUES: &[&str] = &[
    "",
    "true",
    "123",
    "Hello",
    "Hello Ladies + Gentlemen, a signed OAuth request!",
    "x!y",
    "!*'()",
    "&=+/?:@,;$#[]",
    "a b  c",
    "100%",
    "%41",
    "😀🦀",
    "नमस्ते दुनिया",
    "ığüşöç",
    "啦啦",
    "ÿ",
    "tab\there",
    "line\nbreak",
    "~-._",
    "\"quoted\"",
    "back\\slash",
    "a,b=c, d=\"e\"",
];
pub const SECRETS: &[&str] = &[
    "",
    "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    "s&cr=t",
    "p@ss word",
    "çöğ€",
    "100%",
    "a+b/c=",
];
pub const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "PATCH", "get", "post", "Head",
];
pub const ODD_METHODS: &[&str] = &["X!Y", "M-SEARCH", "PROP*FIND"];
pub const SIGNATURE_METHODS: &[&str] = &[
    "HMAC-SHA1",
    "HMAC-SHA1",
    "HMAC-SHA1",
    "HMAC-SHA256",
    "HMAC-SHA512",
    "PLAINTEXT",
    "RSA-SHA1",
    "RSA-SHA256",
];
/// Realms a header can hold: printable ASCII other than `"` and `\`.
pub const REALMS: &[&str] = &[
    "Example",
    "http://sp.example.com/",
    "Photos & Co",
    "a, b",
    "x=y",
    "k=v, oauth_token=t",
    ",",
    "=",
    " ",
    "",
    "'single' {}|<>~!@#$%^&*()_+",
];
/// Realms that would break or inject a header: refused.
pub const BAD_REALMS: &[&str] = &[
    "a\"b",
    "\"",
    "back\\slash",
    "\\",
    "a\"b, c",
    "x\", oauth_token=\"evil",
    "a\\b, c",
    "end\\",
    "\\\"",
    "tab\there",
    "line\r\nX-Injected: 1",
    "café",
    "\u{7f}",
];
pub const CONSUMER_KEYS: &[&str] = &[
    "xvz1evFS4wEEPTGEFPHBog",
    "dpf43f3p2l4k3l03",
    "ключ",
    "key with space",
    "k\"ey",
    "c,k=v",
    "back\\slash",
    "a b=\"c\", d",
];
pub const TOKENS: &[&str] = &[
    "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    "nnch734d00sl2jdk",
    "tök",
    "t\"k,=\\",
];
/// Timestamps that are not positive integers in ASCII digits (or do not fit
/// in 64 bits): refused.
pub const BAD_TIMESTAMPS: &[&str] = &[
    "",
    "0",
    "00",
    "-1",
    "+1",
    "1.5",
    "12a",
    " 1",
    "1e9",
    "18446744073709551616",
];
