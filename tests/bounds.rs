//! Documented list limits (D-80), capped problem
//! reports (D-81), the required secret seed (D-82) and the CHOAM discard as
//! an order-insensitive set with a bounded listing (D-83).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use arrivals::*;
use common::*;
use ecaz::{
    game_from_json, new_game_json, options, options_json, view, Action, Actor, Ambassador, CardId, Choice, Faction,
    Game, Setup, Territory, Viewer, MAX_CARDS, MAX_KNOWLEDGE, MAX_REPORTED_PROBLEMS, MAX_SEATS,
};
use serde_json::{json, Value};

fn state_value(g: &Game) -> Value {
    serde_json::from_str(&json(g)).unwrap()
}

fn load(v: &Value) -> Result<Game, ecaz::ApplyError> {
    game_from_json(&v.to_string())
}

// ------------------------------------------------------------- D-82: seed

#[test]
fn issue11_8_setup_without_seed_is_refused_with_missing_seed() {
    for text in [
        r#"{"seats":["ecaz","atreides"]}"#,
        r#"{"seats":["ecaz","atreides"],"seed":null}"#,
    ] {
        let err = new_game_json(text).unwrap_err();
        assert_eq!(err.code(), "setup/missing_seed", "{text}: {err}");
    }
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 1);
    s.seed = None;
    assert_eq!(s.build().unwrap_err().code(), "setup/missing_seed");
    // Seed 0 is a seed like any other, given explicitly.
    assert!(new_game_json(r#"{"seats":["ecaz","atreides"],"seed":0}"#).is_ok());
}

#[test]
fn issue11_8_no_view_event_or_option_reveals_the_seed() {
    // A seed whose decimal and hexadecimal spellings are long and distinctive.
    let seed: u64 = 7_340_422_987_654_321;
    let needles = [seed.to_string(), format!("{seed:x}"), format!("{seed:#x}")];
    let scenario: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/scenarios/entry_effects_tour.json").unwrap()).unwrap();
    let mut setup: Setup = serde_json::from_value(scenario["setup"].clone()).unwrap();
    setup.seed = Some(seed);
    let mut g = build_setup(&setup);
    let mut texts = Vec::new();
    let snapshot = |g: &Game, texts: &mut Vec<String>| {
        let mut viewers: Vec<Viewer> = g.seats().iter().map(|&f| Viewer::Faction(f)).collect();
        viewers.extend([Viewer::Spectator, Viewer::Host]);
        for v in viewers {
            texts.push(serde_json::to_string(&view(g, v)).unwrap());
        }
        let mut actors: Vec<Actor> = g.seats().iter().map(|&f| Actor::Faction(f)).collect();
        actors.push(Actor::Host);
        for a in actors {
            texts.push(serde_json::to_string(&options(g, a)).unwrap());
        }
    };
    snapshot(&g, &mut texts);
    for step in scenario["steps"].as_array().unwrap() {
        let cmd: ecaz::Command = serde_json::from_value(step["command"].clone()).unwrap();
        match ecaz::apply_mut(&mut g, &cmd) {
            Ok(events) => texts.push(serde_json::to_string(&events).unwrap()),
            Err(e) => texts.push(serde_json::to_string(&e.report()).unwrap()),
        }
        snapshot(&g, &mut texts);
    }
    assert!(texts.len() > 20);
    for t in &texts {
        for n in &needles {
            assert!(!t.contains(n.as_str()), "the seed {n} leaks: {t}");
        }
    }
}

// ------------------------------------------------------ D-80: list limits

#[test]
fn issue11_7_setup_lists_over_their_limit_are_too_large() {
    let over_seats: Vec<Value> = (0..=MAX_SEATS).map(|_| json!("ecaz")).collect();
    let cases = [
        (json!({"seats": over_seats, "seed": 1}), "seats"),
        (
            json!({"seats": ["ecaz", "atreides"], "seed": 1, "extraCards": vec!["lasgun"; MAX_CARDS]}),
            "cards",
        ),
        (
            json!({"seats": ["ecaz", "atreides"], "seed": 1, "discard": vec![0; MAX_CARDS + 1]}),
            "discard",
        ),
        (
            json!({"seats": ["ecaz", "atreides"], "seed": 1,
                   "factions": {"atreides": {"traitors": vec!["feyd_rautha"; 61]}}}),
            "factions.atreides.traitors",
        ),
    ];
    for (doc, path) in cases {
        // The size check comes first: even a missing seed is not reported.
        for with_seed in [true, false] {
            let mut doc = doc.clone();
            if !with_seed {
                doc.as_object_mut().unwrap().remove("seed");
            }
            let err = new_game_json(&doc.to_string()).unwrap_err();
            assert_eq!(err.code(), "setup/too_large", "{path}: {err}");
            assert_eq!(err.problems()[0].path, path);
            assert_eq!(err.problem_count(), 1);
        }
    }
    // At the limit it is an ordinary setup problem, not a size one.
    let at_limit: Vec<Value> = (0..MAX_SEATS).map(|_| json!("ecaz")).collect();
    let err = new_game_json(&json!({"seats": at_limit, "seed": 1}).to_string()).unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
}

#[test]
fn issue11_7_state_lists_over_their_limit_are_too_large() {
    let g = build(&[Faction::Ecaz, Faction::Atreides], 3);
    let base = state_value(&g);
    let record = json!({"viewer": "ecaz", "about": "atreides", "turn": 1, "info": {"kind": "hand", "cards": []}});
    let mut edits: Vec<(Value, &str)> = Vec::new();
    let mut v = base.clone();
    v["knowledge"] = Value::Array(vec![record; MAX_KNOWLEDGE + 1]);
    edits.push((v, "knowledge"));
    let mut v = base.clone();
    v["seats"] = Value::Array(vec![json!("moritani"); 1000]);
    edits.push((v, "seats"));
    let mut v = base.clone();
    v["treachery"]["discard"] = Value::Array(vec![json!(0); MAX_CARDS + 1]);
    edits.push((v, "treachery.discard"));
    for (v, path) in edits {
        let err = load(&v).unwrap_err();
        assert_eq!(err.code(), "state/too_large", "{path}: {err}");
        assert!(
            err.problems().iter().any(|p| p.path == path),
            "{path}: {:?}",
            err.problems()
        );
        // Every JSON door refuses it the same way.
        let e = options_json(&v.to_string(), "\"host\"").unwrap_err();
        assert_eq!(e.code(), "state/too_large");
    }
}

#[test]
fn issue11_7_wrong_seats_stop_the_checks_that_depend_on_them() {
    // Knowledge records naming unseated factions behind a repeated seat list:
    // only the seat problems are reported (the finding's 41 s state, small).
    let g = build(&[Faction::Ecaz, Faction::Atreides], 3);
    let mut v = state_value(&g);
    v["seats"] = json!(["ecaz", "ecaz", "ecaz"]);
    let record = json!({"viewer": "moritani", "about": "guild", "turn": 1, "info": {"kind": "hand", "cards": []}});
    v["knowledge"] = Value::Array(vec![record; 500]);
    let err = load(&v).unwrap_err();
    assert_eq!(err.code(), "state/inconsistent");
    assert!(err.problems().iter().all(|p| p.path == "seats" || p.path == "factions"));
}

#[test]
fn issue11_7_problem_reports_are_capped_with_the_total() {
    // 200 traitor-less hands naming cards that do not exist: one problem each.
    let hand: Vec<u16> = (100..300).collect();
    let doc = json!({"seats": ["ecaz", "atreides"], "seed": 1,
                     "factions": {"atreides": {"hand": hand}}});
    let err = new_game_json(&doc.to_string()).unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
    assert_eq!(err.problems().len(), MAX_REPORTED_PROBLEMS);
    assert!(err.problem_count() >= 200, "{}", err.problem_count());
    let report: Value = serde_json::to_value(err.report()).unwrap();
    assert_eq!(report["problems"].as_array().unwrap().len(), MAX_REPORTED_PROBLEMS);
    assert_eq!(report["problemCount"], json!(err.problem_count()));
    assert!(err.to_string().contains(&err.problem_count().to_string()));
}

// ----------------------------------------------- D-83: the CHOAM discard

fn choam_frame(hand: &[u16], catalog: usize) -> Game {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &COHORT,
        &[(Ambassador::Choam, Territory::Arrakeen)],
    );
    s.extra_cards = vec!["baliset".to_string(); catalog.saturating_sub(33)];
    give_hand(&mut s, Faction::Ecaz, hand);
    fs(&mut s, Faction::Ecaz).hand_limit = Some(20);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
    g
}

