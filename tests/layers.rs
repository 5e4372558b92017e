//! The core crate's layers (docs/ARCHITECTURE.md): every file of `src/`
//! uses only its own layer and the layers below it, and no two files import
//! each other through any chain (a folder's parent ↔ child links aside).
//!
//! A file's references are the paths it names with `crate::…` and `super::…`
//! (`use` trees with braces expanded), outside comments and outside its
//! `#[cfg(test)]` module (unit tests may reach any layer, as integration
//! tests do). Plain `std::fs` and string scanning: no parser dependency.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: the top-level modules of `src/` each belongs to.
const LAYERS: &[(&str, &[&str])] = &[
    ("codec", &["codec"]),
    ("base", &["base"]),
    ("model", &["model"]),
    ("rules", &["rules"]),
    ("check", &["check"]),
    ("engine", &["engine"]),
    ("extras", &["extras"]),
    ("door", &["json"]),
    ("tools", &["tools"]),
];

/// A module path (`["rules", "effects", "bg"]`) and its source.
struct File {
    module: Vec<String>,
    path: PathBuf,
    text: String,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // The derive crate is a crate of its own, not a module.
            if p.file_name().is_some_and(|n| n == "derive") {
                continue;
            }
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn files() -> Vec<File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    collect(&root, &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).expect("under src/").with_extension("");
            let mut module: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("readable source");
            File { module, path, text }
        })
        .collect()
}

/// The source without comments, string contents and `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            i += 2;
            while i < b.len() && !text[i..].starts_with("*/") {
                i += 1;
            }
            i += 2;
        } else if text[i..].starts_with("#[cfg(test)]") {
            // Skip the attribute and the item it marks: up to its `;` or
            // through its balanced braces.
            i += "#[cfg(test)]".len();
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    b';' if depth == 0 => {
                        i += 1;
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let c = text[i..].chars().next().expect("a char");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Split a brace group's contents at its top-level commas.
fn split_top(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts
}

/// Every path a `use` tree (or an inline path) names, braces expanded.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    if tree.is_empty() {
        return Vec::new();
    }
    if let Some(open) = tree.find('{') {
        let close = tree.rfind('}').unwrap_or(tree.len());
        let prefix: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let inner = tree.get(open + 1..close).unwrap_or("");
        return split_top(inner)
            .into_iter()
            .flat_map(expand)
            .map(|rest| prefix.iter().cloned().chain(rest).collect())
            .collect();
    }
    let first = tree.split(" as ").next().unwrap_or(tree);
    vec![first
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()]
}

/// The module paths (from the crate root) a file's code names.
fn references(f: &File) -> Vec<Vec<String>> {
    let code = code(&f.text);
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            if code[..at].chars().next_back().is_some_and(|c| ident(c) || c == ':') {
                continue;
            }
            // The path runs over identifiers, `::`, spaces and one brace group.
            let rest = &code[at..];
            let mut end = 0;
            let mut depth = 0usize;
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    _ if depth > 0 => {}
                    c if ident(c) || c == ':' => {}
                    _ => {
                        end = i;
                        break;
                    }
                }
                end = i + c.len_utf8();
                if depth == 0 && c == '}' {
                    break;
                }
            }
            let tree = &rest[..end];
            for mut path in expand(tree) {
                // Resolve `crate` and chains of `super` against the file's module.
                let mut base: Vec<String> = Vec::new();
                let mut first = true;
                while let Some(head) = path.first().cloned() {
                    if head == "crate" {
                        base.clear();
                    } else if head == "super" {
                        if first {
                            base = f.module.clone();
                            // A file's own module is `module`; `super` is its parent.
                        }
                        base.pop();
                    } else {
                        break;
                    }
                    first = false;
                    path.remove(0);
                }
                out.push(base.into_iter().chain(path).collect());
            }
        }
    }
    out
}

fn layer_of(module: &[String]) -> Option<usize> {
    let top = module.first()?;
    LAYERS.iter().position(|(_, tops)| tops.contains(&top.as_str()))
}

/// The file (module path) a reference lands in: its longest prefix that is a file.
fn resolve<'a>(path: &[String], modules: &'a BTreeSet<Vec<String>>) -> Option<&'a Vec<String>> {
    (1..=path.len()).rev().find_map(|n| modules.get(&path[..n].to_vec()))
}

