#!/usr/bin/env python3
"""Writes fixtures/explain_corpus.json: every case of fixtures/explain.json (`cases`, `search`,
`controls`) in the four inputs a person holds when a provider refuses a request — their base
string, their signature alone, the request as Chrome's "Copy as cURL (bash)" and Firefox's
"Copy as cURL (POSIX)" write it, and the raw HTTP/1.1 request — each with the first cause an
explanation must name from that input (or "matches", or "unexplained" where the input cannot
tell the mistake), and why.

What is signed, and with which mistake, is fixtures/explain.json's (tests/peers/explain_fixtures.py,
its own RFC 5849 signer with mistake knobs; this script checks it reproduces each signature).
What is sent is worked out here per mistake class (`sent`), and written by the generators
tests/peers/capture_fixtures.py already cites and uses for fixtures/captures/generators.json
(Chromium's and Firefox's "Copy as cURL", raw HTTP/1.1): not a second writer.

    python3 tests/peers/explain_corpus.py            # rewrite fixtures/explain_corpus.json
    python3 tests/peers/explain_corpus.py --check    # exit 1 if the file would change
"""

import json
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import capture_fixtures as cf  # noqa: E402  (the generators' writers)
import explain_fixtures as ef  # noqa: E402  (the independent signer and its knobs)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "fixtures" / "explain.json"
OUT = ROOT / "fixtures" / "explain_corpus.json"
INPUTS = ("base_string", "signature", "chrome", "firefox", "http")
CAPTURES = ("chrome", "firefox", "http")

# Why an input's expected answer is not the case's first cause: per mistake class (a knob of
# explain_fixtures.py), what the request as sent shows of it.
SENT_AS_SIGNED = {
    "timestamp_ms": "the client sends the timestamp it signed (in milliseconds): recomputed with the "
                    "capture's own values the signature is right; the provider refuses the timestamp "
                    "(X's code 135), which the answer's clock tells, not the signature",
    "replace": "the client sends the nonce or timestamp it signed: the capture's own are signed, and "
               "the signature is right for them",
    "version_drop": "the client sends no oauth_version and signs none: that is a right request "
                    "(RFC 5849 §3.1, the version is optional)",
    "version_1.0a": "the client sends oauth_version=\"1.0a\" (RFC 5849 §3.1: if present, it MUST be "
                    "1.0): the capture shows it, and Explainer::protocol compares the protocol "
                    "parameters sent before it searches the signature (signed with them), so the "
                    "version is said first, then the search's causes",
}
NEVER_TRAVELS = {
    "replace": "their nonce or timestamp is not ours: a signature alone cannot tell which value they "
               "signed",
    "fragment_in_uri": "a fragment is never sent (RFC 9110 §4.2.4; curl and browsers drop it): the "
                       "capture cannot tell it was signed",
    "keep_case": "the scheme's case never travels (the request line has no scheme; a browser "
                 "lower-cases the URL it shows): the capture cannot tell the mistake",
    "extra": "a parameter signed but never sent: a signature cannot tell which (RFC 5849 §3.4.1.3), "
             "only their base string can",
    "signature_signed": "oauth_signature's own value signed: a signature cannot tell it, only their "
                        "base string can",
}


def sent_url(url, for_browser):
    """The URL as the request carries it: no fragment (RFC 9110 §4.2.4, curl and browsers drop
    it), a path at least `/` (RFC 9112 §3.2.1's origin-form); a browser shows the scheme and host
    in lower case (WHATWG URL's host parser)."""
    parts = urlsplit(url)
    scheme, netloc = parts.scheme, parts.netloc
    if for_browser:
        scheme, netloc = scheme.lower(), netloc.lower()
    else:
        scheme = url.split(":", 1)[0]
        netloc = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def sent_body(inputs, knobs):
    """The form body as the client sends it: written by the client's own encoder where its mistake
    is in the encoder it uses for names and values (the server decodes the same values)."""
    body = inputs.get("form_body")
    if body is None:
        return None
    k = ef.encoder(knobs, "values")
    if not any(k.get(n) for n in ef.ENCODER_KNOBS) or knobs.get("depth") in ("raw", "twice"):
        return body
    return "&".join(f"{ef.enc(n, k)}={ef.enc(v, k)}" for n, v in ef.form_pairs(body))


def sent_header(inputs, sig, knobs):
    """The Authorization header the client sends: the protocol values it signed."""
    values = dict(inputs)
    if knobs.get("timestamp_ms"):
        values["timestamp"] = inputs["timestamp"] + "000"
    if knobs.get("version") == "1.0a":
        values["version"] = "1.0a"
    if knobs.get("replace"):
        values[knobs["replace"][0][len("oauth_"):]] = knobs["replace"][1]
    return ef.header(values, sig, knobs)


