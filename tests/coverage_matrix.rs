//! The coverage matrix of docs/RULES.md §11 is generated
//! from the tests' own ids, never kept by hand: this test builds it and fails
//! when the committed section is stale. Regenerate with
//! `scripts/coverage-matrix` (`UPDATE_COVERAGE=1 cargo test --test coverage_matrix`).
//!
//! Attribution is per test function: a test is credited with the rule ids in
//! its name (`r_plc_3_…` → R-PLC-3) and in its own text — its doc comment,
//! attributes and body (`R-PLC-1..5` counts for every id in the range).
//! Section-heading comments between tests credit nobody. The scenario files
//! under `tests/scenarios/`, replayed by `scenarios::scenario_files_replay_as_expected`,
//! are credited with the ids in their text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const RULES: &str = "docs/RULES.md";
const HEADING: &str = "## 11. Coverage matrix";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The rule ids (§2–§7 bullets) and policy ids (§9 table), in document order.
fn known_ids(rules: &str) -> (Vec<String>, Vec<String>) {
    let mut r = Vec::new();
    let mut p = Vec::new();
    for line in rules.lines() {
        if line.starts_with("## 10.") {
            break;
        }
        if let Some(rest) = line.strip_prefix("- R-") {
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            r.push(format!("R-{id}"));
        } else if let Some(rest) = line.strip_prefix("| P-") {
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            p.push(format!("P-{id}"));
        }
    }
    (r, p)
}

/// Ids written in a text: `R-PLC-3`, `P-NEX-SEC-FD`, ranges `R-PLC-1..5`.
fn ids_in_text(text: &str, known: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 2 < bytes.len() {
        let starts = (bytes[i] == b'R' || bytes[i] == b'P')
            && bytes[i + 1] == b'-'
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < bytes.len() && (bytes[j].is_ascii_uppercase() || bytes[j].is_ascii_digit() || bytes[j] == b'-') {
            j += 1;
        }
        let mut word = text[i..j].trim_end_matches('-').to_string();
        // The longest known prefix (a word may run into following text).
        while !word.is_empty() && !known.contains(&word) {
            match word.rfind('-') {
                Some(k) if k > 1 => word.truncate(k),
                _ => word.clear(),
            }
        }
        if !word.is_empty() {
            // A range: `R-PLC-1..5`.
            let after = &text[i + word.len()..];
            if let (Some(rest), Some((stem, first))) = (after.strip_prefix(".."), word.rsplit_once('-')) {
                let last: String = rest.chars().take_while(char::is_ascii_digit).collect();
                if let (Ok(a), Ok(b)) = (first.parse::<u32>(), last.parse::<u32>()) {
                    for n in a..=b {
                        let id = format!("{stem}-{n}");
                        if known.contains(&id) {
                            out.insert(id);
                        }
                    }
                }
            }
            out.insert(word);
        }
        i = j.max(i + 1);
    }
}

/// Ids in a test name: the id's tokens (`r_plc_3`) as consecutive `_` tokens.
fn ids_in_name(name: &str, known: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    let tokens: Vec<&str> = name.split('_').collect();
    for id in known {
        let want: Vec<String> = id.to_ascii_lowercase().split('-').map(str::to_string).collect();
        if tokens
            .windows(want.len())
            .any(|w| w.iter().zip(&want).all(|(a, b)| a == b))
        {
            out.insert(id.clone());
        }
    }
}

/// Every `#[test]` function of a test file: its name and its own text (doc
/// comment and attributes above it, signature and body down to its closing
/// brace at column 0).
fn test_functions(source: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "#[test]" {
            i += 1;
            continue;
        }
        // Doc comment and attributes directly above.
        let mut start = i;
        while start > 0 && (lines[start - 1].starts_with("///") || lines[start - 1].starts_with("#[")) {
            start -= 1;
        }
        let mut f = i + 1;
        while f < lines.len() && !lines[f].starts_with("fn ") && !lines[f].starts_with("async fn ") {
            f += 1;
        }
        let Some(sig) = lines.get(f) else { break };
        let name: String = sig
            .trim_start_matches("async ")
            .trim_start_matches("fn ")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let mut end = f;
        while end < lines.len() && lines[end] != "}" {
            end += 1;
        }
        out.push((name, lines[start..=end.min(lines.len() - 1)].join("\n")));
        i = end + 1;
    }
    out
}

