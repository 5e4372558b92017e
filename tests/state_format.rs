//! D-107: saved games survive upgrades. `tests/fixtures/format/v<N>/`
//! holds states saved by format version N (written by that version, before
//! the next format change, with `write_format_fixtures` in
//! `tests/invariants.rs`), each with the commands played next, what each
//! produced then, and the state reached. This version must load every one of
//! them (migrating older versions explicitly), play the same commands with
//! the same outcome (same error code, or events carrying at least everything
//! the old events carried) and reach the saved final state (migrated).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::{apply_mut, game_from_json, Command, FORMAT_VERSION};
use serde_json::Value;

/// Is every field of `old` present with an equal value in `new` (objects
/// may have gained fields; arrays and scalars must match)?
fn contains(new: &Value, old: &Value) -> bool {
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => o.iter().all(|(k, v)| n.get(k).is_some_and(|nv| contains(nv, v))),
        (Value::Array(n), Value::Array(o)) => n.len() == o.len() && n.iter().zip(o).all(|(a, b)| contains(a, b)),
        _ => new == old,
    }
}

fn fixtures() -> Vec<(u32, String, std::path::PathBuf)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let version: u32 = dir.file_name().unwrap().to_str().unwrap()[1..].parse().unwrap();
        for f in std::fs::read_dir(&dir).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            if let Some(stem) = name.strip_suffix(".state.json") {
                out.push((version, stem.to_string(), dir.clone()));
            }
        }
    }
    out.sort();
    out
}

/// Fixtures whose continuation a later rules fix changed: (fixture, first
/// step that differs, the decision that changed it). Their state still
/// loads and plays on; the comparison stops at that step, which must be
/// exactly the listed one.
const RULE_CHANGES: &[(&str, usize, &str)] = &[
    (
        "game2-step90-quiet",
        7,
        "D-52: a captured Duke Vidal is used in battle by his captor (format 1's rules refused it)",
    ),
    (
        "game1-step100-ixianSwap",
        18,
        "D-163, D-171: 3 reserve Suboids became Cyborgs; the host's later Suboid shipment no longer has them",
    ),
    (
        "game4-step107-guildShipment",
        20,
        "D-163, D-171: 3 reserve Suboids became Cyborgs; the host's later Suboid arrival no longer has them",
    ),
    (
        "game1-step116-ixianSwap",
        23,
        "D-163, D-171: 3 reserve Suboids became Cyborgs; the host's later Suboid arrival no longer has them",
    ),
];

/// What a command did: its events as JSON, or `error <code>`.
fn outcome(g: &mut ecaz::Game, cmd: &Command) -> Value {
    match apply_mut(g, cmd) {
        Ok(events) => serde_json::to_value(&events).unwrap(),
        Err(e) => Value::from(format!("error {}", e.code())),
    }
}

