//! Host-vouched Karama: the policy P-KARAMA-HOST (`policies.karamaKinds`,
//! D-250) and the host's vouch on the cancel report (`hostVouchedKarama`,
//! D-251), in both Karama windows (R-PLC-5 placement, P-NEX-BET-TIME
//! Betrayal). Every rejection goes through `assert_rejected` (code + the
//! state byte-identical, RNG included + `validate` agreeing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::{
    command_from_json, game_from_json, Action, Actor, Ambassador, Command, Decision, Event, EventKind, Faction,
    FactionSetup, Game, Phase, Setup, Stack, Territory, Viewer,
};

// ---- helpers ----

fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

/// Ecaz, Atreides, Harkonnen; Atreides holds a Lasgun and a Karama,
/// Harkonnen a Baliset, Ecaz a Karama; `kinds` count as Karama too.
fn placement_setup(kinds: &[&str]) -> Setup {
    let k = karamas();
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], 5);
    fs(&mut s, Faction::Atreides).hand = vec![card("lasgun"), k[0]];
    fs(&mut s, Faction::Harkonnen).hand = vec![card("baliset")];
    fs(&mut s, Faction::Ecaz).hand = vec![k[1], card("crysknife")];
    s.policies.karama_kinds = kinds.iter().map(|k| k.to_string()).collect();
    s
}

/// The placement response window: Ecaz announced its own token in Arrakeen.
fn at_response(s: &Setup) -> Game {
    let (g, _) = walk_to_revival_end(&build_setup(s));
    assert!(placement_open(&g));
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    assert!(matches!(
        g.open_frame().map(|f| &f.decision),
        Some(Decision::PlacementResponse { .. })
    ));
    g
}

fn cancel_placement(g: &Game, faction: Faction, card: ecaz::CardId, vouched: bool) -> Command {
    host(Action::CancelPlacement {
        frame: open_id(g),
        faction,
        card,
        host_vouched_karama: vouched,
    })
}

fn cancel_betrayal(g: &Game, faction: Faction, card: ecaz::CardId, vouched: bool) -> Command {
    host(Action::CancelBetrayal {
        frame: open_id(g),
        faction,
        card,
        host_vouched_karama: vouched,
    })
}

/// The cancellations the host's options list, as (faction, card).
fn listed_cancels(g: &Game) -> Vec<(Faction, ecaz::CardId)> {
    options(g, Actor::Host)
        .commands
        .iter()
        .filter_map(|c| match c.action {
            Action::CancelPlacement {
                faction,
                card,
                host_vouched_karama,
                ..
            }
            | Action::CancelBetrayal {
                faction,
                card,
                host_vouched_karama,
                ..
            } => {
                assert!(!host_vouched_karama, "options never list a vouched cancel (D-251)");
                Some((faction, card))
            }
            _ => None,
        })
        .collect()
}

/// The events of a cancelled placement of the Ecaz token in Arrakeen by `by` with `card`.
fn cancelled_placement_events(by: Faction, card: ecaz::CardId) -> Vec<EventKind> {
    vec![
        EventKind::CardDiscarded { faction: by, card },
        EventKind::PlacementCancelled {
            token: Some(Ambassador::Ecaz),
            territory: Territory::Arrakeen,
            by,
        },
    ]
}

/// The events of a Betrayal cancelled by `by` with `card`.
fn cancelled_betrayal_events(by: Faction, card: ecaz::CardId) -> Vec<Event> {
    vec![
        Event::public(EventKind::CardDiscarded { faction: by, card }),
        Event::public(EventKind::BetrayalCancelled { by }),
    ]
}

