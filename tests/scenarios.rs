#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
//! Scenario playthroughs (ARCHITECTURE §7).
//!
//! Every `tests/scenarios/*.json` file (sorted by name) is replayed with
//! [`ecaz::scenario::run`]: the replay must not stop early, and every step must
//! be accepted or rejected exactly as the file says (a rejected step must
//! also leave the state byte-identical; the runner checks that).
//!
//! Each replay is then recorded as an insta JSON snapshot
//! (`tests/snapshots/scenarios__<file stem>.snap`). To keep the snapshots
//! readable and small while still recording *every* viewer's view, a
//! transcript stores views as differences:
//!
//! - `initial.spectator` is the spectator's full view before the first step;
//!   `initial.private` is, per seated faction, what that faction's view shows
//!   beyond the spectator's (JSON pointer → value).
//! - each step records the report (command, events or error), the pending
//!   frames (in full), the actors' options (only when they changed), the
//!   changes to the spectator's view since the previous step
//!   (`spectatorChanges`, JSON pointer → new value), and, for each faction whose
//!   private part changed since the previous step, its new private part.
//!
//! So every faction's view after every step can be rebuilt from the
//! snapshot, and the `private` parts show at a glance what each faction sees
//! that others do not. The test also asserts directly, for every view of every
//! step, that no faction or spectator sees another faction's spice, hand,
//! traitors, Face Dancers or Nexus card.

#[path = "common/documents.rs"]
mod documents;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use documents::{assert_valid_as, assert_valid_text};

use ecaz::scenario::{observe, Observation, Scenario};
use ecaz::{Faction, FrameVisibility, View, Viewer};
use serde_json::{json, Map, Value};

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Scenario {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    // D-125: the file itself obeys schemas/scenario.json.
    assert_valid_text("scenario", &text);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not a valid scenario: {e}", path.display()))
}

/// Escape one JSON pointer token (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The changes from `old` to `new` as JSON pointer → new value. Objects are
/// compared key by key and arrays of equal length item by item; anything else
/// that differs (an array that changed length, a scalar) is replaced whole. A
/// key that disappeared is recorded as `"<removed>"`.
fn diff(old: &Value, new: &Value, at: &str, out: &mut Map<String, Value>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, vb) in b {
                let here = format!("{at}/{}", escape(k));
                match a.get(k) {
                    Some(va) => diff(va, vb, &here, out),
                    None => {
                        out.insert(here, vb.clone());
                    }
                }
            }
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                out.insert(format!("{at}/{}", escape(k)), json!("<removed>"));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                diff(va, vb, &format!("{at}/{i}"), out);
            }
        }
        _ if old == new => {}
        _ => {
            out.insert(at.to_string(), new.clone());
        }
    }
}

fn changes(old: &Value, new: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    diff(old, new, "", &mut out);
    out
}

/// A view as JSON with its `viewer` field dropped (so views of different
/// viewers can be compared) and its `pending` frames dropped (recorded apart,
/// in full, at every step; the test checks they are the same in every view).
fn view_value(v: &View) -> Value {
    let mut value = serde_json::to_value(v).unwrap();
    if let Value::Object(m) = &mut value {
        m.remove("viewer");
        m.remove("pending");
    }
    value
}

/// The pending frames as the spectator sees them, plus the copy of each
/// faction that sees more: Ecaz's when P-SUPPLY-VIS `ownerOnly` hides a
/// placement announcement's token from the others, a decider's own frame
/// under P-FRAME-VIS `actorOnly` (D-241). Every other view must show the
/// spectator's frames.
fn pending_value(obs: &Observation) -> Value {
    let frames = |v: &View| serde_json::to_value(&v.pending).unwrap();
    let public = obs
        .views
        .iter()
        .find(|v| v.viewer == Viewer::Spectator)
        .map_or(Value::Null, frames);
    let mut out = Map::new();
    for v in &obs.views {
        let Viewer::Faction(f) = v.viewer else { continue };
        let own = frames(v);
        if own != public {
            let shown_more = f == Faction::Ecaz || v.policies.frame_visibility == FrameVisibility::ActorOnly;
            assert!(
                shown_more,
                "{f}'s view disagrees with the spectator's on the pending frames"
            );
            out.insert(f.id().to_string(), own);
        }
    }
    if out.is_empty() {
        return public;
    }
    out.insert("public".into(), public);
    Value::Object(out)
}

