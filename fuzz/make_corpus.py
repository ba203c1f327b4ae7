#!/usr/bin/env python3
"""Writes the seed corpora, fuzz/corpus/<target>/<case>: a few small inputs
per target (the X docs request, an IPv6 URL, escapes, a malformed escape, a
long name...), in each target's input format. Run it again after editing;
it rewrites only the files it names."""

import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SEP = b"\xff"  # the field separator of fuzz_targets/common/mod.rs

X_URL = "https://api.x.com/1.1/statuses/update.json?include_entities=true"
X_BODY = "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21"
X_HEADER = (
    'OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", '
    'oauth_nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", '
    'oauth_signature="Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D", oauth_signature_method="HMAC-SHA1", '
    'oauth_timestamp="1318622958", '
    'oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", oauth_version="1.0"'
)
IPV6_URL = "https://[2001:db8::1]:8443/1.1/users/show.json?screen_name=x&id=%E2%9C%93"
ESCAPES = "q=%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87&emoji=%F0%9F%8E%89+%F0%9F%9A%80&a%26b=c%3Dd&empty="
MALFORMED = "status=100%25%20sure&bad=%2G&tail=%"
LONG_NAME = "n" + "ame" * 120 + "=v&" + "v=" + "x" * 300
NOT_UTF8 = "caf%E9=cr%E8me&x=%C3%28"


def fields(*parts):
    return SEP.join(p.encode() if isinstance(p, str) else p for p in parts)


def x_docs_spec(**changes):
    with open(os.path.join(HERE, "..", "cli", "src", "x-docs-creating-a-signature.json")) as f:
        spec = json.load(f)
    spec.update(changes)
    return json.dumps(spec, indent=1).encode()


