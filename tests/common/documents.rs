//! D-125: every document the test suite produces is checked against
//! its committed schema under `schemas/` with a real JSON Schema validator
//! (the `jsonschema` crate, draft 2020-12). The committed files are the
//! contract tool authors bind from, so they — not the in-memory schemas —
//! are what documents must obey (tests/schemas.rs keeps the two equal).
//!
//! One helper for every integration test (`tests/*.rs` through `common`, the
//! CLI's tests through a `#[path]` include): [`assert_valid`] and the typed
//! shortcuts below. A document that violates its schema panics with every
//! violation and its instance path, so the test and CI fail.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

/// The schema names (file stems under `schemas/`).
pub const SCHEMAS: [&str; 9] = [
    "setup", "command", "event", "game", "view", "options", "error", "scenario", "table",
];

/// The workspace root: the first directory above this package holding `schemas/`.
fn workspace_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("schemas").is_dir() {
        assert!(dir.pop(), "no schemas/ directory above {}", env!("CARGO_MANIFEST_DIR"));
    }
    dir
}

fn validators() -> &'static BTreeMap<&'static str, jsonschema::Validator> {
    static CELL: OnceLock<BTreeMap<&'static str, jsonschema::Validator>> = OnceLock::new();
    CELL.get_or_init(|| {
        let dir = workspace_root().join("schemas");
        SCHEMAS
            .iter()
            .map(|&name| {
                let path = dir.join(format!("{name}.json"));
                let text =
                    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let validator = jsonschema::validator_for(&schema)
                    .unwrap_or_else(|e| panic!("{} is not a valid JSON Schema: {e}", path.display()));
                (name, validator)
            })
            .collect()
    })
}

/// The violations of `doc` against `schemas/<schema>.json`, one line each
/// (instance path: message); empty when it validates.
pub fn violations(schema: &str, doc: &Value) -> Vec<String> {
    let validator = validators()
        .get(schema)
        .unwrap_or_else(|| panic!("no schema named {schema} (known: {SCHEMAS:?})"));
    validator
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Panic unless `doc` validates against `schemas/<schema>.json`.
pub fn assert_valid(schema: &str, doc: &Value) {
    let found = violations(schema, doc);
    if !found.is_empty() {
        let mut shown = doc.to_string();
        if shown.len() > 2000 {
            shown.truncate(2000);
            shown.push_str(" …");
        }
        panic!(
            "a {schema} document violates schemas/{schema}.json:\n  {}\ndocument: {shown}",
            found.join("\n  ")
        );
    }
}

/// [`assert_valid`] on JSON text (which must parse).
pub fn assert_valid_text(schema: &str, text: &str) {
    let doc: Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("a {schema} document is not JSON: {e}: {text}"));
    assert_valid(schema, &doc);
}

/// [`assert_valid`] on anything serializable (its wire form).
pub fn assert_valid_as<T: Serialize>(schema: &str, value: &T) {
    let doc = serde_json::to_value(value).unwrap_or_else(|e| panic!("a {schema} document does not serialize: {e}"));
    assert_valid(schema, &doc);
}

/// Every event of a list against `event.json` (one schema per event).
pub fn assert_valid_events<T: Serialize>(events: &[T]) {
    for e in events {
        assert_valid_as("event", e);
    }
}

/// A JSON array of events, as the JSON door returns it.
pub fn assert_valid_events_text(text: &str) {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("events are not JSON: {e}: {text}"));
    let items = doc
        .as_array()
        .unwrap_or_else(|| panic!("events are not a JSON array: {text}"));
    for e in items {
        assert_valid("event", e);
    }
}
