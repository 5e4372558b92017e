//! Regressions of the reliability findings on the newest surfaces (D-184 …
//! D-186): a public event that revealed a hidden order, a correct table
//! refused after a missed `breakAlliance`, and a reconcile an open decision
//! depends on refused with the wrong code. Each rejection also leaves the
//! state byte for byte as it was.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::{game_from_json, Action, Command, Event, EventKind, Faction, Game, Viewer};

fn fixture_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn load(name: &str) -> Game {
    game_from_json(&fixture_text(name)).unwrap()
}

fn command(name: &str) -> Command {
    ecaz::command_from_json(&fixture_text(name)).unwrap()
}

/// The engine's own table (as the host view shows it), edited.
fn sync_with(g: &Game, edit: impl FnOnce(&mut ecaz::TableFacts)) -> Command {
    let mut table = table_from_view(&view(g, Viewer::Host));
    edit(&mut table);
    host(Action::SyncTable { table: Box::new(table) })
}

/// D-184 (P-SUPPLY-VIS ownerOnly): two worlds that differ only in the
/// hidden cohort's order give a spectator the same views and, after the
/// cohort completes, the same events (`cohortRecycled` lists the returned
/// tokens in token order).
#[test]
fn cohort_recycled_hides_the_cohort_order_d184() {
    let (a, b) = (
        load("hardening/cohort-order.state-a.json"),
        load("hardening/cohort-order.state-b.json"),
    );
    assert_ne!(
        json_value(&a)["ambassadors"]["cohort"],
        json_value(&b)["ambassadors"]["cohort"]
    );
    assert_eq!(
        serde_json::to_string(&view(&a, Viewer::Spectator)).unwrap(),
        serde_json::to_string(&view(&b, Viewer::Spectator)).unwrap()
    );
    let cmd = command("hardening/cohort-order.command.json");
    let (_, ea) = ok(&a, &cmd);
    let (_, eb) = ok(&b, &cmd);
    let recycled = |events: &[Event]| -> Vec<Event> {
        events
            .iter()
            .filter(|e| matches!(e.event, EventKind::CohortRecycled { .. }))
            .cloned()
            .collect()
    };
    assert_eq!(recycled(&ea).len(), 1, "the command completes the cohort");
    for viewer in [Viewer::Spectator, Viewer::Faction(Faction::Atreides)] {
        let (sa, sb) = (ecaz::events_for(&ea, viewer), ecaz::events_for(&eb, viewer));
        assert_eq!(
            serde_json::to_string(&sa).unwrap(),
            serde_json::to_string(&sb).unwrap(),
            "{viewer:?}"
        );
    }
    let EventKind::CohortRecycled { returned, .. } = &recycled(&ea)[0].event else {
        unreachable!()
    };
    let mut sorted = returned.clone();
    sorted.sort_unstable();
    assert_eq!(*returned, sorted);
}

/// D-185 (P-DUKE-LOAN): after a missed `breakAlliance` while Duke Vidal is
/// lent to Ecaz's ally, the host's correct table (no alliance) is accepted
/// and ends the loan as the `breakAlliance` report would; the difference is
/// listed; the state reached loads again.
#[test]
fn duke_loan_sync_after_a_missed_break_alliance_d185() {
    let g = load("hardening/duke-loan-sync.state.json");
    let duke = |g: &Game| json_value(g)["duke"].clone();
    assert_eq!(duke(&g)["custody"]["source"], "allianceLoan", "{}", duke(&g));
    let (after, events) = ok(&g, &command("hardening/duke-loan-sync.command.json"));
    // The single report on the same state: the same Duke.
    let ecaz_ally: Faction = serde_json::from_value(duke(&g)["custody"]["by"].clone()).unwrap();
    let (reported, _) = ok(&g, &host(Action::BreakAlliance { faction: ecaz_ally }));
    assert_eq!(duke(&after), duke(&reported));
    assert_ne!(duke(&after)["custody"]["source"], "allianceLoan", "{}", duke(&after));
    let synced = events
        .iter()
        .find_map(|e| match &e.event {
            EventKind::TableSynced { differences } => Some(differences.clone()),
            _ => None,
        })
        .unwrap();
    assert!(synced.iter().any(|d| d.path == "duke"), "{synced:?}");
    assert!(game_from_json(&json(&after)).is_ok());
}

/// D-186: a reconcile changing a fact an open frame depends on is
/// `rule/frame_depends` (naming the frame), not `sync/invalid_table`, for the
/// placement-response window, the Betrayal window and the Duke-loan
/// decision; the state is unchanged; a reconcile of an independent fact is
/// accepted under the same frame.
#[test]
fn sync_under_an_open_frame_that_depends_on_it_d186() {
    type Edit = fn(&mut ecaz::TableFacts);
    let cases: [(&str, &str, Edit, Edit); 3] = [
        (
            "format/v1/game0-step8-placementResponse.state.json",
            "placementResponse",
            |t| t.factions.get_mut(&Faction::Ecaz).unwrap().spice = 0,
            |t| t.factions.get_mut(&Faction::Moritani).unwrap().spice += 1,
        ),
        (
            "format/v1/game2-step27-betrayalResponse.state.json",
            "betrayalResponse",
            |t| t.factions.get_mut(&Faction::Harkonnen).unwrap().reserves.normal += 1,
            |t| t.factions.get_mut(&Faction::Guild).unwrap().spice += 1,
        ),
        (
            "format/v1/game13-step24-dukeLoan.state.json",
            "dukeLoan",
            |t| {
                t.factions.get_mut(&Faction::Ecaz).unwrap().ally = None;
                t.factions.get_mut(&Faction::Moritani).unwrap().ally = None;
            },
            |t| t.factions.get_mut(&Faction::Guild).unwrap().spice += 1,
        ),
    ];
    for (name, kind, depended, independent) in cases {
        let g = load(name);
        let before = json(&g);
        let e = apply(&g, &sync_with(&g, depended)).unwrap_err();
        assert_eq!(e.code(), "rule/frame_depends", "{name}: {e}");
        assert!(e.to_string().contains(kind), "{name}: {e}");
        assert_eq!(json(&g), before);
        let (after, _) = ok(&g, &sync_with(&g, independent));
        assert_eq!(json_value(&after)["pending"], json_value(&g)["pending"], "{name}");
    }
}