/// Ecaz allied with the Emperor (forces in Imperial Basin); Harkonnen holds
/// the Ecaz Nexus card (Betrayal); Atreides holds a Lasgun; `kinds` count.
fn betrayal_game(kinds: &[&str]) -> Game {
    let mut s = setup(
        &[Faction::Ecaz, Faction::Emperor, Faction::Harkonnen, Faction::Atreides],
        21,
    );
    s.options.nexus = true;
    s.phase = Some(Phase::ShipmentMovement);
    fs(&mut s, Faction::Ecaz).ally = Some(Faction::Emperor);
    fs(&mut s, Faction::Emperor).ally = Some(Faction::Ecaz);
    fs(&mut s, Faction::Emperor).board = Some(vec![Stack {
        territory: Territory::ImperialBasin,
        sector: 9,
        normal: 2,
        elite: 1,
        advisors: 0,
    }]);
    fs(&mut s, Faction::Harkonnen).nexus = Some(Faction::Ecaz);
    fs(&mut s, Faction::Harkonnen).hand = vec![card("lasgun")];
    fs(&mut s, Faction::Atreides).hand = vec![card("chaumas"), card("shield")];
    s.policies.karama_kinds = kinds.iter().map(|k| k.to_string()).collect();
    let g = build_setup(&s);
    let play = Command::faction(
        Faction::Harkonnen,
        Action::PlayBetrayal {
            territory: Territory::ImperialBasin,
        },
    );
    let (g, _) = ok(&g, &play);
    assert!(matches!(
        g.open_frame().map(|f| &f.decision),
        Some(Decision::BetrayalResponse { .. })
    ));
    g
}

fn setup_problems(s: &Setup) -> (String, Vec<String>) {
    let e = s.build().expect_err("setup refused");
    (
        e.code().to_string(),
        e.problems()
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect(),
    )
}

// ---- P-KARAMA-HOST (D-250) ----

#[test]
fn p_karama_host_default_printed_rules_only() {
    let g = at_response(&placement_setup(&[]));
    let k = karamas();
    assert_eq!(listed_cancels(&g), vec![(Faction::Atreides, k[0])]);
    let e = assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Atreides, card("lasgun"), false),
        "rule/not_karama",
    );
    assert_eq!(e.rule(), Some("R-PLC-5"));
}

#[test]
fn p_karama_host_a_listed_kind_cancels_a_placement_and_is_listed_d_250() {
    let g = at_response(&placement_setup(&["lasgun", "baliset"]));
    let k = karamas();
    // Listed in the host's options, with the printed Karama, in seat order.
    assert_eq!(
        listed_cancels(&g),
        vec![
            (Faction::Atreides, card("lasgun")),
            (Faction::Atreides, k[0]),
            (Faction::Harkonnen, card("baliset")),
        ]
    );
    // Ecaz's own cards never cancel its placement.
    assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Ecaz, card("crysknife"), false),
        "rule/own_placement",
    );
    // Accepted: the card leaves the hand exactly as a Karama would.
    let (by_lasgun, events) = ok(&g, &cancel_placement(&g, Faction::Atreides, card("lasgun"), false));
    let (by_karama, karama_events) = ok(&g, &cancel_placement(&g, Faction::Atreides, k[0], false));
    assert_eq!(
        kinds(&events)[..2].iter().map(|e| (*e).clone()).collect::<Vec<_>>(),
        cancelled_placement_events(Faction::Atreides, card("lasgun"))
    );
    assert_eq!(events.len(), karama_events.len());
    assert_eq!(
        by_lasgun.faction(Faction::Atreides).unwrap().hand,
        vec![k[0]],
        "only the played card left the hand"
    );
    assert_eq!(by_lasgun.treachery().discard.last(), Some(&card("lasgun")));
    assert_eq!(by_lasgun.ambassadors().placement, by_karama.ambassadors().placement);
    assert_eq!(by_lasgun.phase(), Phase::ShipmentMovement);
    // A kind listed but held by nobody is simply not offered.
    let g2 = at_response(&placement_setup(&["shield"]));
    assert_eq!(listed_cancels(&g2), vec![(Faction::Atreides, k[0])]);
}

#[test]
fn p_karama_host_a_listed_kind_cancels_a_betrayal_d_250() {
    // Default: the Chaumas is no Karama.
    let g = betrayal_game(&[]);
    assert!(listed_cancels(&g).is_empty());
    assert_rejected(
        &g,
        &cancel_betrayal(&g, Faction::Atreides, card("chaumas"), false),
        "rule/not_karama",
    );
    // Listed: offered and accepted; the holder's own card is still refused.
    let g = betrayal_game(&["chaumas", "lasgun"]);
    assert_eq!(listed_cancels(&g), vec![(Faction::Atreides, card("chaumas"))]);
    assert_rejected(
        &g,
        &cancel_betrayal(&g, Faction::Harkonnen, card("lasgun"), false),
        "rule/own_placement",
    );
    let (after, events) = ok(&g, &cancel_betrayal(&g, Faction::Atreides, card("chaumas"), false));
    assert_eq!(events, cancelled_betrayal_events(Faction::Atreides, card("chaumas")));
    assert_eq!(after.faction(Faction::Atreides).unwrap().hand, vec![card("shield")]);
    assert!(after.open_frame().is_none());
}

