//! D-80: the worst documents under the bindings' 16 MiB input cap,
//! each refused (or loaded) by the engine side by side with `serde_json`
//! merely parsing the same bytes into a `serde_json::Value`. Goal: the engine
//! within 3× the parse and well under a second (docs/PERFORMANCE.md).
//!
//! Run with `scripts/bench-bounds` (criterion; a few samples each).
//!
//! Documents (each just under 16 MiB):
//! - `state_seats_knowledge`: the finding's state — a seat list of ~700,000
//!   repeated seats and ~100,000 knowledge records naming unseated factions
//!   (took 41 s before D-80).
//! - `state_pending`: ~200,000 open frames (internally tagged decisions).
//! - `state_within_limits`: every list at its limit where that is largest —
//!   1024 knowledge records each holding a 1024-card hand insight — which
//!   passes the size check and reaches the integrity checks.
//! - `setup_seats_traitors`: the finding's setup — ~400,000 repeated seats and
//!   ~700,000 Traitor cards of another faction (9 s and a 36 MB report before).
//! - `setup_catalog`: ~2,000,000 extra card kinds.
//! - `state_unknown_members`, `setup_unknown_members`,
//!   `command_unknown_members`: one object with ~1,000,000 members of
//!   unknown names (the D-150 decoder checked each key against every
//!   earlier one: a 2.3 MB command took 66 s to be refused).
//! - `state_format1_many_members`: a format-1 state with one object of
//!   ~1,000,000 members, read by the older-format path, which refuses a
//!   member named twice (D-182).

// A benchmark harness: a broken fixture must stop the run loudly.
#![allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::hint::black_box;

use criterion::{criterion_group, Criterion};

const CAP: usize = 16 * 1024 * 1024;

/// Repeat `item` (with commas) until the list text reaches `bytes`.
fn list(item: &str, bytes: usize) -> String {
    let n = bytes / (item.len() + 1);
    let mut s = String::with_capacity(bytes + 2);
    s.push('[');
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(item);
    }
    s.push(']');
    s
}

