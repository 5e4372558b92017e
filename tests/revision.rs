//! D-230: the revision guard. Every state carries `revision` (0 when built,
//! +1 per accepted command, never otherwise), every view shows it, and a
//! command carrying `ifRevision` applies only at that revision; a mismatch is
//! `rule/stale_revision` with nothing changed (state byte for byte, RNG
//! included). A retried write therefore never applies twice.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::{Action, Faction, Phase, Viewer};

fn end(phase: Phase) -> ecaz::Command {
    host(Action::EndPhase { phase })
}

#[test]
fn d230_a_new_game_is_at_revision_0_and_each_accepted_command_adds_one() {
    let g = basic(5);
    assert_eq!(g.revision(), 0);
    assert_eq!(json_value(&g)["revision"], 0);
    let (g1, _) = ok(&g, &end(Phase::Storm));
    assert_eq!(g1.revision(), 1);
    let (g2, _) = ok(&g1, &end(Phase::SpiceBlow));
    assert_eq!(g2.revision(), 2);
    // A refused command (wrong phase) leaves the revision where it was.
    let e = assert_rejected(&g2, &end(Phase::Storm), "rule/wrong_phase");
    assert_ne!(e.code(), "rule/stale_revision");
    assert_eq!(g2.revision(), 2);
}

#[test]
fn d230_every_view_carries_the_revision() {
    let (g, _) = ok(&basic(6), &end(Phase::Storm));
    let mut viewers = vec![Viewer::Host, Viewer::Spectator];
    viewers.extend(g.seats().iter().map(|&f| Viewer::Faction(f)));
    for v in viewers {
        assert_eq!(view(&g, v).revision, 1, "{v:?}");
    }
}

#[test]
fn d230_if_revision_applies_at_the_named_revision_only() {
    let g = basic(7);
    let (g1, events) = ok(&g, &end(Phase::Storm).at_revision(0));
    // The guard changes nothing else: the same events as the unguarded command.
    assert_eq!(events, ok(&g, &end(Phase::Storm)).1);
    assert_eq!(g1.revision(), 1);
    // Named too early, too late: refused, nothing changes (assert_rejected
    // checks the state byte for byte, RNG included, and `validate`).
    for stale in [0, 2, 99] {
        let e = assert_rejected(&g1, &end(Phase::SpiceBlow).at_revision(stale), "rule/stale_revision");
        assert!(e.to_string().contains(&format!("revision {stale}")), "{e}");
    }
    let (g2, _) = ok(&g1, &end(Phase::SpiceBlow).at_revision(1));
    assert_eq!(g2.revision(), 2);
}

#[test]
fn d230_a_retried_write_never_applies_twice() {
    // A host report retried (network retry, double click) with its ifRevision.
    let g = walk_to_phase(&basic(8), Phase::Bidding);
    let at = g.revision();
    let gain = host(Action::GainSpice {
        faction: Faction::Atreides,
        amount: 3,
    })
    .at_revision(at);
    let before = spice(&g, Faction::Atreides);
    let (g1, _) = ok(&g, &gain);
    assert_eq!(spice(&g1, Faction::Atreides), before + 3);
    // The retry: refused, the spice counted once.
    assert_rejected(&g1, &gain, "rule/stale_revision");
    assert_eq!(spice(&g1, Faction::Atreides), before + 3);
    // Without the guard the same report would apply again (the guard is what
    // makes the write idempotent).
    let unguarded = host(Action::GainSpice {
        faction: Faction::Atreides,
        amount: 3,
    });
    assert_eq!(spice(&ok(&g1, &unguarded).0, Faction::Atreides), before + 6);
}

#[test]
fn d230_the_json_door_reads_if_revision_and_omits_it_when_absent() {
    let state = json(&basic(9));
    let guarded = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"},"ifRevision":0}"#;
    let out = apply_json(&state, guarded).unwrap();
    let v: serde_json::Value = serde_json::from_str(&out.state).unwrap();
    assert_eq!(v["revision"], 1);
    let again = apply_json(&out.state, guarded).unwrap_err();
    assert_eq!(again.code(), "rule/stale_revision");
    // Written back without the field when it is not set.
    let cmd = end(Phase::Storm);
    assert!(!serde_json::to_string(&cmd).unwrap().contains("ifRevision"));
    assert!(serde_json::to_string(&cmd.at_revision(4))
        .unwrap()
        .contains("\"ifRevision\":4"));
    // Not a number: the command's shape.
    let bad = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"},"ifRevision":"0"}"#;
    assert_eq!(apply_json(&state, bad).unwrap_err().code(), "decode/invalid_command");
}

#[test]
fn d230_the_revision_shares_the_counters_ceiling() {
    let g = basic(10);
    let limit = ecaz::audit::COUNTER_LIMIT;
    // Near the ceiling every command is refused (an accepted one would make a
    // state the loader refuses)…
    let mut v = json_value(&g);
    v["revision"] = (limit - ecaz::audit::PER_COMMAND + 1).into();
    let near = ecaz::game_from_json(&v.to_string()).unwrap();
    assert_rejected(&near, &end(Phase::Storm), "state/ids_exhausted");
    // … and past it the state does not load.
    v["revision"] = (u64::from(limit) + 1).into();
    let e = ecaz::game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.code(), "state/inconsistent");
    assert!(e.problems().iter().any(|p| p.path == "revision"), "{:?}", e.problems());
}

#[test]
fn d230_an_export_keeps_the_revision() {
    let (g, _) = ok(&basic(11), &end(Phase::Storm));
    let text = ecaz::export_setup_json(&json(&g)).unwrap();
    let back = ecaz::game_from_json(&ecaz::new_game_json(&text).unwrap()).unwrap();
    assert_eq!(back.revision(), 1);
    assert_eq!(json(&back), json(&g));
}
