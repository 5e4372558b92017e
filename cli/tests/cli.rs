//! The `ecaz` binary, run as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn ecaz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ecaz")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh path under the temp dir, unique per test and process.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ecaz-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A friendly failure: status 1, one `error: code: message` line, no panic.
fn assert_friendly_failure(o: &Output, code: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.starts_with(&format!("error: {code}: ")), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "stderr: {err}");
}

// ---- demo ----

#[test]
fn demo_tells_the_scripted_turn() {
    let o = ecaz(&["demo"]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "Ecaz demo, seed 2026",
        "Seats: Ecaz, Atreides, Harkonnen, Emperor, Fremen, Bene Gesserit.",
        "The storm starts in sector 8; Atreides holds Karama (card 27).",
        "> Host ends the Revival phase.",
        "    Ecaz may place Ambassadors (frame 1); the next one costs 1 spice.",
        "> Ecaz announces the Ecaz Ambassador for Arrakeen (frame 1).",
        "    Ecaz placed the Ecaz Ambassador in Arrakeen and paid 1 spice.",
        "    Ecaz may place Ambassadors (frame 3); the next one costs 2 spice.",
        "    Atreides discarded Karama (card 27).",
        "    Ecaz's placement is over for this turn (prevented by Karama): 1 token placed.",
        "== Turn 2 ==",
        "> Host reports Family Atomics: the Shield Wall is destroyed.",
        "    The storm moved 3 sectors, from sector 8 to sector 11.",
        "    The storm destroyed the Ecaz Ambassador in Arrakeen; it returned to Ecaz's supply.",
        "Placements cancelled by Karama: 1; tokens returned by the storm: 1.",
    ] {
        assert!(text.lines().any(|l| l == line), "missing line {line:?} in:\n{text}");
    }
    // The second placement costs 2 and is cancelled by the Karama.
    assert!(
        text.contains("at a cost of 2 spice; Karama may answer (frame 4)."),
        "{text}"
    );
    assert!(text.contains("Atreides cancelled the placement of the "), "{text}");
}

#[test]
fn demo_second_act_enters_triggers_and_resumes_last() {
    let o = ecaz(&["demo"]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let text = stdout(&o);
    let act: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "== Turn 2: an entry ==")
        .take_while(|l| *l != "== Summary ==")
        .collect();
    // In this order (other lines may come between).
    let expected = [
        "== Turn 2: an entry ==",
        "> Host ends the Revival phase.",
        "> Ecaz announces the Emperor Ambassador for Sietch Tabr (frame 5).",
        "    Ecaz placed the Emperor Ambassador in Sietch Tabr and paid 1 spice.",
        "> Ecaz finishes placing Ambassadors (frame 7).",
        "    Turn 2: the Shipment and Movement phase began.",
        "> Host reports that Harkonnen shipped 3 forces from reserves to Sietch Tabr (sector 14).",
        "    Arrival 1: Harkonnen shipped 3 forces from reserves to Sietch Tabr (sector 14) (an entry).",
        "    Ecaz must now trigger the Emperor Ambassador in Sietch Tabr against Harkonnen's entry (for Ecaz), or \
         decline (frame 8).",
        "> Ecaz triggers the Ambassador for the benefit of Ecaz (frame 8).",
        "    Ecaz triggered the Emperor Ambassador in Sietch Tabr against Harkonnen's entry (arrival 1) for the \
         benefit of Ecaz; it is set aside as used.",
        "    Ecaz gained 5 spice from the bank.",
        "    The Emperor effect for Ecaz is done (arrival 1).",
        "    Every reaction to arrival 1 has settled: the entrant's action resumes.",
    ];
    let mut at = 0;
    for line in expected {
        match act.iter().skip(at).position(|l| *l == line) {
            Some(i) => at += i + 1,
            None => panic!("missing (or out of order) {line:?} in:\n{}", act.join("\n")),
        }
    }
    // The `resume` is the act's last line.
    let last = act.iter().rev().find(|l| !l.is_empty());
    assert_eq!(
        last,
        Some(&"    Every reaction to arrival 1 has settled: the entrant's action resumes.")
    );
    for line in [
        "Ecaz's spice: 15 (started with 12, paid 2 for placements, gained 5 from the bank).",
        "Tokens placed: 2 (the Ecaz Ambassador in Arrakeen, the Emperor Ambassador in Sietch Tabr).",
        "Ambassadors triggered: 1 (the Emperor Ambassador in Sietch Tabr, for Ecaz).",
        "The game stands at turn 2, Shipment and Movement phase, storm in sector 11.",
    ] {
        assert!(text.lines().any(|l| l == line), "missing line {line:?} in:\n{text}");
    }
}

