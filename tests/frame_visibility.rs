//! P-FRAME-VIS (D-240, D-241): who sees a decision frame's details. Under
//! `actorOnly` a faction's frame shows its details (beneficiaries,
//! candidates, previews, choices) to that faction and the host only, in
//! views (`pending[].decision`), per-viewer events (`decisionOpened`) and
//! narration; everyone still sees that a decision is open, its kind and who
//! decides. Host frames stay public; `public` (the default) changes nothing,
//! not even the saved bytes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use arrivals::*;
use common::*;
use ecaz::{
    events_for, narrate, Action, Actor, Ambassador, Audience, Decision, Event, EventKind, Faction, FrameVisibility,
    Game, Setup, SupplyVisibility, Territory, Viewer,
};

const SEATS: [Faction; 3] = [Faction::Ecaz, Faction::Harkonnen, Faction::Atreides];

/// The Choam token in Arrakeen; Ecaz allied with Harkonnen, who holds two
/// cards: Atreides' entry opens Ecaz's offer (for Ecaz and Harkonnen), and a
/// trigger for Harkonnen opens Harkonnen's discard frame.
fn choam_table(policy: FrameVisibility) -> Setup {
    let mut s = placed_table(&SEATS, &COHORT, &[(Ambassador::Choam, Territory::Arrakeen)]);
    ally(&mut s, Faction::Harkonnen);
    give_hand(&mut s, Faction::Harkonnen, &[1, 2]);
    s.policies.frame_visibility = policy;
    s
}

/// Every viewer: each seat, the spectator and the host.
fn viewers() -> Vec<Viewer> {
    SEATS
        .iter()
        .map(|&f| Viewer::Faction(f))
        .chain([Viewer::Spectator, Viewer::Host])
        .collect()
}

/// May `viewer` see the details of a frame `decider` answers?
fn may_see(viewer: Viewer, decider: Faction) -> bool {
    matches!(viewer, Viewer::Host) || viewer == Viewer::Faction(decider)
}

/// The offer (decided by Ecaz) and the game before it.
fn offer(policy: FrameVisibility) -> (Game, Game, Vec<Event>) {
    let before = build_setup(&choam_table(policy));
    let (g, events) = ok(&before, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    (before, g, events)
}

/// The discard frame (decided by Harkonnen, Ecaz's ally) and the game before it.
fn discard_frame(policy: FrameVisibility) -> (Game, Game, Vec<Event>) {
    let (_, g, _) = offer(policy);
    let (next, events) = ok(&g, &trigger(&g, Faction::Harkonnen));
    (g, next, events)
}

/// `decisionOpened` events as (audience, has its decision).
fn opened(events: &[Event]) -> Vec<(Audience, bool)> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            EventKind::DecisionOpened { decision, .. } => Some((e.audience.clone(), decision.is_some())),
            _ => None,
        })
        .collect()
}

#[test]
fn p_frame_vis_actor_only_views_show_a_frames_details_to_its_decider_and_the_host_only() {
    for (g, decider, kind) in [
        (offer(FrameVisibility::ActorOnly).1, Faction::Ecaz, "triggerOffer"),
        (
            discard_frame(FrameVisibility::ActorOnly).1,
            Faction::Harkonnen,
            "choamDiscard",
        ),
    ] {
        let frame = g.open_frame().unwrap().clone();
        assert_eq!(frame.actor, Actor::Faction(decider));
        for v in viewers() {
            let pv = view(&g, v);
            let top = pv.pending.last().unwrap();
            // Everyone sees that a decision is open, its kind and who decides.
            assert_eq!(
                (top.id, top.actor, top.kind.as_str()),
                (frame.id, frame.actor, kind),
                "{v}"
            );
            if may_see(v, decider) {
                assert_eq!(top.decision.as_ref(), Some(&frame.decision), "{v} sees the details");
            } else {
                assert_eq!(top.decision, None, "{v} sees the details of {decider}'s {kind}");
            }
        }
        // The previews and choices are the decider's alone (options of anyone else list nothing).
        for &f in SEATS.iter().filter(|&&f| f != decider) {
            let o = options(&g, Actor::Faction(f));
            assert!(
                o.frame.is_none() && o.commands.is_empty() && o.choices.is_empty() && o.previews.is_empty(),
                "{f}: {o:?}"
            );
        }
    }
}

