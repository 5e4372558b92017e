//! Reactions first (P-REACT-ORDER, D-252): under `policies.reactionOrder =
//! hostFirst`, or for one `arrive` with `reactionsFirst: true`, a
//! host-reported entry that would open Ecaz's trigger offer first opens the
//! host's `hostReactions` window (`offerAfter: true`); inside it the host's
//! reports are accepted as in the window after an engine-made arrival
//! (P-NEST, D-101), and `reactionsDone` opens the offer if the entry still
//! triggers. Every rejection goes through `assert_rejected` (code + the
//! state byte-identical, RNG included + `validate` agreeing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use arrivals::*;
use common::*;
use ecaz::{
    game_from_json, setup_from_json, Action, Actor, Ambassador, ArrivalId, Cause, Command, Decision, Destruction,
    EventKind, Faction, FrameId, Game, Origin, ReactionOrder, Setup, Territory, Viewer, Zone,
};

// ---- helpers ----

/// Emperor token in Arrakeen; Ecaz, Harkonnen, Atreides seated.
fn emperor_setup(order: ReactionOrder) -> Setup {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[(Ambassador::Emperor, Territory::Arrakeen)],
    );
    s.policies.reaction_order = order;
    s
}

fn host_first() -> Game {
    build_setup(&emperor_setup(ReactionOrder::HostFirst))
}

/// `ship` with the per-report flag.
fn ship_first(entrant: Faction, to: Territory, normal: u32) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory: to,
        sector: sector(to),
        normal,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: true,
    })
}

/// The host reports that `normal` of Harkonnen's forces in Arrakeen are lost.
fn harkonnen_loses(normal: u32) -> Command {
    host(Action::LoseForces {
        faction: Faction::Harkonnen,
        territory: Territory::Arrakeen,
        sector: sector(Territory::Arrakeen),
        normal,
        elite: 0,
        advisors: 0,
    })
}

fn done(g: &Game) -> Command {
    host(Action::ReactionsDone { frame: open_id(g) })
}

fn window(arrival: u32) -> Decision {
    Decision::HostReactions {
        arrival: ArrivalId(arrival),
        offer_after: true,
    }
}

fn harkonnen_offer() -> Decision {
    Decision::TriggerOffer {
        arrival: ArrivalId(1),
        token: Ambassador::Emperor,
        territory: Territory::Arrakeen,
        entrant: Faction::Harkonnen,
        beneficiaries: vec![Faction::Ecaz],
    }
}

fn open_decision(g: &Game) -> Option<Decision> {
    g.open_frame().map(|f| f.decision.clone())
}

