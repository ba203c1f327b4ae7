#!/usr/bin/env python3
"""Writes fixtures/explain.json: for every cause code of `oauth1 explain`, the request of a
public vector (fixtures/*.json, `id` and `source` kept) and the base string, signature and
Authorization header that an implementation making that one mistake would produce.

The mistaken values come from this file's own small RFC 5849 implementation (standard
library only: urllib.parse, hmac, hashlib, base64, unicodedata), never from the Rust crate.
Its right rules are checked first against every vector's published base string and signature;
then each mistake is one knob of it.

    python3 tests/peers/explain_fixtures.py            # rewrite fixtures/explain.json
    python3 tests/peers/explain_fixtures.py --check    # exit 1 if the file would change
"""

import base64
import copy
import hashlib
import hmac
import json
import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes, urlsplit

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "fixtures" / "explain.json"


def enc(data, k):
    """RFC 5849 §3.6 percent-encoding of bytes, with the knobs of `k` (the mistakes)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    safe = "-._~" + ("!*'()" if k.get("bare") else "")
    out = quote(data, safe=safe)
    if k.get("plus"):
        out = out.replace("%20", "+")
    if k.get("tilde"):
        out = out.replace("~", "%7E")
    if k.get("lower"):
        out = re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), out)
    return out


ENCODER_KNOBS = ("plus", "lower", "bare", "tilde")


def encoder(k, level):
    """The encoding knobs of `k` used at `level` ("values": the parameter names and values;
    "outer": the method, URI and parameter string of the base string). A mistaken encoder is
    used at k["level"]: "values", "outer" or (by default) "both"."""
    used = k.get("level", "both")
    if used in ("both", level):
        return k
    return {n: v for n, v in k.items() if n not in ENCODER_KNOBS}


def inner(data, k):
    """A parameter name or value as it goes into the parameter string."""
    depth = k.get("depth", "once")
    if depth == "raw":
        return data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
    kv = encoder(k, "values")
    once = enc(data, kv)
    return enc(once, kv) if depth == "twice" else once


def form_pairs(text):
    """application/x-www-form-urlencoded text as decoded (bytes, bytes) pairs."""
    pairs = []
    for seg in text.split("&"):
        if not seg:
            continue
        name, _, value = seg.partition("=")
        pairs.append((unquote_to_bytes(name.replace("+", " ")), unquote_to_bytes(value.replace("+", " "))))
    return pairs


def protocol_pairs(inputs):
    names = [
        ("oauth_consumer_key", "consumer_key"),
        ("oauth_nonce", "nonce"),
        ("oauth_signature_method", "signature_method"),
        ("oauth_timestamp", "timestamp"),
        ("oauth_token", "token"),
        ("oauth_version", "version"),
        ("oauth_callback", "callback"),
        ("oauth_verifier", "verifier"),
    ]
    out = [(n, inputs[f]) for n, f in names if inputs.get(f) is not None]
    out += [tuple(p) for p in inputs.get("extra_oauth_params", [])]
    return [(n.encode(), v.encode()) for n, v in out]


def collect(inputs, k):
    """(source, name, value) of every signed parameter, mistakes applied."""
    url = inputs["url"]
    query = url.split("#")[0].partition("?")[2]
    params = [("query", n, v) for n, v in form_pairs(query)]
    params += [("protocol", n, v) for n, v in protocol_pairs(inputs)]
    if inputs.get("form_body") is not None:
        params += [("body", n, v) for n, v in form_pairs(inputs["form_body"])]
    keep_signature = k.get("signature_signed")
    params = [p for p in params if keep_signature or p[1] != b"oauth_signature"]
    if k.get("drop_query"):
        params = [p for p in params if p[0] != "query"]
    if k.get("drop_body"):
        params = [p for p in params if p[0] != "body"]
    if k.get("drop"):
        params = [p for p in params if p[1] != k["drop"].encode()]
    if k.get("dups") == "first":
        seen, out = set(), []
        for p in params:
            if p[1] not in seen:
                seen.add(p[1])
                out.append(p)
        params = out
    if k.get("version") == "drop":
        params = [p for p in params if p[1] != b"oauth_version"]
    if k.get("realm") and inputs.get("realm") is not None:
        params.append(("protocol", b"realm", inputs["realm"].encode()))
    if k.get("extra"):
        params.append(("query", k["extra"][0].encode(), k["extra"][1].encode()))
    if k.get("json_fields"):
        params += [("body", n.encode(), v.encode()) for n, v in k["json_fields"]]
    if k.get("replace"):
        name, value = k["replace"]
        params = [(s, n, value.encode() if n == name.encode() else v) for s, n, v in params]
    if k.get("unicode") == "nfd":
        params = [(s, n, unicodedata.normalize("NFD", v.decode()).encode()) for s, n, v in params]
    return params


def base_string_uri(url, k):
    parts = urlsplit(url)
    # (urlsplit lower-cases the scheme; a side that keeps case keeps it as written)
    scheme = url.split(":", 1)[0] if k.get("keep_case") else parts.scheme.lower()
    netloc = parts.netloc.rsplit("@", 1)[-1]
    host, _, port = netloc.rpartition(":") if re.search(r":\d*$", netloc) else (netloc, "", "")
    if not k.get("keep_case"):
        host = host.lower()
    if k.get("other_host"):
        host = host.replace("api.x.com", "api.twitter.com")
    default = "443" if scheme.lower() == "https" else "80"
    port = port.lstrip("0") or ""
    if k.get("default_port"):
        port = port or default
    elif port == default:
        port = ""
    if k.get("drop_port"):
        port = ""
    path = parts.path or "/"
    if k.get("slash"):
        path = path[:-1] if path.endswith("/") and len(path) > 1 else path + "/"
    return f"{scheme}://{host}{':' + port if port else ''}{path}"


def base_string(inputs, k):
    method = inputs["method"]
    if k.get("swap_method"):
        method = {"GET": "POST", "POST": "GET"}[method.upper()]
    method = method.upper()
    pairs = [(inner(n, k), inner(v, k), n, v) for _, n, v in collect(inputs, k)]
    order = k.get("order", "encoded")
    if order == "encoded":
        pairs.sort(key=lambda p: (p[0], p[1]))
    elif order == "raw":
        pairs.sort(key=lambda p: (p[2], p[3]))
    elif order == "pair":
        pairs.sort(key=lambda p: p[0] + "=" + p[1])
    param_string = "&".join(f"{n}={v}" for n, v, _, _ in pairs)
    uri = base_string_uri(inputs["url"], k)
    ko = encoder(k, "outer")
    return "&".join([enc(method, ko), enc(uri, ko), enc(param_string, ko)])


HASHES = {"HMAC-SHA1": hashlib.sha1, "HMAC-SHA256": hashlib.sha256, "HMAC-SHA512": hashlib.sha512}


def signature(inputs, base, k):
    method = inputs.get("signature_method")
    cs, ts = inputs.get("consumer_secret", ""), inputs.get("token_secret", "")
    if k.get("key") == "token_secret_missing":
        ts = ""
    key = f"{enc(cs, {})}&{enc(ts, {})}"
    if method == "PLAINTEXT":
        return key
    if method not in HASHES:
        return None
    return base64.b64encode(hmac.new(key.encode(), base.encode(), HASHES[method]).digest()).decode()


def header(inputs, sig, k):
    pairs = [(n.decode(), v.decode()) for n, v in protocol_pairs(inputs) if n != b"oauth_signature"]
    if k.get("version") == "drop":
        pairs = [p for p in pairs if p[0] != "oauth_version"]
    if k.get("replace"):
        pairs = [(n, k["replace"][1] if n == k["replace"][0] else v) for n, v in pairs]
    pairs.append(("oauth_signature", sig))
    pairs.sort()
    realm = [f'realm="{inputs["realm"]}"'] if inputs.get("realm") is not None else []
    return "OAuth " + ", ".join(realm + [f'{n}="{enc(v, {})}"' for n, v in pairs])


# cause, mistake knobs, preferred vector, what should name it, and a note when the public
# request had to be changed for the mistake to show.
X = "x-docs-creating-a-signature"
CASES = [
    ("space-as-plus", {"plus": True}, X, "bss"),
    ("lowercase-hex", {"lower": True}, X, "bss"),
    ("reserved-unencoded", {"bare": True}, X, "bss"),
    ("unreserved-encoded", {"tilde": True}, X, "bss", ("form_body", "status=Hello%20~tilde~")),
    ("double-encoded", {"depth": "twice"}, X, "bss"),
    ("not-encoded", {"depth": "raw"}, X, "bss"),
    ("sorted-raw", {"order": "raw"}, "rfc5849-3.1-and-3.4.1.1-example", "bss"),
    ("sorted-by-pair-string", {"order": "pair"}, X, "bss",
     ("url", "https://api.x.com/1.1/statuses/update.json?a=1&a1=2")),
    # One encoder mistake at one level only: the names and values, or the base string's outer
    # encoding (the cases above use it at both).
    ("lowercase-hex", {"lower": True, "level": "values"}, X, "bss"),
    ("lowercase-hex", {"lower": True, "level": "outer"}, X, "bss"),
    ("reserved-unencoded", {"bare": True, "level": "values"}, X, "bss"),
    ("unreserved-encoded", {"tilde": True, "level": "outer"}, X, "bss", ("form_body", "status=Hello%20~tilde~")),
    ("default-port-kept", {"default_port": True}, X, "bss"),
    ("port-dropped", {"drop_port": True}, "rfc5849-1.2-protected-resource", "bss",
     ("url", "http://photos.example.net:8080/photos?file=vacation.jpg&size=original")),
    ("scheme-host-case", {"keep_case": True}, "rfc5849-1.2-protected-resource", "bss",
     ("url", "HTTP://Photos.Example.NET/photos?file=vacation.jpg&size=original")),
    ("host-differs", {"other_host": True}, X, "bss"),
    ("path-differs", {"slash": True}, X, "bss"),
    ("method-differs", {"swap_method": True}, X, "bss"),
    ("query-param-missing", {"drop_query": True}, X, "bss"),
    ("body-param-missing", {"drop_body": True}, X, "bss"),
    ("body-signed", {}, X, "bss", "json"),
    ("duplicate-collapsed", {"dups": "first"}, "ddo-multiple-values-query", "bss"),
    ("param-missing", {"drop": "oauth_token"}, X, "bss"),
    ("param-extra", {"extra": ("debug", "1")}, X, "b"),
    ("oauth-version-mismatch", {"version": "drop"}, X, "bsh"),
    ("realm-signed", {"realm": True}, "rfc5849-1.2-protected-resource", "bss"),
    ("signature-signed", {"signature_signed": True}, "oauth-net-testcases-hmac-sha1-photos", "b"),
    ("timestamp-differs", {"replace": ("oauth_timestamp", "1318622959")}, X, "bh"),
    ("nonce-differs", {"replace": ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cX")}, X, "bh"),
    ("unicode-normalization", {"unicode": "nfd"}, "oauthlib-client-unicode-body-2", "bss",
     ("timestamp", "1318622958")),
    ("key-mismatch", {"key": "token_secret_missing"}, X, "ss"),
]


def vectors():
    seen = {}
    for name in ("signatures", "base_string"):
        for v in json.loads((ROOT / "fixtures" / f"{name}.json").read_text())["vectors"]:
            if v.get("kind") == "request" and v["id"] not in seen:
                seen[v["id"]] = v
    return seen


def check_reference(all_vectors):
    """The right rules reproduce every HMAC/PLAINTEXT vector's base string and signature."""
    for v in all_vectors.values():
        inputs, want = v["inputs"], v["expected"]
        if "base_string" not in want:
            continue
        got = base_string(inputs, {})
        assert got == want["base_string"], (v["id"], got, want["base_string"])
        sig = signature(inputs, got, {})
        if sig is not None and "signature" in want:
            assert sig == want["signature"], (v["id"], sig, want["signature"])


