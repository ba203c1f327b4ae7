#!/usr/bin/env python3
"""What one request costs a real service, counted by callgrind, not timed:
the verifying layer inside an axum service against the same route bare
(issue 40 item 1), and `oauth1 serve` against a bare hyper server with
serve's runtime (item 2); where the verifying side's share goes. A run
repeats its figures within about 1 % (the runtime's idle polling is all that
moves), whatever else the machine runs.

Usage:
  python3 cli/benches/service_instructions.py [layer|serve|all] [REQUESTS]
  (default: all, 1000 requests)

The services are the load benches' own: `cli/benches/axum_layer.rs` started
as `--server bare|memory`, `cli/benches/serve.rs` as `--floor`, and
`oauth1 serve --nonce-store memory` with serve's bench credentials. Each runs
under `valgrind --tool=callgrind`. Requests are signed with oauthlib
(tests/peers/requirements.txt), each with a fresh nonce, for the URL the
service verifies against, and sent one at a time on one kept-alive
connection. After 50 warm-up requests the counters are zeroed
(`callgrind_control -z`), REQUESTS are sent, and the counters dumped
(`callgrind_control -d`): the dump holds those requests' instructions in
user space, in every thread of the service (the kernel's work, the system
calls and the wake-ups, is not counted). Needs valgrind (`apt-get install
valgrind`) and oauthlib (`pip install -r tests/peers/requirements.txt`).
LAYER_DUMPS=DIR keeps the dumps there.
"""
import glob
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oauthlib.oauth1 import Client

ROOT = Path(__file__).resolve().parents[2]
WARM_UP = 50
# axum_layer.rs's credentials and route.
LAYER_CLIENT = Client(
    "ck-bench",
    client_secret="cs-bench",
    resource_owner_key="tk-bench",
    resource_owner_secret="ts-bench",
)
LAYER_PATH = "/1.1/statuses/show.json"
# serve.rs's (tests/common/provider.rs) credentials and requests.
SERVE_KEYS = {
    "consumer_key": "test-consumer-key-0001",
    "consumer_secret": "test-consumer-secret-0001",
    "token": "test-access-token-0001",
    "token_secret": "test-access-secret-0001",
}
SERVE_CLIENT = Client(
    SERVE_KEYS["consumer_key"],
    client_secret=SERVE_KEYS["consumer_secret"],
    resource_owner_key=SERVE_KEYS["token"],
    resource_owner_secret=SERVE_KEYS["token_secret"],
)


def serve_path(i):
    return f"/1.1/statuses/show.json?id={i}&include_entities=true"


# Where the verifying service's count goes: callgrind's inclusive count of
# each, a request (the largest line that names it: a function inlined into
# another is also listed, in part, under the other's file).
VERIFYING = [
    ("  Verifier::read (URL, parameters, header, checks, base string)", r"Verifier<S,N>::read \["),
    ("  Verifier::finish (secrets, MAC, store's key, store, Verified)", r"Verifier<S,N>::finish::\{\{closure\}\} \["),
    ("    the signature's MAC (HMAC-SHA1, soft SHA-1 under valgrind)", r"verify::checks::signature_matches \["),
    ("    the store's key (NonceKey::new, soft SHA-256 under valgrind)", r"NonceKey::new \["),
    ("    the memory store's check", r"MemoryNonceStore as .*NonceStore>::remember \["),
    ("    the Verified built", r"verified::Verified::new\b"),
]
LAYER_PARTS = [
    ("the layer's future (all of the below and the route)", r"VerifyService<Inner,S,N> as tower_service::Service<.*>>::call::\{\{closure\}\} \["),
    ("  the request's head read (Received::from_http)", r"Received>::from_http \["),
    *VERIFYING,
    ("  the Verified put in the request's extensions", r"http::extensions::Extensions::insert \["),
]
SERVE_PARTS = [
    ("  the verdict (verification, the verdict's JSON)", r"oauth1_cli::serve::answer::Server::verdict::\{\{closure\}\} \["),
    *VERIFYING,
    ("    the verdict's texts (method, URI, parameter string)", r"oauth1_cli::verdict::verdict_json \["),
    ("    the answer's JSON written (Verified::params read as it goes)", r"oauth1_cli::json::terminal_json\b"),
    ("  the logged target's signature redacted", r"oauth1_signer::text::redact::redact_url \["),
    ("  the logged target's secrets redacted", r"oauth1_signer::text::redact::redact_secrets \["),
    ("  the log line built (control characters escaped)", r"oauth1_cli::serve::log::text_line\b"),
]