#[test]
fn p_frame_vis_actor_only_events_carry_the_details_to_the_decider_and_the_host_only() {
    for ((_, _, events), decider) in [
        (offer(FrameVisibility::ActorOnly), Faction::Ecaz),
        (discard_frame(FrameVisibility::ActorOnly), Faction::Harkonnen),
    ] {
        // A public copy without the details, then a full copy to the decider.
        assert_eq!(
            opened(&events),
            vec![
                (Audience::Public, false),
                (
                    Audience::Only {
                        factions: vec![decider]
                    },
                    true
                )
            ]
        );
        for v in viewers() {
            let mine = events_for(&events, v);
            let seen = opened(&mine);
            let with_details = seen.iter().filter(|(_, d)| *d).count();
            assert_eq!(seen.len(), if may_see(v, decider) { 2 } else { 1 }, "{v}");
            assert_eq!(with_details, usize::from(may_see(v, decider)), "{v}");
        }
    }
}

#[test]
fn p_frame_vis_actor_only_narration_tells_the_details_to_the_decider_and_the_host_only() {
    for ((before, _, events), decider) in [
        (offer(FrameVisibility::ActorOnly), Faction::Ecaz),
        (discard_frame(FrameVisibility::ActorOnly), Faction::Harkonnen),
    ] {
        for v in viewers() {
            let told: Vec<String> = events
                .iter()
                .filter_map(|e| narrate::event(&before, e, v))
                .filter(|t| t.contains("must now"))
                .collect();
            // Each viewer hears the decision once: in full, or without its details.
            assert_eq!(told.len(), 1, "{v}: {told:?}");
            let hidden = told[0].contains("the details are hidden");
            assert_eq!(hidden, !may_see(v, decider), "{v}: {told:?}");
        }
    }
}

#[test]
fn p_frame_vis_public_default_shows_every_frame_to_everyone_in_one_public_event() {
    assert_eq!(ecaz::Policies::default().frame_visibility, FrameVisibility::Public);
    for (before, g, events) in [offer(FrameVisibility::Public), discard_frame(FrameVisibility::Public)] {
        assert_eq!(opened(&events), vec![(Audience::Public, true)]);
        let frame = g.open_frame().unwrap().clone();
        for v in viewers() {
            assert_eq!(
                view(&g, v).pending.last().unwrap().decision.as_ref(),
                Some(&frame.decision),
                "{v}"
            );
            let told: Vec<String> = events.iter().filter_map(|e| narrate::event(&before, e, v)).collect();
            assert!(told.iter().all(|t| !t.contains("hidden")), "{v}: {told:?}");
        }
    }
}