def requests(inputs, knobs, header, unsigned_body):
    """The request as Chrome, Firefox and a proxy saw it: (chrome's, firefox's, raw's, scheme)."""
    body = unsigned_body if unsigned_body is not None else sent_body(inputs, knobs)
    media = "application/json" if unsigned_body is not None else cf.FORM
    method = inputs["method"].upper()  # a lower-case method is sent upper-case (Node's http, axios)
    before, after = cf.chrome_headers()
    extra = [("content-type", media)] if body is not None else []
    chrome = {"method": method, "url": sent_url(inputs["url"], True), "body": body,
              "headers": before + [("authorization", header)] + extra + after}
    ff_headers = [("Host", urlsplit(chrome["url"]).netloc), ("User-Agent", cf.UA_FIREFOX),
                  ("Accept", "*/*"), ("Accept-Language", "en-US,en;q=0.5"),
                  ("Authorization", header)] + [("Content-Type", media)] * (body is not None)
    firefox = dict(chrome, headers=ff_headers)
    raw = {"method": method, "url": sent_url(inputs["url"], False), "body": body,
           "headers": [("Authorization", header)] + [("Content-Type", media)] * (body is not None)
           + [("User-Agent", "curl/8.5.0"), ("Accept", "*/*")]}
    return (cf.chromium(chrome, "posix"), cf.firefox(firefox, "posix"), cf.raw_http(raw).decode(),
            urlsplit(inputs["url"]).scheme.lower())


def expected(entry, kind, knobs):
    """The first cause each input must name, every cause it must name, and why where the first
    is not the case's own."""
    if kind == "control":
        return {i: "matches" for i in INPUTS}, {i: [] for i in INPUTS}, {}
    if kind == "search":
        causes = list(entry["causes"])
        first = entry["first_cause"]
    else:
        causes = [entry["cause"]]
        named_from = entry["named_from"]
        first = entry["cause"]
    out = {"base_string": first, "signature": first}
    named = {"signature": causes}
    why = {}
    # A mistake in the key leaves their base string right.
    in_base = [c for c in causes if c != "key-mismatch"]
    named["base_string"] = in_base
    if in_base != causes:
        out["base_string"] = min(in_base, key=ef.CODES.index) if in_base else "matches"
        if not in_base:
            why["base_string"] = ("their base string is the right one: the mistake is in the key, "
                                  "which only a signature shows")
    if kind == "case" and not named_from["s"]:
        out["signature"] = "unexplained"
        named["signature"] = []
        reason = next((NEVER_TRAVELS[k] for k in ("extra", "signature_signed", "replace") if knobs.get(k)),
                      "a signature alone cannot tell it")
        why["signature"] = reason
    # What the capture shows.
    capture_causes = list(causes)
    capture_why = None
    if knobs.get("timestamp_ms"):
        capture_causes.remove("timestamp-differs")
        capture_why = SENT_AS_SIGNED["timestamp_ms"]
    if knobs.get("replace"):
        capture_causes = []
        capture_why = SENT_AS_SIGNED["replace"]
    if knobs.get("version") == "drop":
        capture_causes = []
        capture_why = SENT_AS_SIGNED["version_drop"]
    if capture_causes:
        capture = min(capture_causes, key=ef.CODES.index)
    else:
        capture = "matches"
    if knobs.get("version") == "1.0a":
        capture, capture_why = "oauth-version-mismatch", SENT_AS_SIGNED["version_1.0a"]
    for k in ("keep_case", "extra", "signature_signed", "fragment_in_uri"):
        if knobs.get(k) and (k != "signature_signed" or knobs[k] is True):
            capture, capture_why, capture_causes = "unexplained", NEVER_TRAVELS[k], []
    for i in CAPTURES:
        out[i] = capture
        named[i] = capture_causes
        if capture_why and capture != first:
            why[i] = capture_why
    return out, named, why


# Mistakes no input but their base string can tell, each on a vector of fixtures/explain.json's
# controls: (name, vector, the URL the client signs, the consumer secret it signs with, the
# first cause their base string shows, why).
UNTOLD = [
    ("dot-segments", "x-docs-creating-a-signature",
     "https://api.x.com/1.1/./statuses/../statuses/update.json?include_entities=true", None,
     "path-differs",
     "the client signs the path as given, with dot segments, and its HTTP client removes them "
     "before sending (RFC 3986 §5.2.4; curl does unless --path-as-is, browsers always): the request "
     "meant and sent has none, so neither their signature nor a capture can tell it"),
    ("wrong-consumer-secret", "x-docs-creating-a-signature", None,
     "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBx", "matches",
     "another consumer secret: their base string is right, and no catalogued key mistake of ours "
     "reproduces their signature (a secret is not guessed)"),
]


