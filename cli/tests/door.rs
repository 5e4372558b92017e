//! D-124: the pipe-friendly JSON door of the `ecaz` binary —
//! `new`, `apply`, `view`, `options` — reading files or `-` (stdin), writing
//! JSON to stdout, failing with the library's stable codes (exit status 1,
//! `error: <code>: <message>` on stderr, nothing on stdout). Every document
//! it prints is validated against schemas/ (D-125), and its bytes
//! equal the library's JSON door.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

#[path = "../../tests/common/documents.rs"]
mod documents;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use documents::{assert_valid, assert_valid_events_text, assert_valid_text};
use serde_json::Value;

/// Run the binary with `stdin` as its standard input.
fn ecaz_with(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ecaz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that fails before reading its input closes the pipe: a broken
    // pipe here is not the test's concern (its status and stderr are).
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn ecaz(args: &[&str]) -> Output {
    ecaz_with(args, "")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A new file for every call: the tests run in parallel, and a file another
/// test rewrites (truncated, then written) can be read empty by its `ecaz`.
fn write_temp(name: &str, text: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ecaz-cli-door-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Success: status 0, nothing on stderr; the printed JSON (one line).
fn ok_json(o: &Output) -> String {
    assert!(o.status.success(), "stderr: {}", stderr(o));
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(o));
    let text = stdout(o);
    assert!(
        text.ends_with('\n') && text.lines().count() == 1,
        "one JSON line: {text}"
    );
    text.trim_end().to_string()
}

/// A failure with a stable code: status 1, one `error: code: …` line, empty stdout.
fn assert_fails(o: &Output, code: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(
        err.starts_with(&format!("error: {code}: ")),
        "expected {code}, stderr: {err}"
    );
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
    assert!(!err.contains("panicked"), "stderr: {err}");
}

const SETUP: &str = r#"{"seats": ["ecaz", "atreides"], "seed": 7, "factions": {"ecaz": {"hand": [30]}}}"#;
const END_STORM: &str = r#"{"actor": "host", "action": {"kind": "endPhase", "phase": "storm"}}"#;

fn new_state() -> String {
    let path = write_temp("setup.json", SETUP);
    ok_json(&ecaz(&["new", path.to_str().unwrap()]))
}

#[test]
fn new_builds_the_state_from_a_file_or_stdin() {
    let from_file = new_state();
    assert_valid_text("game", &from_file);
    assert_eq!(from_file, ecaz::new_game_json(SETUP).unwrap(), "the library's bytes");
    let from_stdin = ok_json(&ecaz_with(&["new", "-"], SETUP));
    assert_eq!(from_stdin, from_file);
}

#[test]
fn apply_prints_the_new_state_and_the_events() {
    let state = new_state();
    let command = write_temp("end-storm.json", END_STORM);
    // The state through a pipe, the command from a file.
    let text = ok_json(&ecaz_with(&["apply", "-", command.to_str().unwrap()], &state));
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_valid("game", &doc["state"]);
    assert_valid_events_text(&doc["events"].to_string());
    // What the rules say: ending Storm starts the Spice Blow of turn 1.
    assert_eq!(doc["state"]["phase"], "spiceBlow");
    let started = doc["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["event"]["kind"] == "phaseStarted" && e["event"]["phase"] == "spiceBlow");
    assert!(started, "{text}");
    assert_eq!(text, ecaz::apply_json(&state, END_STORM).unwrap().to_document());
    // And the command through the pipe, the state from a file.
    let state_file = write_temp("state.json", &state);
    let again = ok_json(&ecaz_with(&["apply", state_file.to_str().unwrap(), "-"], END_STORM));
    assert_eq!(again, text);
}

#[test]
fn apply_chains_through_a_pipe_of_documents() {
    // new | apply: feed apply's state back in, two commands in a row.
    let command = write_temp("end-storm-2.json", END_STORM);
    let first: Value = serde_json::from_str(&ok_json(&ecaz_with(
        &["apply", "-", command.to_str().unwrap()],
        &new_state(),
    )))
    .unwrap();
    let end_blow = write_temp(
        "end-blow.json",
        r#"{"actor": "host", "action": {"kind": "endPhase", "phase": "spiceBlow"}}"#,
    );
    let second: Value = serde_json::from_str(&ok_json(&ecaz_with(
        &["apply", "-", end_blow.to_str().unwrap()],
        &first["state"].to_string(),
    )))
    .unwrap();
    assert_eq!(second["state"]["phase"], "choamCharity");
}

#[test]
fn apply_rejects_with_the_rule_code_and_prints_nothing() {
    let state = new_state();
    // R-phase order: Revival is not the current phase.
    let wrong = write_temp(
        "end-revival.json",
        r#"{"actor": "host", "action": {"kind": "endPhase", "phase": "revival"}}"#,
    );
    let o = ecaz_with(&["apply", "-", wrong.to_str().unwrap()], &state);
    assert_fails(&o, "rule/wrong_phase");
    // No actor forgery: a faction cannot end a phase.
    let forged = write_temp(
        "forged.json",
        r#"{"actor": "ecaz", "action": {"kind": "endPhase", "phase": "storm"}}"#,
    );
    assert_fails(
        &ecaz_with(&["apply", "-", forged.to_str().unwrap()], &state),
        "rule/wrong_actor",
    );
}

#[test]
fn view_redacts_per_viewer() {
    let state = new_state();
    let own: Value = serde_json::from_str(&ok_json(&ecaz_with(&["view", "-", "--as", "ecaz"], &state))).unwrap();
    let other: Value = serde_json::from_str(&ok_json(&ecaz_with(&["view", "-", "--as", "atreides"], &state))).unwrap();
    let quoted: Value =
        serde_json::from_str(&ok_json(&ecaz_with(&["view", "-", "--as", "\"atreides\""], &state))).unwrap();
    for v in [&own, &other, &quoted] {
        assert_valid("view", v);
    }
    assert_eq!(other, quoted, "bare and JSON-quoted viewer ids agree");
    // Hidden information: Ecaz sees its own hand (card 30), Atreides does not.
    assert_eq!(own["factions"][0]["faction"], "ecaz");
    assert_eq!(own["factions"][0]["hand"], serde_json::json!([30]));
    assert!(other["factions"][0]["hand"].is_null(), "{}", other["factions"][0]);
    let library: Value = serde_json::from_str(&ecaz::view_json(&state, "\"ecaz\"").unwrap()).unwrap();
    assert_eq!(own, library, "the library's view");
}

#[test]
fn options_lists_the_actors_legal_commands() {
    let state = new_state();
    let host: Value = serde_json::from_str(&ok_json(&ecaz_with(&["options", "-", "--for", "host"], &state))).unwrap();
    assert_valid("options", &host);
    assert_eq!(host["commands"][0]["action"]["kind"], "endPhase");
    assert_eq!(host["commands"][0]["action"]["phase"], "storm");
    let ecaz_opts: Value =
        serde_json::from_str(&ok_json(&ecaz_with(&["options", "-", "--for", "ecaz"], &state))).unwrap();
    assert_valid("options", &ecaz_opts);
    assert_eq!(
        ecaz_opts["commands"],
        serde_json::json!([]),
        "no decision is Ecaz's at the start"
    );
}

#[test]
fn the_door_fails_with_stable_codes() {
    let state = new_state();
    let cmd = write_temp("cmd.json", END_STORM);
    let cmd = cmd.to_str().unwrap();
    assert_fails(&ecaz_with(&["new", "-"], "{ not json"), "decode/invalid_json");
    assert_fails(
        &ecaz_with(&["new", "-"], r#"{"seats": "ecaz"}"#),
        "decode/invalid_setup",
    );
    assert_fails(
        &ecaz_with(&["new", "-"], r#"{"seats": ["ecaz"], "seed": 1}"#),
        "setup/invalid",
    );
    assert_fails(
        &ecaz_with(&["apply", "-", cmd], r#"{"version": 1}"#),
        "decode/invalid_state",
    );
    assert_fails(&ecaz_with(&["apply", "-", cmd], "[1, 2]"), "state/unsupported_version");
    let mut old: Value = serde_json::from_str(&state).unwrap();
    old["version"] = serde_json::json!(999);
    assert_fails(
        &ecaz_with(&["apply", "-", cmd], &old.to_string()),
        "state/unsupported_version",
    );
    assert_fails(
        &ecaz_with(&["apply", "-", cmd], &state.replace("\"storm\"", "\"nowhere\"")),
        "decode/invalid_state",
    );
    let bad_cmd = write_temp("bad-cmd.json", r#"{"actor": "host", "action": {"kind": "fly"}}"#);
    assert_fails(
        &ecaz_with(&["apply", "-", bad_cmd.to_str().unwrap()], &state),
        "decode/invalid_command",
    );
    assert_fails(
        &ecaz_with(&["view", "-", "--as", "sardaukar"], &state),
        "decode/invalid_viewer",
    );
    assert_fails(
        &ecaz_with(&["options", "-", "--for", "spectator"], &state),
        "decode/invalid_viewer",
    );
    assert_fails(&ecaz(&["apply", "-", "-"]), "cli/stdin_twice");
    assert_fails(&ecaz(&["view", "/nonexistent/state.json", "--as", "ecaz"]), "cli/io");
    // Usage errors are clap's: status 2.
    assert_eq!(ecaz(&["view", "-"]).status.code(), Some(2));
    assert_eq!(ecaz(&["apply", "-"]).status.code(), Some(2));
}

// ---- `replay` of format-2 expectations (D-120–D-123) ----

const V2: &str = r#"{
  "name": "v2 smoke",
  "format": 2,
  "setup": { "seats": ["ecaz", "atreides"], "seed": 1 },
  "steps": [
    { "command": { "actor": "host", "action": { "kind": "endPhase", "phase": "storm" } },
      "expect": {
        "events": [ { "kind": "phaseStarted", "phase": "spiceBlow", "turn": 1 } ],
        "views": [ { "viewer": "atreides", "equals": { "/phase": "spiceBlow" }, "absent": ["/factions/0/spice"] } ],
        "options": [ { "actor": "host", "present": [ { "kind": "endPhase", "phase": "spiceBlow" } ],
                       "absent": [ { "kind": "endPhase", "phase": "storm" } ] } ]
      } }
  ]
}"#;

#[test]
fn replay_checks_format_2_expectations() {
    assert_valid_text("scenario", V2);
    let path = write_temp("v2.json", V2);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let report: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(report["asExpected"], true);
    assert!(report.get("mismatches").is_none());
}

#[test]
fn replay_reports_each_mismatch_with_its_step() {
    let wrong = V2
        .replace(r#""phase": "spiceBlow", "turn": 1"#, r#""phase": "bidding""#)
        .replace(r#""/phase": "spiceBlow""#, r#""/phase": "storm""#)
        .replace(
            r#""absent": ["/factions/0/spice"]"#,
            r#""absent": ["/factions/1/spice"]"#,
        )
        .replace(
            r#""present": [ { "kind": "endPhase", "phase": "spiceBlow" } ]"#,
            r#""present": [ { "kind": "place" } ]"#,
        )
        .replace(
            r#""absent": [ { "kind": "endPhase", "phase": "storm" } ]"#,
            r#""absent": [ { "kind": "endPhase" } ]"#,
        );
    assert_valid_text("scenario", &wrong);
    let path = write_temp("v2-wrong.json", &wrong);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: cli/unexpected: "), "{err}");
    for part in [
        "step 1: expected event 1 of 1 not found",
        "step 1: view of atreides at /phase: expected \"storm\", got \"spiceBlow\"",
        "step 1: view of atreides at /factions/1/spice: expected absent",
        "step 1: options of host: nothing matches {\"kind\":\"place\"}",
        "step 1: options of host: {\"kind\":\"endPhase\"} must be absent",
    ] {
        assert!(err.contains(part), "missing `{part}` in: {err}");
    }
    let report: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(report["asExpected"], false);
    assert_eq!(report["mismatches"].as_array().unwrap().len(), 5);
}

#[test]
fn replay_refuses_an_unknown_format() {
    let path = write_temp("v3.json", &V2.replace(r#""format": 2"#, r#""format": 3"#));
    assert_fails(&ecaz(&["replay", path.to_str().unwrap()]), "decode/invalid_scenario");
}