/// The spectator's view and each faction's private part of an observation.
struct Split {
    spectator: Value,
    private: BTreeMap<String, Value>,
}

/// What a faction sees beyond the spectator must be about itself only: its
/// own entry in `factions` (and, for Ecaz, its Ambassador supply and cohort
/// under P-SUPPLY-VIS = ownerOnly), and its own knowledge records (D-25
/// §6: what it learned through an inspection).
fn assert_private_scope(name: &str, when: &str, obs: &Observation, split: &Split) {
    let seats: Vec<String> = obs
        .views
        .first()
        .map(|v| v.seats.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    for (who, part) in &split.private {
        let Some(own) = seats.iter().position(|s| s == who) else {
            continue;
        };
        let own_prefix = format!("/factions/{own}/");
        let own_knowledge = obs
            .views
            .iter()
            .filter(|v| v.viewer.to_string() == *who)
            .all(|v| v.knowledge.iter().all(|k| k.viewer.to_string() == *who));
        let Value::Object(m) = part else { continue };
        for key in m.keys() {
            let ok = key.starts_with(&own_prefix)
                || (who == "ecaz" && key.starts_with("/ambassadors/"))
                || (own_knowledge && (key == "/knowledge" || key.starts_with("/knowledge/")));
            assert!(ok, "{name} {when}: {who}'s view differs from the spectator's at {key}");
        }
    }
}

fn split(obs: &Observation) -> Split {
    let spectator = obs
        .views
        .iter()
        .find(|v| v.viewer == Viewer::Spectator)
        .map(view_value)
        .expect("an observation has a spectator view");
    let private = obs
        .views
        .iter()
        .filter(|v| v.viewer != Viewer::Spectator)
        .map(|v| (v.viewer.to_string(), Value::Object(changes(&spectator, &view_value(v)))))
        .collect();
    Split { spectator, private }
}

/// R-view secrecy (ARCHITECTURE §4): nobody but the owner (and the host) sees
/// a faction's spice, hand, traitors, Face Dancers or Nexus card identity.
fn assert_no_leak(name: &str, when: &str, obs: &Observation) {
    for v in &obs.views {
        for f in &v.factions {
            if v.viewer == Viewer::Faction(f.faction) || v.viewer == Viewer::Host {
                continue;
            }
            let leaked: Vec<&str> = [
                ("spice", f.spice.is_some()),
                ("hand", f.hand.is_some()),
                ("traitors", f.traitors.is_some()),
                ("faceDancers", f.face_dancers.is_some()),
                ("nexus", f.nexus.is_some()),
            ]
            .into_iter()
            .filter_map(|(what, shown)| shown.then_some(what))
            .collect();
            assert!(
                leaked.is_empty(),
                "{name} {when}: the {} view shows {}'s {leaked:?}",
                v.viewer,
                f.faction
            );
        }
    }
}

/// A `kind`-tagged value on one line: `kind key=value …` (keys sorted;
/// nested values as compact JSON), to keep the snapshots short and readable.
fn line(value: &Value) -> String {
    let Value::Object(m) = value else {
        return value.to_string();
    };
    let mut out: Vec<String> = m
        .get("kind")
        .and_then(Value::as_str)
        .map(str::to_string)
        .into_iter()
        .collect();
    for (k, v) in m.iter().filter(|(k, _)| k.as_str() != "kind") {
        match v {
            Value::String(s) => out.push(format!("{k}={s}")),
            other => out.push(format!("{k}={other}")),
        }
    }
    out.join(" ")
}

/// A command on one line: `actor: kind key=value …`.
fn command_line(c: &ecaz::Command) -> String {
    format!("{}: {}", c.actor, line(&serde_json::to_value(&c.action).unwrap()))
}

/// An event on one line: `audience: kind key=value …`.
fn event_line(e: &ecaz::Event) -> String {
    let audience = match &e.audience {
        ecaz::Audience::Public => "public".to_string(),
        ecaz::Audience::Host => "host".to_string(),
        ecaz::Audience::Only { factions } => {
            let names: Vec<String> = factions.iter().map(ToString::to_string).collect();
            format!("only[{}]", names.join(","))
        }
    };
    format!("{audience}: {}", line(&serde_json::to_value(&e.event).unwrap()))
}

/// Every actor's options: actor → { frame, commands (one line each) }.
fn options_value(obs: &Observation) -> Value {
    let mut out = Map::new();
    for a in &obs.options {
        out.insert(
            a.actor.to_string(),
            json!({
                "frame": a.options.frame,
                "commands": a.options.commands.iter().map(command_line).collect::<Vec<_>>(),
            }),
        );
    }
    Value::Object(out)
}

/// D-125: every view and options document of an observation obeys
/// its schema.
fn assert_valid_observation(obs: &Observation) {
    for v in &obs.views {
        assert_valid_as("view", v);
    }
    for a in &obs.options {
        assert_valid_as("options", &a.options);
    }
}

fn transcript(scenario: &Scenario, name: &str) -> Value {
    assert_valid_as("setup", &scenario.setup);
    let start = scenario
        .setup
        .build()
        .unwrap_or_else(|e| panic!("{name}: the setup does not build: {:?}", e.report()));
    assert_valid_text("game", &ecaz::game_to_json(&start).unwrap());
    let initial = observe(&start);
    assert_valid_observation(&initial);
    assert_no_leak(name, "before step 1", &initial);

    let replay =
        ecaz::scenario::run(scenario).unwrap_or_else(|failure| panic!("{name}: the replay failed: {failure:?}"));
    assert_eq!(
        replay.reports.len(),
        scenario.steps.len(),
        "{name}: one report per step"
    );
    assert_eq!(
        replay.observations.len(),
        scenario.steps.len(),
        "{name}: one observation per step"
    );
    let failing: Vec<String> = replay
        .reports
        .iter()
        .zip(&scenario.steps)
        .filter(|(r, _)| !r.as_expected)
        .map(|(r, s)| {
            format!(
                "step {} ({}): expected {}, got {}",
                r.step,
                r.note,
                s.error.as_deref().unwrap_or("acceptance"),
                serde_json::to_string_pretty(r).unwrap()
            )
        })
        .collect();
    assert!(
        failing.is_empty(),
        "{name}: steps not as expected:\n{}",
        failing.join("\n")
    );

    for (report, obs) in replay.reports.iter().zip(&replay.observations) {
        assert_valid_as("command", &report.command);
        for e in report.events.iter().flatten() {
            assert_valid_as("event", e);
        }
        if let Some(error) = &report.error {
            assert_valid_as("error", error);
        }
        assert_valid_observation(obs);
    }
    assert_valid_text("game", &ecaz::game_to_json(&replay.game).unwrap());

    let first = split(&initial);
    assert_private_scope(name, "before step 1", &initial, &first);
    let mut previous = Split {
        spectator: first.spectator.clone(),
        private: first.private.clone(),
    };
    let mut previous_options = options_value(&initial);
    let mut steps = Vec::new();
    for (report, obs) in replay.reports.iter().zip(&replay.observations) {
        assert_no_leak(name, &format!("after step {}", report.step), obs);
        let now = split(obs);
        assert_private_scope(name, &format!("after step {}", report.step), obs, &now);
        let mut step = Map::new();
        step.insert("step".into(), json!(report.step));
        if !report.note.is_empty() {
            step.insert("note".into(), json!(report.note));
        }
        step.insert("command".into(), json!(command_line(&report.command)));
        if let Some(events) = &report.events {
            step.insert(
                "events".into(),
                json!(events.iter().map(event_line).collect::<Vec<_>>()),
            );
        }
        if let Some(error) = &report.error {
            step.insert("error".into(), serde_json::to_value(error).unwrap());
        }
        step.insert("pending".into(), pending_value(obs));
        let options = options_value(obs);
        if options != previous_options {
            step.insert("options".into(), options.clone());
        }
        step.insert(
            "spectatorChanges".into(),
            Value::Object(changes(&previous.spectator, &now.spectator)),
        );
        let private: Map<String, Value> = now
            .private
            .iter()
            .filter(|(who, part)| previous.private.get(*who) != Some(*part))
            .map(|(who, part)| (who.clone(), part.clone()))
            .collect();
        if !private.is_empty() {
            step.insert("private".into(), Value::Object(private));
        }
        steps.push(Value::Object(step));
        previous = now;
        previous_options = options;
    }

    json!({
        "name": scenario.name,
        "description": scenario.description,
        "initial": {
            "spectator": first.spectator,
            "private": first.private,
            "pending": pending_value(&initial),
            "options": options_value(&initial),
        },
        "steps": steps,
    })
}

#[test]
fn scenario_files_replay_as_expected() {
    let files = scenario_files();
    assert!(!files.is_empty(), "no scenario files under tests/scenarios");
    for required in [
        "placement_rising_cost",
        "placement_rejections",
        "karama_cancel",
        "storm_return_after_shield_wall",
        "hms_placement",
        "explosion_return",
    ] {
        assert!(
            files.iter().any(|f| f.file_stem().is_some_and(|s| s == required)),
            "tests/scenarios/{required}.json is missing"
        );
    }
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let scenario = load(path);
        let value = transcript(&scenario, &name);
        insta::assert_json_snapshot!(name.as_str(), value);
    }
}