/// D-240: the default is not written, so a default game's saved bytes are
/// those of a game from before the policy; `actorOnly` is written and read back.
#[test]
fn p_frame_vis_d240_default_is_not_written_and_actor_only_round_trips() {
    let (_, g, _) = offer(FrameVisibility::Public);
    let text = json(&g);
    assert!(!text.contains("frameVisibility"), "{text}");
    assert!(!view_json(&text, "\"atreides\"").unwrap().contains("frameVisibility"));
    let (_, g, _) = offer(FrameVisibility::ActorOnly);
    let text = json(&g);
    assert!(text.contains(r#""frameVisibility":"actorOnly""#), "{text}");
    let back = ecaz::game_from_json(&text).unwrap();
    assert_eq!(back.policies().frame_visibility, FrameVisibility::ActorOnly);
    assert_eq!(json(&back), text);
    assert_round_trip(&g);
}

/// P-FRAME-VIS: a value that is not a policy value refuses the setup (and a
/// saved state), naming the field.
#[test]
fn p_frame_vis_an_unknown_value_is_refused() {
    let setup = r#"{"seats":["ecaz","harkonnen"],"seed":1,"policies":{"frameVisibility":"secret"}}"#;
    let e = new_game_json(setup).unwrap_err();
    assert_eq!(e.code(), "decode/invalid_setup", "{e}");
    assert!(e.to_string().contains("secret"), "{e}");
    let good = new_game_json(&setup.replace("secret", "actorOnly")).unwrap();
    assert!(good.contains(r#""frameVisibility":"actorOnly""#));
    let e = ecaz::game_from_json(&good.replace(r#""frameVisibility":"actorOnly""#, r#""frameVisibility":"secret""#))
        .unwrap_err();
    assert_eq!(e.code(), "decode/invalid_state", "{e}");
}

/// Host frames (the host decides) stay public under `actorOnly`: a placement
/// response shows its token to every viewer (P-SUPPLY-VIS `public`).
#[test]
fn p_frame_vis_actor_only_host_frames_stay_public() {
    let mut s = setup(&SEATS, 5);
    s.policies.frame_visibility = FrameVisibility::ActorOnly;
    let g = build_setup(&s);
    let (g, _) = walk_to_revival_end(&g);
    // Ecaz's placement frame is a faction frame (it has no details to hide).
    let placement = view(&g, Viewer::Spectator);
    assert_eq!(placement.pending.last().unwrap().kind, "placement");
    assert_eq!(placement.pending.last().unwrap().decision, None);
    let (g, events) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let frame = g.open_frame().unwrap().clone();
    assert_eq!(frame.actor, Actor::Host);
    assert!(matches!(frame.decision, Decision::PlacementResponse { .. }));
    for v in viewers() {
        assert_eq!(
            view(&g, v).pending.last().unwrap().decision.as_ref(),
            Some(&frame.decision),
            "{v}"
        );
    }
    assert!(events.iter().all(|e| e.audience == Audience::Public), "{events:?}");
}

/// The Bene Gesserit token in Arrakeen (cohort atreides, beneGesserit,
/// choam, emperor, fremen): Atreides' entry and Ecaz's trigger open Ecaz's
/// copy frame.
fn bg_table(policy: FrameVisibility) -> Setup {
    let mut s = table(
        &SEATS,
        &[
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        &[(Ambassador::BeneGesserit, placed(Territory::Arrakeen))],
    );
    s.policies.frame_visibility = policy;
    s
}

/// Under `actorOnly` and P-SUPPLY-VIS `ownerOnly` together, the BG copy frame
/// (decided by Ecaz, revealing the cohort) is Ecaz's and the host's alone.
#[test]
fn p_frame_vis_actor_only_with_owner_only_supply_keeps_the_copy_frame_to_ecaz() {
    let mut s = bg_table(FrameVisibility::ActorOnly);
    s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(g.open_frame().unwrap().decision.name(), "copyEffect");
    assert_eq!(
        opened(&events),
        vec![
            (Audience::Public, false),
            (
                Audience::Only {
                    factions: vec![Faction::Ecaz]
                },
                true
            )
        ]
    );
    for v in viewers() {
        let sees = view(&g, v).pending.last().unwrap().decision.is_some();
        assert_eq!(sees, may_see(v, Faction::Ecaz), "{v}");
    }
}

/// The state of `g` with the open copy frame's candidates replaced.
fn with_candidates(g: &Game, candidates: &[Ambassador]) -> Game {
    let mut v = json_value(g);
    let top = v["pending"].as_array_mut().unwrap().last_mut().unwrap();
    assert_eq!(top["decision"]["kind"], "copyEffect");
    top["decision"]["candidates"] = serde_json::to_value(candidates).unwrap();
    ecaz::game_from_json(&v.to_string()).unwrap()
}

/// Worlds that differ only in a frame's details (the BG copy candidates Ecaz
/// picks from) look the same to everyone but Ecaz and the host under
/// `actorOnly` — views, the answer's events and its narration — and differ
/// for Ecaz (so the comparison is not vacuous); under `public` they differ
/// for everyone.
#[test]
fn p_frame_vis_actor_only_worlds_differing_only_in_frame_details_look_the_same_to_non_deciders() {
    let make = |policy: FrameVisibility| {
        let g = build_setup(&bg_table(policy));
        let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
        let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
        (
            with_candidates(&g, &[Ambassador::Richese, Ambassador::Guild, Ambassador::Tleilaxu]),
            with_candidates(&g, &[Ambassador::Richese, Ambassador::Harkonnen]),
        )
    };
    let view_text = |g: &Game, v: Viewer| serde_json::to_string(&view(g, v)).unwrap();
    let (a, b) = make(FrameVisibility::ActorOnly);
    let answer = ecaz(Action::Copy {
        frame: open_id(&a),
        effect: Ambassador::Richese,
    });
    let (_, ea) = ok(&a, &answer);
    let (_, eb) = ok(&b, &answer);
    for v in viewers() {
        let same_view = view_text(&a, v) == view_text(&b, v);
        assert_eq!(same_view, !may_see(v, Faction::Ecaz), "{v}: views");
        assert_eq!(events_for(&ea, v), events_for(&eb, v), "{v}: events");
        let told = |g: &Game, events: &[Event]| -> Vec<String> {
            std::iter::once(narrate::command(g, &answer, v))
                .chain(events.iter().filter_map(|e| narrate::event(g, e, v)))
                .collect()
        };
        assert_eq!(told(&a, &ea), told(&b, &eb), "{v}: narration");
    }
    let (a, b) = make(FrameVisibility::Public);
    for v in viewers() {
        assert_ne!(view_text(&a, v), view_text(&b, v), "{v}: public details");
    }
}
