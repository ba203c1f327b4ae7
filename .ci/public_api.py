#!/usr/bin/env python3
"""The library's public API, one line per item, from rustdoc's JSON output.

    python3 .ci/public_api.py            # print it
    python3 .ci/public_api.py --check    # compare with public-api.txt (CI)
    python3 .ci/public_api.py --bless    # write public-api.txt

Every public path is listed with its kind and, for functions and methods, its
signature: modules, structs (and their public fields), enums (and their
variants), traits (and their methods), functions, constants, statics, type
aliases, and the inherent methods and trait implementations of each type
(auto traits and blanket implementations left out). A re-export is listed at
the path it is reachable by, so a path that moves shows as one line gone and
one added. The JSON comes from the stable toolchain's rustdoc with
RUSTC_BOOTSTRAP=1 (no second toolchain to install), all features on: its
format is fixed for a toolchain, so the list is the same for the same commit;
when the toolchain moves, --bless and review the diff.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAPSHOT = os.path.join(ROOT, "public-api.txt")
# The docs.rs build's target dir (.ci/run): both run rustdoc on the library
# with every feature under RUSTC_BOOTSTRAP=1, which proc-macro2's build script
# tracks (changing it rebuilds every proc macro and what uses them), so each
# reuses the dependencies the other checked: 25-32 s of CI in a dir of its own,
# about 3 s here.
TARGET = os.path.join(ROOT, "target", "docsrs")


def rustdoc_json():
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    subprocess.run(
        ["cargo", "rustdoc", "-p", "oauth1-signer", "--all-features", "--lib", "--locked",
         "--target-dir", TARGET, "--", "-Z", "unstable-options", "--output-format", "json"],
        cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(TARGET, "doc", "oauth1_signer.json")) as f:
        return json.load(f)


def ty(t):
    """A type as Rust writes it (close enough to read a diff by)."""
    if t is None:
        return "()"
    (kind, v), = t.items()
    if kind == "primitive":
        return v
    if kind == "generic":
        return v
    if kind == "resolved_path":
        name = v["path"].split("::")[-1]
        return name + args(v.get("args"))
    if kind == "borrowed_ref":
        life = (v["lifetime"] + " ") if v.get("lifetime") else ""
        mut = "mut " if v["is_mutable"] else ""
        return f"&{life}{mut}{ty(v['type'])}"
    if kind == "slice":
        return f"[{ty(v)}]"
    if kind == "array":
        return f"[{ty(v['type'])}; {v['len']}]"
    if kind == "tuple":
        return "(" + ", ".join(ty(x) for x in v) + ")"
    if kind == "raw_pointer":
        return ("*mut " if v["is_mutable"] else "*const ") + ty(v["type"])
    if kind == "impl_trait":
        return "impl " + " + ".join(bound(b) for b in v)
    if kind == "dyn_trait":
        return "dyn " + " + ".join(
            p["trait"]["path"].split("::")[-1] + args(p["trait"].get("args")) for p in v["traits"])
    if kind == "qualified_path":
        return f"<{ty(v['self_type'])}>::{v['name']}"
    if kind == "function_pointer":
        sig = v["sig"]
        return "fn(" + ", ".join(ty(x[1]) for x in sig["inputs"]) + ") -> " + ty(sig["output"])
    return kind


def bound(b):
    if "trait_bound" in b:
        t = b["trait_bound"]["trait"]
        return t["path"].split("::")[-1] + args(t.get("args"))
    if "outlives" in b:
        return b["outlives"]
    return "?"


def args(a):
    if not a:
        return ""
    if "angle_bracketed" in a:
        parts = []
        for x in a["angle_bracketed"]["args"]:
            if "lifetime" in x:
                parts.append(x["lifetime"])
            elif "type" in x:
                parts.append(ty(x["type"]))
            elif "const" in x:
                parts.append(str(x["const"].get("expr", "_")))
        for c in a["angle_bracketed"].get("constraints", []):
            binding = c.get("binding", {})
            if "equality" in binding and "type" in binding["equality"]:
                parts.append(f"{c['name']} = {ty(binding['equality']['type'])}")
            else:
                parts.append(c["name"])
        return "<" + ", ".join(parts) + ">" if parts else ""
    if "parenthesized" in a:
        p = a["parenthesized"]
        out = "(" + ", ".join(ty(x) for x in p["inputs"]) + ")"
        return out + (" -> " + ty(p["output"]) if p.get("output") else "")
    return ""


def signature(item):
    f = item["inner"]["function"]
    h = f["header"]
    q = ("const " if h["is_const"] else "") + ("async " if h["is_async"] else "")
    gen = [p["name"] for p in f["generics"]["params"] if not p["name"].startswith("impl ")]
    g = "<" + ", ".join(gen) + ">" if gen else ""
    def param(n, t):
        if n != "self":
            return f"{n}: {ty(t)}"
        if "borrowed_ref" in t:
            return "&mut self" if t["borrowed_ref"]["is_mutable"] else "&self"
        return "self"
    ins = ", ".join(param(n, t) for n, t in f["sig"]["inputs"])
    out = f["sig"]["output"]
    return f"{q}fn {item['name']}{g}({ins})" + (f" -> {ty(out)}" if out else "")


def main():
    d = rustdoc_json()
    index = d["index"]
    lines = set()

    def get(i):
        return index.get(str(i))

    def impls_of(path, impl_ids):
        for i in impl_ids:
            im = get(i)
            if not im:
                continue
            imp = im["inner"]["impl"]
            if imp["is_synthetic"] or imp["blanket_impl"] is not None:
                continue
            if imp["trait"] is not None:
                lines.add(f"impl {imp['trait']['path'].split('::')[-1]}"
                          f"{args(imp['trait'].get('args'))} for {path}")
                continue
            for m in imp["items"]:
                mi = get(m)
                if mi and mi["visibility"] == "public" and "function" in mi["inner"]:
                    lines.add(f"{path}::{signature(mi)}")
                elif mi and mi["visibility"] == "public" and "assoc_const" in mi["inner"]:
                    lines.add(f"const {path}::{mi['name']}")

    def visit(i, path, seen):
        item = get(i)
        if item is None or i in seen:
            return
        seen = seen | {i}
        (kind, inner), = item["inner"].items()
        if kind == "module":
            lines.add(f"mod {path}")
            for child in inner["items"]:
                c = get(child)
                if c is None or c["visibility"] != "public":
                    continue
                if "use" in c["inner"]:
                    u = c["inner"]["use"]
                    if u["id"] is None:
                        continue
                    target = get(u["id"])
                    if u["is_glob"] and target and "module" in target["inner"]:
                        for g in target["inner"]["module"]["items"]:
                            gi = get(g)
                            if gi and gi["visibility"] == "public" and gi.get("name"):
                                visit(g, f"{path}::{gi['name']}", seen)
                        continue
                    visit(u["id"], f"{path}::{u['name']}", seen)
                elif c.get("name"):
                    visit(child, f"{path}::{c['name']}", seen)
        elif kind == "struct":
            lines.add(f"struct {path}")
            fields = inner["kind"].get("plain", {}).get("fields", []) if isinstance(inner["kind"], dict) else []
            for fid in fields:
                fi = get(fid)
                if fi and fi["visibility"] == "public":
                    lines.add(f"{path}::{fi['name']}: {ty(fi['inner']['struct_field'])}")
            impls_of(path, inner["impls"])
        elif kind == "enum":
            lines.add(f"enum {path}")
            for vid in inner["variants"]:
                vi = get(vid)
                if vi:
                    lines.add(f"{path}::{vi['name']}")
            impls_of(path, inner["impls"])
        elif kind == "union":
            lines.add(f"union {path}")
        elif kind == "trait":
            lines.add(f"trait {path}")
            for m in inner["items"]:
                mi = get(m)
                if mi and "function" in mi["inner"]:
                    lines.add(f"{path}::{signature(mi)}")
        elif kind == "function":
            lines.add(f"{path.rsplit('::', 1)[0]}::{signature(item)}")
        elif kind == "constant":
            lines.add(f"const {path}: {ty(inner['type'])}")
        elif kind == "static":
            lines.add(f"static {path}: {ty(inner['type'])}")
        elif kind == "type_alias":
            lines.add(f"type {path} = {ty(inner['type'])}")
        elif kind in ("macro", "proc_macro"):
            lines.add(f"macro {path}")
        else:
            lines.add(f"{kind} {path}")

    visit(d["root"], "oauth1_signer", frozenset())
    text = "".join(line + "\n" for line in sorted(lines))
    if "--bless" in sys.argv:
        with open(SNAPSHOT, "w") as f:
            f.write(text)
        print(f"wrote {SNAPSHOT}: {len(lines)} items")
        return 0
    if "--check" in sys.argv:
        with open(SNAPSHOT) as f:
            want = f.read()
        if want == text:
            print(f"public API unchanged ({len(lines)} items)")
            return 0
        old, new = set(want.splitlines()), set(text.splitlines())
        for line in sorted(old - new):
            print(f"- {line}")
        for line in sorted(new - old):
            print(f"+ {line}")
        print("the public API changed: if that is meant, run python3 .ci/public_api.py --bless, "
              "review the diff, and name the change in CHANGELOG.md", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
