#!/usr/bin/env python3
"""Turns one criterion run (target/criterion) into the ratio tables of BENCHMARKS.md.

Usage: python3 benches/ratios.py [CRITERION_DIR]
The directory defaults to $CARGO_TARGET_DIR/criterion or target/criterion.
Times are criterion's point estimates of the mean; ratios are taken within the run.
"""
import json
import os
import sys
from pathlib import Path


def load(root):
    out = {}
    for bench in root.rglob("new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        out[meta["full_id"]] = (est["mean"]["point_estimate"], meta.get("throughput"))
    return out


def ns(t):
    return f"{t / 1000:.2f} µs" if t >= 1000 else f"{t:.0f} ns"


def gbs(t, tp):
    return (tp["Bytes"] / t) if tp and "Bytes" in tp else float("nan")  # bytes/ns = GB/s


def main():
    default = Path(os.environ.get("CARGO_TARGET_DIR", "target")) / "criterion"
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    r = load(root)
    get = lambda k: r.get(k, (float("nan"), None))[0]

    print("### Signing (header string out)\n")
    print("| request | ours, reused signer | ours, fresh signer | oauth1-request 0.6, derive | oauth1-request 0.6, ParameterList "
          "| floor, key reused | floor, key per call | ours ÷ floor (reused) | oauth1-request (derive) ÷ ours | verify |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case, label in [("x_docs", "X docs \"Creating a signature\" (POST)"),
                        ("get20_non_ascii", "GET, 20 non-ASCII query parameters")]:
        ours, fresh = get(f"{case}/ours_reused"), get(f"{case}/ours_fresh")
        derive, peer = get(f"{case}/oauth1_request_derive"), get(f"{case}/oauth1_request")
        fr, fp, ver = get(f"{case}/floor_reused"), get(f"{case}/floor_per_call"), get(f"{case}/verify")
        print(f"| {label} | {ns(ours)} | {ns(fresh)} | {ns(derive)} | {ns(peer)} | {ns(fr)} | {ns(fp)} "
              f"| **{ours / fr:.2f}×** | **{derive / ours:.2f}×** | {ns(ver)} |")

    for group, title, contenders in [
        ("encode", "Percent-encoding throughput (GB/s)", ["ours", "percent_encoding", "urlencoding", "memcpy"]),
        ("decode", "Strict decoding throughput (GB/s of encoded input)", ["ours_strict", "percent_encoding", "urlencoding"]),
    ]:
        print(f"\n### {title}\n")
        print("| corpus | " + " | ".join(contenders) + f" | ours ÷ percent_encoding (speed) |")
        print("|---|" + "---|" * (len(contenders) + 1))
        for corpus in ["identifiers", "tweet", "non_ascii"]:
            for size in ["1KiB", "64KiB"]:
                cells, speeds = [], {}
                for c in contenders:
                    t, tp = r.get(f"{group}/{c}/{corpus}/{size}", (float("nan"), None))
                    speeds[c] = gbs(t, tp)
                    cells.append(f"{speeds[c]:.2f}")
                ours = speeds[contenders[0]]
                print(f"| {corpus} {size} | " + " | ".join(cells) + f" | **{ours / speeds['percent_encoding']:.2f}×** |")


if __name__ == "__main__":
    main()
