#!/usr/bin/env python3
"""The instruction-count guard: callgrind's counts of signing, verifying and
encoding, ours beside the peers', against the figures in benches/instructions.json.

Usage:
  python3 benches/instructions.py             build, measure, compare (exit 1 on a failure)
  python3 benches/instructions.py --bless     the same, then record what was measured
  python3 benches/instructions.py --markdown  the same, and print the table for BENCHMARKS.md
  python3 benches/instructions.py --cases sign_get20,peer_get20   only these (no verdict)
  python3 benches/instructions.py --times 5   and each case timed natively, best of 5 rounds

Each case is one operation of `benches/instructions` (`oauth1-instructions list`)
run N times under `valgrind --tool=callgrind --toggle-collect='*run_case*'`:
only the measured calls are counted, not the process's start-up, the set-up or
the warm-up. Counts are deterministic for one toolchain, one valgrind and one
CPU as valgrind presents it (a run repeats them exactly, but for the memory
store's hash set, whose random seed moves its count by under 0.01 %); they are
what CI compares, never times.

It fails when one of our guarded cases takes more than `tolerance` (2 %) more
instructions than recorded, or a ratio to a peer leaves its bound (a ratio of
two of ours, verify to sign, is shown against its goal: each side has its own
guard, and a cheaper signer must not fail the build). A case that got
cheaper passes, with a note to record it (`--bless`) so that the guard stays
tight. When the toolchain moves (a new rustc, a new valgrind), the counts move
with it: run `--bless` on the new toolchain, look at the diff of
benches/instructions.json (the ratios must still hold; they compare figures
built and measured together), and commit it on its own.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benches" / "instructions.json"


def toolchain():
    rustc = subprocess.run(["rustc", "-V"], capture_output=True, text=True, check=True).stdout.strip()
    valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    return {"rustc": rustc, "valgrind": valgrind}


def build():
    subprocess.run(
        ["cargo", "build", "--quiet", "--locked", "--profile", "instructions", "-p", "oauth1-instructions"],
        cwd=ROOT, check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    # A custom profile builds into target/<its name>.
    return target / "instructions" / "oauth1-instructions"


def measure(binary, case, runs):
    """Instructions per call of `case`: callgrind's total over `runs` calls."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=*run_case*",
             f"--callgrind-out-file={out}", str(binary), case, str(runs)],
            check=True, capture_output=True, text=True,
        )
        text = out.read_text()
    m = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if not m or int(m.group(1)) == 0:
        sys.exit(f"{case}: callgrind counted nothing (is `run_case` still a function of its own?)")
    return round(int(m.group(1)) / runs)


def combine(terms, counts):
    """A sum of cases with signs: {"verify_x_docs": 1, "nonce_key_x_docs": -1}."""
    return sum(sign * counts[case] for case, sign in terms.items())


def ratio_value(r, counts):
    return combine(r["numerator"], counts) / combine(r["denominator"], counts)


