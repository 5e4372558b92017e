//! The input policy of every JSON door (D-180 … D-183, docs/integration.md
//! "Input policy"): a capped length checked before parsing, no
//! `serde_json::Value` built from an unbounded document, bounded error
//! reports, older-format states read as strictly as the current format.
//! Each test is named after the class of input that once broke the engine.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use common::fixture_text;

use ecaz::{ApplyError, MAX_INPUT_BYTES, MAX_JSON_VALUES, MAX_MESSAGE_BYTES};

fn v1_state() -> String {
    fixture_text("format/v1/game1-step90-quiet.state.json")
}

/// The report's code, checking that the report is bounded (D-181).
fn code<T: std::fmt::Debug>(r: Result<T, ApplyError>) -> String {
    let e = r.expect_err("refused");
    let report = e.report();
    assert!(
        report.message.len() <= MAX_MESSAGE_BYTES + '…'.len_utf8(),
        "an unbounded report ({} bytes)",
        report.message.len()
    );
    for p in &report.problems {
        assert!(p.message.len() <= MAX_MESSAGE_BYTES + 3 && p.path.len() <= MAX_MESSAGE_BYTES + 3);
    }
    report.code
}

/// `[0,0,…]` with `n` zeros.
fn zeros(n: usize) -> String {
    let mut s = String::with_capacity(2 * n + 2);
    s.push('[');
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push('0');
    }
    s.push(']');
    s
}