CORPORA = {
    "url": {
        "x-docs": X_URL,
        "ipv6": IPV6_URL,
        "escapes": "https://h.example/p%20a/%E2%9C%93?" + ESCAPES,
        "malformed-escape": "https://h.example/?" + MALFORMED,
        "long-name": "https://h.example/search?" + LONG_NAME,
        "port-0-and-backslash": "http://h.example:0/a\\b?x=1",
        "userinfo-fragment": "HTTP://user:pw@H.Example:80/a/../b?c=d#frag",
    },
    "form": {
        "x-docs": X_BODY,
        "escapes": ESCAPES,
        "malformed-escape": MALFORMED,
        "long-name": LONG_NAME,
        "not-utf8": NOT_UTF8,
        "plus-and-empty": "a+b=c+d&&=&x",
    },
    "header": {
        "x-docs": X_HEADER,
        "realm-quoted-pair": 'OAuth realm="Ex\\"ample", oauth_consumer_key="k%20y", oauth_signature=""',
        "case-and-spaces": 'oauth   REALM="r",oauth_nonce="n" ,  oauth_token="t"',
        "malformed-escape": 'OAuth oauth_consumer_key="%2G", oauth_nonce="x"',
        "long-name": "OAuth oauth_" + "x" * 300 + '="v"',
    },
    "request_json": {
        "x-docs": x_docs_spec(),
        "ipv6-extras": x_docs_spec(
            url=IPV6_URL, extra_oauth_params=[["oauth_body_hash", "2jmj7l5rSw0yVb/vlWAYkK/YBwk="]]
        ),
        "plaintext-realm": x_docs_spec(signature_method="PLAINTEXT", realm="Photos", form_body=ESCAPES),
        "malformed-escape": x_docs_spec(form_body=MALFORMED),
        "callback-verifier": x_docs_spec(callback="oob", verifier="v%20r", method="get"),
    },
    # method 0xFF url 0xFF realm 0xFF body
    "sign": {
        "x-docs": fields("POST", X_URL, "", X_BODY),
        "ipv6": fields("GET", IPV6_URL, "Photos", ""),
        "escapes": fields("post", "https://h.example/?" + ESCAPES, "", ESCAPES),
        "malformed-escape": fields("POST", X_URL, "", MALFORMED),
        "long-name": fields("PUT", "https://h.example/", "", LONG_NAME),
        "not-utf8": fields("POST", "https://h.example/?" + NOT_UTF8, "", NOT_UTF8),
    },
    # method 0xFF url 0xFF their Authorization header 0xFF body (the verifier)
    "verify": {
        "x-docs": fields("POST", X_URL, X_HEADER, X_BODY),
        "ipv6": fields("GET", IPV6_URL, 'OAuth realm="Photos", oauth_consumer_key="ck"', ""),
        "escapes": fields("post", "https://h.example/?" + ESCAPES, "", ESCAPES),
        "malformed-escape": fields("POST", X_URL, 'OAuth oauth_consumer_key="%2G", oauth_nonce="x"', MALFORMED),
        "duplicate-in-header": fields("GET", "https://h.example/", 'OAuth oauth_nonce="a", OAUTH_NONCE="b"', ""),
        "not-utf8": fields("POST", "https://h.example/?" + NOT_UTF8, "", NOT_UTF8),
        "protocol-in-body": fields("POST", "https://h.example/", "", "oauth_consumer_key=ck&oauth_signature=x"),
    },
    # count (u16 LE) shape (u8), then prefix 0xFF chunk 0xFF suffix
    "large": {
        "body-escapes": struct.pack("<HB", 20000, 0) + fields("a=", "%F0%9F%8E%89x", "&b=1"),
        "body-pairs": struct.pack("<HB", 60000, 0) + fields("", "k=v%20w&", "z=1"),
        "query": struct.pack("<HB", 30000, 1) + fields("https://h.example/p?q=", "%E2%9C%93", "&r=2"),
        "path-ipv6": struct.pack("<HB", 5000, 1) + fields("https://[::1]:8080/", "seg%2F/", "?x=y"),
        "both-malformed": struct.pack("<HB", 9000, 2) + fields("https://h.example/?a=", "b", "%2G"),
        "protocol-params": struct.pack("<HB", 5000, 3) + fields("x", "v%20", ""),
    },
    # flags, then method 0xFF url 0xFF realm 0xFF body; flags: method (bits 0-1:
    # HMAC-SHA1, HMAC-SHA256, PLAINTEXT, HMAC-SHA512), 0x04 show secrets,
    # 0x08 form body, 0x10 realm, 0x20 token. Flags 0xC0: offset (u16 LE), len, text.
    "cli_format": {
        "x-docs": bytes([0x28]) + fields("POST", X_URL, "", X_BODY),
        "plaintext-hidden": bytes([0x3A]) + fields("POST", X_URL, "Photos", "it's=a%20'quote'"),
        "plaintext-shown": bytes([0x2E]) + fields("HEAD", IPV6_URL, "", ""),
        "escapes-sha256": bytes([0x29]) + fields("get", "https://h.example/?" + ESCAPES, "", ESCAPES),
        "not-utf8-warning": bytes([0x2B]) + fields("POST", "https://h.example/?" + NOT_UTF8, "", NOT_UTF8),
        "malformed-escape": bytes([0x28]) + fields("POST", X_URL, "", MALFORMED),
        "bad-url": bytes([0x20]) + fields("GET", "https://h.example:0/a b\t%zz", "", ""),
        # Found by fuzzing: request text that repeats a heading of the trace
        # (here the base string's, in a query value) must not confuse the check.
        "heading-in-request": bytes([0x00]) + fields("GET", "https://h.example/?x=the%20signed%20bytes%29%3A", "", ""),
        # Found by fuzzing: a NUL in the form body signs, but no shell word
        # holds one, so the curl writer refuses it (naming the byte).
        "nul-in-body": bytes([0x28]) + fields("POST", X_URL, "", "status=a\x00b"),
        "caret-long": bytes([0xC0]) + struct.pack("<HB", 700, 3) + ("x" * 690 + "%2Gtail" + "y" * 300).encode(),
        "caret-controls": bytes([0xC0]) + struct.pack("<HB", 9, 4) + b"\x1b[31m\xe9\t\x85%2G\r\n\xf0\x9f\x8e\x89 end",
    },
}

for target, cases in CORPORA.items():
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    for name, data in cases.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
