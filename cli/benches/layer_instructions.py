#!/usr/bin/env python3
"""The verifying layer's cost in instructions inside a real axum service:
callgrind's count of what one request costs the service process, behind
`VerifyLayer` (memory store) and on the bare route, and where the layer's
share goes. Counted, not timed: a run repeats its figures within about 0.1 %
(the runtime's idle polling is all that moves), whatever else the machine runs.

Usage:
  python3 cli/benches/layer_instructions.py [REQUESTS]   (default 1000)

Each service is `cli/benches/axum_layer.rs` started as `--server bare|memory`
under `valgrind --tool=callgrind`. Requests are signed with oauthlib
(tests/peers/requirements.txt), each with a fresh nonce, for the URL the
service verifies against, and sent one at a time on one kept-alive
connection. After 50 warm-up requests the counters are zeroed
(`callgrind_control -z`), REQUESTS are sent, and the counters dumped
(`callgrind_control -d`): the dump holds those requests' instructions in
user space, in every thread of the service (the kernel's work, the system
calls and the wake-ups, is not counted). Needs valgrind (`apt-get install
valgrind`) and oauthlib (`pip install -r tests/peers/requirements.txt`).
"""
import glob
import os
import http.client
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oauthlib.oauth1 import Client

ROOT = Path(__file__).resolve().parents[2]
WARM_UP = 50
PATH = "/1.1/statuses/show.json"
# axum_layer.rs's credentials.
CLIENT = Client(
    "bench-consumer",
    client_secret="bench-consumer-secret",
    resource_owner_key="bench-token",
    resource_owner_secret="bench-token-secret",
)
# Where the layer's count goes: callgrind's inclusive count of each, a request.
PARTS = [
    ("the layer's future (all of the below and the route)", r"VerifyService<Inner,S,N> as tower_service::Service<.*>>::call::\{\{closure\}\} \["),
    ("  the request's head read (Received::from_http)", r"Received>::from_http \["),
    ("  Verifier::read (URL, parameters, header, checks, base string)", r"Verifier<S,N>::read \["),
    ("  Verifier::finish (secrets, MAC, store's key, store, Verified)", r"Verifier<S,N>::finish::\{\{closure\}\} \["),
    ("    the signature's MAC (HMAC-SHA1, soft SHA-1 under valgrind)", r"verify::checks::signature_matches \["),
    ("    the store's key (NonceKey::new, soft SHA-256 under valgrind)", r"NonceKey::new \["),
    ("    the memory store's check", r"MemoryNonceStore as .*NonceStore>::remember \["),
    ("    the Verified built", r"Verified::new \["),
    ("  the Verified put in the request's extensions", r"http::extensions::Extensions::insert \["),
]


def bench_binary():
    out = subprocess.run(
        ["cargo", "bench", "--quiet", "-p", "oauth1-cli", "--bench", "axum_layer", "--no-run",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "axum_layer" \
                and msg.get("executable"):
            return msg["executable"]
    sys.exit("no axum_layer executable in cargo's messages")


def count(binary, kind, n, tmp):
    """The dump of `n` requests to the service `kind`."""
    out = f"{tmp}/{kind}"
    p = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", binary, "--server", kind],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        m = re.search(r"listening on http://([^:]+):(\d+)", p.stdout.readline())
        if not m:
            sys.exit(f"{kind}: the service did not say where it listens")
        host, port = m.group(1), int(m.group(2))
        base = f"http://{host}:{port}"
        headers = [CLIENT.sign(base + PATH, http_method="GET")[1]["Authorization"]
                   for _ in range(WARM_UP + n)]
        conn = http.client.HTTPConnection(host, port, timeout=60)

        def send(authorization):
            conn.request("GET", PATH, headers={"Authorization": authorization})
            answer = conn.getresponse()
            body = answer.read()
            if answer.status != 200:
                sys.exit(f"{kind}: {answer.status} {body[:200]!r}")

        for h in headers[:WARM_UP]:
            send(h)
        subprocess.run(["callgrind_control", "-z", str(p.pid)], check=True, capture_output=True)
        for h in headers[WARM_UP:]:
            send(h)
        subprocess.run(["callgrind_control", "-d", str(p.pid)], check=True, capture_output=True)
        # The dump is written while the service runs on: it is whole once
        # its last line, `totals:`, is there.
        for _ in range(600):
            dumps = glob.glob(f"{out}.{p.pid}.*")
            if dumps and re.search(r"^totals: ", Path(dumps[0]).read_text(), re.M):
                return dumps[0]
            time.sleep(0.1)
        sys.exit(f"{kind}: callgrind wrote no whole dump in 60 s")
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


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    binary = bench_binary()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.environ.get("LAYER_DUMPS", tmp)
        dumps = {kind: count(binary, kind, n, tmp) for kind in ("bare", "memory")}
        bare, layered = (total(dumps[k]) / n for k in ("bare", "memory"))
        print(f"{n} requests, GET {PATH}, oauthlib's header; instructions a request, user space:")
        print(f"  bare route                  {bare:>9,.0f}")
        print(f"  VerifyLayer, memory store   {layered:>9,.0f}")
        print(f"  the layer adds              {layered - bare:>9,.0f}")
        rows = inclusive(dumps["memory"])
        print("where the layered service's count goes (inclusive, a request):")
        for what, pattern in PARTS:
            found = [c for c, name in rows if re.search(pattern, name)]
            print(f"  {what:<68} {max(found) / n if found else 0:>9,.0f}")


if __name__ == "__main__":
    main()
