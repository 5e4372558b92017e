//! JSON Schemas of the wire types (schemars), committed under `schemas/` and
//! checked for drift by a test. Tool authors generate bindings from them.
//!
//! The schemas are shaped for code generators (D-126): every
//! variant of a `kind`-tagged enum (command actions, events, decision frames, choices,
//! custodies …) is hoisted into a named definition of its own, so generators
//! name it (`PlaceAction`, `TriggerOfferDecision`, `PhaseStartedEvent`)
//! instead of numbering anonymous union members. Other definitions are named
//! by their `$defs` key.

use schemars::{schema_for, Schema};
use serde_json::{Map, Value};

/// Every exported schema: file stem and schema.
pub fn all() -> Vec<(&'static str, Schema)> {
    let mut all = vec![
        ("setup", schema_for!(crate::Setup)),
        ("command", schema_for!(crate::Command)),
        ("event", schema_for!(crate::Event)),
        ("game", schema_for!(crate::Game)),
        ("view", schema_for!(crate::View)),
        ("options", schema_for!(crate::Options)),
        ("error", schema_for!(crate::ErrorReport)),
        ("scenario", schema_for!(crate::tools::scenario::Scenario)),
        ("table", schema_for!(crate::TableFacts)),
    ];
    for (_, schema) in &mut all {
        name_definitions(schema);
        if let Some(root) = schema.as_object_mut() {
            root.values_mut().for_each(wrap_annotated_refs);
        }
    }
    all
}

/// One schema as pretty JSON with a trailing newline (the committed form).
pub fn render(schema: &Schema) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The name of the definition a tagged variant is hoisted into: the variant's
/// `kind` in PascalCase followed by its enum's name, without a trailing
/// `Kind` (`place` of `Action` → `PlaceAction`, `phaseStarted` of
/// `EventKind` → `PhaseStartedEvent`).
pub fn variant_name(enum_name: &str, kind: &str) -> String {
    let base = enum_name.strip_suffix("Kind").unwrap_or(enum_name);
    let mut name = String::with_capacity(kind.len() + base.len());
    let mut upper = true;
    for c in kind.chars() {
        if c == '_' || c == '-' {
            upper = true;
        } else if upper {
            name.extend(c.to_uppercase());
            upper = false;
        } else {
            name.push(c);
        }
    }
    name.push_str(base);
    name
}

/// Hoists the variants of every `kind`-tagged `oneOf` into definitions titled
/// with their names, referenced by `$ref`. (Other definitions get no `title`:
/// json2ts would copy a titled definition under a numbered name wherever a
/// `$ref` to it carries a sibling `description`.)
fn name_definitions(schema: &mut Schema) {
    let Some(Value::Object(defs)) = schema.as_object_mut().and_then(|root| root.get_mut("$defs")) else {
        return;
    };
    let mut hoisted = Map::new();
    for (name, def) in defs.iter_mut() {
        let Value::Object(def) = def else { continue };
        let Some(Value::Array(variants)) = def.get_mut("oneOf") else {
            continue;
        };
        if !variants.iter().all(|v| tag_of(v).is_some()) {
            continue;
        }
        for variant in variants.iter_mut() {
            let Some(kind) = tag_of(variant) else { continue };
            let variant_name = variant_name(name, kind);
            let reference = serde_json::json!({ "$ref": format!("#/$defs/{variant_name}") });
            let mut body = std::mem::replace(variant, reference);
            if let Value::Object(body) = &mut body {
                // Title first: generators and readers see the name at once.
                let mut titled = Map::new();
                titled.insert("title".into(), Value::String(variant_name.clone()));
                titled.append(body);
                *body = titled;
            }
            hoisted.insert(variant_name, body);
        }
    }
    for (name, body) in hoisted {
        // A name clash would silently drop a definition; the schema tests
        // check that none occurs, so keep the first one here.
        defs.entry(name).or_insert(body);
    }
    defs.sort_keys();
}

/// D-126, checked with json-schema-to-typescript: a `$ref` with
/// sibling keywords (the field's own `description`) makes that generator
/// copy the titled target into a numbered alias per use (`FrameId1`,
/// `Faction23` …). Wrapped as `allOf: [{$ref}]` — the same constraint — the
/// field keeps its description and every generator names the target itself.
fn wrap_annotated_refs(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if map.len() > 1 {
                if let Some(target) = map.remove("$ref") {
                    let reference = Value::Object(Map::from_iter([("$ref".to_string(), target)]));
                    map.insert("allOf".into(), Value::Array(vec![reference]));
                }
            }
            map.values_mut().for_each(wrap_annotated_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(wrap_annotated_refs),
        _ => {}
    }
}

/// The `kind` constant of a tagged variant (an object schema).
fn tag_of(variant: &Value) -> Option<&str> {
    variant.get("properties")?.get("kind")?.get("const")?.as_str()
}
