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
from urllib.parse import quote, quote_plus, unquote_to_bytes, urlsplit

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "fixtures" / "explain.json"


def table_encoder(safe, plus, hex_case="X"):
    """An encoder that leaves the ASCII letters, digits and `safe` bare, writes a space `+` when
    `plus`, and escapes every other byte as %XX in `hex_case` ("X" upper, "x" lower)."""
    keep = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + safe.encode())

    def encode(data):
        out = []
        for b in data:
            if b in keep:
                out.append(chr(b))
            elif b == 0x20 and plus:
                out.append("+")
            else:
                out.append(("%{:02" + hex_case + "}").format(b))
        return "".join(out)

    return encode


def mdn_fixed(data):
    """MDN's fixedEncodeURIComponent (developer.mozilla.org, encodeURIComponent, earlier revision):
    encodeURIComponent(str).replace(/[!'()*]/g, c => '%' + c.charCodeAt(0).toString(16))."""
    out = ENCODERS["js-encodeuricomponent"](data)
    return re.sub(r"[!'()*]", lambda m: "%" + format(ord(m.group(0)), "x"), out)


# The encoders real clients use, each as the real thing where Python has it (urllib's quote and
# quote_plus), else written from its documentation or source, cited.
ENCODERS = {
    # docs.python.org/3/library/urllib.parse.html#urllib.parse.quote: safe='/' by default.
    "python-quote": lambda data: quote(data),
    "python-quote_plus": lambda data: quote_plus(data),
    # java.net.URLEncoder javadoc: alphanumerics and ". - * _" remain the same; " " becomes "+";
    # every other byte "%xy" (upper-case hex).
    "java-urlencoder": table_encoder(".-*_", plus=True),
    # php.net/manual/en/function.urlencode.php: all non-alphanumerics except "-_." as % and two
    # hex digits, spaces as "+".
    "php-urlencode": table_encoder("-_.", plus=True),
    # ECMA-262 §19.2.6.5 encodeURIComponent: uriAlpha, DecimalDigit and uriMark "-_.!~*'()"
    # unescaped, the rest as UTF-8 %XX (upper-case).
    "js-encodeuricomponent": table_encoder("-_.!~*'()", plus=False),
    "mdn-fixedencodeuricomponent": mdn_fixed,
    # github.com/dotnet/runtime WebUtility.cs: IsUrlSafeChar (letters, digits, "-_.!*()"), ' ' as
    # '+', HexConverter.ToCharUpper; HttpUtility's HttpEncoder.cs: the same with ToCharLower.
    "dotnet-webutility-urlencode": table_encoder("-_.!*()", plus=True),
    "dotnet-httputility-urlencode": table_encoder("-_.!*()", plus=True, hex_case="x"),
    # go.dev/src/net/url/url.go shouldEscape, encodePathSegment: unreserved, and of the reserved
    # "$&+,/:;=?@" only "/;,?" escaped; upper-case hex.
    "go-pathescape": table_encoder("-_.~$&+:=@", plus=False),
}


