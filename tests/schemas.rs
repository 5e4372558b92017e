//! The committed schemas under `schemas/` must equal the generated ones
//! (ARCHITECTURE §2). Regenerate with `cargo run -p ecaz-cli -- schema --out schemas`
//! or `UPDATE_SCHEMAS=1 cargo test --test schemas`.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::path::PathBuf;

#[test]
fn committed_schemas_match_the_code() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let update = std::env::var_os("UPDATE_SCHEMAS").is_some();
    let mut drift = Vec::new();
    for (name, schema) in ecaz::schema::all() {
        let path = dir.join(format!("{name}.json"));
        let fresh = ecaz::schema::render(&schema);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != fresh {
            drift.push(path.display().to_string());
        }
    }
    assert!(
        drift.is_empty(),
        "schemas drifted from the code: {drift:?}; run `UPDATE_SCHEMAS=1 cargo test --test schemas` and commit"
    );
}

/// D-126: generators name every type. No union member is an
/// anonymous schema (only `$ref`s, string constants and `null`), and every
/// variant definition is titled with its own name.
#[test]
fn every_union_member_is_a_named_definition() {
    fn walk(value: &serde_json::Value, at: &str, bad: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for key in ["oneOf", "anyOf"] {
                    for (i, member) in map
                        .get(key)
                        .and_then(|m| m.as_array())
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        let named = member.get("$ref").is_some()
                            || member.get("const").is_some_and(|c| c.is_string())
                            || member.get("type").and_then(|t| t.as_str()) == Some("null");
                        if !named {
                            bad.push(format!("{at}/{key}/{i}"));
                        }
                    }
                }
                for (k, v) in map {
                    walk(v, &format!("{at}/{k}"), bad);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), bad);
                }
            }
            _ => {}
        }
    }
    let mut bad = Vec::new();
    for (name, schema) in ecaz::schema::all() {
        let value = schema.as_value();
        walk(value, name, &mut bad);
        for (def, body) in value["$defs"].as_object().unwrap() {
            let tagged = body["properties"]["kind"]["const"].is_string();
            if tagged && body["title"].as_str() != Some(def.as_str()) {
                bad.push(format!("{name}: variant $defs/{def} is not titled {def}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "anonymous union members or untitled definitions: {bad:?}"
    );
}

/// D-126: a tagged variant's definition is named after its `kind`
/// and its enum (`place` of `Action` is `PlaceAction`), the `$ref` points at
/// that very variant (no name clash swallowed one), and its description cites
/// the rule it implements. So do the parts of views and options.
#[test]
fn variants_and_view_parts_are_named_and_cite_their_rule() {
    fn cites_rule(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.windows(3).enumerate().any(|(i, w)| {
            matches!(w[0], b'R' | b'P' | b'D')
                && w[1] == b'-'
                && (w[2].is_ascii_uppercase() || w[2].is_ascii_digit())
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
        })
    }
    let parts = ["View", "Options", "Choice", "GroupSource", "Position"];
    let mut bad = Vec::new();
    let mut variants = 0;
    for (name, schema) in ecaz::schema::all() {
        let defs = schema.as_value()["$defs"].as_object().unwrap();
        for (def, body) in defs {
            let Some(members) = body["oneOf"].as_array() else {
                continue;
            };
            for member in members.iter().filter_map(|m| m["$ref"].as_str()) {
                let target = member.trim_start_matches("#/$defs/");
                let variant = &defs[target];
                let kind = variant["properties"]["kind"]["const"].as_str().unwrap_or_default();
                variants += 1;
                if ecaz::schema::variant_name(def, kind) != target {
                    bad.push(format!("{name}: {def} → {target} is not its `{kind}` variant"));
                }
                if !cites_rule(variant["description"].as_str().unwrap_or_default()) {
                    bad.push(format!("{name}: {target} cites no rule id"));
                }
            }
        }
        for (def, body) in defs
            .iter()
            .chain(std::iter::once((&String::from(name), schema.as_value())))
        {
            let is_part = parts.iter().any(|p| def.ends_with(p)) && body["type"] == "object";
            if is_part && !cites_rule(body["description"].as_str().unwrap_or_default()) {
                bad.push(format!("{name}: {def} cites no rule id"));
            }
        }
    }
    assert!(variants > 150, "only {variants} variants found");
    bad.sort();
    bad.dedup();
    assert!(bad.is_empty(), "{} problems:\n{}", bad.len(), bad.join("\n"));
}

/// D-126, checked with json-schema-to-typescript: a `$ref` beside
/// other keywords makes that generator copy its titled target into numbered
/// aliases (`FrameId1` …). Every `$ref` stands alone (an annotated field
/// wraps it as `allOf: [{"$ref": …}]`).
#[test]
fn every_ref_stands_alone() {
    fn walk(value: &serde_json::Value, at: &str, bad: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if map.contains_key("$ref") && map.len() > 1 {
                    bad.push(at.to_string());
                }
                for (k, v) in map {
                    walk(v, &format!("{at}/{k}"), bad);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), bad);
                }
            }
            _ => {}
        }
    }
    let mut bad = Vec::new();
    for (name, schema) in ecaz::schema::all() {
        walk(schema.as_value(), name, &mut bad);
    }
    assert!(bad.is_empty(), "`$ref` with sibling keywords at {bad:?}");
}