/// D-180: every door refuses an input over the cap before parsing it — even
/// one that is not JSON at all, so nothing of it was read.
#[test]
fn large_input_refused_before_parse_d180() {
    let state = ecaz::new_game_json(r#"{"seats":["ecaz","atreides"],"seed":1}"#).unwrap();
    let huge = "x".repeat(MAX_INPUT_BYTES + 1);
    let at_cap = " ".repeat(MAX_INPUT_BYTES);
    let started = Instant::now();
    assert_eq!(code(ecaz::game_from_json(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::setup_from_json(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::new_game_json(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::command_from_json(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::apply_json(&state, &huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::apply_json(&huge, "{}")), "decode/input_too_large");
    assert_eq!(code(ecaz::events_from_json(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::events_for_json(&huge, "\"host\"")), "decode/input_too_large");
    assert_eq!(
        code(ecaz::narrate_text(&state, &huge, "host")),
        "decode/input_too_large"
    );
    assert_eq!(code(ecaz::view_json(&state, &huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::viewer_from_text(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::actor_from_text(&huge)), "decode/input_too_large");
    assert_eq!(code(ecaz::export_setup_json(&huge)), "decode/input_too_large");
    // Refused unread: far quicker than one pass over the bytes would allow
    // for thirteen calls of 16 MiB each.
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );
    // At the cap the input is read (here: not JSON).
    assert_eq!(code(ecaz::game_from_json(&at_cap)), "decode/invalid_json");
}

/// D-180: an event list whose `tableSynced` difference holds more values
/// than `MAX_JSON_VALUES` is refused by the streaming count, before any
/// `Value` is built (the module once trapped on 40 M numbers).
#[test]
fn huge_json_value_in_events_refused_d180() {
    let events = format!(
        r#"[{{"audience":{{"kind":"host"}},"event":{{"kind":"tableSynced","differences":[{{"path":"deck","before":{},"after":[]}}]}}}}]"#,
        zeros(MAX_JSON_VALUES)
    );
    assert!(events.len() < MAX_INPUT_BYTES);
    assert_eq!(code(ecaz::events_from_json(&events)), "decode/invalid_events");
    let state = ecaz::new_game_json(r#"{"seats":["ecaz","atreides"],"seed":1}"#).unwrap();
    let item = &events[1..events.len() - 1];
    assert_eq!(code(ecaz::narrate_text(&state, item, "host")), "decode/invalid_command");
    // A small one is read as before.
    let small = events.replacen(&zeros(MAX_JSON_VALUES), "[1,2]", 1);
    assert_eq!(ecaz::events_from_json(&small).unwrap().len(), 1);
    assert!(ecaz::narrate_text(&state, &small[1..small.len() - 1], "host").is_ok());
    // An item that is not an object is still refused as such.
    assert_eq!(code(ecaz::events_from_json("[1]")), "decode/invalid_events");
}

/// D-181: `state/unsupported_version` describes the found version in a few
/// words, never quoting it whole (a 16 MB array once gave a 16 MB report).
#[test]
fn version_echo_bounded_d181() {
    let state = format!(r#"{{"version":{}}}"#, zeros(4_000_000));
    let e = ecaz::game_from_json(&state).unwrap_err();
    assert_eq!(e.code(), "state/unsupported_version");
    assert!(e.to_string().len() < 200, "{}", e.to_string().len());
    assert!(e.to_string().contains("an array"), "{e}");
    let long = format!(r#"{{"version":"{}"}}"#, "9".repeat(100_000));
    let e = ecaz::game_from_json(&long).unwrap_err();
    assert_eq!(e.code(), "state/unsupported_version");
    assert!(e.to_string().len() < 200, "{e}");
    for (doc, found) in [
        (r#"{"version":99}"#, "version 99"),
        (r#"{"version":-1}"#, "version -1"),
        (r#"{"version":{"a":[1]}}"#, "an object"),
        (r#"{"nothing":1}"#, "version none"),
    ] {
        let e = ecaz::game_from_json(doc).unwrap_err();
        assert_eq!(e.code(), "state/unsupported_version");
        assert!(e.to_string().contains(found), "{e}");
    }
}

/// D-181: any report is bounded, whatever value it quotes (an unknown
/// command kind of 1 MB).
#[test]
fn error_report_bounded_d181() {
    let command = format!(r#"{{"actor":"host","action":{{"kind":"{}"}}}}"#, "k".repeat(1 << 20));
    assert_eq!(code(ecaz::command_from_json(&command)), "decode/invalid_command");
    let viewer = format!("\"{}\"", "v".repeat(1 << 20));
    assert_eq!(code(ecaz::viewer_from_text(&viewer)), "decode/invalid_viewer");
}

/// D-182: a format-1 state naming a member twice is refused, as format 2
/// refuses it (it was read last-wins: a second `rng` replaced the first).
#[test]
fn v1_duplicate_member_refused_d182() {
    let e = ecaz::game_from_json(&fixture_text("hardening/v1-duplicate-member.state.json")).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state");
    assert!(e.to_string().contains("duplicate member"), "{e}");
    let e = ecaz::game_from_json(&fixture_text("hardening/v2-duplicate-member.state.json")).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state");
    // The same state without the duplicate loads (migrated).
    assert!(ecaz::game_from_json(&v1_state()).is_ok());
}

/// D-180: a format-1 state padded with more values than `MAX_JSON_VALUES`
/// is refused by the streaming count, before any `Value` is built.
#[test]
fn v1_big_state_refused_d180() {
    let v1 = v1_state();
    let trimmed = v1.trim_end();
    let padded = format!("{},\"zz\":{}}}", &trimmed[..trimmed.len() - 1], zeros(MAX_JSON_VALUES));
    let e = ecaz::game_from_json(&padded).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state");
    assert!(e.to_string().contains("JSON values"), "{e}");
}

/// D-183: a format-2 document labelled `"version": 1` is told what it is,
/// not that version 1 is unsupported.
#[test]
fn v2_labelled_v1_is_invalid_state_d183() {
    let e = ecaz::game_from_json(&fixture_text("hardening/v2-labelled-v1.state.json")).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state", "{e}");
    assert!(e.to_string().contains("labelled format version 1"), "{e}");
}

/// D-180: nesting past the limit is the same code in format 1 as in format 2.
#[test]
fn v1_nesting_is_invalid_state_d180() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let v1 = v1_state();
    let trimmed = v1.trim_end();
    let nested = format!("{},\"zz\":{deep}}}", &trimmed[..trimmed.len() - 1]);
    assert_eq!(code(ecaz::game_from_json(&nested)), "decode/invalid_state");
    let v2 = nested.replacen("\"version\":1", "\"version\":2", 1);
    assert_ne!(v2, nested);
    assert_eq!(code(ecaz::game_from_json(&v2)), "decode/invalid_state");
}
