//! JSON Schemas of the wire types (schemars), committed under `schemas/` and
//! checked for drift by a test. Tool authors generate bindings from them.

use schemars::{schema_for, Schema};

/// Every exported schema: file stem and schema.
pub fn all() -> Vec<(&'static str, Schema)> {
    vec![
        ("setup", schema_for!(crate::Setup)),
        ("command", schema_for!(crate::Command)),
        ("event", schema_for!(crate::Event)),
        ("game", schema_for!(crate::Game)),
        ("view", schema_for!(crate::View)),
        ("options", schema_for!(crate::Options)),
        ("error", schema_for!(crate::ErrorReport)),
        ("scenario", schema_for!(crate::scenario::Scenario)),
    ]
}

/// One schema as pretty JSON with a trailing newline (the committed form).
pub fn render(schema: &Schema) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}