#[test]
fn p_karama_host_setup_refuses_unknown_duplicate_and_karama_kinds_d_250() {
    for (kinds, path, why) in [
        (vec!["no_such_card"], "policies.karamaKinds[0]", "catalog"),
        (vec!["lasgun", "lasgun"], "policies.karamaKinds[1]", "twice"),
        (vec!["karama"], "policies.karamaKinds[0]", "always counts"),
        (vec!["Lasgun"], "policies.karamaKinds[0]", "catalog"),
        (vec![""], "policies.karamaKinds[0]", "catalog"),
    ] {
        let (code, problems) = setup_problems(&placement_setup(&kinds));
        assert_eq!(code, "setup/invalid", "{kinds:?}");
        assert_eq!(problems.len(), 1, "{kinds:?}: {problems:?}");
        assert!(
            problems[0].starts_with(path) && problems[0].contains(why),
            "{kinds:?}: {problems:?}"
        );
    }
    // An expansion kind counts once the catalog holds it.
    let mut s = placement_setup(&["kull_wahad"]);
    assert_eq!(setup_problems(&s).0, "setup/invalid");
    s.extra_cards = vec!["kull_wahad".into()];
    build_setup(&s);
    // Over the list limit (D-80): too large, nothing else checked.
    let s = placement_setup(&vec!["lasgun"; ecaz::MAX_CARDS + 1]);
    assert_eq!(setup_problems(&s).0, "setup/too_large");
}

#[test]
fn p_karama_host_a_saved_state_with_a_bad_list_is_refused_d_250() {
    let g = build_setup(&placement_setup(&["lasgun"]));
    let mut v = json_value(&g);
    assert_eq!(v["policies"]["karamaKinds"], serde_json::json!(["lasgun"]));
    for bad in [
        serde_json::json!(["lasgun", "lasgun"]),
        serde_json::json!(["karama"]),
        serde_json::json!(["unknown_kind"]),
    ] {
        v["policies"]["karamaKinds"] = bad.clone();
        let e = game_from_json(&v.to_string()).expect_err("refused");
        assert_eq!(e.code(), "state/inconsistent", "{bad}");
    }
}

#[test]
fn p_karama_host_written_only_when_set_and_shown_in_views_d_250() {
    // Default: the field is absent from the state and every view.
    let g = build_setup(&placement_setup(&[]));
    assert!(!json(&g).contains("karamaKinds"));
    assert!(!serde_json::to_string(&view(&g, Viewer::Host))
        .unwrap()
        .contains("karamaKinds"));
    // Set: written, read back identically, shown to every viewer.
    let g = build_setup(&placement_setup(&["lasgun", "baliset"]));
    assert_round_trip(&g);
    for viewer in [Viewer::Host, Viewer::Spectator, Viewer::Faction(Faction::Harkonnen)] {
        let v = serde_json::to_value(view(&g, viewer)).unwrap();
        assert_eq!(v["policies"]["karamaKinds"], serde_json::json!(["lasgun", "baliset"]));
    }
}

// ---- hostVouchedKarama (D-251) ----

#[test]
fn d_251_a_vouched_card_cancels_a_placement_as_a_karama_would() {
    let g = at_response(&placement_setup(&[]));
    let k = karamas();
    let vouched = cancel_placement(&g, Faction::Harkonnen, card("baliset"), true);
    let (after, events) = ok(&g, &vouched);
    let (as_karama, karama_events) = ok(&g, &cancel_placement(&g, Faction::Atreides, k[0], false));
    assert_eq!(
        kinds(&events)[..2].iter().map(|e| (*e).clone()).collect::<Vec<_>>(),
        cancelled_placement_events(Faction::Harkonnen, card("baliset"))
    );
    assert_eq!(kinds(&events)[2..], kinds(&karama_events)[2..]);
    assert!(after.faction(Faction::Harkonnen).unwrap().hand.is_empty());
    assert_eq!(after.treachery().discard, vec![card("baliset")]);
    assert_eq!(after.ambassadors().placement.prevented_by, Some(Faction::Harkonnen));
    assert_eq!(
        as_karama.ambassadors().placement.placed,
        after.ambassadors().placement.placed
    );
    // A Karama vouched for is accepted too (the vouch adds nothing).
    ok(&g, &cancel_placement(&g, Faction::Atreides, k[0], true));
}

