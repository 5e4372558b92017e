//! The committed schemas under `schemas/` must equal the generated ones
//! (ARCHITECTURE §2). Regenerate with `cargo run -p ecaz-cli -- schema --out schemas`
//! or `UPDATE_SCHEMAS=1 cargo test --test schemas`.

#![allow(clippy::unwrap_used)]

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