fn base_state() -> serde_json::Value {
    let text = ecaz::new_game_json(r#"{"seats":["ecaz","atreides"],"seed":11}"#).expect("setup");
    serde_json::from_str(&text).expect("state")
}

/// The state with some top-level fields replaced by raw JSON texts.
fn state_with(fields: &[(&str, String)]) -> String {
    let mut v = base_state();
    for (k, _) in fields {
        v[*k] = serde_json::Value::Null;
    }
    let mut text = v.to_string();
    for (k, raw) in fields {
        text = text.replacen(&format!("\"{k}\":null"), &format!("\"{k}\":{raw}"), 1);
    }
    text
}

fn documents() -> Vec<(&'static str, Kind, String)> {
    let room = CAP - 64 * 1024;
    let knowledge =
        r#"{"viewer":"moritani","about":"guild","turn":1,"info":{"kind":"traitor","leader":"staban_tuek"}}"#;
    let frame = r#"{"id":1,"actor":"ecaz","decision":{"kind":"choamDiscard","arrival":1,"beneficiary":"ecaz"}}"#;
    let hand: Vec<String> = (0..1024).map(|c| (c % 33).to_string()).collect();
    let insight = format!(
        r#"{{"viewer":"ecaz","about":"atreides","turn":1,"info":{{"kind":"hand","cards":[{}]}}}}"#,
        hand.join(",")
    );
    let within: Vec<&str> = std::iter::repeat_n(insight.as_str(), 1024).collect();
    // `"k123456":0` members, comma-separated, up to `bytes`.
    let members = |bytes: usize| {
        let mut s = String::with_capacity(bytes + 16);
        let mut i = 0u32;
        while s.len() < bytes {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!("\"k{i}\":0"));
            i += 1;
        }
        s
    };
    let state = base_state().to_string();
    let state_unknown = format!("{},{}}}", state.strip_suffix('}').expect("an object"), members(room));
    let docs = vec![
        (
            "state_seats_knowledge",
            Kind::State,
            state_with(&[
                ("seats", list("\"moritani\"", room / 2)),
                ("knowledge", list(knowledge, room / 2)),
            ]),
        ),
        (
            "state_pending",
            Kind::State,
            state_with(&[("pending", list(frame, room))]),
        ),
        (
            "state_within_limits",
            Kind::State,
            state_with(&[("knowledge", format!("[{}]", within.join(",")))]),
        ),
        (
            "setup_seats_traitors",
            Kind::Setup,
            format!(
                r#"{{"seats":{},"seed":1,"factions":{{"atreides":{{"traitors":{}}}}}}}"#,
                list("\"ecaz\"", room / 3),
                list("\"feyd_rautha\"", room * 2 / 3)
            ),
        ),
        (
            "setup_catalog",
            Kind::Setup,
            format!(
                r#"{{"seats":["ecaz","atreides"],"seed":1,"extraCards":{}}}"#,
                list("\"lasgun\"", room)
            ),
        ),
        ("state_unknown_members", Kind::State, state_unknown),
        (
            "setup_unknown_members",
            Kind::Setup,
            format!(r#"{{"seats":["ecaz","atreides"],"seed":1,{}}}"#, members(room)),
        ),
        (
            "command_unknown_members",
            Kind::Command,
            format!(
                r#"{{"actor":"host","action":{{"kind":"endPhase","phase":"storm",{}}}}}"#,
                members(room)
            ),
        ),
        // D-180, D-181: the shapes that once trapped the WASM module or
        // echoed their input (a version that is an array, a padded format-1
        // state, an event whose difference holds millions of numbers).
        (
            "state_version_array",
            Kind::State,
            format!(r#"{{"version":{}}}"#, list("0", room)),
        ),
        ("state_format1_padded", Kind::State, {
            let v1 = std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/format/v1/game1-step90-quiet.state.json"
            ))
            .expect("the format-1 fixture");
            let v1 = v1.trim_end();
            let open = v1.strip_suffix('}').expect("an object");
            format!(r#"{open},"zz":{}}}"#, list("0", room - v1.len()))
        }),
        // An older-format state with one object of ~1,000,000 members: the
        // duplicate-member check of the older-format path once compared each
        // name with every earlier one (tests/fuzz/corpus/older-format-many-members.json).
        ("state_format1_many_members", Kind::State, {
            let v1 = std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/format/v1/game1-step90-quiet.state.json"
            ))
            .expect("the format-1 fixture");
            let v1 = v1.trim_end();
            let open = v1.strip_suffix('}').expect("an object");
            format!(r#"{open},"zz":{{{}}}}}"#, members(room - v1.len()))
        }),
        (
            "events_difference_numbers",
            Kind::Events,
            format!(
                r#"[{{"audience":{{"kind":"host"}},"event":{{"kind":"tableSynced","differences":[{{"path":"deck","before":{},"after":[]}}]}}}}]"#,
                list("0", room)
            ),
        ),
    ];
    for (name, _, text) in &docs {
        assert!(text.len() <= CAP, "{name}: {} bytes", text.len());
        assert!(
            serde_json::from_str::<serde_json::Value>(text).is_ok(),
            "{name} is not JSON"
        );
    }
    docs
}

/// Which door a document goes through.
#[derive(Clone, Copy)]
enum Kind {
    State,
    Setup,
    Command,
    Events,
}

fn engine(kind: Kind, text: &str) -> Result<usize, ecaz::ApplyError> {
    match kind {
        Kind::State => ecaz::game_from_json(text).map(|g| g.seats().len()),
        Kind::Setup => ecaz::new_game_json(text).map(|s| s.len()),
        Kind::Command => ecaz::command_from_json(text).map(|c| c.action.name().len()),
        Kind::Events => ecaz::events_from_json(text).map(|e| e.len()),
    }
}

fn all(c: &mut Criterion) {
    let docs = documents();
    let mut group = c.benchmark_group("bounds");
    group.sample_size(10);
    for (name, kind, text) in &docs {
        let outcome = engine(*kind, text);
        let code = outcome.as_ref().err().map_or("accepted", ecaz::ApplyError::code);
        let count = outcome.as_ref().err().map_or(0, ecaz::ApplyError::problem_count);
        eprintln!(
            "{name}: {} bytes -> {code} ({count} problem(s), {} listed)",
            text.len(),
            outcome.as_ref().err().map_or(0, |e| e.problems().len())
        );
        group.bench_function(format!("{name}/engine"), |b| {
            b.iter(|| black_box(engine(*kind, black_box(text)).is_ok()))
        });
        group.bench_function(format!("{name}/serde_json_parse"), |b| {
            b.iter(|| black_box(serde_json::from_str::<serde_json::Value>(black_box(text)).is_ok()))
        });
    }
    group.finish();
}

criterion_group!(benches, all);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