#[test]
fn d_251_a_vouched_card_cancels_a_betrayal() {
    let g = betrayal_game(&[]);
    let (after, events) = ok(&g, &cancel_betrayal(&g, Faction::Atreides, card("shield"), true));
    assert_eq!(events, cancelled_betrayal_events(Faction::Atreides, card("shield")));
    assert_eq!(after.faction(Faction::Atreides).unwrap().hand, vec![card("chaumas")]);
}

#[test]
fn d_251_custody_and_the_window_are_still_checked() {
    let g = at_response(&placement_setup(&[]));
    // The card must be in that faction's hand.
    assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Harkonnen, card("lasgun"), true),
        "rule/card_not_held",
    );
    assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Harkonnen, ecaz::CardId(999), true),
        "rule/card_not_held",
    );
    // Ecaz never cancels its own placement, vouched or not.
    assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Ecaz, card("crysknife"), true),
        "rule/own_placement",
    );
    assert_rejected(
        &g,
        &cancel_placement(&g, Faction::Fremen, card("lasgun"), true),
        "rule/not_seated",
    );
    // Only the host answers the window; a stale frame is refused.
    let forged = Command::faction(
        Faction::Atreides,
        Action::CancelPlacement {
            frame: open_id(&g),
            faction: Faction::Atreides,
            card: card("lasgun"),
            host_vouched_karama: true,
        },
    );
    assert_rejected(&g, &forged, "rule/not_your_decision");
    let stale = host(Action::CancelPlacement {
        frame: ecaz::FrameId(open_id(&g).0 + 1),
        faction: Faction::Atreides,
        card: card("lasgun"),
        host_vouched_karama: true,
    });
    assert_rejected(&g, &stale, "rule/stale_frame");
    // Betrayal: the holder cannot cancel its own play, vouched or not.
    let b = betrayal_game(&[]);
    assert_rejected(
        &b,
        &cancel_betrayal(&b, Faction::Harkonnen, card("lasgun"), true),
        "rule/own_placement",
    );
    assert_rejected(
        &b,
        &cancel_betrayal(&b, Faction::Atreides, card("lasgun"), true),
        "rule/card_not_held",
    );
    // The vouch is an answer to a Karama window only.
    let quiet = build_setup(&placement_setup(&[]));
    let outside = host(Action::CancelPlacement {
        frame: ecaz::FrameId(1),
        faction: Faction::Atreides,
        card: card("lasgun"),
        host_vouched_karama: true,
    });
    assert_rejected(&quiet, &outside, "rule/stale_frame");
}

#[test]
fn d_251_the_flag_is_optional_on_the_wire_and_never_listed() {
    let g = at_response(&placement_setup(&[]));
    let frame = open_id(&g);
    let card_id = card("lasgun").0;
    let plain = format!(
        r#"{{"actor":"host","action":{{"kind":"cancelPlacement","frame":{},"faction":"atreides","card":{card_id}}}}}"#,
        frame.0
    );
    let vouched = format!(
        r#"{{"actor":"host","action":{{"kind":"cancelPlacement","frame":{},"faction":"atreides","card":{card_id},"hostVouchedKarama":true}}}}"#,
        frame.0
    );
    assert_eq!(
        command_from_json(&plain).unwrap(),
        cancel_placement(&g, Faction::Atreides, card("lasgun"), false)
    );
    assert_eq!(
        command_from_json(&vouched).unwrap(),
        cancel_placement(&g, Faction::Atreides, card("lasgun"), true)
    );
    // Written back: the flag only when true.
    assert_eq!(
        serde_json::to_string(&command_from_json(&plain).unwrap()).unwrap(),
        plain
    );
    assert_eq!(
        serde_json::to_string(&command_from_json(&vouched).unwrap()).unwrap(),
        vouched
    );
    // Through the JSON door: the card leaves Atreides' hand.
    let out = apply_json(&json(&g), &vouched).unwrap();
    let after = game_from_json(&out.state).unwrap();
    assert_eq!(after.faction(Faction::Atreides).unwrap().hand, vec![karamas()[0]]);
}