/// The window after Harkonnen ships 3 into Arrakeen under `hostFirst`.
fn in_window() -> Game {
    let (g, _) = ok(&host_first(), &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(open_decision(&g), Some(window(1)));
    g
}

// ---- the default is unchanged ----

#[test]
fn p_react_order_default_offer_first_opens_the_offer_at_once() {
    let g = build_setup(&emperor_setup(ReactionOrder::OfferFirst));
    assert!(!json(&g).contains("reactionOrder"), "the default is not written");
    let (g, events) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
}

// ---- hostFirst ----

#[test]
fn p_react_order_host_first_window_then_the_offer_d_252() {
    let g = host_first();
    let (g, events) = ok_reloaded(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    assert_eq!(
        events[1].event,
        EventKind::DecisionOpened {
            frame: FrameId(1),
            actor: Actor::Host,
            decision_kind: "hostReactions".into(),
            decision: Some(window(1)),
        }
    );
    assert!(resumes(&events).is_empty(), "the arrival waits for its reactions");
    assert_eq!(g.open_arrivals().len(), 1);
    // The host closes it; nobody else has anything to answer.
    assert_eq!(options(&g, Actor::Host).commands, vec![done(&g)]);
    for f in [Faction::Ecaz, Faction::Harkonnen, Faction::Atreides] {
        assert!(options(&g, Actor::Faction(f)).commands.is_empty(), "{f}");
    }
    // Every viewer sees the window and that the offer follows.
    for v in [Viewer::Spectator, Viewer::Host, Viewer::Faction(Faction::Atreides)] {
        let pv = serde_json::to_value(view(&g, v)).unwrap();
        assert_eq!(
            pv["pending"][0]["decision"]["offerAfter"],
            serde_json::json!(true),
            "{v:?}"
        );
        assert_eq!(pv["policies"]["reactionOrder"], serde_json::json!("hostFirst"));
    }
    // Closing it opens the offer the default would have opened at once.
    let (g, events) = ok_reloaded(&g, &done(&g));
    assert_eq!(kind_names(&events), vec!["decisionOpened"]);
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
    assert_eq!(g.open_frame().unwrap().actor, Actor::Faction(Faction::Ecaz));
    // Triggered: the effect runs and the arrival resumes once.
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Used);
    assert!(g.open_frame().is_none());
}

#[test]
fn p_react_order_the_same_outcome_as_offer_first_when_nothing_happens_in_the_window_d_252() {
    let offer_first = build_setup(&emperor_setup(ReactionOrder::OfferFirst));
    let (a, _) = ok(&offer_first, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    let (a, a_events) = ok(&a, &trigger(&a, Faction::Ecaz));
    let (b, _) = ok(&in_window(), &done(&in_window()));
    let (b, b_events) = ok(&b, &trigger(&b, Faction::Ecaz));
    assert_eq!(kinds(&a_events), kinds(&b_events));
    for f in [Faction::Ecaz, Faction::Harkonnen, Faction::Atreides] {
        assert_eq!(a.faction(f), b.faction(f), "{f}");
    }
    assert_eq!(a.ambassadors(), b.ambassadors());
}

#[test]
fn p_react_order_reports_inside_the_window_are_accepted_as_after_an_engine_arrival_d_252() {
    let g = in_window();
    // A linked reaction arrival: accepted, nests child-first, resumes at once.
    let (g, events) = ok(&g, &ship_linked(Faction::Atreides, Territory::Carthag, 2, 1));
    assert_eq!(resumes(&events), vec![ArrivalId(2)]);
    assert_eq!(open_decision(&g), Some(window(1)));
    // A table report: accepted.
    let (g, _) = ok(
        &g,
        &host(Action::GainSpice {
            faction: Faction::Atreides,
            amount: 2,
        }),
    );
    assert_eq!(open_decision(&g), Some(window(1)));
    // An unlinked arrival and a phase end wait for the window.
    assert_rejected(
        &g,
        &ship(Faction::Atreides, Territory::TueksSietch, 1),
        "rule/decision_pending",
    );
    assert_rejected(
        &g,
        &host(Action::EndPhase { phase: g.phase() }),
        "rule/decision_pending",
    );
    // Only the host closes it, with the open frame's id.
    assert_rejected(
        &g,
        &as_faction(Faction::Ecaz, Action::ReactionsDone { frame: open_id(&g) }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &host(Action::ReactionsDone {
            frame: FrameId(open_id(&g).0 + 1),
        }),
        "rule/stale_frame",
    );
    assert_rejected(
        &g,
        &ecaz(Action::Decline { frame: open_id(&g) }),
        "rule/not_your_decision",
    );
    let (g, events) = ok(&g, &done(&g));
    assert_eq!(kind_names(&events), vec!["decisionOpened"]);
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
}

#[test]
fn p_react_order_a_linked_entry_gets_its_own_window_first_d_252() {
    // Both tokens placed; the child entry into Carthag would trigger too.
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[
            (Ambassador::Emperor, Territory::Arrakeen),
            (Ambassador::Choam, Territory::Carthag),
        ],
    );
    s.policies.reaction_order = ReactionOrder::HostFirst;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    let (g, _) = ok(&g, &ship_linked(Faction::Atreides, Territory::Carthag, 2, 1));
    assert_eq!(open_decision(&g), Some(window(2)));
    assert_eq!(g.pending().len(), 2);
    let (g, _) = ok(&g, &done(&g));
    let (g, events) = ok(&g, &decline(&g));
    assert_eq!(resumes(&events), vec![ArrivalId(2)], "child first (P-NEST)");
    assert_eq!(open_decision(&g), Some(window(1)));
    let (g, _) = ok(&g, &done(&g));
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
    let (_, events) = ok(&g, &decline(&g));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
}

#[test]
fn p_react_order_no_offer_when_the_entry_no_longer_triggers_d_252() {
    let lose_all = harkonnen_loses(3);
    let explosion = host(Action::DestroyTerritory {
        territory: Territory::Arrakeen,
        cause: Destruction::LasgunShield,
    });
    let alliance = host(Action::FormAlliance {
        a: Faction::Ecaz,
        b: Faction::Harkonnen,
    });
    for (why, report) in [
        ("the arriving forces are gone", lose_all),
        ("the token went back to supply", explosion),
        ("the entrant became Ecaz's ally", alliance),
    ] {
        let g = in_window();
        let (g, _) = ok(&g, &report);
        let (g, events) = ok_reloaded(&g, &done(&g));
        assert_eq!(kind_names(&events), vec!["resume"], "{why}");
        assert_eq!(resumes(&events), vec![ArrivalId(1)], "{why}");
        assert!(g.open_frame().is_none(), "{why}");
        assert!(g.open_arrivals().is_empty(), "{why}");
    }
    // Some of the entrant's forces left: the offer still opens.
    let g = in_window();
    let lose_two = harkonnen_loses(2);
    let (g, _) = ok(&g, &lose_two);
    let (g, _) = ok(&g, &done(&g));
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
}

#[test]
fn p_react_order_no_window_when_no_offer_would_open_d_252() {
    let g = host_first();
    // No token in Carthag.
    let (_, events) = ok(&g, &ship(Faction::Harkonnen, Territory::Carthag, 2));
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
    // The token's own faction never triggers it.
    let mut s = emperor_setup(ReactionOrder::HostFirst);
    s.seats.push(Faction::Emperor);
    let g = build_setup(&s);
    let (_, events) = ok(&g, &ship(Faction::Emperor, Territory::Arrakeen, 2));
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
}

// ---- the per-report flag ----

#[test]
fn p_react_order_reactions_first_on_one_arrive_d_252() {
    let g = build_setup(&emperor_setup(ReactionOrder::OfferFirst));
    let (g, events) = ok_reloaded(&g, &ship_first(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    assert_eq!(open_decision(&g), Some(window(1)));
    let (g, _) = ok(&g, &done(&g));
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
    // The next arrival follows the policy again.
    let (g, _) = ok(&g, &decline(&g));
    let (g, _) = ok(&g, &harkonnen_loses(3));
    let (_, events) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert!(matches!(
        &events[1].event,
        EventKind::DecisionOpened { decision_kind, .. } if decision_kind == "triggerOffer"
    ));
    // Without an offer to wait for, the flag opens nothing.
    let g = build_setup(&emperor_setup(ReactionOrder::OfferFirst));
    let (_, events) = ok(&g, &ship_first(Faction::Harkonnen, Territory::Carthag, 3));
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
}

#[test]
fn p_react_order_wire_forms_d_252() {
    // Setup: a known value is read, an unknown one refused.
    let s =
        setup_from_json(r#"{"seats":["ecaz","atreides"],"seed":3,"policies":{"reactionOrder":"hostFirst"}}"#).unwrap();
    assert_eq!(s.policies.reaction_order, ReactionOrder::HostFirst);
    let e = setup_from_json(r#"{"seats":["ecaz","atreides"],"seed":3,"policies":{"reactionOrder":"later"}}"#)
        .expect_err("refused");
    assert_eq!(e.code(), "decode/invalid_setup");
    // The command flag is written only when true.
    let text = serde_json::to_string(&ship(Faction::Harkonnen, Territory::Arrakeen, 3)).unwrap();
    assert!(!text.contains("reactionsFirst"));
    let text = serde_json::to_string(&ship_first(Faction::Harkonnen, Territory::Arrakeen, 3)).unwrap();
    assert!(text.contains(r#""reactionsFirst":true"#));
    assert_eq!(
        ecaz::command_from_json(&text).unwrap(),
        ship_first(Faction::Harkonnen, Territory::Arrakeen, 3)
    );
    // A state in the window round-trips.
    let g = in_window();
    assert_round_trip(&g);
    assert!(json(&g).contains(r#""offerAfter":true"#));
}

#[test]
fn p_react_order_a_saved_state_with_the_offer_open_under_its_window_is_inconsistent_d_252() {
    let offered = {
        let g = build_setup(&emperor_setup(ReactionOrder::OfferFirst));
        ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3)).0
    };
    let mut v = json_value(&offered);
    // Forge: an offerAfter window of the same arrival beneath the open offer.
    let offer = v["pending"][0].clone();
    let mut forged_window = offer.clone();
    forged_window["id"] = serde_json::json!(offer["id"].as_u64().unwrap() + 1);
    forged_window["actor"] = serde_json::json!("host");
    forged_window["decision"] = serde_json::json!({"kind":"hostReactions","arrival":1,"offerAfter":true});
    v["pending"] = serde_json::json!([forged_window, offer]);
    v["nextFrame"] = serde_json::json!(offer["id"].as_u64().unwrap() + 2);
    let e = game_from_json(&v.to_string()).expect_err("refused");
    assert_eq!(e.code(), "state/inconsistent", "{:?}", e.problems());
    assert!(
        e.problems().iter().any(|p| p.message.contains("D-252")),
        "{:?}",
        e.problems()
    );
}

/// D-101 with P-REACT-ORDER (D-252): a linked entry asked with
/// `reactionsFirst` opens its own window above the parent's trigger offer;
/// inside it, a report changing a fact that offer depends on — a card drawn
/// (the deck, shared by every effect) or an alliance broken (any alliance
/// changes the beneficiaries) — is refused with `rule/frame_depends`, state
/// and RNG unchanged; a report the offer does not depend on is accepted.
#[test]
fn p_react_order_a_window_above_an_offer_refuses_what_the_offer_depends_on_d_252() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[
            (Ambassador::Emperor, Territory::Arrakeen),
            (Ambassador::Choam, Territory::Carthag),
        ],
    );
    s.policies.reaction_order = ReactionOrder::OfferFirst;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(open_decision(&g), Some(harkonnen_offer()));
    let mut child = ship_linked(Faction::Atreides, Territory::Carthag, 2, 1);
    if let Action::Arrive { reactions_first, .. } = &mut child.action {
        *reactions_first = true;
    }
    let (g, _) = ok(&g, &child);
    assert_eq!(open_decision(&g), Some(window(2)));
    assert_rejected(
        &g,
        &host(Action::DrawCard {
            faction: Faction::Atreides,
        }),
        "rule/frame_depends",
    );
    assert_rejected(
        &g,
        &host(Action::BreakAlliance {
            faction: Faction::Harkonnen,
        }),
        "rule/frame_depends",
    );
    let (g, _) = ok(
        &g,
        &host(Action::GainSpice {
            faction: Faction::Atreides,
            amount: 1,
        }),
    );
    assert_eq!(open_decision(&g), Some(window(2)));
}