#[test]
fn demo_second_act_settles_for_other_seeds() {
    for seed in ["1", "7", "99"] {
        let o = ecaz(&["demo", "--seed", seed]);
        assert!(o.status.success(), "seed {seed}: {}", stderr(&o));
        let text = stdout(&o);
        let summary = text.lines().position(|l| l == "== Summary ==").unwrap();
        let before: Vec<&str> = text.lines().take(summary).filter(|l| !l.is_empty()).collect();
        assert!(
            before
                .last()
                .unwrap()
                .ends_with("has settled: the entrant's action resumes."),
            "seed {seed}:\n{text}"
        );
        assert!(text.contains("Ambassadors triggered: 1 ("), "seed {seed}:\n{text}");
    }
}

#[test]
fn demo_is_deterministic() {
    let a = ecaz(&["demo"]);
    let b = ecaz(&["demo"]);
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    let c = ecaz(&["demo", "--seed", "7"]);
    let d = ecaz(&["demo", "--seed", "7"]);
    assert!(c.status.success());
    assert_eq!(stdout(&c), stdout(&d));
    assert!(stdout(&c).starts_with("Ecaz demo, seed 7\n"));
}

#[test]
fn demo_rejects_a_seed_out_of_range() {
    let o = ecaz(&["demo", "--seed", "9007199254740992"]);
    assert_friendly_failure(&o, "setup/invalid");
}

// ---- replay ----

#[test]
fn replay_of_a_missing_file_is_a_friendly_error() {
    let missing = temp("does-not-exist.json");
    let o = ecaz(&["replay", missing.to_str().unwrap()]);
    assert_friendly_failure(&o, "cli/io");
    assert!(stderr(&o).contains("does-not-exist.json"));
    assert!(o.stdout.is_empty());
}

#[test]
fn replay_of_bad_json_is_a_friendly_error() {
    let path = write_temp("bad.json", "{ not json");
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "decode/invalid_json");

    let path = write_temp("not-a-scenario.json", r#"{"name": "x"}"#);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "decode/invalid_scenario");
}

const SCENARIO: &str = r#"{
  "name": "cli smoke",
  "setup": { "seats": ["ecaz", "atreides"], "seed": 1 },
  "steps": [
    { "command": { "actor": "host", "action": { "kind": "endPhase", "phase": "storm" } } },
    { "note": "not the current phase",
      "command": { "actor": "host", "action": { "kind": "endPhase", "phase": "revival" } },
      "error": "rule/wrong_phase" }
  ]
}"#;

#[test]
fn replay_prints_one_json_report_per_step() {
    let path = write_temp("good-scenario.json", SCENARIO);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["step"], 1);
    assert_eq!(lines[0]["asExpected"], true);
    assert_eq!(lines[1]["error"]["code"], "rule/wrong_phase");
    assert_eq!(lines[1]["asExpected"], true);
}

