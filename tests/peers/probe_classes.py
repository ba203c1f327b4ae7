#!/usr/bin/env python3
"""Probe each peer on one concrete input per input class and compare with RFC 5849.

Standard library only. The RFC side is a small reference built from the rules written in
fixtures/README.md (RFC 5849 §3.4.1 and §3.6); it is first checked against every
`kind: request` vector of fixtures/signatures.json and fixtures/base_string.json, so a probe
result of "same" / "DIFF" is relative to rules the public vectors confirm.

    python3 tests/peers/probe_classes.py            # markdown table on stdout
    python3 tests/peers/probe_classes.py --verbose  # plus the differing values

The table is then checked against the one under "## Probe results" in README.md (this
folder): exit 0 if every row agrees, 1 if a row differs or is missing (the differences are
listed), 2 if a peer cannot be run.

Signatures are compared for every probe (RSA included: PKCS#1 v1.5 is deterministic); the
reference signs with hmac/hashlib, and for RSA-* it takes the signature of a peer that agreed
on the base string only if the other peer agrees too (the stdlib has no RSA).
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "fixtures")

PEERS = {
    "oauthlib": [sys.executable, os.path.join(HERE, "oauthlib_peer.py")],
    "oauth-1.0a": ["node", os.path.join(HERE, "oauth_1_0a_peer.js")],
}


# ---------------------------------------------------------------- RFC 5849 reference
def pct(s):
    """RFC 5849 §3.6: UTF-8, then everything but ALPHA DIGIT - . _ ~ as upper-case %XX."""
    return urllib.parse.quote(s.encode("utf-8"), safe="~")


def form_decode(s):
    """application/x-www-form-urlencoded: split on '&', skip empty parts, split at the first
    '=', '+' is space, %XX decoded as UTF-8 (invalid sequences stay literal)."""
    out = []
    for part in s.split("&"):
        if part == "":
            continue
        name, _, value = part.partition("=")
        dec = lambda x: urllib.parse.unquote(x.replace("+", " "), errors="replace")  # noqa: E731
        out.append((dec(name), dec(value)))
    return out


def ref_uri_and_query(url):
    scheme, rest = url.split("://", 1)
    rest = rest.split("#", 1)[0]
    rest, _, query = rest.partition("?")
    slash = rest.find("/")
    authority, path = (rest, "") if slash < 0 else (rest[:slash], rest[slash:])
    authority = authority.rsplit("@", 1)[-1]  # userinfo is not part of Host
    if authority.startswith("["):
        end = authority.index("]") + 1
        host, port = authority[:end], authority[end + 1:]
    else:
        host, _, port = authority.partition(":")
    scheme, host = scheme.lower(), host.lower()
    if (scheme, port) in (("http", "80"), ("https", "443")) or port == "":
        netloc = host
    else:
        netloc = host + ":" + port
    return "%s://%s%s" % (scheme, netloc, path or "/"), query


def ref_sign(inp):
    bs_uri, query = ref_uri_and_query(inp["url"])
    params = form_decode(query)
    for field, name in (("consumer_key", "oauth_consumer_key"), ("token", "oauth_token"),
                        ("signature_method", "oauth_signature_method"),
                        ("timestamp", "oauth_timestamp"), ("nonce", "oauth_nonce"),
                        ("version", "oauth_version"), ("callback", "oauth_callback"),
                        ("verifier", "oauth_verifier")):
        if inp.get(field) is not None:
            params.append((name, inp[field]))
    params += [tuple(p) for p in inp.get("extra_oauth_params") or []]
    if inp.get("form_body") is not None:
        params += form_decode(inp["form_body"])
    params = [(n, v) for (n, v) in params if n != "oauth_signature"]
    norm = "&".join("%s=%s" % nv for nv in sorted((pct(n), pct(v)) for n, v in params))
    base = "&".join((pct(inp["method"].upper()), pct(bs_uri), pct(norm)))
    key = pct(inp.get("consumer_secret") or "") + "&" + pct(inp.get("token_secret") or "")
    method = inp.get("signature_method")
    hashes = {"HMAC-SHA1": hashlib.sha1, "HMAC-SHA256": hashlib.sha256, "HMAC-SHA512": hashlib.sha512}
    if method in hashes:
        sig = base64.b64encode(hmac.new(key.encode(), base.encode(), hashes[method]).digest()).decode()
    elif method == "PLAINTEXT":
        sig = key
    else:
        sig = None  # RSA (no RSA in the stdlib) or no method
    return {"base_string": base, "normalized_params": norm, "base_string_uri": bs_uri,
            "signature": sig}


def self_check():
    bad = []
    for name in ("signatures", "base_string"):
        with open(os.path.join(FIXTURES, name + ".json"), encoding="utf-8") as f:
            for v in json.load(f)["vectors"]:
                if v.get("kind") != "request":
                    continue
                got = ref_sign(v["inputs"])
                for field in ("base_string", "normalized_params", "base_string_uri", "signature"):
                    if field in v["expected"] and got[field] is not None \
                            and got[field] != v["expected"][field]:
                        bad.append("%s:%s %s" % (name, v["id"], field))
    return bad


# ---------------------------------------------------------------- probes
def _key(name):
    with open(os.path.join(FIXTURES, "keys", name), encoding="ascii") as f:
        return f.read()


BASE = {
    "method": "POST", "url": "https://api.example.com/r",
    "consumer_key": "ck", "consumer_secret": "cs", "token": "tk", "token_secret": "ts",
    "signature_method": "HMAC-SHA1", "timestamp": "1300000000", "nonce": "n0nce",
    "version": "1.0",
}

# (class, one-line description of the concrete input, overrides of BASE)
PROBES = [
    ("reserved !*'() in query (encoded)", "?q=%21%2A%27%28%29", {"url": "https://api.example.com/r?q=%21%2A%27%28%29"}),
    ("reserved !*'() in query (raw)", "?q=!*'()", {"url": "https://api.example.com/r?q=!*'()"}),
    ("reserved !*'() in body", "body q=!*'()", {"form_body": "q=!*'()"}),
    ("reserved !*'() in secrets", "consumer_secret=s!*'()", {"consumer_secret": "s!*'()", "signature_method": "PLAINTEXT"}),
    ("space %20 in query", "?a=b%20c", {"url": "https://api.example.com/r?a=b%20c"}),
    ("space + in query", "?a=b+c", {"url": "https://api.example.com/r?a=b+c"}),
    ("space + in body", "body a=b+c", {"form_body": "a=b+c"}),
    ("space %20 in body", "body a=b%20c", {"form_body": "a=b%20c"}),
    ("literal plus %2B in query", "?a=1%2B2", {"url": "https://api.example.com/r?a=1%2B2"}),
    ("lower-case hex in query value", "?a=%c3%a9%2f", {"url": "https://api.example.com/r?a=%c3%a9%2f"}),
    ("lower-case hex in query name", "?%c3%a9=1", {"url": "https://api.example.com/r?%c3%a9=1"}),
    ("lower-case hex in body", "body %c3%a9=%c3%a9", {"form_body": "%c3%a9=%c3%a9"}),
    ("encoded name in query", "?c%40=1", {"url": "https://api.example.com/r?c%40=1"}),
    ("encoded name in body", "body c%40=1", {"form_body": "c%40=1"}),
    ("non-ASCII %-encoded in query", "?a=%E2%82%AC", {"url": "https://api.example.com/r?a=%E2%82%AC"}),
    ("non-ASCII raw in query", "?a=\u20ac", {"url": "https://api.example.com/r?a=\u20ac"}),
    ("non-ASCII raw in body", "body a=\u20ac", {"form_body": "a=\u20ac"}),
    ("non-ASCII %-encoded in body name", "body %E2%82%AC=1", {"form_body": "%E2%82%AC=1"}),
    ("non-ASCII in token/nonce", "token=t\u00f6k nonce=n\u00f6", {"token": "t\u00f6k", "nonce": "n\u00f6"}),
    ("non-ASCII in secrets", "consumer_secret=c\u00e9 token_secret=\u20ac", {"consumer_secret": "c\u00e9", "token_secret": "\u20ac"}),
    ("raw space in query", "?a=b c", {"url": "https://api.example.com/r?a=b c"}),
    ("raw [ ] | in query", "?a=[1]|2", {"url": "https://api.example.com/r?a=[1]|2"}),
    ("raw [ ] | in body", "body a=[1]|2", {"form_body": "a=[1]|2"}),
    ("raw space in path", "/a b", {"url": "https://api.example.com/a b"}),
    ("non-ASCII raw in path", "/caf\u00e9", {"url": "https://api.example.com/caf\u00e9"}),
    ("invalid UTF-8 %-sequence in query", "?a=%E9", {"url": "https://api.example.com/r?a=%E9"}),
    ("invalid %-escape in query", "?a=%zz", {"url": "https://api.example.com/r?a=%zz"}),
    ("same name in query and body", "?a=1 body a=2", {"url": "https://api.example.com/r?a=1", "form_body": "a=2"}),
    ("same name twice in query", "?a=2&a=1", {"url": "https://api.example.com/r?a=2&a=1"}),
    ("same name twice in body", "body a=2&a=1", {"form_body": "a=2&a=1"}),
    ("duplicate query name, first empty", "?a=&a=1", {"url": "https://api.example.com/r?a=&a=1"}),
    ("duplicate body name, first empty", "body a=&a=1", {"form_body": "a=&a=1"}),
    ("bare name and empty value in query", "?a&b=", {"url": "https://api.example.com/r?a&b="}),
    ("bare name and empty value in body", "body a&b=", {"form_body": "a&b="}),
    ("empty query (trailing ?)", "https://api.example.com/r?", {"url": "https://api.example.com/r?"}),
    ("empty query component", "?a=1&&b=2&", {"url": "https://api.example.com/r?a=1&&b=2&"}),
    ("empty body component", "body a=1&&b=2&", {"form_body": "a=1&&b=2&"}),
    ("empty name", "?=v", {"url": "https://api.example.com/r?=v"}),
    ("'=' inside a value", "?a=b=c", {"url": "https://api.example.com/r?a=b=c"}),
    ("'?' inside the query", "?a=b?c&d=e", {"url": "https://api.example.com/r?a=b?c&d=e"}),
    ("';' in the query", "?a=1;b=2", {"url": "https://api.example.com/r?a=1;b=2"}),
    ("empty form body", "form_body=\"\"", {"form_body": ""}),
    ("body on GET", "GET body a=1", {"method": "GET", "form_body": "a=1"}),
    ("upper-case scheme and host", "HTTPS://API.Example.COM/r", {"url": "HTTPS://API.Example.COM/r"}),
    ("upper-case path kept", "https://api.example.com/R/X", {"url": "https://api.example.com/R/X"}),
    ("default port :80 on http", "http://api.example.com:80/r", {"url": "http://api.example.com:80/r"}),
    ("default port :443 on https", "https://api.example.com:443/r", {"url": "https://api.example.com:443/r"}),
    ("port 443 on http", "http://api.example.com:443/r", {"url": "http://api.example.com:443/r"}),
    ("port 80 on https", "https://api.example.com:80/r", {"url": "https://api.example.com:80/r"}),
    ("non-default port", "http://api.example.com:8080/r", {"url": "http://api.example.com:8080/r"}),
    ("empty port", "http://api.example.com:/r", {"url": "http://api.example.com:/r"}),
    ("empty path", "https://api.example.com", {"url": "https://api.example.com"}),
    ("empty path with query", "https://api.example.com?a=1", {"url": "https://api.example.com?a=1"}),
    ("encoded path segment", "/r%20v/", {"url": "https://api.example.com/r%20v/"}),
    ("lower-case hex in path", "/a%2fb%7e", {"url": "https://api.example.com/a%2fb%7e"}),
    ("path ;params", "/r;p=1", {"url": "https://api.example.com/r;p=1"}),
    ("userinfo in URL", "https://u:p@api.example.com/r", {"url": "https://u:p@api.example.com/r"}),
    ("IPv6 host", "http://[::1]:8080/r", {"url": "http://[::1]:8080/r"}),
    ("IPv6 host, uncompressed", "http://[0:0:0:0:0:0:0:1]:8080/r", {"url": "http://[0:0:0:0:0:0:0:1]:8080/r"}),
    ("port with leading zero", "http://api.example.com:080/r", {"url": "http://api.example.com:080/r"}),
    ("fragment", "/r#frag", {"url": "https://api.example.com/r#frag"}),
    ("fragment after query", "/r?a=1#frag", {"url": "https://api.example.com/r?a=1#frag"}),
    ("lower-case method", "method=post", {"method": "post"}),
    ("method with a tchar that needs encoding", "method=X!Y", {"method": "X!Y"}),
    ("realm", "realm=Photos", {"realm": "Photos"}),
    ("realm with quote and comma", "realm=a\"b, c", {"realm": "a\"b, c"}),
    ("realm as a query parameter (signed)", "?realm=x", {"url": "https://api.example.com/r?realm=x"}),
    ("callback", "callback=http://cb.example/?x=1&y=%20", {"callback": "http://cb.example/?x=1&y=%20"}),
    ("callback oob", "callback=oob", {"callback": "oob"}),
    ("verifier", "verifier=v3r!f", {"verifier": "v3r!f"}),
    ("no version", "version absent", {"version": None}),
    ("no nonce/timestamp", "nonce, timestamp absent", {"nonce": None, "timestamp": None}),
    ("no token", "token, token_secret absent", {"token": None, "token_secret": None}),
    ("empty token", "token=\"\"", {"token": ""}),
    ("protocol value with %", "nonce=a%20b", {"nonce": "a%20b"}),
    ("extra oauth_* param", "extra oauth_foo=b@r", {"extra_oauth_params": [["oauth_foo", "b@r"]]}),
    ("extra oauth_signature", "extra oauth_signature=x", {"extra_oauth_params": [["oauth_signature", "x"]]}),
    ("extra param name needing encoding", "extra 'oauth_a b'=1", {"extra_oauth_params": [["oauth_a b", "1"]]}),
    ("duplicate extra param name", "extra oauth_x=1, oauth_x=2", {"extra_oauth_params": [["oauth_x", "1"], ["oauth_x", "2"]]}),
    ("oauth_signature in query", "?oauth_signature=x", {"url": "https://api.example.com/r?oauth_signature=x"}),
    ("oauth_* in query with %25", "?oauth_foo=%2541", {"url": "https://api.example.com/r?oauth_foo=%2541"}),
    ("oauth_* in body with %25", "body oauth_foo=%2541", {"form_body": "oauth_foo=%2541"}),
    ("protocol name repeated in query", "?oauth_nonce=q", {"url": "https://api.example.com/r?oauth_nonce=q"}),
    ("name 'constructor' in query", "?constructor=1", {"url": "https://api.example.com/r?constructor=1"}),
    ("name '__proto__' in body", "body __proto__=1", {"form_body": "__proto__=1"}),
    ("secret with & and %", "consumer_secret=a&b%c", {"consumer_secret": "a&b%c"}),
    ("absent consumer_secret", "consumer_secret absent", {"consumer_secret": None}),
    ("HMAC-SHA1", "signature_method=HMAC-SHA1", {"signature_method": "HMAC-SHA1"}),
    ("HMAC-SHA256", "signature_method=HMAC-SHA256", {"signature_method": "HMAC-SHA256"}),
    ("HMAC-SHA512", "signature_method=HMAC-SHA512", {"signature_method": "HMAC-SHA512"}),
    ("PLAINTEXT", "signature_method=PLAINTEXT", {"signature_method": "PLAINTEXT"}),
    ("RSA-SHA1 (PKCS#1 key)", "signature_method=RSA-SHA1", {"signature_method": "RSA-SHA1", "rsa_private_key": _key("oauthlib_tests_rsa_pkcs1.pem")}),
    ("RSA-SHA1 (PKCS#8 key)", "signature_method=RSA-SHA1", {"signature_method": "RSA-SHA1", "rsa_private_key": _key("oauth_net_testcases_rsa_pkcs8.pem")}),
    ("RSA-SHA256", "signature_method=RSA-SHA256", {"signature_method": "RSA-SHA256", "rsa_private_key": _key("oauthlib_tests_rsa_pkcs1.pem")}),
    ("RSA-SHA512", "signature_method=RSA-SHA512", {"signature_method": "RSA-SHA512", "rsa_private_key": _key("oauthlib_tests_rsa_pkcs1.pem")}),
    ("unknown signature method", "signature_method=HMAC-MD5", {"signature_method": "HMAC-MD5"}),
]


def build(overrides):
    inp = dict(BASE)
    for k, v in overrides.items():
        if v is None:
            inp.pop(k, None)
        else:
            inp[k] = v
    return inp


INSTALL = ("install the peers: python3 -m pip install -r tests/peers/requirements.txt"
           " / npm ci --prefix tests/peers")


class PeerFailed(Exception):
    pass


def run(cmd, inputs):
    payload = "".join(json.dumps(dict(i, id=str(n))) + "\n" for n, i in enumerate(inputs))
    try:
        proc = subprocess.run(cmd, input=payload.encode(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PeerFailed("%s: %s" % (" ".join(cmd), e))
    answers = [json.loads(l) for l in proc.stdout.decode().splitlines()]
    if proc.returncode != 0 or len(answers) != len(inputs):
        raise PeerFailed("%s exited %d with %d answers for %d probes: %s" % (
            " ".join(cmd), proc.returncode, len(answers), len(inputs),
            proc.stderr.decode("utf-8", "replace")))
    return answers


def readme_table():
    """{class: [cell per peer]} from the "## Probe results" table of README.md."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Probe results", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| class ") or line.startswith("|---"):
            continue
        # cells are split at " | " that is not escaped as "\|"
        cells = [c.strip() for c in line.replace("\\|", "\0").strip("| ").split(" | ")]
        cells = [c.replace("\0", "|") for c in cells]
        rows[cells[0]] = cells[2:]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()

    bad = self_check()
    if bad:
        print("reference disagrees with fixtures: %s" % bad)
        return 1

    inputs = [build(o) for _, _, o in PROBES]
    refs = [ref_sign(i) for i in inputs]
    try:
        answers = {p: run(cmd, inputs) for p, cmd in PEERS.items()}
    except PeerFailed as e:
        print("PEER FAILED TO RUN: %s\n%s" % (e, INSTALL))
        return 2
    documented = readme_table()
    mismatches = []

    print("| class | input | %s |" % " | ".join(PEERS))
    print("|---|---|" + "---|" * len(PEERS))
    details = []
    for n, (cls, desc, _) in enumerate(PROBES):
        ref = refs[n]
        if ref["signature"] is None and inputs[n].get("signature_method", "").startswith("RSA-"):
            sigs = {a[n].get("signature") for a in answers.values()
                    if a[n].get("base_string") == ref["base_string"]}
            ref["signature"] = sigs.pop() if len(sigs) == 1 and \
                all(a[n].get("base_string") == ref["base_string"] for a in answers.values()) else None
        cells = []
        for peer in PEERS:
            a = answers[peer][n]
            if "error" in a:
                cells.append("error")
                details.append("%s / %s: error %s" % (cls, peer, a["error"]))
                continue
            diffs = [f for f in ("base_string_uri", "normalized_params", "base_string", "signature")
                     if ref.get(f) is not None and a.get(f) != ref[f]]
            if inputs[n]["signature_method"] not in (
                    "HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT",
                    "RSA-SHA1", "RSA-SHA256", "RSA-SHA512"):
                diffs = ["accepted unknown method"]
            short = {"base_string_uri": "uri", "normalized_params": "params",
                     "base_string": "base", "signature": "sig"}
            cells.append("same" if not diffs else "DIFF (%s)" % ", ".join(short.get(d, d) for d in diffs))
            for f in diffs:
                if f in ref:
                    details.append("%s / %s: %s\n    rfc  %r\n    peer %r" % (cls, peer, f, ref[f], a.get(f)))
        print("| %s | `%s` | %s |" % (cls.replace("|", "\\|"), desc.replace("|", "\\|"),
                                      " | ".join(cells)))
        if documented.get(cls) != cells:
            mismatches.append("%s: README says %s, now %s" % (cls, documented.get(cls), cells))
    if args.verbose:
        print()
        for d in details:
            print(d)
    print()
    if mismatches:
        for m in mismatches:
            print("MISMATCH with README.md: " + m)
        return 1
    print("all %d probes agree with the table in README.md" % len(PROBES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
