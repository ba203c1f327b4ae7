//! The library's modules use each other one way: no import circle among the
//! modules of any folder of `src/` (each with its submodules), the wings in
//! their order from the bottom, and inside `src/explain/`
//! every module uses only those below it in the explainer's own order; the
//! protocol parameters use neither of their writers.
//!
//! A module uses another when its code (tests and comments aside) names it:
//! `crate::other`, `super::other`, or a child it declares (`mod child;`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every module of the library (not the binaries): its path (`""` for the
/// crate root, `explain::model`) and its code without tests or comments.
fn modules() -> BTreeMap<String, String> {
    modules_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every module of the crate whose source is `src` (its binaries' roots,
/// `main.rs` and `bin/`, aside), as [`modules`].
fn modules_of(src: &Path) -> BTreeMap<String, String> {
    fn walk(src: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bin") {
                    walk(src, &path, out);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || dir == src && path.ends_with("main.rs")
            {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            out.insert(parts.join("::"), code(&text));
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// `text` without its comments and without its test module.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[..before_tests(&lines)]
        .iter()
        .map(|l| match l.trim_start().starts_with("//") {
            true => "",
            false => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many of `lines` come before the test module (the first
/// `#[cfg(test)]`, or `#[cfg(all(test, ...))]`, before a `mod`, which runs
/// to the end of the file).
fn before_tests(lines: &[&str]) -> usize {
    (0..lines.len())
        .find(|&i| {
            let attr = lines[i].trim();
            (attr == "#[cfg(test)]" || attr.starts_with("#[cfg(all(test,"))
                && lines.get(i + 1).is_some_and(|l| {
                    let l = l.trim_start();
                    let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
                    l.starts_with("mod ")
                })
        })
        .unwrap_or(lines.len())
}

/// The modules `module` names in `code`, among `all`.
fn uses(module: &str, code: &str, all: &BTreeSet<String>) -> BTreeSet<String> {
    let child = |name: &str| match module {
        "" => name.to_owned(),
        m => format!("{m}::{name}"),
    };
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let ident_at = |at: usize| -> &str {
        let len = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        &code[at..at + len]
    };
    // The longest module path of `all` that `segments` start with.
    let longest = |segments: &[&str], out: &mut BTreeSet<String>| {
        for k in (1..=segments.len()).rev() {
            let path = segments[..k].join("::");
            if all.contains(&path) {
                out.insert(path);
                return;
            }
        }
    };
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let mut segments = Vec::new();
        let mut i = at + "crate::".len();
        loop {
            let ident = ident_at(i);
            if ident.is_empty() {
                break;
            }
            segments.push(ident);
            i += ident.len();
            if !code[i..].starts_with("::") {
                break;
            }
            i += 2;
        }
        longest(&segments, &mut out);
        // `crate::{a, b::c}`: each path of the group.
        if code[i..].starts_with('{') && segments.is_empty() {
            let group = &code[i + 1..code[i..].find('}').map_or(code.len(), |e| i + e)];
            for item in group.split(',') {
                let path: Vec<&str> = item.trim().split("::").collect();
                longest(&path, &mut out);
            }
        }
    }
    for (at, _) in code.match_indices("super::") {
        // A run of `super::super::...` is read once, from its first.
        if code[..at].ends_with("super::") {
            continue;
        }
        let mut up = 1;
        let mut i = at + "super::".len();
        while code[i..].starts_with("super::") {
            up += 1;
            i += "super::".len();
        }
        let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
        let base = segments[..segments.len().saturating_sub(up)].join("::");
        let ident = ident_at(i);
        let below = match base.as_str() {
            "" => ident.to_owned(),
            b => format!("{b}::{ident}"),
        };
        if all.contains(&below) {
            out.insert(below);
        } else if !base.is_empty() || !module.is_empty() {
            // An item of the ancestor module itself.
            out.insert(base);
        }
    }
    for line in code.lines() {
        let line = line.trim_start();
        let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
        if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            out.insert(child(name));
        }
    }
    // A child named by its path alone (`params::compare_params`).
    for (at, _) in code.match_indices("::") {
        let start = code[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |s| s + 1);
        if start > 0 && code[..start].ends_with("::") {
            continue;
        }
        let name = &code[start..at];
        if !name.is_empty() && all.contains(&child(name)) {
            out.insert(child(name));
        }
    }
    out.remove(module);
    out
}

/// `module`, or the top-level module it is part of.
fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

/// A cycle of `edges`, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let from = path.iter().position(|n| n == node).unwrap_or(0);
                let mut found = path[from..].to_vec();
                found.push(node.to_owned());
                return Some(found);
            }
            _ => {}
        }
        state.insert(node.to_owned(), 1);
        path.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, edges, state, path) {
                return Some(found);
            }
        }
        path.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut state, &mut Vec::new()))
}