def executables(bench):
    """The executables `cargo bench --no-run` builds for `bench`: its own and the CLI's."""
    out = subprocess.run(
        ["cargo", "bench", "--quiet", "-p", "oauth1-cli", "--bench", bench, "--no-run",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            found[msg["target"]["name"]] = msg["executable"]
    if bench not in found:
        sys.exit(f"no {bench} executable in cargo's messages")
    return found


def count(name, command, client, path, n, tmp, env=None):
    """The dump of `n` requests to the service `command` starts."""
    out = f"{tmp}/{name}"
    p = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", *command],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        line = ""
        while "listening on" not in line:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"{name}: the service did not say where it listens")
        m = re.search(r"listening on http://([^:/\s]+):(\d+)", line)
        host, port = m.group(1), int(m.group(2))
        base = f"http://{host}:{port}"
        requests = [(path(i), client.sign(base + path(i), http_method="GET")[1]["Authorization"])
                    for i in range(WARM_UP + n)]
        conn = http.client.HTTPConnection(host, port, timeout=60)

        def send(target, authorization):
            conn.request("GET", target, headers={"Authorization": authorization})
            answer = conn.getresponse()
            body = answer.read()
            if answer.status != 200:
                sys.exit(f"{name}: {answer.status} {body[:200]!r}")

        for target, h in requests[:WARM_UP]:
            send(target, h)
        subprocess.run(["callgrind_control", "-z", str(p.pid)], check=True, capture_output=True)
        for target, h in requests[WARM_UP:]:
            send(target, h)
        subprocess.run(["callgrind_control", "-d", str(p.pid)], check=True, capture_output=True)
        # The dump is written while the service runs on: it is whole once
        # its last line, `totals:`, is there.
        for _ in range(600):
            dumps = glob.glob(f"{out}.{p.pid}.*")
            if dumps and re.search(r"^totals: ", Path(dumps[0]).read_text(), re.M):
                return dumps[0]
            time.sleep(0.1)
        sys.exit(f"{name}: callgrind wrote no whole dump in 60 s")
    finally:
        p.kill()
        p.wait()


def total(dump):
    m = re.search(r"^summary: (\d+)", Path(dump).read_text(), re.M)
    return int(m.group(1))


def inclusive(dump):
    """callgrind_annotate's inclusive count of each function, by its line's text."""
    # Run in the dump's folder, away from the sources: where it finds them
    # (from the repository's root), callgrind_annotate lists a function's
    # inlined parts under their own files, and the inclusive lines read here
    # are not the function's whole.
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", dump],
                          cwd=Path(dump).parent, check=True, capture_output=True,
                          text=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\([^)]*\))?\s+(.*)", line)
        if m:
            rows.append((int(m.group(1).replace(",", "")), m.group(2)))
    return rows


def report(title, n, bare_name, bare, name, dump, parts):
    measured = total(dump) / n
    print(title)
    print(f"  {bare_name:<40} {bare:>9,.0f}")
    print(f"  {name:<40} {measured:>9,.0f}")
    print(f"  {'the difference':<40} {measured - bare:>9,.0f}   (bare ÷ this: {bare / measured:.2f})")
    print("  where it goes (inclusive, a request):")
    table = inclusive(dump)
    for what, pattern in parts:
        found = [c for c, line in table if re.search(pattern, line)]
        # Not found: inlined into its caller (an LTO build), so counted there.
        figure = f"{max(found) / n:>9,.0f}" if found else "  inlined"
        print(f"    {what:<70} {figure}")


def main():
    which = next((a for a in sys.argv[1:] if a in ("layer", "serve", "all")), "all")
    n = next((int(a) for a in sys.argv[1:] if a.isdigit()), 1000)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.environ.get("LAYER_DUMPS", tmp)
        if which in ("layer", "all"):
            axum = executables("axum_layer")["axum_layer"]
            path = lambda i: LAYER_PATH  # noqa: E731
            bare = total(count("bare", [axum, "--server", "bare"], LAYER_CLIENT, path, n, tmp)) / n
            layered = count("memory", [axum, "--server", "memory"], LAYER_CLIENT, path, n, tmp)
            report(f"{n} GET {LAYER_PATH}, oauthlib's header; instructions a request, user space:",
                   n, "axum, the bare route", bare, "VerifyLayer, memory store", layered,
                   LAYER_PARTS)
        if which in ("serve", "all"):
            found = executables("serve")
            floor = total(count("floor", [found["serve"], "--floor"], SERVE_CLIENT, serve_path, n,
                                tmp)) / n
            serve = count(
                "serve",
                [found["oauth1"], "serve", "--listen", "127.0.0.1:0", "--nonce-store", "memory",
                 "--consumer-key", SERVE_KEYS["consumer_key"], "--token", SERVE_KEYS["token"]],
                SERVE_CLIENT, serve_path, n, tmp,
                env={"OAUTH_CONSUMER_SECRET": SERVE_KEYS["consumer_secret"],
                     "OAUTH_TOKEN_SECRET": SERVE_KEYS["token_secret"]},
            )
            report(f"{n} GET {serve_path('N')}, oauthlib's header; instructions a request, user space:",
                   n, "the floor (bare hyper, serve's runtime)", floor,
                   "oauth1 serve, memory store", serve, SERVE_PARTS)


if __name__ == "__main__":
    main()
