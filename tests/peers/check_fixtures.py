#!/usr/bin/env python3
"""Run both peers over the public vectors in fixtures/ and report agreement per peer per vector.

Standard library only. Vectors used:
  * every `kind: request` vector of fixtures/signatures.json and fixtures/base_string.json
    (compared: base_string, and signature where `expected` has one);
  * every `kind: build` vector of fixtures/headers.json whose expected header_params hold an
    oauth_signature (compared: signature).
normalized_params and base_string_uri are compared too when the vector and the peer both have
them; they are reported but do not decide agreement (the base string contains both).

Every disagreement must be one listed in KNOWN below (each is explained in README.md), and
the tally must be the one README.md cites ("| oauthlib | **66/66** | 0 |"). Exit status: 0 if
all of that holds; 1 if a peer disagrees on a vector not listed, a listed one now agrees, or
the tally differs from README.md; 2 if a peer cannot be run. Use --verbose to print the
differing values.

    python3 tests/peers/check_fixtures.py [--verbose] [--peer oauthlib|oauth-1.0a]
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "fixtures")

PEERS = {
    "oauthlib": [sys.executable, os.path.join(HERE, "oauthlib_peer.py")],
    "oauth-1.0a": ["node", os.path.join(HERE, "oauth_1_0a_peer.js")],
}

# (peer, vector key) -> deviation class (see README.md, "Known deviations").
_DDO_EMPTY_PATH = "empty path kept (no '/'), README deviation J-URI-PATH"
_DDO_ENCODED_NAME = "query names not percent-decoded, README deviation J-QUERY-NAME"
_DDO_QUERY_WINS = "same name in query and body: body value dropped, README deviation J-DUP-QB"
_DDO_SIGNS_SIG = "oauth_signature is signed, README deviation J-OAUTH-SIGNATURE"
_DDO_HOST_CASE = "scheme/host case kept, README deviation J-URI-CASE"
KNOWN = {}
for key in (
    "signatures:oauthlib-client-hmac-sha1",
    "signatures:oauthlib-client-hmac-sha256",
    "signatures:oauthlib-client-rsa-sha1",
    "signatures:oauthlib-client-plaintext",  # base string only: PLAINTEXT ignores it
    "base_string:oauth-net-testcases-concat-2",
    "base_string:dghubble-signature-base-port",
    "headers:oauthlib-client-hmac-sha1",
    "headers:oauthlib-client-hmac-sha256",
    "headers:oauthlib-client-rsa-sha1",
):
    KNOWN[("oauth-1.0a", key)] = _DDO_EMPTY_PATH
KNOWN[("oauth-1.0a", "base_string:dghubble-signature-base-https-no-path")] = (
    _DDO_HOST_CASE + "; " + _DDO_EMPTY_PATH
)
for key in (
    "signatures:rfc5849-3.1-and-3.4.1.1-example",
    "base_string:rfc5849-3.1-and-3.4.1.1-example",
    "headers:rfc5849-3.1-and-3.4.1.1-example",
):
    KNOWN[("oauth-1.0a", key)] = _DDO_ENCODED_NAME + "; " + _DDO_QUERY_WINS
for key in (
    "signatures:ddo-multiple-values-body",
    "headers:ddo-multiple-values-body",
):
    KNOWN[("oauth-1.0a", key)] = _DDO_QUERY_WINS
for key in (
    "signatures:oauth-net-testcases-hmac-sha1-photos",
    "base_string:oauth-net-testcases-hmac-sha1-photos",
    "headers:oauth-net-testcases-hmac-sha1-photos",
    # PLAINTEXT: the signature does not depend on the base string, so only the base string differs
    # (the headers: copy of this vector compares the signature only, and agrees)
    "signatures:oauth-net-testcases-concat-3-request-token",
    "base_string:oauth-net-testcases-concat-3-request-token",
):
    KNOWN[("oauth-1.0a", key)] = _DDO_SIGNS_SIG


def load_vectors():
    """[(key, inputs, expected)] with expected holding base_string/signature/... to compare."""
    out = []
    for name in ("signatures", "base_string"):
        with open(os.path.join(FIXTURES, name + ".json"), encoding="utf-8") as f:
            doc = json.load(f)
        for v in doc["vectors"]:
            if v.get("kind") != "request":
                continue
            exp = {k: v["expected"][k] for k in
                   ("base_string", "signature", "normalized_params", "base_string_uri")
                   if k in v["expected"]}
            out.append(("%s:%s" % (name, v["id"]), v["inputs"], exp))
    with open(os.path.join(FIXTURES, "headers.json"), encoding="utf-8") as f:
        doc = json.load(f)
    for v in doc["vectors"]:
        if v.get("kind") != "build":
            continue
        sigs = [val for (n, val) in v["expected"].get("header_params", []) if n == "oauth_signature"]
        if len(sigs) != 1:
            continue
        out.append(("headers:%s" % v["id"], v["inputs"], {"signature": sigs[0]}))
    return out


def run_peer(cmd, vectors):
    lines = []
    for key, inputs, _ in vectors:
        req = dict(inputs)
        req["id"] = key
        lines.append(json.dumps(req, ensure_ascii=True))
    start = time.monotonic()
    proc = subprocess.run(cmd, input=("\n".join(lines) + "\n").encode("utf-8"),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (cmd, proc.returncode,
                                                  proc.stderr.decode("utf-8", "replace")))
    answers = [json.loads(l) for l in proc.stdout.decode("utf-8").splitlines()]
    if len(answers) != len(vectors):
        raise RuntimeError("%s answered %d lines for %d requests" % (cmd, len(answers), len(vectors)))
    for (key, _, _), ans in zip(vectors, answers):
        if ans.get("id") != key:
            raise RuntimeError("%s answered out of order: %r for %r" % (cmd, ans.get("id"), key))
    return answers, elapsed


def compare(expected, answer):
    """(decisive differences, informational differences), each a list of (field, exp, got)."""
    if "error" in answer:
        return [("error", None, answer["error"])], []
    decisive, info = [], []
    for field in ("base_string", "signature"):
        if field in expected and expected[field] != answer.get(field):
            decisive.append((field, expected[field], answer.get(field)))
    for field in ("normalized_params", "base_string_uri"):
        if field in expected and field in answer and expected[field] != answer[field]:
            info.append((field, expected[field], answer[field]))
    return decisive, info


def bench(n, peers):
    vectors = load_vectors()
    batch = [("bench-%d" % i, vectors[i % len(vectors)][1], None) for i in range(n)]
    methods = {}
    for _, inputs, _ in batch:
        m = inputs.get("signature_method", "(none)")
        methods[m] = methods.get(m, 0) + 1
    print("batch of %d requests; signature methods: %s" % (n, ", ".join(
        "%s %d" % kv for kv in sorted(methods.items()))))
    for peer in peers:
        answers, elapsed = run_peer(PEERS[peer], batch)
        errors = sum(1 for a in answers if "error" in a)
        print("%-10s %.2fs wall for %d requests (%d error lines)" % (peer, elapsed, n, errors))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--peer", choices=sorted(PEERS), action="append")
    ap.add_argument("--bench", type=int, metavar="N",
                    help="only time each peer on one batch of N requests (the vectors, cycled)")
    args = ap.parse_args()
    if args.bench:
        return bench(args.bench, args.peer or list(PEERS))

    vectors = load_vectors()
    peers = args.peer or list(PEERS)
    results, failed = {}, False
    for peer in peers:
        try:
            results[peer] = run_peer(PEERS[peer], vectors)
        except Exception as e:  # noqa: BLE001
            print("PEER %s FAILED TO RUN: %s" % (peer, e))
            failed = True
    if failed:
        print("install the peers: python3 -m pip install -r tests/peers/requirements.txt"
              " / npm ci --prefix tests/peers")
        return 2

    width = max(len(k) for k, _, _ in vectors)
    print("%-*s  %s" % (width, "vector", "  ".join("%-12s" % p for p in peers)))
    tally = {p: {"agree": 0, "disagree": 0, "known": 0, "unexpected": 0} for p in peers}
    problems = []
    for i, (key, _, expected) in enumerate(vectors):
        cells, notes = [], []
        for peer in peers:
            decisive, info = compare(expected, results[peer][0][i])
            known = KNOWN.get((peer, key))
            if not decisive:
                tally[peer]["agree"] += 1
                cells.append("agree")
                if known:
                    problems.append("%s now agrees on %s (listed as known: %s)" % (peer, key, known))
            else:
                tally[peer]["disagree"] += 1
                if known:
                    tally[peer]["known"] += 1
                    cells.append("DISAGREE*")
                    notes.append("    %s: %s" % (peer, known))
                else:
                    tally[peer]["unexpected"] += 1
                    cells.append("DISAGREE!")
                    problems.append("%s disagrees on %s (not a known deviation)" % (peer, key))
            if args.verbose:
                for field, exp, got in decisive + info:
                    notes.append("    %s %s\n      expected %r\n      got      %r" % (peer, field, exp, got))
        print("%-*s  %s" % (width, key, "  ".join("%-12s" % c for c in cells)))
        for n in notes:
            print(n)

    print()
    print("* = known, documented deviation (README.md); ! = unexplained")
    for peer in peers:
        t = tally[peer]
        print("%-10s agree %d/%d, disagree %d (known %d, unexplained %d); batch of %d took %.2fs"
              % (peer, t["agree"], len(vectors), t["disagree"], t["known"], t["unexpected"],
                 len(vectors), results[peer][1]))
    if not args.peer:
        problems += readme_mismatches(tally, len(vectors))
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


def readme_mismatches(tally, total):
    """Differences between this run's tally and the figures README.md cites."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        text = f.read()
    out = []
    if "`python3 tests/peers/check_fixtures.py` \u2014 %d vectors" % total not in text:
        out.append("README.md does not say %d vectors" % total)
    for peer, t in tally.items():
        row = "| %s | **%d/%d** | %d |" % (peer, t["agree"], total, t["disagree"])
        if row not in text:
            out.append("README.md has no row %r" % row)
    return out


if __name__ == "__main__":
    sys.exit(main())