#[test]
fn replay_fails_when_a_step_is_not_as_expected() {
    let wrong = SCENARIO.replace("rule/wrong_phase", "rule/stale_frame");
    let path = write_temp("wrong-scenario.json", &wrong);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "cli/unexpected");
    assert!(stderr(&o).contains("step 2"), "{}", stderr(&o));
    // The reports are still printed.
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn replay_fails_on_an_invalid_setup() {
    let bad = SCENARIO.replace(r#"["ecaz", "atreides"]"#, r#"["ecaz"]"#);
    let path = write_temp("bad-setup-scenario.json", &bad);
    let o = ecaz(&["replay", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "setup/invalid");
}

// ---- schema ----

#[test]
fn schema_lists_the_names() {
    let o = ecaz(&["schema"]);
    assert!(o.status.success());
    let names: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let expected: Vec<String> = ecaz::schema::all().into_iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, expected);
}

#[test]
fn schema_name_prints_valid_json() {
    let o = ecaz(&["schema", "command"]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let schema: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(schema["title"], "Command");
}

#[test]
fn schema_of_an_unknown_name_is_an_error() {
    let o = ecaz(&["schema", "nope"]);
    assert_friendly_failure(&o, "cli/unknown_schema");
}

#[test]
fn schema_out_writes_every_schema() {
    let dir = temp("schemas-out");
    let o = ecaz(&["schema", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    for (name, schema) in ecaz::schema::all() {
        let written = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        assert_eq!(written, ecaz::schema::render(&schema));
    }
}

// ---- validate ----

#[test]
fn validate_reports_every_problem_of_an_invalid_setup() {
    let path = write_temp("one-seat.json", r#"{ "seats": ["ecaz"], "seed": 9, "storm": 40 }"#);
    let o = ecaz(&["validate", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "setup/invalid");
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["code"], "setup/invalid");
    let paths: Vec<&str> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"seats"), "{paths:?}");
    assert!(paths.contains(&"storm"), "{paths:?}");
}

#[test]
fn validate_accepts_a_valid_setup_and_a_saved_state() {
    let setup = r#"{ "seats": ["ecaz", "emperor"], "seed": 3 }"#;
    let path = write_temp("valid-setup.json", setup);
    let o = ecaz(&["validate", path.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_eq!(stdout(&o), "ok\n");

    let state = ecaz::new_game_json(setup).unwrap();
    let path = write_temp("valid-state.json", &state);
    let o = ecaz(&["validate", path.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_eq!(stdout(&o), "ok\n");
}

#[test]
fn validate_recognises_a_state_by_its_version() {
    let path = write_temp("future-state.json", r#"{ "version": 999 }"#);
    let o = ecaz(&["validate", path.to_str().unwrap()]);
    assert_friendly_failure(&o, "state/unsupported_version");
}

#[test]
fn validate_of_a_missing_file_is_a_friendly_error() {
    let missing = temp("no-such-setup.json");
    let o = ecaz(&["validate", missing.to_str().unwrap()]);
    assert_friendly_failure(&o, "cli/io");
}

// ---- usage ----

#[test]
fn usage_errors_exit_2() {
    let o = ecaz(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"));
}

// ---- export-setup (D-105) ----

/// A saved quiet moment (format 1, migrated on load) exports to a Setup that
/// builds back to the very same state; a non-quiet moment is refused.
#[test]
fn issue13_4_export_setup_of_a_saved_quiet_moment_imports_back_equal() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/format/v1");
    let quiet = fixtures.join("game1-step90-quiet.state.json");
    let o = ecaz(&["export-setup", quiet.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let setup = stdout(&o);
    let rebuilt = ecaz::new_game_json(setup.trim()).unwrap();
    let saved = ecaz::game_to_json(&ecaz::game_from_json(&std::fs::read_to_string(&quiet).unwrap()).unwrap()).unwrap();
    assert_eq!(rebuilt, saved);

    let busy = fixtures.join("game1-step14-triggerOffer.state.json");
    let o = ecaz(&["export-setup", busy.to_str().unwrap()]);
    assert_friendly_failure(&o, "state/not_quiet");
}

// ---- the input policy (D-180, D-181) ----

/// D-180: a document over the engine's input cap is refused unread (the
/// file is not parsed, the message is short); D-181: the version of a state
/// is described, not echoed (a 4 MB array once gave a 4 MB message).
#[test]
fn large_input_refused_before_parse_d180() {
    let huge = write_temp("huge.json", &" ".repeat(ecaz::MAX_INPUT_BYTES + 1));
    let huge = huge.to_str().unwrap();
    for args in [
        vec!["view", "--as", "host", huge],
        vec!["new", huge],
        vec!["validate", huge],
    ] {
        let o = ecaz(&args);
        assert_friendly_failure(&o, "decode/input_too_large");
        assert!(stderr(&o).len() < 1024, "{}", stderr(&o).len());
    }
    let echo = format!("{{\"version\":[{}0]}}", "0,".repeat(2_000_000));
    let echo = write_temp("version-echo.json", &echo);
    let o = ecaz(&["view", "--as", "host", echo.to_str().unwrap()]);
    assert_friendly_failure(&o, "state/unsupported_version");
    assert!(stderr(&o).len() < 1024, "{}", stderr(&o).len());
}