def main():
    all_vectors = vectors()
    check_reference(all_vectors)
    cases = []
    for case in CASES:
        cause, knobs, vid, detect = case[:4]
        change = case[4] if len(case) > 4 else None
        v = all_vectors[vid]
        inputs = copy.deepcopy(v["inputs"])
        note, unsigned_body = None, None
        if change == "json":
            # The same status sent as a JSON body (X API v2 style): not signed; the
            # mistaken side signs its fields as if they were form parameters.
            status = form_pairs(inputs.pop("form_body"))[0][1].decode()
            unsigned_body = json.dumps({"status": status}, ensure_ascii=False)
            knobs = dict(knobs, json_fields=[("status", status)])
            note = "form body sent as a JSON body instead (application/json, not signed)"
        elif change:
            inputs[change[0]] = change[1]
            note = f"{change[0]} changed to {change[1]!r}" + (
                " (this crate refuses the vector's own)" if change[0] == "timestamp" else " so that the mistake shows"
            )
        right = base_string(inputs, {})
        theirs = base_string(inputs, knobs)
        sig_inputs = inputs
        if knobs.get("replace"):
            sig_inputs = dict(inputs, **{knobs["replace"][0][len("oauth_"):]: knobs["replace"][1]})
        sig = signature(inputs, theirs, knobs)
        assert knobs.get("key") or theirs != right, cause
        level = None
        if any(knobs.get(n) for n in ENCODER_KNOBS):
            # Every level at which this encoder writes the same base string: the signature cannot
            # tell those apart, and any of them is a right answer.
            level = [l for l in ("values", "outer", "both") if base_string(inputs, dict(knobs, level=l)) == theirs]
            assert knobs.get("level", "both") in level, cause
        entry = {
            "id": f"explain-{cause}" + (f"-{knobs['level']}" if "level" in knobs else ""),
            "cause": cause,
            "vector": vid,
            "source": v["source"],
            "inputs": inputs,
            "expected_base_string": right,
            "theirs": {
                "base_string": theirs,
                "signature": sig,
                "authorization_header": header(sig_inputs, sig, knobs),
            },
            # b: their base string names the cause; s: their signature alone does;
            # h: their header does.
            "named_from": {"b": "b" in detect, "s": "s" in detect, "h": "h" in detect or "s" in detect},
        }
        if level is not None:
            entry["encoding_levels"] = level
        if note:
            entry["changed"] = note
        if unsigned_body is not None:
            entry["unsigned_body"] = unsigned_body
        cases.append(entry)
    text = json.dumps(
        {
            "schema": "cases of `oauth1 explain`: a public vector's request, and what a side making "
            "one mistake signs; written by tests/peers/explain_fixtures.py",
            "count": len(cases),
            "cases": cases,
        },
        indent=1,
        ensure_ascii=False,
    ) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if OUT.exists() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