def main():
    args = sys.argv[1:]
    bless = "--bless" in args
    markdown = "--markdown" in args
    only = None
    if "--cases" in args:
        only = set(args[args.index("--cases") + 1].split(","))
    data = json.loads(DATA.read_text())
    now_with = toolchain()
    if now_with != data["recorded_with"]:
        print(f"note: recorded with {data['recorded_with']}, measuring with {now_with}: "
              "counts move with the toolchain (see --bless)")

    binary = build()
    counts = {}
    for case, spec in data["cases"].items():
        if only is not None and case not in only:
            continue
        counts[case] = measure(binary, case, spec["runs"])

    failures, ratio_failures, notes = [], [], []
    tolerance = data["tolerance"]
    print(f"{'case':<26} {'recorded':>11} {'measured':>11} {'change':>8}")
    for case, n in counts.items():
        spec = data["cases"][case]
        was = spec["instructions"]
        change = n / was - 1
        flag = ""
        if spec.get("guarded"):
            if change > tolerance:
                flag = f"  FAIL: more than {tolerance:.0%} over the recorded figure"
                failures.append(f"{case}: {n:,} instructions, recorded {was:,} (+{change:.2%})")
            elif change < -tolerance:
                flag = "  (cheaper: record it with --bless)"
                notes.append(case)
        print(f"{case:<26} {was:>11,} {n:>11,} {change:>+8.2%}{flag}")

    print()
    for r in data["ratios"]:
        needed = set(r["numerator"]) | set(r["denominator"])
        if not needed <= counts.keys():
            continue
        v = ratio_value(r, counts)
        bound = "no bound"
        ok = True
        if "at_least" in r:
            ok = v >= r["at_least"]
            bound = f"at least {r['at_least']}"
        if "at_most" in r:
            ok = v <= r["at_most"]
            bound = f"at most {r['at_most']}"
        goal = f", goal {r['goal']}" if "goal" in r else ""
        print(f"{r['what']}: {v:.3f}× ({bound}{goal}){'' if ok else '  FAIL'}")
        if not ok:
            ratio_failures.append(f"{r['what']}: {v:.3f}×, the bound is {bound}")

    times = {}
    if "--times" in args:
        # Never a verdict: the best time per call of each case, the cases
        # taking turns round after round (a loaded machine slows some runs,
        # not the best of several), beside its instructions.
        rounds = int(args[args.index("--times") + 1])
        for _ in range(rounds):
            for case in counts:
                if case == "verify_memory_x_docs":
                    continue  # its requests are used up as they are verified
                out = subprocess.run([str(binary), case, str(data["cases"][case]["runs"])],
                                     env={**os.environ, "TIME": "1"}, check=True,
                                     capture_output=True, text=True).stdout
                ns = float(out.split()[-2])
                times[case] = min(times.get(case, ns), ns)
        print()
        print(f"{'case':<26} {'instructions':>13} {'best ns/call':>13}")
        for case, ns in times.items():
            print(f"{case:<26} {counts[case]:>13,} {ns:>13,.1f}")

    if markdown:
        print()
        print("| case | measured | instructions per call | best time per call |")
        print("|---|---|---|---|")
        for case, n in counts.items():
            t = times.get(case)
            shown = "" if t is None else (f"{t / 1000:.2f} µs" if t >= 1000 else f"{t:.0f} ns")
            print(f"| `{case}` | {data['cases'][case]['what']} | {n:,} | {shown} |")
        print()
        print("| ratio | measured | bound | goal |")
        print("|---|---|---|---|")
        for r in data["ratios"]:
            if set(r["numerator"]) | set(r["denominator"]) <= counts.keys():
                bound = (f"≥ {r['at_least']}" if "at_least" in r
                         else f"≤ {r['at_most']}" if "at_most" in r else "none")
                goal = r.get("goal", r.get("at_least", r.get("at_most")))
                print(f"| {r['what']} | **{ratio_value(r, counts):.2f}×** | {bound} | {goal} |")

    if bless:
        if only is not None:
            sys.exit("--bless records every case: run it without --cases")
        for case, n in counts.items():
            data["cases"][case]["instructions"] = n
        data["recorded_with"] = now_with
        DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"\nrecorded in {DATA.relative_to(ROOT)}")
    elif notes:
        print(f"\ncheaper than recorded: {', '.join(notes)}; "
              "`python3 benches/instructions.py --bless` records them")

    # Once recorded, a figure is the new reference; a ratio's bound is not.
    failures = ratio_failures if bless else failures + ratio_failures
    if failures and only is None:
        print("\nFAILED:\n  " + "\n  ".join(failures))
        if now_with != data["recorded_with"] and not bless:
            print("The toolchain differs from the one the figures were recorded with; if the change "
                  "is the compiler's, record the new figures with --bless in a commit of their own.")
        sys.exit(1)


if __name__ == "__main__":
    main()