fn related(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The file-level graph: module → modules it references (parent ↔ child links aside).
fn graph(files: &[File]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    files
        .iter()
        .map(|f| {
            let to = references(f)
                .iter()
                .filter_map(|p| resolve(p, &modules))
                .filter(|m| !related(m, &f.module))
                .cloned()
                .collect();
            (f.module.clone(), to)
        })
        .collect()
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("/")
    }
}

#[test]
fn every_file_belongs_to_a_layer() {
    for f in files() {
        if f.module.is_empty() {
            continue; // lib.rs: the curated public API over every layer
        }
        assert!(
            layer_of(&f.module).is_some(),
            "{} is in no layer: place it in a layer folder (docs/ARCHITECTURE.md)",
            f.path.display()
        );
    }
}

#[test]
fn no_file_uses_a_higher_layer() {
    let mut wrong = Vec::new();
    for f in files() {
        let Some(own) = layer_of(&f.module) else { continue };
        for r in references(&f) {
            if let Some(other) = layer_of(&r) {
                if other > own {
                    wrong.push(format!(
                        "{} ({}) names {} ({})",
                        f.path.display(),
                        LAYERS[own].0,
                        r.join("::"),
                        LAYERS[other].0
                    ));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "files naming a higher layer:\n{}", wrong.join("\n"));
}

/// The strongly connected components of more than one file, by name.
fn cycles(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Tarjan's strongly connected components, iteratively.
    let nodes: Vec<&Vec<String>> = g.keys().collect();
    let index_of: BTreeMap<&Vec<String>, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| g[*n].iter().filter_map(|m| index_of.get(m).copied()).collect())
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut cycles) = (Vec::new(), 0usize, Vec::new());
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if *child == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = edges[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    component.push(name(nodes[w]));
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    cycles.push(component.join(" ↔ "));
                }
            }
        }
    }
    cycles
}

#[test]
fn no_import_cycle_between_files() {
    let cycles = cycles(&graph(&files()));
    assert!(cycles.is_empty(), "import cycles between files:\n{}", cycles.join("\n"));
}

/// The scanner itself: a cycle and an upward reference it must see, and the
/// test-only and commented references it must not.
#[test]
fn the_scanner_sees_use_trees_super_chains_and_skips_tests_and_comments() {
    let f = |module: &[&str], text: &str| File {
        module: module.iter().map(|s| s.to_string()).collect(),
        path: PathBuf::from("x.rs"),
        text: text.into(),
    };
    let a = f(
        &["rules", "effects", "bg"],
        "use crate::rules::{frames, effects::{self, x}};\nuse super::super::super::check::y; // crate::tools::z\n\
         #[cfg(test)]\nmod tests { use crate::engine::apply; }\nfn f() { let s = \"crate::json\"; }",
    );
    let refs: BTreeSet<String> = references(&a).iter().map(|r| r.join("::")).collect();
    let want: BTreeSet<String> = ["rules::frames", "rules::effects::self", "rules::effects::x", "check::y"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(refs, want);
    let b = f(&["check"], "use crate::rules::effects::bg;");
    let g = graph(&[a, b]);
    assert!(g[&vec!["rules".to_string(), "effects".into(), "bg".into()]].contains(&vec!["check".to_string()]));
    assert_eq!(cycles(&g), vec!["check ↔ rules/effects/bg".to_string()]);
    assert_eq!(layer_of(&["check".to_string()]), Some(4));
    assert_eq!(layer_of(&["json".to_string()]), Some(7));
}

/// D-233: the engine's code orders through `base::order`, never through a
/// standard-library sort or a `BTreeSet`/`BTreeMap` built by `collect` (each
/// element type would compile its own copy of the sort into the WASM
/// module). Unit tests may sort.
#[test]
fn no_standard_library_sort_in_the_engine() {
    let calls = [
        ".sort(",
        ".sort_by(",
        ".sort_by_key(",
        ".sort_unstable",
        ".sort_by_cached_key(",
    ];
    let mut found = Vec::new();
    for f in files() {
        let code = code(&f.text);
        for call in calls {
            if code.contains(call) {
                found.push(format!("{}: {call}", f.path.display()));
            }
        }
        for line in code.lines().filter(|l| l.contains("BTree") && l.contains(".collect")) {
            found.push(format!("{}: {}", f.path.display(), line.trim()));
        }
    }
    assert!(found.is_empty(), "sorts outside base::order (D-233): {found:#?}");
}