def enc(data, k):
    """RFC 5849 §3.6 percent-encoding of bytes, with the knobs of `k` (the mistakes)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if k.get("encoder"):
        return ENCODERS[k["encoder"]](data)
    safe = "-._~" + ("!*'()" if k.get("bare") else "")
    out = quote(data, safe=safe)
    if k.get("plus"):
        out = out.replace("%20", "+")
    if k.get("tilde"):
        out = out.replace("~", "%7E")
    if k.get("lower"):
        out = re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), out)
    return out


ENCODER_KNOBS = ("plus", "lower", "bare", "tilde", "encoder")


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
    if k.get("version") == "1.0a":
        params = [(s, n, b"1.0a" if n == b"oauth_version" else v) for s, n, v in params]
    if k.get("timestamp_ms"):
        params = [(s, n, v + b"000" if n == b"oauth_timestamp" else v) for s, n, v in params]
    if k.get("query_latin1"):
        # Tomcat's default URIEncoding: the query's UTF-8 bytes read as ISO-8859-1 characters.
        params = [
            (s, n.decode("latin-1").encode(), v.decode("latin-1").encode()) if s == "query" else (s, n, v)
            for s, n, v in params
        ]
    if k.get("signature_signed") == "empty":
        params.append(("protocol", b"oauth_signature", b""))
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
    if k.get("scheme_swap"):
        scheme = {"https": "http", "http": "https"}[scheme.lower()]
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
    if k.get("empty_path") and path == "/":
        path = ""
    if k.get("path_tilde"):
        path = path.replace("~", "%7E")
    query = "?" + parts.query if k.get("query_in_uri") and parts.query else ""
    # A fragment kept (a client that signs the URL it was given whole; RFC 5849 §3.4.1.2 signs
    # no fragment, and no HTTP client sends one).
    fragment = "#" + parts.fragment if k.get("fragment_in_uri") and parts.fragment else ""
    return f"{scheme}://{host}{':' + port if port else ''}{path}{query}{fragment}"


def base_string(inputs, k):
    method = inputs["method"]
    if k.get("swap_method"):
        method = {"GET": "POST", "POST": "GET"}[method.upper()]
    if k.get("head_as_get") and method.upper() == "HEAD":
        method = "GET"
    method = method.lower() if k.get("method_lower") else method.upper()
    pairs = [(inner(n, k), inner(v, k), n, v) for _, n, v in collect(inputs, k)]
    order = k.get("order", "encoded")
    if order == "encoded":
        pairs.sort(key=lambda p: (p[0], p[1]))
    elif order == "raw":
        pairs.sort(key=lambda p: (p[2], p[3]))
    elif order == "pair":
        pairs.sort(key=lambda p: p[0] + "=" + p[1])
    elif order == "name":
        pairs.sort(key=lambda p: p[0])  # Python's sort is stable: values stay as collected
    # order "none": as collected (query, protocol, body)
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
    if k.get("key") == "no_ampersand":
        key = f"{enc(cs, {})}{enc(ts, {})}"
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


# The published cause codes, in catalogue order (`oauth1 explain --format json`; the order in which
# an explanation lists the causes of one combination of mistakes, most fundamental first).
CODES = [
    "space-as-plus", "lowercase-hex", "reserved-unencoded", "unreserved-encoded", "double-encoded",
    "not-encoded", "sorted-raw", "sorted-by-pair-string", "not-sorted", "default-port-kept",
    "port-dropped", "port-differs", "scheme-host-case", "scheme-differs", "host-differs",
    "path-differs", "method-differs", "query-param-missing", "body-param-missing", "body-signed",
    "duplicate-collapsed", "param-missing", "param-extra", "value-differs",
    "oauth-version-mismatch", "realm-signed", "realm-differs", "signature-signed",
    "timestamp-differs", "nonce-differs", "consumer-key-differs", "token-differs",
    "signature-method-differs", "unicode-normalization", "key-mismatch", "unexplained",
]

RFC = "rfc5849-1.2-protected-resource"
DDO = "ddo-multiple-values-query"
# A status holding a byte of each class the encoders below treat differently.
ODD = ("form_body", "status=a%20b%2Ac~d%21e%27f%28g%29h%2Fi%24j%3Dk%40")
# A query whose names are not in order.
UNSORTED = ("url", "https://api.x.com/1.1/statuses/update.json?include_entities=true&count=5")
# Each encoder: the knob, the causes its departures are, and the name a finding gives it.
ENCODER_CASES = [
    ("java-urlencoder", ["space-as-plus", "reserved-unencoded", "unreserved-encoded"], "Java's `URLEncoder`"),
    ("php-urlencode", ["space-as-plus", "unreserved-encoded"], "PHP's `urlencode`"),
    ("js-encodeuricomponent", ["reserved-unencoded"], "JavaScript's `encodeURIComponent`"),
    ("mdn-fixedencodeuricomponent", ["lowercase-hex"], "MDN's `fixedEncodeURIComponent`"),
    ("python-quote", ["reserved-unencoded"], "Python's `quote`"),
    ("python-quote_plus", ["space-as-plus"], "Python's `quote_plus`"),
    ("dotnet-webutility-urlencode", ["space-as-plus", "reserved-unencoded", "unreserved-encoded"],
     ".NET's `WebUtility.UrlEncode`"),
    ("dotnet-httputility-urlencode",
     ["space-as-plus", "lowercase-hex", "reserved-unencoded", "unreserved-encoded"],
     ".NET's `HttpUtility.UrlEncode`"),
    ("go-pathescape", ["reserved-unencoded"], "Go's `url.PathEscape`"),
]
# The signature search's corpus: (name, knobs, vector, changes to its request, causes). Each
# mistake class alone, then in pairs and a triple; the first cause an explanation names is the
# first of `causes` in CODES order.
SEARCH_CASES = [
    ("scheme", {"scheme_swap": True}, X, [], ["scheme-differs"]),
    ("empty-path", {"empty_path": True}, RFC,
     [("url", "http://photos.example.net?file=vacation.jpg&size=original")], ["path-differs"]),
    ("query-in-uri", {"query_in_uri": True}, RFC, [], ["path-differs"]),
    ("fragment-in-uri", {"fragment_in_uri": True}, X,
     [("url", "https://api.x.com/1.1/statuses/update.json?include_entities=true#reply")], ["path-differs"]),
    ("tilde-in-path", {"path_tilde": True}, RFC,
     [("url", "http://photos.example.net/~user/photos?file=vacation.jpg&size=original")], ["path-differs"]),
    ("method-lower", {"method_lower": True}, X, [], ["method-differs"]),
    ("head-as-get", {"head_as_get": True}, RFC, [("method", "HEAD")], ["method-differs"]),
    ("not-sorted", {"order": "none"}, X, [UNSORTED], ["not-sorted"]),
    ("sorted-by-name-only", {"order": "name"}, DDO, [], ["not-sorted"]),
    ("signature-signed-empty", {"signature_signed": "empty"}, X, [], ["signature-signed"]),
    ("key-without-ampersand", {"key": "no_ampersand"}, DDO, [], ["key-mismatch"]),
    ("timestamp-in-ms", {"timestamp_ms": True}, X, [], ["timestamp-differs"]),
    ("version-1.0a", {"version": "1.0a"}, X, [], ["oauth-version-mismatch"]),
    ("query-as-latin1", {"query_latin1": True}, RFC,
     [("url", "http://photos.example.net/photos?file=caf%C3%A9.jpg&size=original")], ["unicode-normalization"]),
] + [
    (f"encoder-{name}", {"encoder": name}, X, [ODD], causes) for name, causes, _ in ENCODER_CASES
] + [
    ("encoder-java-urlencoder-values", {"encoder": "java-urlencoder", "level": "values"}, X, [ODD],
     ENCODER_CASES[0][1]),
    # Pairs.
    ("scheme+java-urlencoder", {"scheme_swap": True, "encoder": "java-urlencoder"}, X, [ODD],
     ["scheme-differs"] + ENCODER_CASES[0][1]),
    ("scheme+key-without-ampersand", {"scheme_swap": True, "key": "no_ampersand"}, DDO, [],
     ["scheme-differs", "key-mismatch"]),
    ("scheme+default-port", {"scheme_swap": True, "default_port": True}, X, [],
     ["scheme-differs", "default-port-kept"]),
    ("method-lower+not-sorted", {"method_lower": True, "order": "none"}, X, [UNSORTED],
     ["method-differs", "not-sorted"]),
    ("timestamp-in-ms+version-1.0a", {"timestamp_ms": True, "version": "1.0a"}, X, [],
     ["timestamp-differs", "oauth-version-mismatch"]),
    ("php-urlencode+query-in-uri", {"encoder": "php-urlencode", "query_in_uri": True}, X, [ODD],
     ["space-as-plus", "unreserved-encoded", "path-differs"]),
    ("head-as-get+signature-signed", {"head_as_get": True, "signature_signed": "empty"}, RFC,
     [("method", "HEAD")], ["method-differs", "signature-signed"]),
    ("python-quote+empty-path", {"encoder": "python-quote", "empty_path": True}, RFC,
     [("url", "http://photos.example.net?file=vaca%2Ftion.jpg&size=original")],
     ["reserved-unencoded", "path-differs"]),
    ("query-as-latin1+scheme", {"query_latin1": True, "scheme_swap": True}, RFC,
     [("url", "http://photos.example.net/photos?file=caf%C3%A9.jpg&size=original")],
     ["scheme-differs", "unicode-normalization"]),
    ("plus+timestamp-in-ms", {"plus": True, "timestamp_ms": True}, X, [],
     ["space-as-plus", "timestamp-differs"]),
    ("tilde-in-path+mdn-fixedencodeuricomponent", {"path_tilde": True, "encoder": "mdn-fixedencodeuricomponent"},
     RFC, [("url", "http://photos.example.net/~user/photos?file=vaca%2Ation.jpg&size=original")],
     ["lowercase-hex", "path-differs"]),
    ("sorted-by-name-only+version-1.0a", {"order": "name", "version": "1.0a"}, DDO, [],
     ["not-sorted", "oauth-version-mismatch"]),
    ("dotnet-webutility-urlencode+method-lower", {"encoder": "dotnet-webutility-urlencode", "method_lower": True},
     X, [ODD], ENCODER_CASES[6][1] + ["method-differs"]),
    ("dotnet-httputility-urlencode+scheme", {"encoder": "dotnet-httputility-urlencode", "scheme_swap": True},
     X, [ODD], ENCODER_CASES[7][1] + ["scheme-differs"]),
    ("go-pathescape+timestamp-in-ms", {"encoder": "go-pathescape", "timestamp_ms": True}, X, [ODD],
     ["reserved-unencoded", "timestamp-differs"]),
    ("js-encodeuricomponent+signature-signed", {"encoder": "js-encodeuricomponent", "signature_signed": "empty"},
     X, [ODD], ["reserved-unencoded", "signature-signed"]),
    ("python-quote_plus+head-as-get", {"encoder": "python-quote_plus", "head_as_get": True}, RFC,
     [("method", "HEAD"), ("url", "http://photos.example.net/photos?file=vacation%20photo.jpg&size=original")],
     ["space-as-plus", "method-differs"]),
    # Triples.
    ("scheme+method-lower+version-1.0a", {"scheme_swap": True, "method_lower": True, "version": "1.0a"}, X,
     [], ["scheme-differs", "method-differs", "oauth-version-mismatch"]),
    ("plus+not-sorted+key-without-ampersand", {"plus": True, "order": "none", "key": "no_ampersand"}, X,
     [UNSORTED], ["space-as-plus", "not-sorted", "key-mismatch"]),
]


def search_cases(all_vectors):
    """The signature search's corpus, and a control (the request signed right) per request."""
    cases, controls, seen = [], [], set()
    encoder_names = {name: finding for name, _, finding in ENCODER_CASES}
    for name, knobs, vid, changes, causes in SEARCH_CASES:
        v = all_vectors[vid]
        inputs = copy.deepcopy(v["inputs"])
        for field, value in changes:
            inputs[field] = value
        right = base_string(inputs, {})
        theirs = base_string(inputs, knobs)
        sig = signature(inputs, theirs, knobs)
        assert knobs.get("key") or theirs != right, name
        assert signature(inputs, theirs, {}) != sig or not knobs.get("key"), name
        entry = {
            "id": f"search-{name}",
            "vector": vid,
            "source": v["source"],
            "inputs": inputs,
            "knobs": knobs,
            "causes": causes,
            "first_cause": min(causes, key=CODES.index),
            "expected_base_string": right,
            "theirs": {"base_string": theirs, "signature": sig},
        }
        if knobs.get("encoder") in encoder_names:
            entry["encoder"] = encoder_names[knobs["encoder"]]
        if changes:
            entry["changed"] = "; ".join(f"{f} changed to {val!r} so that the mistake shows" for f, val in changes)
        cases.append(entry)
        key = json.dumps(inputs, sort_keys=True)
        if key not in seen:
            seen.add(key)
            controls.append({
                "id": f"control-{len(controls) + 1}",
                "vector": vid,
                "source": v["source"],
                "inputs": inputs,
                "signature": signature(inputs, right, {}),
            })
    return cases, controls


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
            "knobs": knobs,
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
    search, controls = search_cases(all_vectors)
    text = json.dumps(
        {
            "schema": "cases of `oauth1 explain`: a public vector's request, and what a side making "
            "one mistake signs; written by tests/peers/explain_fixtures.py",
            "count": len(cases),
            "cases": cases,
            "search_schema": "the signature search's corpus: a public vector's request (changed where "
            "said), the mistakes `knobs` of this file's signer, the causes they are, the first cause an "
            "explanation from the signature alone must name, and the real encoder it must name",
            "search": search,
            "controls": controls,
        },
        indent=1,
        ensure_ascii=False,
    ) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if OUT.exists() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"wrote {len(cases)} cases, {len(search)} search cases and {len(controls)} controls "
          f"to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