/// The edges between siblings: for each use, the two children of their
/// deepest common ancestor that hold the user and the used module (a module
/// using its own ancestor or descendant is no edge: a wing's `mod.rs`
/// declares and re-exports its modules). Keyed by that ancestor.
fn sibling_edges() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    sibling_edges_of(&modules())
}

/// [`sibling_edges`] among `modules`.
fn sibling_edges_of(
    modules: &BTreeMap<String, String>,
) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let all: BTreeSet<String> = modules.keys().cloned().collect();
    let path = |m: &str| -> Vec<String> {
        if m.is_empty() {
            Vec::new()
        } else {
            m.split("::").map(str::to_owned).collect()
        }
    };
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, code) in modules {
        for used in uses(module, code, &all) {
            let (a, b) = (path(module), path(&used));
            let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            if common == a.len() || common == b.len() {
                continue;
            }
            let ancestor = a[..common].join("::");
            let child = |p: &[String]| p[..=common].join("::");
            out.entry(ancestor)
                .or_default()
                .entry(child(&a))
                .or_default()
                .insert(child(&b));
        }
    }
    out
}

#[test]
fn no_import_circle_anywhere() {
    let levels = sibling_edges();
    // The graph was read: the wings use each other, and the pipeline's
    // first stages are used.
    let wings = &levels[""];
    assert!(wings["pipeline"].contains("text"), "{wings:#?}");
    assert!(levels["pipeline"]["pipeline::normalize"].contains("pipeline::params"));
    assert!(levels["pipeline"]["pipeline::base_string"].contains("pipeline::normalize"));
    for (ancestor, edges) in &levels {
        assert_eq!(cycle(edges), None, "an import circle inside {ancestor:?}");
    }
    // The wings, from the bottom: each uses only those below it.
    const WINGS: [&str; 12] = [
        "error", "text", "pipeline", "capture", "provider", "outgoing", "client", "flow", "verify",
        "explain", "json", "",
    ];
    for (from, used) in wings {
        let rank = WINGS.iter().position(|w| w == from);
        let rank = rank.unwrap_or_else(|| panic!("{from} is not a wing"));
        for to in used {
            let r = WINGS.iter().position(|w| w == to).unwrap();
            assert!(r < rank, "the {from} wing uses {to}, which is above it");
        }
    }
    // The run of protocol parameters sits below both of its writers, the
    // parameter string and the header, and knows neither format.
    let pipeline = &levels["pipeline"];
    for writer in ["pipeline::normalize", "pipeline::header"] {
        assert!(
            pipeline[writer].contains("pipeline::protocol"),
            "{pipeline:#?}"
        );
        assert!(
            !pipeline
                .get("pipeline::protocol")
                .is_some_and(|used| used.contains(writer)),
            "protocol uses {writer}, one of its writers"
        );
    }
}

#[test]
fn the_explainer_modules_use_only_those_below_them() {
    // From the bottom: the ways a base string can be built, the table of
    // causes, what a finding says, reading their text; then what uses them.
    const ORDER: [&str; 18] = [
        "explain::variant",
        "explain::catalogue::mistake",
        "explain::catalogue",
        "explain::tried",
        "explain::finding",
        "explain::ours",
        "explain::lenient",
        "explain::response",
        "explain::model",
        "explain::compare::matching",
        "explain::compare::params",
        "explain::compare",
        "explain::search::say",
        "explain::search",
        "explain::explainer",
        "explain::rejected",
        "explain::captured",
        "explain",
    ];
    let modules = modules();
    let all: BTreeSet<String> = modules.keys().cloned().collect();
    let explain: BTreeSet<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|m| top(m) == "explain")
        .collect();
    assert_eq!(
        explain,
        ORDER.into_iter().collect(),
        "a module not in ORDER"
    );
    for (rank, module) in ORDER.iter().enumerate() {
        for used in uses(module, &modules[*module], &all) {
            if let Some(r) = ORDER.iter().position(|m| *m == used) {
                assert!(r < rank, "{module} uses {used}, which is above it");
            }
        }
    }
}