fn sorted_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// id → the tests that exercise it.
fn coverage(known: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let tests = root().join("tests");
    for file in sorted_files(&tests, "rs") {
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        if stem == "coverage_matrix" {
            continue; // its own self-test names example ids, not coverage
        }
        let source = fs::read_to_string(&file).unwrap();
        for (name, text) in test_functions(&source) {
            let mut ids = BTreeSet::new();
            ids_in_name(&name, known, &mut ids);
            ids_in_text(&text, known, &mut ids);
            for id in ids {
                map.entry(id).or_default().insert(format!("`{stem}::{name}`"));
            }
        }
    }
    for file in sorted_files(&tests.join("scenarios"), "json") {
        let text = fs::read_to_string(&file).unwrap();
        let mut ids = BTreeSet::new();
        ids_in_text(&text, known, &mut ids);
        let name = file.file_name().unwrap().to_str().unwrap();
        for id in ids {
            map.entry(id)
                .or_default()
                .insert(format!("`scenarios::scenario_files_replay_as_expected` › `{name}`"));
        }
    }
    map
}

fn table(ids: &[String], map: &BTreeMap<String, BTreeSet<String>>) -> String {
    let mut out = String::from("| id | tests |\n|---|---|\n");
    for id in ids {
        let cell = match map.get(id) {
            Some(tests) => tests.iter().cloned().collect::<Vec<_>>().join("<br>"),
            None => "(no test)".to_string(),
        };
        out.push_str(&format!("| {id} | {cell} |\n"));
    }
    out
}

/// The whole §11, generated.
fn section(rules: &str) -> String {
    let (r, p) = known_ids(rules);
    let known: BTreeSet<String> = r.iter().chain(p.iter()).cloned().collect();
    let map = coverage(&known);
    format!(
        "{HEADING}\n\n\
Which tests exercise each rule and policy. Generated by `scripts/coverage-matrix`\n\
from the tests themselves; `tests/coverage_matrix.rs` fails when this section is\n\
stale. Each `#[test]` function of `tests/*.rs` is credited with the rule ids in\n\
its name (`r_plc_3_…` → R-PLC-3, `p_duke_loan_…` → P-DUKE-LOAN) and in its own\n\
text — its doc comment, attributes and body (`R-PLC-1..5` counts for every id\n\
in the range); comments between tests credit nobody. The scenario files under\n\
`tests/scenarios/`, replayed by `scenarios::scenario_files_replay_as_expected`\n\
(with insta snapshots of the events, frames, views and options after every\n\
step), are credited with the ids in their text. Test names are\n\
`file::function`. The protocol (ARCHITECTURE §4) and the views are also covered\n\
by `tests/protocol.rs` and `tests/views.rs`, whose test names describe the\n\
behaviour rather than a rule id.\n\n\
### Rules\n\n{}\n### Policies (§9)\n\n{}",
        table(&r, &map),
        table(&p, &map)
    )
}

#[test]
fn issue17_coverage_matrix_is_generated_and_current() {
    let path = root().join(RULES);
    let rules = fs::read_to_string(&path).unwrap();
    let at = rules.find(HEADING).expect("docs/RULES.md has its §11");
    let generated = section(&rules);
    let committed = &rules[at..];
    if std::env::var("UPDATE_COVERAGE").is_ok() {
        fs::write(&path, format!("{}{generated}", &rules[..at])).unwrap();
        return;
    }
    assert!(
        committed == generated,
        "docs/RULES.md §11 is stale: run scripts/coverage-matrix and commit the result"
    );
}

#[test]
fn issue17_coverage_attribution_is_per_test_function() {
    let known: BTreeSet<String> = [
        "R-PLC-1",
        "R-PLC-2",
        "R-PLC-3",
        "R-NEX-SEC",
        "R-NEX-BET",
        "P-NEX-SEC-FD",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let source = "\
// ---- R-NEX-SEC ----

/// Betrayal (R-NEX-BET).
#[test]
fn betrayal_case() {
    let x = 1; // R-PLC-1..2
}

#[test]
fn r_nex_sec_p_nex_sec_fd_case() {
}
";
    let fns = test_functions(source);
    assert_eq!(fns.len(), 2);
    let mut a = BTreeSet::new();
    ids_in_name(&fns[0].0, &known, &mut a);
    ids_in_text(&fns[0].1, &known, &mut a);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert_eq!(a, vec!["R-NEX-BET", "R-PLC-1", "R-PLC-2"], "the heading credits nobody");
    let mut b = BTreeSet::new();
    ids_in_name(&fns[1].0, &known, &mut b);
    ids_in_text(&fns[1].1, &known, &mut b);
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    assert_eq!(b, vec!["P-NEX-SEC-FD", "R-NEX-SEC"]);
}