#[test]
fn issue13_6_every_saved_version_loads_and_plays_on_identically() {
    let all = fixtures();
    assert!(all.len() >= 16, "only {} fixtures", all.len());
    assert!(all.iter().any(|(v, ..)| *v == 1), "the version 1 fixtures are kept");
    let mut report = Vec::new();
    for (version, name, dir) in all {
        assert!(version <= FORMAT_VERSION, "{name}: a fixture from the future");
        let ctx = format!("v{version}/{name}");
        let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
        let play: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.play.json"))).unwrap()).unwrap();
        let mut g = game_from_json(&text).unwrap_or_else(|e| panic!("{ctx}: {} {e}", e.code()));
        // A loaded game is written back in the current format.
        assert_eq!(json_value(&g)["version"], Value::from(FORMAT_VERSION), "{ctx}");
        let commands: Vec<Command> = serde_json::from_value(play["commands"].clone()).unwrap();
        let outcomes = play["outcomes"].as_array().unwrap();
        assert_eq!(commands.len(), outcomes.len(), "{ctx}");
        let mut diverged = None;
        let start = g.revision();
        let mut accepted = 0;
        for (i, (cmd, recorded)) in commands.iter().zip(outcomes).enumerate() {
            let recorded = recorded.as_str().unwrap();
            let then: Value = serde_json::from_str(recorded).unwrap_or_else(|_| Value::from(recorded));
            let now = outcome(&mut g, cmd);
            accepted += u32::from(now.is_array());
            if !contains(&now, &then) {
                diverged = Some((i, now, then));
                break;
            }
        }
        // The rule changes of format 3 (D-171) alter only games saved before it.
        let known = RULE_CHANGES.iter().find(|(n, ..)| *n == name && version < 3);
        match (diverged, known) {
            (None, None) => {}
            (Some((i, ..)), Some((_, step, _))) if i == *step => continue,
            (Some((i, now, then)), _) => {
                report.push(format!("{ctx} step {i}: the outcome differs\n now {now}\nthen {then}"));
                continue;
            }
            (None, Some(_)) => {
                report.push(format!("{ctx}: listed as changed by a rule, but plays on identically"));
                continue;
            }
        }
        let saved_final = json_value(&game_from_json(play["final"].as_str().unwrap()).unwrap());
        let mut now = json_value(&g);
        // What an older format did not record (migrated to null) may have
        // been recorded by this version during the continuation: the turn an
        // alliance began and the turn of Duke Vidal's custody (format 2).
        // D-230: a state older than format 4 counted no commands: its
        // migrated revision is 0 and the continuation counted from there.
        if version < 4 {
            assert_eq!(
                (start, g.revision()),
                (0, accepted),
                "{ctx}: the revision counts accepted commands"
            );
            now["revision"] = saved_final["revision"].clone();
        }
        if saved_final["duke"]["since"].is_null() {
            now["duke"]["since"] = Value::Null;
        }
        for (i, f) in saved_final["factions"].as_array().unwrap().iter().enumerate() {
            if f["allySince"].is_null() {
                now["factions"][i]["allySince"] = Value::Null;
            }
        }
        if now != saved_final {
            report.push(format!("{ctx}: the final state differs"));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n\n"));
}

#[test]
fn issue13_6_migration_1_to_2_is_explicit_and_complete() {
    let (_, name, dir) = fixtures().into_iter().find(|(v, ..)| *v == 1).unwrap();
    let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(ecaz::migrate(&mut v).unwrap(), 1);
    // The migrated document is the current format's (text steps, then typed).
    assert_eq!(v["version"], Value::from(FORMAT_VERSION));
    for f in v["factions"].as_array().unwrap() {
        assert_eq!(f["revealedFaceDancers"], serde_json::json!([]));
        assert_eq!(f["allySince"], Value::Null);
    }
    assert_eq!(v["duke"]["since"], Value::Null);
    assert_eq!(v["treachery"]["outside"], serde_json::json!([]));
    // The migrated document decodes strictly, as a current state.
    let g = game_from_json(&v.to_string()).unwrap();
    assert_eq!(g, game_from_json(&text).unwrap());
    // A current-version state missing a field of the current format is
    // refused, never filled in by a guess.
    let mut current = json_value(&g);
    current["factions"][0]
        .as_object_mut()
        .unwrap()
        .remove("revealedFaceDancers");
    let e = game_from_json(&current.to_string()).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state");
}

/// D-230: the format step that adds the revision is its own explicit step:
/// a format-2 state gains `revision: 0` and nothing else.
#[test]
fn d230_migration_2_adds_the_revision_explicitly() {
    let v2: Vec<_> = fixtures().into_iter().filter(|(v, ..)| *v == 2).collect();
    assert!(v2.len() >= 8, "only {} format-2 fixtures", v2.len());
    for (_, name, dir) in v2 {
        let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
        let old: Value = serde_json::from_str(&text).unwrap();
        assert!(old.get("revision").is_none(), "{name}");
        let mut v = old.clone();
        assert_eq!(ecaz::migrate(&mut v).unwrap(), 2, "{name}");
        assert_eq!(v["version"], Value::from(FORMAT_VERSION));
        assert_eq!(v["revision"], Value::from(0), "{name}");
        // The migrated document is the loaded game's (the typed steps of
        // D-171 included), with the revision starting at 0.
        let g = game_from_json(&text).unwrap();
        assert_eq!(v, json_value(&g), "{name}");
        assert_eq!(game_from_json(&v.to_string()).unwrap(), g, "{name}");
        // A format-2 document that already names a revision is not a format-2
        // state: refused, not guessed.
        let mut odd = old.clone();
        odd["revision"] = Value::from(5);
        assert_eq!(
            ecaz::migrate(&mut odd.clone()).unwrap_err().code(),
            "decode/invalid_state"
        );
        assert!(game_from_json(&odd.to_string()).is_err(), "{name}");
    }
    // A current state without its revision is refused (no serde default).
    let (_, name, dir) = fixtures().into_iter().find(|(v, ..)| *v == 2).unwrap();
    let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
    let mut current = json_value(&game_from_json(&text).unwrap());
    current.as_object_mut().unwrap().remove("revision");
    assert_eq!(
        game_from_json(&current.to_string()).unwrap_err().code(),
        "decode/invalid_state"
    );
}

#[test]
fn issue13_6_a_state_of_an_unknown_version_is_refused_unread() {
    let (_, name, dir) = fixtures().remove(0);
    let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    for bad in [
        Value::from(0),
        Value::from(FORMAT_VERSION + 1),
        Value::from("1"),
        Value::Null,
    ] {
        v["version"] = bad.clone();
        let e = game_from_json(&v.to_string()).unwrap_err();
        assert_eq!(e.code(), "state/unsupported_version", "version {bad}");
    }
}

/// D-181, D-183: a state labelled with the current version is read in the
/// current shape only; when that shape is wrong the report names what is
/// wrong in it, not an older format's reading of the same text.
#[test]
fn d_181_a_current_version_state_of_the_wrong_shape_is_told_its_shape() {
    let text = ecaz::new_game_json(r#"{"seats": ["ecaz", "harkonnen", "atreides"], "seed": 5}"#).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], Value::from(FORMAT_VERSION));
    v.as_object_mut().unwrap().remove("turn");
    let e = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state", "{e}");
    let message = e.to_string();
    assert!(message.contains("missing field `turn`"), "{message}");
    assert!(!message.contains("older-format"), "{message}");
    // A member named twice: the current reader's own refusal (D-182).
    let twice = text.replacen('{', r#"{"turn":1,"#, 1);
    let e = game_from_json(&twice).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state", "{e}");
    let message = e.to_string();
    assert!(message.contains("duplicate field `turn`"), "{message}");
    assert!(!message.contains("older-format"), "{message}");
}

/// D-171: format 2 → 3 is a typed step on the decoded game (`migrate_2_to_3`).
/// Every format-2 fixture loads as format 3 with CHOAM's old default hand
/// limit of 4 raised to 5 (D-162) and the Ixians' 16 + 4 turned into 13 + 7
/// without moving a force (D-163); everything else is as saved.
#[test]
fn d_171_format_2_states_migrate_to_3() {
    let v2: Vec<_> = fixtures().into_iter().filter(|(v, ..)| *v == 2).collect();
    assert!(v2.len() >= 8, "format-2 fixtures: {}", v2.len());
    let (mut choam, mut ixians) = (0, 0);
    for (_, name, dir) in v2 {
        let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
        let old: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(old["version"], Value::from(2), "{name}");
        let g = game_from_json(&text).unwrap_or_else(|e| panic!("{name}: {} {e}", e.code()));
        let mut new = json_value(&g);
        assert_eq!(new["version"], Value::from(FORMAT_VERSION), "{name}");
        for (i, f) in old["factions"].as_array().unwrap().iter().enumerate() {
            let after = &new["factions"][i];
            if f["faction"] == "choam" {
                choam += 1;
                assert_eq!(f["handLimit"], Value::from(4), "{name}: saved with the old default");
                assert_eq!(after["handLimit"], Value::from(5), "{name}");
            }
            if f["faction"] == "ixians" {
                ixians += 1;
                let count = |f: &Value, k: &str| {
                    f["reserves"][k].as_u64().unwrap()
                        + f["tanks"][k].as_u64().unwrap()
                        + f["board"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|x| x[k].as_u64().unwrap())
                            .sum::<u64>()
                };
                assert_eq!((count(f, "normal"), count(f, "elite")), (16, 4), "{name}");
                assert_eq!((count(after, "normal"), count(after, "elite")), (13, 7), "{name}");
                // No force moved: every stack keeps its total.
                let totals = |f: &Value| {
                    f["board"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| {
                            (
                                x["territory"].clone(),
                                x["normal"].as_u64().unwrap() + x["elite"].as_u64().unwrap(),
                            )
                        })
                        .collect::<Vec<_>>()
                };
                assert_eq!(totals(f), totals(after), "{name}");
            }
        }
        // Format 3 records where a captive Duke returns; format 2 did not.
        assert_eq!(new["duke"]["beforeCapture"], Value::Null, "{name}");
        new["duke"].as_object_mut().unwrap().remove("beforeCapture");
        // Format 4 adds the revision (D-230), 0 for a migrated state.
        assert_eq!(new["revision"], Value::from(0), "{name}");
        new.as_object_mut().unwrap().remove("revision");
        // Apart from those, the state is the saved one.
        new["version"] = Value::from(2);
        for (i, f) in old["factions"].as_array().unwrap().iter().enumerate() {
            for k in ["handLimit", "reserves", "tanks", "board"] {
                new["factions"][i][k] = f[k].clone();
            }
        }
        assert_eq!(new, old, "{name}: only the migrated fields change");
    }
    assert!(
        choam >= 1 && ixians >= 1,
        "fixtures with CHOAM ({choam}) and the Ixians ({ixians})"
    );
}

/// D-171: the typed step on values no fixture holds — a CHOAM hand limit a
/// host set to something else is kept; gholas held by others than the
/// Tleilaxu become captives (a Duke ghola of Ecaz becomes Ecaz's); a
/// format-2 state is refused unread when its version is not a known one.
#[test]
fn d_171_migrate_2_to_3_ghola_and_hand_limit_cases() {
    let (_, name, dir) = fixtures()
        .into_iter()
        .find(|(v, n, _)| *v == 2 && n.contains("quiet"))
        .unwrap();
    let text = std::fs::read_to_string(dir.join(format!("{name}.state.json"))).unwrap();
    let base: Value = serde_json::from_str(&text).unwrap();
    let seated: Vec<String> = base["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let holder = seated
        .iter()
        .find(|s| *s != "ecaz" && *s != "tleilaxu")
        .unwrap()
        .clone();
    for (duke, expected) in [
        (
            serde_json::json!({"kind": "ghola", "by": holder}),
            serde_json::json!({"kind": "captured", "by": holder}),
        ),
        (
            serde_json::json!({"kind": "ghola", "by": "ecaz"}),
            serde_json::json!({"kind": "controlled", "by": "ecaz", "source": "ecazAmbassador"}),
        ),
    ] {
        let mut v = base.clone();
        v["duke"]["custody"] = duke;
        v["duke"]["beforeLoan"] = Value::Null;
        let g = game_from_json(&v.to_string()).unwrap_or_else(|e| panic!("{} {e} {:?}", e.code(), e.problems()));
        assert_eq!(json_value(&g)["duke"]["custody"], expected);
    }
    // A leader ghola of a non-Tleilaxu holder becomes a captive of it.
    let mut v = base.clone();
    let owner = v["factions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["faction"] != holder.as_str())
        .unwrap();
    v["factions"][owner]["leaders"][0]["custody"] = serde_json::json!({"kind": "ghola", "by": holder});
    let g = game_from_json(&v.to_string()).unwrap_or_else(|e| panic!("{} {e} {:?}", e.code(), e.problems()));
    assert_eq!(
        json_value(&g)["factions"][owner]["leaders"][0]["custody"],
        serde_json::json!({"kind": "captured", "by": holder})
    );
    // The same document labelled format 3 is refused: a ghola only the
    // Tleilaxu may hold.
    v["version"] = Value::from(3);
    assert_eq!(game_from_json(&v.to_string()).unwrap_err().code(), "state/inconsistent");
}