/// D-125: the scenario files the examples and bindings replay
/// (`examples/**/scenarios/*.json`) obey schemas/scenario.json too.
#[test]
fn example_scenario_files_obey_the_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut dirs = vec![root];
    let mut found = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "json")
                && path
                    .parent()
                    .and_then(Path::file_name)
                    .is_some_and(|d| d == "scenarios")
            {
                load(&path);
                found += 1;
            }
        }
    }
    assert!(found > 0, "no scenario files under examples/");
}

/// D-154: the engine's own JSON writer (`src/codec/writer.rs`) writes every
/// document byte for byte as `serde_json::to_string` does: at every step of
/// every scenario, the state, each faction's, the spectator's and the
/// host's view, each actor's options and the events of the accepted steps;
/// and the board once.
#[test]
fn the_writer_writes_serde_jsons_bytes_d_154() {
    let mut documents = 0;
    let mut same = |ours: String, theirs: String, what: &str, path: &Path| {
        assert_eq!(ours, theirs, "{what} in {}", path.display());
        documents += 1;
    };
    let board = ecaz::board_json().unwrap();
    same(
        board,
        serde_json::to_string(&ecaz::board()).unwrap(),
        "the board",
        Path::new("-"),
    );
    for path in scenario_files() {
        let scenario = load(&path);
        let mut game = scenario.setup.build().unwrap();
        for step in &scenario.steps {
            same(
                ecaz::game_to_json(&game).unwrap(),
                serde_json::to_string(&game).unwrap(),
                "the state",
                &path,
            );
            let seated = Faction::ALL.into_iter();
            let viewers = seated
                .clone()
                .map(Viewer::Faction)
                .chain([Viewer::Spectator, Viewer::Host]);
            for viewer in viewers {
                same(
                    ecaz::game_view_json(&game, viewer).unwrap(),
                    serde_json::to_string(&ecaz::view(&game, viewer)).unwrap(),
                    "a view",
                    &path,
                );
            }
            for actor in seated.map(ecaz::Actor::Faction).chain([ecaz::Actor::Host]) {
                same(
                    ecaz::game_options_json(&game, actor).unwrap(),
                    serde_json::to_string(&ecaz::options(&game, actor)).unwrap(),
                    "options",
                    &path,
                );
            }
            if let Ok(events) = ecaz::apply_mut(&mut game, &step.command) {
                let mut out = Vec::new();
                ecaz::write_events(&mut out, &events).unwrap();
                same(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&events).unwrap(),
                    "events",
                    &path,
                );
            }
        }
    }
    assert!(documents > 1000, "only {documents} documents");
}

/// D-153: `write_events`, the WASM handle's encoder (short pieces pushed in
/// place, long ones copied), appends exactly the bytes the JSON door writes
/// (`serde_json::to_string`, as `apply_json`), after whatever the buffer
/// already held, for every accepted step of every scenario.
#[test]
fn write_events_appends_the_json_doors_bytes_d_153() {
    let mut steps = 0;
    for path in scenario_files() {
        let scenario = load(&path);
        let mut game = scenario.setup.build().unwrap();
        for step in &scenario.steps {
            let Ok(events) = ecaz::apply_mut(&mut game, &step.command) else {
                continue;
            };
            let expected = serde_json::to_string(&events).unwrap();
            let mut out = b"kept".to_vec();
            ecaz::write_events(&mut out, &events).unwrap();
            assert_eq!(out.get(..4), Some(b"kept".as_slice()), "{}", path.display());
            assert_eq!(
                String::from_utf8_lossy(out.get(4..).unwrap()),
                expected,
                "{}",
                path.display()
            );
            steps += 1;
        }
    }
    assert!(steps > 100, "only {steps} accepted steps");
}