fn discard(g: &Game, cards: &[u16]) -> ecaz::Command {
    as_faction(
        Faction::Ecaz,
        Action::DiscardForSpice {
            frame: open_id(g),
            cards: cards.iter().map(|&c| CardId(c)).collect(),
        },
    )
}

#[test]
fn r_eff_choam_issue11_4_discard_order_does_not_matter() {
    let g = choam_frame(&[27, 3, 16], 33);
    let (a, ea) = ok(&g, &discard(&g, &[16, 27]));
    let (b, eb) = ok(&g, &discard(&g, &[27, 16]));
    assert_eq!(json(&a), json(&b));
    assert_eq!(ea, eb);
    // Canonical order: the hand's.
    assert_eq!(a.treachery().discard, vec![CardId(27), CardId(16)]);
    assert_eq!(a.faction(Faction::Ecaz).unwrap().hand, vec![CardId(3)]);
}

#[test]
fn r_eff_choam_issue11_4_a_twenty_card_hand_is_described_whole() {
    // 20 cards: the old listing stopped at the first 12 (and shifted past 32).
    let hand: Vec<u16> = (40..60).collect();
    let g = choam_frame(&hand, 64);
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(o.commands.len(), 2);
    let cards: Vec<CardId> = hand.iter().map(|&c| CardId(c)).collect();
    assert_eq!(
        o.choices,
        vec![Choice::Discard {
            frame: open_id(&g),
            cards: cards.clone()
        }]
    );
    for c in &o.commands {
        ok(&g, c);
    }
    // The last cards of the hand, reversed, are accepted too.
    let (after, _) = ok(&g, &discard(&g, &[59, 58, 13 + 40]));
    assert_eq!(spice(&after, Faction::Ecaz), spice(&g, Faction::Ecaz) + 9);
}

#[test]
fn r_eff_choam_issue11_4_bad_discards_rejected_state_and_rng_untouched() {
    let g = choam_frame(&[27, 3, 16], 33);
    assert_rejected(&g, &discard(&g, &[16, 27, 16]), "rule/duplicate_card");
    assert_rejected(&g, &discard(&g, &[16, 5]), "rule/card_not_held");
    assert_rejected(&g, &discard(&g, &[16, 4000]), "rule/card_not_held");
}