def untold(doc):
    """The UNTOLD cases, as corpus entries of explain.json's shape."""
    controls = {c["vector"]: c for c in doc["controls"]}
    out = []
    for name, vid, signed_url, secret, base_cause, why in UNTOLD:
        control = controls[vid]
        inputs = control["inputs"]
        signed = dict(inputs, url=signed_url or inputs["url"],
                      consumer_secret=secret or inputs["consumer_secret"])
        base = ef.base_string(signed, {})
        sig = ef.signature(signed, base, {})
        assert sig != control["signature"], name
        out.append(({"id": f"untold-{name}", "vector": vid, "source": control["source"],
                     "inputs": inputs, "signed_inputs": signed, "theirs": {"base_string": base, "signature": sig},
                     "why": why},
                    {"base_string": base_cause, "signature": "unexplained", **{i: "unexplained" for i in CAPTURES}}))
    return out


def corpus(doc):
    out = []
    lists = [("case", c) for c in doc["cases"]] + [("search", c) for c in doc["search"]] + [
        ("control", c) for c in doc["controls"]] + [("untold", c) for c in untold(doc)]
    for kind, entry in lists:
        if kind == "untold":
            entry, want = entry
        inputs = entry["inputs"]
        knobs = entry.get("knobs", {})
        if kind == "control":
            base, sig = ef.base_string(inputs, {}), entry["signature"]
        elif kind == "untold":
            base, sig = entry["theirs"]["base_string"], entry["theirs"]["signature"]
        else:
            base, sig = entry["theirs"]["base_string"], entry["theirs"]["signature"]
        # The signer reproduces what fixtures/explain.json holds.
        signed = entry.get("signed_inputs", inputs)
        assert ef.base_string(signed, knobs) == base, entry["id"]
        assert ef.signature(signed, base, knobs) == sig, entry["id"]
        header = sent_header(inputs, sig, knobs)
        if kind == "case":
            assert header == entry["theirs"]["authorization_header"], entry["id"]
        chrome, firefox, http, scheme = requests(inputs, knobs, header, entry.get("unsigned_body"))
        if kind == "untold":
            named = {i: [c] if c not in ("matches", "unexplained") else [] for i, c in want.items()}
            why = {i: entry["why"] for i, c in want.items() if c != "path-differs"}
        else:
            want, named, why = expected(entry, kind, knobs)
        case = {
            "id": entry["id"],
            "of": {"case": "cases", "search": "search", "control": "controls", "untold": "untold"}[kind],
            "vector": entry["vector"],
            "source": entry["source"],
            "inputs": inputs,
            "secrets": {"consumer_secret": inputs.get("consumer_secret", ""),
                        "token_secret": inputs.get("token_secret")},
            "base_string": base,
            "signature": sig,
            "authorization": header,
            "chrome": chrome,
            "firefox": firefox,
            "http": http,
            "scheme": scheme,
            "expected": want,
            "named": named,
        }
        if entry.get("unsigned_body") is not None:
            case["unsigned_body"] = entry["unsigned_body"]
        if why:
            case["why"] = why
        out.append(case)
    return out


def main():
    doc = json.loads(SOURCE.read_text())
    cases = corpus(doc)
    text = json.dumps(
        {
            "schema": "every case of fixtures/explain.json in the four inputs a person holds: their "
                      "base string, their signature, the request as Chrome's \"Copy as cURL (bash)\" "
                      "and Firefox's \"Copy as cURL (POSIX)\" write it, and as raw HTTP/1.1; `expected` "
                      "is the first cause each must name (\"matches\", or \"unexplained\" where the "
                      "input cannot tell the mistake, `why` says so), `named` every cause it must "
                      "name; written by "
                      "tests/peers/explain_corpus.py",
            "sources": {"chrome": cf.SOURCES["chromium"] + " (bash)",
                        "firefox": cf.SOURCES["firefox"] + " (POSIX)", "http": cf.SOURCES["http"]},
            "count": len(cases),
            "cases": cases,
        },
        indent=1,
        ensure_ascii=False,
    ) + "\n"
    if "--check" in sys.argv:
        sys.exit(0 if OUT.exists() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"wrote {len(cases)} cases in {len(INPUTS)} inputs to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