#[test]
fn uses_are_read_from_every_kind_of_path() {
    let set =
        |names: &[&str]| -> BTreeSet<String> { names.iter().map(|n| (*n).to_owned()).collect() };
    let all = set(&["a", "a::b", "a::c", "d", "d::e"]);
    let text = "mod x;\nuse super::b::X;\nuse crate::d::e::{Y, Z};\n// crate::d\n\
                fn f() { x::g(); }\n#[cfg(test)]\nmod tests {\n    use crate::d;\n}\n";
    // A child it declares, a sibling, a module by its whole path; not what
    // a comment or the tests name.
    assert_eq!(
        uses("a::c", &code(text), &all),
        set(&["a::c::x", "a::b", "d::e"])
    );
    // A group under `crate::`, and a child named by its path alone.
    let text = "use crate::{d, a::c};\nfn f() { b::y() }";
    assert_eq!(uses("a", text, &all), set(&["d", "a::c", "a::b"]));
    // `super::super::` from a grandchild: the grandparent's child, or the
    // grandparent itself.
    let text = "use super::super::b::X;\nuse super::super::Y;";
    assert_eq!(uses("a::c::x", text, &all), set(&["a::b", "a"]));
    let text = "use super::super::c::Z;";
    assert_eq!(uses("a::b::x", text, &all), set(&["a::c"]));
}

/// The command line's and the page's crates, where this is the workspace
/// (the published crate holds the library alone).
fn shells() -> Vec<(&'static str, std::path::PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["cli/src", "web/src"]
        .into_iter()
        .map(|dir| (dir, root.join(dir)))
        .filter(|(_, path)| path.is_dir())
        .collect()
}

#[test]
fn no_import_circle_in_the_command_line_or_the_page() {
    let mut circles = Vec::new();
    for (dir, src) in shells() {
        let modules = modules_of(&src);
        let levels = sibling_edges_of(&modules);
        // The graph was read: the crate root declares its modules, and
        // they use each other.
        assert!(modules.len() > 5, "{dir}: {:?}", modules.keys());
        assert!(
            levels.get("").is_some_and(|e| e.len() > 4),
            "{dir}: {levels:#?}"
        );
        circles.extend(
            levels
                .values()
                .filter_map(cycle)
                .map(|circle| format!("{dir}: {}", circle.join(" -> "))),
        );
    }
    assert!(circles.is_empty(), "import circles: {circles:#?}");
}

/// The most lines a source file may hold before its tests.
const MAX_LINES: usize = 550;

#[test]
fn no_source_file_is_over_550_lines_before_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![("src", root.join("src"))];
    dirs.extend(shells());
    let mut over = Vec::new();
    let mut files = 0;
    for (_, dir) in dirs {
        let mut stack = vec![dir];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files += 1;
                    let text = std::fs::read_to_string(&path).unwrap();
                    let lines = before_tests(&text.lines().collect::<Vec<_>>());
                    if lines > MAX_LINES {
                        over.push(format!(
                            "{} ({lines})",
                            path.strip_prefix(root).unwrap().display()
                        ));
                    }
                }
            }
        }
    }
    assert!(files > 100, "{files} files read");
    over.sort();
    assert!(
        over.is_empty(),
        "over {MAX_LINES} lines before the tests: {over:#?}"
    );
}

#[test]
fn lines_are_counted_up_to_the_test_module() {
    let lines = |text: &str| before_tests(&text.lines().collect::<Vec<_>>());
    let text = "fn a() {}\n// one\n\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\n";
    assert_eq!(lines(text), 3);
    // A `#[cfg(test)]` item that is not the test module counts.
    assert_eq!(lines("fn a() {}\n#[cfg(test)]\nfn b() {}\n"), 3);
    // A test module kept for a feature's tests is the test module too.
    let text = "fn a() {}\n#[cfg(all(test, feature = \"json\"))]\npub(crate) mod tests {}\n";
    assert_eq!(lines(text), 1);
}
