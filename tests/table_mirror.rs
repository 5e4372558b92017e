//! D-231: the table mirror of the host kit (`table_of`, `apply_events`,
//! `diff_table`). For every accepted command of every scenario file,
//! `apply_events(table_of(before), events) == table_of(after)`; the long
//! games of tests/mirror.rs check the same after every step, and the
//! self-play step of CI (`scripts/selfplay`: `ecaz selfplay --check`) checks
//! it after every command of its games.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::path::Path;

use common::*;
use ecaz::{apply_events, diff_table, table_of, Action, Event, EventKind, Faction, Phase, TableFacts};

fn scenarios() -> Vec<ecaz::scenario::Scenario> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

/// The mirror's promise for one accepted command.
fn assert_follows(before: &TableFacts, events: &[Event], after: &ecaz::Game, ctx: &str) {
    let mirrored = apply_events(before, events).unwrap_or_else(|e| panic!("{ctx}: {} {e}", e.code()));
    let engine = table_of(after);
    assert_eq!(diff_table(&mirrored, &engine), Vec::new(), "{ctx}");
    assert_eq!(mirrored, engine, "{ctx}");
}

#[test]
fn d231_the_mirror_follows_every_accepted_command_of_every_scenario() {
    let (mut accepted, mut kinds) = (0, std::collections::BTreeSet::new());
    for s in scenarios() {
        let mut g = s.setup.build().unwrap();
        for (i, step) in s.steps.iter().enumerate() {
            let before = table_of(&g);
            if let Ok((next, events)) = ecaz::apply(&g, &step.command) {
                assert_follows(&before, &events, &next, &format!("{} step {}", s.name, i + 1));
                for e in &events {
                    kinds.insert(serde_json::to_value(&e.event).unwrap()["kind"].to_string());
                }
                accepted += 1;
                g = next;
            }
        }
    }
    assert!(accepted > 250, "only {accepted} accepted commands");
    assert!(kinds.len() > 30, "only {} event kinds: {kinds:?}", kinds.len());
}

#[test]
fn d231_the_table_of_a_game_is_the_document_sync_table_takes() {
    let g = walk_to_phase(&basic(3), Phase::Bidding);
    let t = table_of(&g);
    assert_eq!(t.factions.len(), g.seats().len());
    // Sent back as it is, it changes nothing.
    let (_, events) = ok(
        &g,
        &host(Action::SyncTable {
            table: Box::new(t.clone()),
        }),
    );
    assert!(matches!(&events[0].event, EventKind::TableSynced { differences } if differences.is_empty()));
    assert_valid_as("table", &t);
}

#[test]
fn d231_diff_table_lists_the_differences_sync_table_reports() {
    let g = walk_to_phase(&basic(4), Phase::Bidding);
    let mut host_table = table_of(&g);
    // The host's table drifted: a card drawn, spice paid.
    let top = host_table.deck.remove(0);
    host_table.factions.get_mut(&Faction::Atreides).unwrap().hand.push(top);
    host_table.factions.get_mut(&Faction::Ecaz).unwrap().spice -= 2;
    let listed = diff_table(&table_of(&g), &host_table);
    let paths: Vec<&str> = listed.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["factions.atreides.hand", "factions.ecaz.spice", "deck"]);
    let (synced, events) = ok(
        &g,
        &host(Action::SyncTable {
            table: Box::new(host_table.clone()),
        }),
    );
    let EventKind::TableSynced { differences } = &events[0].event else {
        panic!("{events:?}")
    };
    let mut reported: Vec<_> = differences.iter().map(|d| (d.path.clone(), d.after.clone())).collect();
    let mut ours: Vec<_> = listed.iter().map(|d| (d.path.clone(), d.after.clone())).collect();
    reported.sort_by(|a, b| a.0.cmp(&b.0));
    ours.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(ours, reported);
    // And the mirror follows the reconcile itself.
    assert_follows(&table_of(&g), &events, &synced, "syncTable");
    // The order of a hand or a board is no difference.
    let mut shuffled = table_of(&synced);
    shuffled.factions.get_mut(&Faction::Atreides).unwrap().hand.reverse();
    assert_eq!(diff_table(&table_of(&synced), &shuffled), Vec::new());
}

#[test]
fn d231_events_that_do_not_fit_the_table_are_refused() {
    let g = walk_to_phase(&basic(5), Phase::Bidding);
    let draw = host(Action::DrawCard {
        faction: Faction::Atreides,
    });
    let (next, events) = ok(&g, &draw);
    assert_follows(&table_of(&g), &events, &next, "draw");
    // The same events applied twice: the card is no longer on top.
    let once = apply_events(&table_of(&g), &events).unwrap();
    let e = apply_events(&once, &events).unwrap_err();
    assert_eq!(e.code(), "sync/events_mismatch");
    // A mirror that drops an event drifts, and diff_table says where.
    let dropped: Vec<Event> = events
        .iter()
        .filter(|e| !matches!(e.event, EventKind::CardReceived { .. }))
        .cloned()
        .collect();
    let drifted = apply_events(&table_of(&g), &dropped).unwrap();
    let paths: Vec<String> = diff_table(&drifted, &table_of(&next))
        .into_iter()
        .map(|d| d.path)
        .collect();
    assert_eq!(paths, ["factions.atreides.hand", "deck"]);
    // Spice paid that the table does not hold.
    let pay = [Event::public(EventKind::SpicePaid {
        faction: Faction::Ecaz,
        amount: 10_000,
        to: None,
    })];
    assert_eq!(
        apply_events(&table_of(&g), &pay).unwrap_err().code(),
        "sync/events_mismatch"
    );
}

#[test]
fn d231_the_json_door_bounds_a_table_before_any_work() {
    let g = basic(6);
    let mut t = table_of(&g);
    let text = serde_json::to_string(&t).unwrap();
    assert_eq!(ecaz::diff_table_json(&text, &text).unwrap(), "[]");
    t.factions.get_mut(&Faction::Ecaz).unwrap().hand = (0..=1024u16).map(ecaz::CardId).collect();
    let long = serde_json::to_string(&t).unwrap();
    for e in [
        ecaz::diff_table_json(&long, &text).unwrap_err(),
        ecaz::apply_events_json(&long, "[]").unwrap_err(),
    ] {
        assert_eq!(e.code(), "decode/invalid_table");
    }
    assert_eq!(
        ecaz::apply_events_json("[]", "[]").unwrap_err().code(),
        "decode/invalid_table"
    );
}

#[test]
fn d231_the_self_play_check_reports_a_drifted_mirror() {
    let g = walk_to_phase(&basic(7), Phase::Bidding);
    let (next, events) = ok(
        &g,
        &host(Action::DrawCard {
            faction: Faction::Atreides,
        }),
    );
    assert_eq!(
        ecaz::sim::check_mirror(&table_of(&g), &events, &next),
        Vec::<String>::new()
    );
    let found = ecaz::sim::check_mirror(&table_of(&g), &[], &next);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("mirror: factions.atreides.hand"), "{found:?}");
    let twice: Vec<Event> = events.iter().chain(&events).cloned().collect();
    let found = ecaz::sim::check_mirror(&table_of(&g), &twice, &next);
    assert!(found[0].contains("events do not fit the table"), "{found:?}");
}
