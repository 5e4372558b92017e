//! Entries and their reactions (RULES §4: R-TRG-1..8, P-UNAVAILABLE, P-NEST):
//! the host's `arrive` report, Ecaz's trigger offer (`decline` /
//! `trigger {beneficiary}`), disposal, settling with exactly one `resume` per
//! arrival, and the recycling of a completed cohort. Also the protocol around
//! those frames: forged actors, stale and replayed frame ids, JSON reloads.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use std::collections::BTreeSet;

use arrivals::*;
use common::*;
use ecaz::TraitorCard;
use ecaz::{
    validate, Action, Actor, Ambassador, ArrivalId, CardId, Cause, Command, Decision, DukeCustody, Event, EventKind,
    Faction, FrameId, Game, Leader, Origin, Phase, Sector, SectorForces, Setup, Stack, Territory, Unavailable, Viewer,
    Zone,
};

// ---------------------------------------------------------------- R-TRG-1

#[test]
fn r_trg_1_entry_offers_ecaz_a_trigger() {
    let g = emperor_in_arrakeen();
    let (g, events) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    assert_eq!(
        events[0].event,
        EventKind::Arrived {
            arrival: ArrivalId(1),
            entrant: Faction::Harkonnen,
            cause: Cause::Shipment,
            from: Origin::Reserves,
            territory: Territory::Arrakeen,
            sector: 10,
            normal: 3,
            elite: 0,
            advisors: false,
            entry: true,
            parent: None,
        }
    );
    let expected = Decision::TriggerOffer {
        arrival: ArrivalId(1),
        token: Ambassador::Emperor,
        territory: Territory::Arrakeen,
        entrant: Faction::Harkonnen,
        beneficiaries: vec![Faction::Ecaz],
    };
    assert_eq!(
        events[1].event,
        EventKind::DecisionOpened {
            frame: FrameId(1),
            actor: Actor::Faction(Faction::Ecaz),
            decision_kind: "triggerOffer".to_string(),
            decision: Some(expected.clone()),
        }
    );
    let open = g.open_frame().unwrap();
    assert_eq!(
        (open.id, open.actor, &open.decision),
        (FrameId(1), Actor::Faction(Faction::Ecaz), &expected)
    );
    assert_eq!(g.open_arrivals().len(), 1);
    assert_eq!(g.open_arrivals()[0].id, ArrivalId(1));
    assert!(resumes(&events).is_empty(), "no resume while the offer is open");
    // Options: Ecaz declines or triggers for itself; nobody else has anything.
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(o.frame, Some(FrameId(1)));
    assert_eq!(
        o.commands,
        vec![
            ecaz(Action::Decline { frame: FrameId(1) }),
            ecaz(Action::Trigger {
                frame: FrameId(1),
                beneficiary: Faction::Ecaz
            }),
        ]
    );
    for actor in [
        Actor::Host,
        Actor::Faction(Faction::Harkonnen),
        Actor::Faction(Faction::Atreides),
    ] {
        assert!(options(&g, actor).commands.is_empty(), "{actor} has no options");
    }
    // Every view shows the open offer (it is public).
    for v in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Harkonnen),
        Viewer::Faction(Faction::Ecaz),
    ] {
        let pv = view(&g, v);
        assert_eq!(pv.pending.len(), 1);
        assert_eq!(pv.pending[0].kind, "triggerOffer");
        assert_eq!(pv.pending[0].decision.as_ref(), Some(&expected));
    }
}

#[test]
fn r_trg_1_decline_keeps_the_token_and_changes_nothing_else() {
    let g = emperor_in_arrakeen();
    let (offered, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 3));
    let (after, events) = ok(&offered, &decline(&offered));
    assert_eq!(
        kinds(&events),
        vec![
            &EventKind::TriggerDeclined {
                arrival: ArrivalId(1),
                token: Ambassador::Emperor,
                territory: Territory::Arrakeen,
            },
            &EventKind::Resume { arrival: ArrivalId(1) },
        ]
    );
    assert_eq!(zone(&after, Ambassador::Emperor), placed(Territory::Arrakeen));
    assert!(after.open_frame().is_none());
    assert!(after.open_arrivals().is_empty());
    // Nothing else changed: the state equals the offered one minus the frame and the arrival.
    let mut a = json_value(&offered);
    let b = json_value(&after);
    a["pending"] = serde_json::json!([]);
    a["arrivals"] = serde_json::json!([]);
    advance_revision(&mut a, 1);
    assert_eq!(a, b);
    // The decline is answered: replaying it (or triggering on it) is stale.
    assert_rejected(&after, &ecaz(Action::Decline { frame: FrameId(1) }), "rule/stale_frame");
    assert_rejected(
        &after,
        &ecaz(Action::Trigger {
            frame: FrameId(1),
            beneficiary: Faction::Ecaz,
        }),
        "rule/stale_frame",
    );
    // The token still reacts to the next entry.
    let (again, _) = ok(&after, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    assert_eq!(offer(&again).map(|o| o.0), Some(Ambassador::Emperor));
    assert_eq!(open_id(&again), FrameId(2));
    assert_eq!(again.open_arrivals()[0].id, ArrivalId(2));
}

// ---------------------------------------------------------------- R-TRG-2

/// An arrival that opens nothing: `arrived` then `resume`, no frame.
fn assert_no_offer(g: &Game, cmd: &Command) -> Game {
    let (next, events) = ok(g, cmd);
    assert_eq!(kind_names(&events), vec!["arrived", "resume"], "{cmd:?}");
    assert!(next.open_frame().is_none());
    assert!(next.open_arrivals().is_empty());
    next
}

#[test]
fn r_trg_2_no_offer_for_ecaz_entrant() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &COHORT,
        &[
            (Ambassador::Emperor, Territory::Arrakeen),
            (Ambassador::Ecaz, Territory::Carthag),
        ],
    );
    fs(&mut s, Faction::Ecaz).reserves = Some(ecaz::Forces { normal: 14, elite: 0 });
    let g = build_setup(&s);
    let g = assert_no_offer(&g, &ship(Faction::Ecaz, Territory::Arrakeen, 2));
    assert_no_offer(&g, &ship(Faction::Ecaz, Territory::Carthag, 2));
}

#[test]
fn r_trg_2_no_offer_for_ecaz_ally_but_for_others() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[(Ambassador::Emperor, Territory::Arrakeen)],
    );
    ally(&mut s, Faction::Harkonnen);
    let g = build_setup(&s);
    let g = assert_no_offer(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 2));
    let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 2));
    assert_eq!(
        offer(&g),
        Some((
            Ambassador::Emperor,
            Faction::Atreides,
            vec![Faction::Ecaz, Faction::Harkonnen]
        ))
    );
}

#[test]
fn r_trg_2_no_offer_for_bg_advisors_arrival() {
    let g = build_setup(&placed_table(
        &[Faction::Ecaz, Faction::BeneGesserit],
        &COHORT,
        &[(Ambassador::Emperor, Territory::Arrakeen)],
    ));
    let advisors = arrive(
        Faction::BeneGesserit,
        Cause::Shipment,
        Origin::Reserves,
        Territory::Arrakeen,
        10,
        1,
        0,
        true,
        None,
    );
    let g = assert_no_offer(&g, &advisors);
    assert_eq!(
        stack_at(&g, Faction::BeneGesserit, Territory::Arrakeen, 10)
            .unwrap()
            .advisors,
        1
    );
    // The same faction arriving as fighters is an entry that can trigger.
    let (g, _) = ok(&g, &ship(Faction::BeneGesserit, Territory::Arrakeen, 1));
    assert_eq!(offer(&g).map(|o| o.1), Some(Faction::BeneGesserit));
}

#[test]
fn r_trg_2_no_trigger_for_matching_identity() {
    for token in Ambassador::NON_ECAZ {
        let matching = token.faction();
        let other = if matching == Faction::Atreides {
            Faction::Harkonnen
        } else {
            Faction::Atreides
        };
        let mut cohort = vec![token];
        cohort.extend(Ambassador::NON_ECAZ.into_iter().filter(|&t| t != token).take(4));
        let mut s = placed_table(
            &[Faction::Ecaz, matching, other],
            &cohort,
            &[(token, Territory::Arrakeen)],
        );
        // Make every effect available, so that only the identity matters.
        give_hand(&mut s, Faction::Ecaz, &[0]);
        if matching == Faction::Tleilaxu {
            fs(&mut s, matching).face_dancers = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
        } else {
            fs(&mut s, matching).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
        }
        fs(&mut s, other).traitors = vec![TraitorCard::Leader(Leader::WhitmoreBludd)];
        let g = build_setup(&s);
        // The matching faction (BG fighters against the BG token included) is immune …
        let g = assert_no_offer(&g, &ship(matching, Territory::Arrakeen, 1));
        // … a non-matching entrant gets the offer.
        let (g, _) = ok(&g, &ship(other, Territory::Arrakeen, 1));
        assert_eq!(
            offer(&g),
            Some((token, other, vec![Faction::Ecaz])),
            "{token} token, {other} entrant"
        );
    }
}

#[test]
fn r_trg_2_bg_token_copying_harkonnen_hits_a_harkonnen_entrant() {
    // Harkonnen is outside the cohort, so BG may copy it (P-BG-POOL).
    let cohort = [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &cohort,
        &[(Ambassador::BeneGesserit, Territory::Arrakeen)],
    );
    fs(&mut s, Faction::Harkonnen).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 2));
    assert_eq!(
        offer(&g),
        Some((Ambassador::BeneGesserit, Faction::Harkonnen, vec![Faction::Ecaz]))
    );
    let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
    let Some(Decision::CopyEffect { candidates, .. }) = g.open_frame().map(|f| f.decision.clone()) else {
        panic!("a copy frame opens");
    };
    assert!(candidates.contains(&Ambassador::Harkonnen), "{candidates:?}");
    let (g, events) = ok(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Harkonnen,
        }),
    );
    assert!(events.iter().any(|e| e.event
        == EventKind::TraitorSeen {
            of: Faction::Harkonnen,
            leader: TraitorCard::Leader(Leader::SanyaEcaz),
            face_dancer: false
        }
        && e.visible_to(Viewer::Faction(Faction::Ecaz))
        && !e.visible_to(Viewer::Faction(Faction::Harkonnen))));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
    assert_eq!(
        zone(&g, Ambassador::Harkonnen),
        Zone::Pool,
        "the copied token is untouched"
    );
}

// ---------------------------------------------------------------- R-TRG-3

#[test]
fn r_trg_3_shipment_from_reserves_is_an_entry_and_conserves_forces() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Emperor],
        &COHORT,
        &[(Ambassador::Atreides, Territory::Carthag)],
    );
    give_hand(&mut s, Faction::Emperor, &[3]);
    let g = build_setup(&s);
    let before = g.faction(Faction::Emperor).unwrap().reserves;
    assert_eq!((before.normal, before.elite), (15, 5));
    let cmd = arrive(
        Faction::Emperor,
        Cause::Shipment,
        Origin::Reserves,
        Territory::Carthag,
        11,
        3,
        2,
        false,
        None,
    );
    let (g, events) = ok(&g, &cmd);
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    let after = g.faction(Faction::Emperor).unwrap();
    assert_eq!((after.reserves.normal, after.reserves.elite), (12, 3));
    assert_eq!(
        after.board,
        vec![Stack {
            territory: Territory::Carthag,
            sector: 11,
            normal: 3,
            elite: 2,
            advisors: 0
        }]
    );
    assert_eq!(after.total_forces(), 20);
    assert_eq!(offer(&g).map(|o| o.0), Some(Ambassador::Atreides));
}

fn harkonnen_on_board(board: Vec<Stack>) -> Game {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Fremen],
        &COHORT,
        &[
            (Ambassador::Emperor, Territory::Arrakeen),
            (Ambassador::Choam, Territory::SietchTabr),
        ],
    );
    fs(&mut s, Faction::Harkonnen).board = Some(board);
    fs(&mut s, Faction::Fremen).board = Some(vec![Stack {
        territory: Territory::TheGreatFlat,
        sector: 15,
        normal: 4,
        elite: 2,
        advisors: 0,
    }]);
    build_setup(&s)
}

fn basin(sector: Sector, normal: u32) -> Stack {
    Stack {
        territory: Territory::ImperialBasin,
        sector,
        normal,
        elite: 0,
        advisors: 0,
    }
}

#[test]
fn r_trg_3_movement_from_another_territory_is_an_entry() {
    let g = harkonnen_on_board(vec![basin(10, 3), basin(9, 1)]);
    let cmd = arrive(
        Faction::Harkonnen,
        Cause::Movement,
        Origin::Board {
            territory: Territory::ImperialBasin,
            sector: 10,
        },
        Territory::Arrakeen,
        10,
        3,
        0,
        false,
        None,
    );
    let (g, events) = ok(&g, &cmd);
    assert!(matches!(events[0].event, EventKind::Arrived { entry: true, .. }));
    assert_eq!(
        offer(&g),
        Some((Ambassador::Emperor, Faction::Harkonnen, vec![Faction::Ecaz]))
    );
    // Conservation: the emptied stack is gone, the other stays, reserves untouched.
    let h = g.faction(Faction::Harkonnen).unwrap();
    assert_eq!(h.reserves.normal, 16);
    assert_eq!(stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 10), None);
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 9)
            .unwrap()
            .normal,
        1
    );
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::Arrakeen, 10)
            .unwrap()
            .normal,
        3
    );
    assert_eq!(h.total_forces(), 20);
}

#[test]
fn r_trg_3_worm_ride_and_other_causes_are_entries() {
    let g = harkonnen_on_board(vec![basin(10, 3)]);
    let worm = arrive(
        Faction::Fremen,
        Cause::Worm,
        Origin::Board {
            territory: Territory::TheGreatFlat,
            sector: 15,
        },
        Territory::SietchTabr,
        14,
        2,
        1,
        false,
        None,
    );
    let (next, events) = ok(&g, &worm);
    assert!(matches!(
        events[0].event,
        EventKind::Arrived {
            entry: true,
            cause: Cause::Worm,
            ..
        }
    ));
    assert_eq!(
        offer(&next),
        Some((Ambassador::Choam, Faction::Fremen, vec![Faction::Ecaz]))
    );
    let left = stack_at(&next, Faction::Fremen, Territory::TheGreatFlat, 15).unwrap();
    assert_eq!((left.normal, left.elite), (2, 1));
    let other = arrive(
        Faction::Harkonnen,
        Cause::Other,
        Origin::Reserves,
        Territory::Arrakeen,
        10,
        1,
        0,
        false,
        None,
    );
    let (next, _) = ok(&g, &other);
    assert_eq!(offer(&next).map(|o| o.0), Some(Ambassador::Emperor));
}

#[test]
fn r_trg_3_reinforcing_an_occupied_stronghold_is_an_entry() {
    let g = harkonnen_on_board(vec![Stack {
        territory: Territory::Arrakeen,
        sector: 10,
        normal: 2,
        elite: 0,
        advisors: 0,
    }]);
    let (g, events) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert!(matches!(events[0].event, EventKind::Arrived { entry: true, .. }));
    assert_eq!(offer(&g).map(|o| o.0), Some(Ambassador::Emperor));
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::Arrakeen, 10)
            .unwrap()
            .normal,
        3
    );
}

#[test]
fn r_trg_3_same_territory_sector_move_is_not_an_entry() {
    let g = harkonnen_on_board(vec![basin(9, 3)]);
    let before = rng_words(&g);
    let cmd = arrive(
        Faction::Harkonnen,
        Cause::Movement,
        Origin::Board {
            territory: Territory::ImperialBasin,
            sector: 9,
        },
        Territory::ImperialBasin,
        11,
        2,
        0,
        false,
        None,
    );
    let (g, events) = ok(&g, &cmd);
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
    assert!(matches!(
        events[0].event,
        EventKind::Arrived {
            entry: false,
            arrival: ArrivalId(1),
            ..
        }
    ));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    assert!(g.open_frame().is_none() && g.open_arrivals().is_empty());
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 9)
            .unwrap()
            .normal,
        1
    );
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 11)
            .unwrap()
            .normal,
        2
    );
    assert_eq!(rng_words(&g), before);
}

#[test]
fn r_trg_3_rejections_leave_the_state_byte_identical() {
    let g = harkonnen_on_board(vec![basin(10, 2)]);
    let from_basin = |sector| Origin::Board {
        territory: Territory::ImperialBasin,
        sector,
    };
    let cases: Vec<(Command, &str)> = vec![
        // 18 in reserves.
        (
            ship(Faction::Harkonnen, Territory::Arrakeen, 19),
            "rule/not_enough_forces",
        ),
        // 2 in Imperial Basin 10, none in 9.
        (
            arrive(
                Faction::Harkonnen,
                Cause::Movement,
                from_basin(10),
                Territory::Arrakeen,
                10,
                3,
                0,
                false,
                None,
            ),
            "rule/not_enough_forces",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Movement,
                from_basin(9),
                Territory::Arrakeen,
                10,
                1,
                0,
                false,
                None,
            ),
            "rule/not_enough_forces",
        ),
        // Fremen: 3 Fedaykin in all, 1 left in reserves (2 on the board).
        (
            arrive(
                Faction::Fremen,
                Cause::Shipment,
                Origin::Reserves,
                Territory::Arrakeen,
                10,
                0,
                2,
                false,
                None,
            ),
            "rule/not_enough_forces",
        ),
        (ship(Faction::Harkonnen, Territory::Arrakeen, 0), "rule/empty_arrival"),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Shipment,
                Origin::Reserves,
                Territory::Arrakeen,
                10,
                0,
                1,
                false,
                None,
            ),
            "rule/no_elite_forces",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Shipment,
                Origin::Reserves,
                Territory::Arrakeen,
                10,
                1,
                0,
                true,
                None,
            ),
            "rule/no_advisors",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Shipment,
                Origin::Reserves,
                Territory::Arrakeen,
                11,
                1,
                0,
                false,
                None,
            ),
            "rule/invalid_position",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Shipment,
                Origin::Reserves,
                Territory::HiddenMobileStronghold,
                0,
                1,
                0,
                false,
                None,
            ),
            "rule/invalid_position",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Movement,
                from_basin(12),
                Territory::Arrakeen,
                10,
                1,
                0,
                false,
                None,
            ),
            "rule/invalid_position",
        ),
        (
            arrive(
                Faction::Harkonnen,
                Cause::Movement,
                from_basin(10),
                Territory::ImperialBasin,
                10,
                1,
                0,
                false,
                None,
            ),
            "rule/no_movement",
        ),
        (ship(Faction::Atreides, Territory::Arrakeen, 1), "rule/not_seated"),
        (
            as_faction(
                Faction::Harkonnen,
                Action::Arrive {
                    entrant: Faction::Harkonnen,
                    cause: Cause::Shipment,
                    from: Origin::Reserves,
                    territory: Territory::Arrakeen,
                    sector: 10,
                    normal: 1,
                    elite: 0,
                    advisors: false,
                    parent: None,
                    reactions_first: false,
                },
            ),
            "rule/wrong_actor",
        ),
        (
            as_faction(
                Faction::Atreides,
                Action::Arrive {
                    entrant: Faction::Harkonnen,
                    cause: Cause::Shipment,
                    from: Origin::Reserves,
                    territory: Territory::Arrakeen,
                    sector: 10,
                    normal: 1,
                    elite: 0,
                    advisors: false,
                    parent: None,
                    reactions_first: false,
                },
            ),
            "rule/not_seated",
        ),
        (
            ship_linked(Faction::Harkonnen, Territory::Arrakeen, 1, 1),
            "rule/parent_settled",
        ),
    ];
    for (cmd, code) in &cases {
        assert_rejected(&g, cmd, code);
    }
    // The Fremen stack in the setup holds 2 of the 3 Fedaykin.
    assert_eq!(g.faction(Faction::Fremen).unwrap().reserves.elite, 1);
}

// ---------------------------------------------------------------- R-TRG-4

/// The events of a chain of commands, one list per command.
fn chain(g: &Game, next: impl Fn(&Game) -> Option<Command>) -> (Game, Vec<Vec<Event>>) {
    let mut g = g.clone();
    let mut all = Vec::new();
    for _ in 0..10 {
        let Some(cmd) = next(&g) else {
            return (g, all);
        };
        let (n, events) = ok(&g, &cmd);
        g = n;
        all.push(events);
    }
    panic!("the chain did not end");
}

#[test]
fn r_trg_4_resume_once_after_every_event_of_the_reaction() {
    // Cohort token choam in Arrakeen (a frame after the trigger), BG in Carthag
    // (copy frame, then the copied effect's frame), emperor in Sietch Tabr (no frame).
    let cohort = [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &cohort,
        &[
            (Ambassador::Choam, Territory::Arrakeen),
            (Ambassador::BeneGesserit, Territory::Carthag),
            (Ambassador::Emperor, Territory::SietchTabr),
        ],
    );
    give_hand(&mut s, Faction::Ecaz, &[1, 2]);
    let g = build_setup(&s);
    let answer = |g: &Game| -> Option<Command> {
        let f = g.open_frame()?;
        Some(match &f.decision {
            Decision::TriggerOffer { .. } => trigger(g, Faction::Ecaz),
            Decision::CopyEffect { .. } => ecaz(Action::Copy {
                frame: f.id,
                effect: Ambassador::Richese,
            }),
            Decision::ChoamDiscard { .. } => ecaz(Action::DiscardForSpice {
                frame: f.id,
                cards: vec![CardId(1)],
            }),
            Decision::RicheseBuy { .. } => ecaz(Action::BuyCard { frame: f.id, buy: true }),
            other => panic!("unexpected frame {other:?}"),
        })
    };
    for (n, to) in [Territory::SietchTabr, Territory::Arrakeen, Territory::Carthag]
        .into_iter()
        .enumerate()
    {
        let (g1, first) = ok(&g, &ship(Faction::Harkonnen, to, 1));
        assert!(resumes(&first).is_empty(), "{to}: the entry waits for Ecaz");
        let (g2, rest) = chain(&g1, answer);
        assert!(g2.open_frame().is_none() && g2.open_arrivals().is_empty());
        let mut all = vec![first];
        all.extend(rest);
        assert_eq!(all.len(), [2, 3, 4][n], "{to}: commands in the chain");
        let flat: Vec<Event> = all.iter().flatten().cloned().collect();
        assert_eq!(resumes(&flat), vec![ArrivalId(1)], "{to}: exactly one resume");
        let (last, earlier) = all.split_last().unwrap();
        assert!(earlier.iter().all(|e| resumes(e).is_empty()), "{to}: never before");
        assert_eq!(
            last.last().map(|e| &e.event),
            Some(&EventKind::Resume { arrival: ArrivalId(1) }),
            "{to}: the resume is the very last event"
        );
        assert_eq!(count(&flat, "effectResolved"), 1, "{to}");
        assert!(position(&flat, "effectResolved") < position(&flat, "resume"));
    }
}

#[test]
fn r_trg_4_host_reports_wait_for_the_open_frame_except_linked_arrivals() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[
            (Ambassador::Emperor, Territory::Arrakeen),
            (Ambassador::Choam, Territory::Carthag),
        ],
    );
    s.duke = Some(DukeCustody::SetAside);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let open = open_id(&g);
    for report in [
        Action::EndPhase {
            phase: Phase::ShipmentMovement,
        },
        Action::MoveStorm { sectors: 1 },
        Action::DestroyShieldWall {},
        Action::DestroyTerritory {
            territory: Territory::Arrakeen,
            cause: ecaz::Destruction::LasgunShield,
        },
        Action::DukeKilled {},
        Action::Arrive {
            entrant: Faction::Atreides,
            cause: Cause::Shipment,
            from: Origin::Reserves,
            territory: Territory::Carthag,
            sector: 11,
            normal: 1,
            elite: 0,
            advisors: false,
            parent: None,
            reactions_first: false,
        },
    ] {
        let err = assert_rejected(&g, &host(report), "rule/decision_pending");
        assert_eq!(err, ecaz::ApplyError::DecisionPending(open));
    }
    // A linked arrival is accepted: its own reaction goes on top and settles first (P-NEST).
    let (g, events) = ok(&g, &ship_linked(Faction::Atreides, Territory::Carthag, 1, 1));
    assert_eq!(kind_names(&events), vec!["arrived", "decisionOpened"]);
    assert_eq!(
        offer(&g).map(|o| (o.0, o.1)),
        Some((Ambassador::Choam, Faction::Atreides))
    );
    assert_eq!(g.open_arrivals().len(), 2);
    assert_eq!(g.open_arrivals()[1].parent, Some(ArrivalId(1)));
    let (g, events) = ok(&g, &decline(&g));
    assert_eq!(
        resumes(&events),
        vec![ArrivalId(2)],
        "the child resumes, the parent waits"
    );
    assert_eq!(
        offer(&g).map(|o| (o.0, o.1)),
        Some((Ambassador::Emperor, Faction::Harkonnen))
    );
    assert_eq!(open_id(&g), open);
    let (g, events) = ok(&g, &decline(&g));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    assert!(g.open_arrivals().is_empty());
}

#[test]
fn r_trg_4_arrival_and_frame_ids_count_from_one_and_are_never_reused() {
    let g = emperor_in_arrakeen();
    let (g, e1) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert!(matches!(
        e1[0].event,
        EventKind::Arrived {
            arrival: ArrivalId(1),
            ..
        }
    ));
    assert_eq!(open_id(&g), FrameId(1));
    let (g, _) = ok(&g, &decline(&g));
    // A non-entry and a non-stronghold arrival still take ids.
    let (g, e2) = ok(&g, &ship(Faction::Atreides, Territory::ImperialBasin, 1));
    assert_eq!(resumes(&e2), vec![ArrivalId(2)]);
    let (g, e3) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    assert!(matches!(
        e3[0].event,
        EventKind::Arrived {
            arrival: ArrivalId(3),
            ..
        }
    ));
    assert_eq!(open_id(&g), FrameId(2));
    let (_, e4) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(resumes(&e4), vec![ArrivalId(3)]);
}

// ---------------------------------------------------------------- R-TRG-5

fn allied_table(placed_at: &[(Ambassador, Territory)]) -> Setup {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Emperor],
        &COHORT,
        placed_at,
    );
    ally(&mut s, Faction::Atreides);
    s
}

#[test]
fn r_trg_5_beneficiary_is_ecaz_or_its_current_ally() {
    let g = build_setup(&allied_table(&[(Ambassador::Emperor, Territory::Arrakeen)]));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert_eq!(
        offer(&g),
        Some((
            Ambassador::Emperor,
            Faction::Harkonnen,
            vec![Faction::Ecaz, Faction::Atreides]
        ))
    );
    for other in [Faction::Harkonnen, Faction::Emperor, Faction::Fremen, Faction::Moritani] {
        let err = assert_rejected(&g, &trigger(&g, other), "rule/not_a_beneficiary");
        assert_eq!(err.rule(), Some("R-TRG-5"));
    }
    // Without an ally, only Ecaz.
    let g = emperor_in_arrakeen();
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert_rejected(&g, &trigger(&g, Faction::Atreides), "rule/not_a_beneficiary");
}

#[test]
fn r_trg_5_ally_benefits_from_the_emperor_token() {
    let g = build_setup(&allied_table(&[(Ambassador::Emperor, Territory::Arrakeen)]));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let before = (spice(&g, Faction::Ecaz), spice(&g, Faction::Atreides));
    let (g, events) = ok(&g, &trigger(&g, Faction::Atreides));
    assert_eq!(
        (spice(&g, Faction::Ecaz), spice(&g, Faction::Atreides)),
        (before.0, before.1 + 5)
    );
    assert!(events.iter().any(|e| e.event
        == EventKind::AmbassadorTriggered {
            arrival: ArrivalId(1),
            token: Ambassador::Emperor,
            territory: Territory::Arrakeen,
            entrant: Faction::Harkonnen,
            beneficiary: Faction::Atreides,
            disposal: Zone::Used,
        }));
}

#[test]
fn r_trg_5_targeted_effects_still_target_the_entrant() {
    let mut s = allied_table(&[
        (Ambassador::Atreides, Territory::Arrakeen),
        (Ambassador::Harkonnen, Territory::Carthag),
    ]);
    give_hand(&mut s, Faction::Emperor, &[4, 5]);
    fs(&mut s, Faction::Emperor).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Emperor, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Atreides));
    let seen = events
        .iter()
        .find(|e| matches!(e.event, EventKind::HandSeen { .. }))
        .unwrap();
    assert_eq!(
        seen.event,
        EventKind::HandSeen {
            of: Faction::Emperor,
            cards: vec![CardId(4), CardId(5)]
        }
    );
    assert!(seen.visible_to(Viewer::Faction(Faction::Atreides)));
    assert!(!seen.visible_to(Viewer::Faction(Faction::Ecaz)));
    let (g, _) = ok(&g, &ship(Faction::Emperor, Territory::Carthag, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Atreides));
    let seen = events
        .iter()
        .find(|e| matches!(e.event, EventKind::TraitorSeen { .. }))
        .unwrap();
    assert_eq!(
        seen.event,
        EventKind::TraitorSeen {
            of: Faction::Emperor,
            leader: TraitorCard::Leader(Leader::SanyaEcaz),
            face_dancer: false
        }
    );
    assert!(seen.visible_to(Viewer::Faction(Faction::Atreides)));
    let about: Vec<(Faction, Faction)> = g.knowledge().iter().map(|k| (k.viewer, k.about)).collect();
    assert_eq!(
        about,
        vec![
            (Faction::Atreides, Faction::Emperor),
            (Faction::Atreides, Faction::Emperor)
        ]
    );
}

#[test]
fn r_trg_5_the_ally_makes_its_own_card_choices() {
    let cohort = [
        Ambassador::Choam,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Emperor,
        Ambassador::Harkonnen,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen],
        &cohort,
        &[
            (Ambassador::Choam, Territory::Arrakeen),
            (Ambassador::Ixians, Territory::Carthag),
            (Ambassador::Richese, Territory::SietchTabr),
        ],
    );
    ally(&mut s, Faction::Atreides);
    give_hand(&mut s, Faction::Atreides, &[6, 7]);
    give_hand(&mut s, Faction::Ecaz, &[8]);
    let g = build_setup(&s);
    for (to, kind) in [
        (Territory::Arrakeen, "choamDiscard"),
        (Territory::Carthag, "ixianSwap"),
        (Territory::SietchTabr, "richeseBuy"),
    ] {
        let (g, _) = ok(&g, &ship(Faction::Harkonnen, to, 1));
        let (g, _) = ok(&g, &trigger(&g, Faction::Atreides));
        let f = g.open_frame().unwrap();
        assert_eq!(f.decision.name(), kind);
        assert_eq!(f.actor, Actor::Faction(Faction::Atreides), "{kind}: the ally answers");
        let id = f.id;
        let answer = match kind {
            "choamDiscard" => Action::DiscardForSpice {
                frame: id,
                cards: vec![CardId(6)],
            },
            "ixianSwap" => Action::SwapCard {
                frame: id,
                card: CardId(6),
            },
            _ => Action::BuyCard { frame: id, buy: true },
        };
        // Ecaz, the entrant and the host cannot answer for the ally.
        for forger in [Faction::Ecaz, Faction::Harkonnen] {
            assert_rejected(&g, &as_faction(forger, answer.clone()), "rule/not_your_decision");
        }
        assert_rejected(&g, &host(answer.clone()), "rule/not_your_decision");
        assert!(options(&g, Actor::Faction(Faction::Ecaz)).commands.is_empty());
        assert!(!options(&g, Actor::Faction(Faction::Atreides)).commands.is_empty());
        let (g, events) = ok(&g, &as_faction(Faction::Atreides, answer));
        assert_eq!(resumes(&events), vec![ArrivalId(1)], "{kind}");
        assert_eq!(g.faction(Faction::Ecaz).unwrap().hand, vec![CardId(8)], "{kind}");
    }
}

// ---------------------------------------------------------------- R-TRG-6

#[test]
fn r_trg_6_disposal_ecaz_to_supply_bg_removed_others_used() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &COHORT,
        &[
            (Ambassador::Ecaz, Territory::Arrakeen),
            (Ambassador::BeneGesserit, Territory::Carthag),
            (Ambassador::Emperor, Territory::SietchTabr),
        ],
    );
    s.duke = Some(DukeCustody::SetAside);
    let g = build_setup(&s);
    for (to, token, disposal) in [
        (Territory::Arrakeen, Ambassador::Ecaz, Zone::Supply),
        (Territory::Carthag, Ambassador::BeneGesserit, Zone::Removed),
        (Territory::SietchTabr, Ambassador::Emperor, Zone::Used),
    ] {
        let (g, _) = ok(&g, &ship(Faction::Harkonnen, to, 1));
        // The decline disposes of nothing.
        let (declined, _) = ok(&g, &decline(&g));
        assert_eq!(zone(&declined, token), placed(to));
        let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
        let triggered = events
            .iter()
            .find(|e| matches!(e.event, EventKind::AmbassadorTriggered { .. }))
            .unwrap();
        assert!(
            matches!(triggered.event, EventKind::AmbassadorTriggered { token: t, disposal: d, .. } if t == token && d == disposal)
        );
        assert_eq!(zone(&g, token), disposal, "{token}");
        assert_eq!(g.ambassadors().placed_in(to), None);
    }
}

// ---------------------------------------------------------------- R-TRG-7

#[test]
fn r_trg_7_token_being_resolved_is_no_longer_placed() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[(Ambassador::Choam, Territory::Arrakeen)],
    );
    give_hand(&mut s, Faction::Ecaz, &[1]);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(g.open_frame().unwrap().decision.name(), "choamDiscard");
    assert_eq!(zone(&g, Ambassador::Choam), Zone::Used);
    // A nested entry into the same stronghold during the effect finds no token.
    let (g, events) = ok(&g, &ship_linked(Faction::Atreides, Territory::Arrakeen, 1, 1));
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
    assert_eq!(resumes(&events), vec![ArrivalId(2)]);
    assert_eq!(g.open_frame().unwrap().decision.name(), "choamDiscard");
    let (g, events) = ok(
        &g,
        &ecaz(Action::DiscardForSpice {
            frame: open_id(&g),
            cards: vec![],
        }),
    );
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    assert_eq!(count(&events, "ambassadorTriggered"), 0);
    assert!(g.open_arrivals().is_empty());
}

#[test]
fn r_trg_7_a_token_offered_twice_triggers_at_most_once() {
    let g = emperor_in_arrakeen();
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let start = spice(&g, Faction::Ecaz);
    let parent_frame = open_id(&g);
    // A linked arrival (e.g. an accompanying force) enters the same stronghold
    // while the parent's offer for that token is still open.
    let (g, _) = ok(&g, &ship_linked(Faction::Atreides, Territory::Arrakeen, 1, 1));
    assert_ne!(open_id(&g), parent_frame, "the child's offer is on top");
    let (g, first) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(count(&first, "ambassadorTriggered"), 1);
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Used);
    assert_eq!(spice(&g, Faction::Ecaz), start + 5);
    // D-55: the parent's offer, for a token that is gone, is withdrawn by
    // itself (no misleading `triggerDeclined`); child then parent settle.
    assert_eq!(count(&first, "triggerOfferWithdrawn"), 1);
    assert_eq!(count(&first, "triggerDeclined"), 0);
    assert_eq!(
        resumes(&first),
        vec![ArrivalId(2), ArrivalId(1)],
        "the child settles, then the parent once"
    );
    assert_rejected(&g, &ecaz(Action::Decline { frame: parent_frame }), "rule/stale_frame");
    assert!(g.open_frame().is_none());
    assert!(g.open_arrivals().is_empty());
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Used);
    assert_eq!(spice(&g, Faction::Ecaz), start + 5, "the Emperor token paid once");
}

// ---------------------------------------------------------------- R-TRG-8

/// Four cohort tokens done (BG removed, three used), the last one placed in Arrakeen.
fn last_of_cohort(last: Ambassador, seed: u64) -> Setup {
    let mut zones: Vec<(Ambassador, Zone)> = COHORT
        .iter()
        .filter(|&&t| t != last)
        .map(|&t| {
            let z = if t == Ambassador::BeneGesserit {
                Zone::Removed
            } else {
                Zone::Used
            };
            (t, z)
        })
        .collect();
    zones.push((last, placed(Territory::Arrakeen)));
    let mut s = table(&[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides], &COHORT, &zones);
    s.seed = Some(seed);
    give_hand(&mut s, Faction::Ecaz, &[1, 2]);
    fs(&mut s, Faction::Harkonnen).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    s
}

fn recycled(events: &[Event]) -> Option<(Vec<Ambassador>, u32)> {
    events.iter().find_map(|e| match &e.event {
        EventKind::CohortRecycled { returned, cycle } => Some((returned.clone(), *cycle)),
        _ => None,
    })
}

fn drawn(events: &[Event]) -> Option<Vec<Ambassador>> {
    events.iter().find_map(|e| match &e.event {
        EventKind::CohortDrawn { tokens } => Some(tokens.clone()),
        _ => None,
    })
}

#[test]
fn r_trg_8_fifth_choam_trigger_recycles_only_after_the_discard() {
    let g = build_setup(&last_of_cohort(Ambassador::Choam, 3));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let rng_before = rng_words(&g);
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(recycled(&events), None, "not while the CHOAM frame is open");
    assert_eq!(g.ambassadors().cohort, COHORT.to_vec());
    assert_eq!(g.ambassadors().cycle, 0);
    assert_eq!(zone(&g, Ambassador::Choam), Zone::Used);
    assert_eq!(rng_words(&g), rng_before, "no RNG before the recycle commits");
    // Views, options, validation and rejections consume nothing either.
    for v in [Viewer::Host, Viewer::Spectator, Viewer::Faction(Faction::Ecaz)] {
        let _ = view(&g, v);
    }
    let _ = options(&g, Actor::Faction(Faction::Ecaz));
    let _ = options(&g, Actor::Host);
    let frame = open_id(&g);
    let discard = ecaz(Action::DiscardForSpice {
        frame,
        cards: vec![CardId(1)],
    });
    validate(&g, &discard).unwrap();
    assert_rejected(
        &g,
        &ecaz(Action::DiscardForSpice {
            frame,
            cards: vec![CardId(9)],
        }),
        "rule/card_not_held",
    );
    assert_rejected(
        &g,
        &as_faction(Faction::Harkonnen, discard.action.clone()),
        "rule/not_your_decision",
    );
    assert_eq!(rng_words(&g), rng_before);
    // The answer settles the effect: then, and only then, the cohort recycles.
    let (g, events) = ok(&g, &discard);
    assert_ne!(rng_words(&g), rng_before, "the committed recycle draws");
    assert_eq!(
        kind_names(&events),
        vec![
            "cardDiscarded",
            "spiceGained",
            "effectResolved",
            "cohortRecycled",
            "cohortDrawn",
            "resume"
        ]
    );
    let (returned, cycle) = recycled(&events).unwrap();
    assert_eq!(
        returned,
        vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Harkonnen
        ]
    );
    assert_eq!(cycle, 1);
    let new = drawn(&events).unwrap();
    assert_eq!(new.len(), 5);
    assert_eq!(new.iter().collect::<BTreeSet<_>>().len(), 5);
    assert!(!new.contains(&Ambassador::BeneGesserit) && !new.contains(&Ambassador::Ecaz));
    assert_eq!(g.ambassadors().cohort, new);
    assert_eq!(g.ambassadors().cycle, 1);
    for t in Ambassador::NON_ECAZ {
        let expected = if t == Ambassador::BeneGesserit {
            Zone::Removed
        } else if new.contains(&t) {
            Zone::Supply
        } else {
            Zone::Pool
        };
        assert_eq!(zone(&g, t), expected, "{t}");
    }
    assert_eq!(g.ambassadors().in_zone(Zone::Pool).count(), 4, "9 − 5 left in the pool");
    assert_round_trip(&g);
}

#[test]
fn r_trg_8_no_recycle_before_all_five_and_exactly_once_after() {
    // Three done, two placed.
    let zones = [
        (Ambassador::Atreides, Zone::Used),
        (Ambassador::BeneGesserit, Zone::Removed),
        (Ambassador::Choam, Zone::Used),
        (Ambassador::Emperor, placed(Territory::Arrakeen)),
        (Ambassador::Harkonnen, placed(Territory::Carthag)),
    ];
    let mut s = table(&[Faction::Ecaz, Faction::Atreides, Faction::Fremen], &COHORT, &zones);
    fs(&mut s, Faction::Atreides).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    let g = build_setup(&s);
    let rng = rng_words(&g);
    let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(recycled(&events), None);
    assert_eq!(rng_words(&g), rng, "the fourth trigger draws nothing");
    let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Carthag, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(count(&events, "cohortRecycled"), 1);
    assert_eq!(count(&events, "cohortDrawn"), 1);
    let r = position(&events, "cohortRecycled").unwrap();
    assert!(r < position(&events, "cohortDrawn").unwrap());
    assert!(position(&events, "cohortDrawn").unwrap() < position(&events, "resume").unwrap());
    assert!(position(&events, "effectResolved").unwrap() < r);
    assert_eq!(g.ambassadors().cycle, 1);
    // Later arrivals and settles do not recycle again.
    let (g, events) = ok(&g, &ship(Faction::Fremen, Territory::TueksSietch, 1));
    assert_eq!(count(&events, "cohortRecycled"), 0);
    let (g, events) = ok(&g, &ship(Faction::Fremen, Territory::ImperialBasin, 1));
    assert_eq!(count(&events, "cohortRecycled"), 0);
    assert_eq!(g.ambassadors().cycle, 1);
}

#[test]
fn r_trg_8_removed_bg_stays_out_and_the_next_cohort_comes_from_nine() {
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let g = build_setup(&last_of_cohort(Ambassador::Emperor, seed));
        let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
        let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
        let new = drawn(&events).unwrap();
        assert!(!new.contains(&Ambassador::BeneGesserit), "seed {seed}: BG came back");
        assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
        seen.extend(new);
    }
    let expected: BTreeSet<Ambassador> = Ambassador::NON_ECAZ
        .into_iter()
        .filter(|&t| t != Ambassador::BeneGesserit)
        .collect();
    assert_eq!(seen, expected, "every one of the nine can be drawn");
}

#[test]
fn r_trg_8_bg_as_fifth_trigger_recycles_after_the_copied_effect() {
    // BG is the last one: the other four are used.
    let g = build_setup(&last_of_cohort(Ambassador::BeneGesserit, 5));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(recycled(&events), None);
    assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
    // Copy Ixians (outside the cohort): a swap frame follows.
    let (g, events) = ok(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Ixians,
        }),
    );
    assert_eq!(recycled(&events), None, "not before the copied effect settles");
    assert_eq!(g.open_frame().unwrap().decision.name(), "ixianSwap");
    let (g, events) = ok(
        &g,
        &ecaz(Action::SwapCard {
            frame: open_id(&g),
            card: CardId(1),
        }),
    );
    let (returned, _) = recycled(&events).unwrap();
    assert!(!returned.contains(&Ambassador::BeneGesserit));
    assert_eq!(returned.len(), 4);
    assert!(!drawn(&events).unwrap().contains(&Ambassador::BeneGesserit));
    assert_eq!(
        zone(&g, Ambassador::Ixians) == Zone::Pool,
        !g.ambassadors().cohort.contains(&Ambassador::Ixians)
    );
    let names = kind_names(&events);
    assert_eq!(names.last().map(String::as_str), Some("resume"));
}

#[test]
fn r_trg_8_ecaz_token_triggers_never_count() {
    // Four cohort tokens done, the fifth (emperor) still in supply; the Ecaz token in Arrakeen.
    let zones = [
        (Ambassador::Atreides, Zone::Used),
        (Ambassador::BeneGesserit, Zone::Removed),
        (Ambassador::Choam, Zone::Used),
        (Ambassador::Harkonnen, Zone::Used),
        (Ambassador::Ecaz, placed(Territory::Arrakeen)),
    ];
    let g = build_setup(&table(&[Faction::Ecaz, Faction::Harkonnen], &COHORT, &zones));
    let rng = rng_words(&g);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    // Duke set aside and both unallied: Ecaz picks the branch.
    let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
    let (g, events) = ok(
        &g,
        &ecaz(Action::ChooseBranch {
            frame: open_id(&g),
            branch: ecaz::EcazBranch::Duke,
        }),
    );
    assert_eq!(count(&events, "cohortRecycled"), 0);
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Supply);
    assert_eq!(g.ambassadors().cycle, 0);
    assert_eq!(rng_words(&g), rng);
}

#[test]
fn r_trg_8_cohort_token_returned_by_storm_still_has_to_trigger() {
    let zones = [
        (Ambassador::Atreides, Zone::Used),
        (Ambassador::BeneGesserit, Zone::Removed),
        (Ambassador::Choam, Zone::Used),
        (Ambassador::Harkonnen, Zone::Used),
        (Ambassador::Emperor, placed(Territory::Arrakeen)),
    ];
    let mut s = table(&[Faction::Ecaz, Faction::Harkonnen], &COHORT, &zones);
    s.phase = Some(Phase::Storm);
    s.storm = Some(9);
    s.shield_wall_standing = Some(false);
    let g = build_setup(&s);
    let rng = rng_words(&g);
    // 9 → 11 passes Arrakeen (10), exposed without the Shield Wall.
    let (g, events) = ok(&g, &host(Action::MoveStorm { sectors: 2 }));
    assert_eq!(count(&events, "ambassadorReturned"), 1);
    assert_eq!(count(&events, "cohortRecycled"), 0);
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Supply);
    assert_eq!(g.ambassadors().cohort, COHORT.to_vec());
    assert_eq!(rng_words(&g), rng);
    // Place it again at the end of Revival and let Harkonnen enter.
    let (g, _) = walk_to_revival_end(&g);
    let (g, _) = place(&g, Ambassador::Emperor, Territory::Arrakeen);
    let (g, _) = finish(&g);
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(count(&events, "cohortRecycled"), 1);
    assert_eq!(g.ambassadors().cycle, 1);
}

// ---------------------------------------------------------------- P-UNAVAILABLE

fn unavailable_table(always: bool) -> Setup {
    let cohort = [
        Ambassador::Ixians,
        Ambassador::Harkonnen,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Tleilaxu, Faction::Emperor],
        &cohort,
        &[
            (Ambassador::Ixians, Territory::Arrakeen),
            (Ambassador::Harkonnen, Territory::Carthag),
            (Ambassador::Ecaz, Territory::SietchTabr),
        ],
    );
    // Neither Ecaz branch: the Duke is in the Tanks and Ecaz is allied (with the Emperor).
    s.duke = Some(DukeCustody::Tanks);
    ally(&mut s, Faction::Emperor);
    if always {
        s.policies.unavailable = Unavailable::AlwaysTriggerable;
    }
    s
}

#[test]
fn p_unavailable_no_offer_for_effects_that_cannot_act() {
    let g = build_setup(&unavailable_table(false));
    // Ixian: neither Ecaz nor its ally holds a card.
    assert_no_offer(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    // Harkonnen: the Atreides entrant holds no traitor; the Tleilaxu entrant no Face Dancer.
    assert_no_offer(&g, &ship(Faction::Atreides, Territory::Carthag, 1));
    assert_no_offer(&g, &ship(Faction::Tleilaxu, Territory::Carthag, 1));
    // Ecaz: neither branch.
    assert_no_offer(&g, &ship(Faction::Atreides, Territory::SietchTabr, 1));
}

#[test]
fn p_unavailable_beneficiaries_filtered_one_by_one() {
    let mut s = unavailable_table(false);
    give_hand(&mut s, Faction::Emperor, &[3]);
    fs(&mut s, Faction::Tleilaxu).face_dancers = vec![TraitorCard::Leader(Leader::Bashar)];
    let g = build_setup(&s);
    // Ixian: only the ally holds a card.
    let (g1, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    assert_eq!(offer(&g1).unwrap().2, vec![Faction::Emperor]);
    assert_rejected(&g1, &trigger(&g1, Faction::Ecaz), "rule/effect_unavailable");
    // Harkonnen against a Tleilaxu entrant with a Face Dancer: both may benefit.
    let (g2, _) = ok(&g, &ship(Faction::Tleilaxu, Territory::Carthag, 1));
    assert_eq!(offer(&g2).unwrap().2, vec![Faction::Ecaz, Faction::Emperor]);
}

#[test]
fn p_unavailable_always_triggerable_offers_and_resolves_doing_nothing() {
    let g = build_setup(&unavailable_table(true));
    for (to, token, entrant) in [
        (Territory::Arrakeen, Ambassador::Ixians, Faction::Atreides),
        (Territory::Carthag, Ambassador::Harkonnen, Faction::Atreides),
        (Territory::Carthag, Ambassador::Harkonnen, Faction::Tleilaxu),
        (Territory::SietchTabr, Ambassador::Ecaz, Faction::Atreides),
    ] {
        let (g, _) = ok(&g, &ship(entrant, to, 1));
        assert_eq!(
            offer(&g),
            Some((token, entrant, vec![Faction::Ecaz, Faction::Emperor])),
            "{token}"
        );
        let (next, events) = ok(&g, &trigger(&g, Faction::Ecaz));
        assert_eq!(
            kind_names(&events),
            vec!["ambassadorTriggered", "effectResolved", "resume"],
            "{token}: resolves doing nothing"
        );
        assert_eq!(zone(&next, token), ecaz_disposal(token));
        let mut a = json_value(&g);
        let mut b = json_value(&next);
        advance_revision(&mut a, 1);
        for v in [&mut a, &mut b] {
            v["pending"] = serde_json::json!([]);
            v["arrivals"] = serde_json::json!([]);
            v["ambassadors"] = serde_json::json!(null);
        }
        assert_eq!(a, b, "{token}: nothing else changed");
    }
}

fn ecaz_disposal(t: Ambassador) -> Zone {
    match t {
        Ambassador::Ecaz => Zone::Supply,
        Ambassador::BeneGesserit => Zone::Removed,
        _ => Zone::Used,
    }
}

#[test]
fn p_unavailable_depends_only_on_public_counts() {
    // Two tables differing only in hidden identities: which cards, which
    // traitors, how much spice. The offers (events, frames, options) match.
    let variant = |cards: [u16; 2], traitor: Leader, spice: u32| {
        let mut s = unavailable_table(false);
        give_hand(&mut s, Faction::Ecaz, &cards);
        fs(&mut s, Faction::Atreides).traitors = vec![TraitorCard::Leader(traitor)];
        fs(&mut s, Faction::Atreides).spice = Some(spice);
        fs(&mut s, Faction::Ecaz).spice = Some(spice);
        build_setup(&s)
    };
    let a = variant([0, 1], Leader::Bashar, 0);
    let b = variant([20, 31], Leader::Burseg, 30);
    for to in [Territory::Arrakeen, Territory::Carthag, Territory::SietchTabr] {
        let (ga, ea) = ok(&a, &ship(Faction::Atreides, to, 1));
        let (gb, eb) = ok(&b, &ship(Faction::Atreides, to, 1));
        assert_eq!(ea, eb, "{to}");
        assert_eq!(ga.pending(), gb.pending(), "{to}");
        assert_eq!(
            options(&ga, Actor::Faction(Faction::Ecaz)),
            options(&gb, Actor::Faction(Faction::Ecaz))
        );
    }
}

// ---------------------------------------------------------------- protocol

#[test]
fn protocol_forged_actor_on_trigger_offer() {
    let g = build_setup(&allied_table(&[(Ambassador::Emperor, Territory::Arrakeen)]));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let id = open_id(&g);
    for forger in [Faction::Harkonnen, Faction::Atreides, Faction::Emperor] {
        assert_rejected(
            &g,
            &as_faction(forger, Action::Decline { frame: id }),
            "rule/not_your_decision",
        );
        assert_rejected(
            &g,
            &as_faction(
                forger,
                Action::Trigger {
                    frame: id,
                    beneficiary: forger,
                },
            ),
            "rule/not_your_decision",
        );
    }
    assert_rejected(&g, &host(Action::Decline { frame: id }), "rule/not_your_decision");
    assert_rejected(
        &g,
        &as_faction(Faction::Fremen, Action::Decline { frame: id }),
        "rule/not_seated",
    );
    // The wrong kind of answer.
    assert_rejected(
        &g,
        &ecaz(Action::Copy {
            frame: id,
            effect: Ambassador::Emperor,
        }),
        "rule/wrong_decision",
    );
    assert_rejected(
        &g,
        &ecaz(Action::DiscardForSpice {
            frame: id,
            cards: vec![],
        }),
        "rule/wrong_decision",
    );
    assert_rejected(&g, &ecaz(Action::FinishPlacement { frame: id }), "rule/wrong_decision");
}

#[test]
fn protocol_stale_and_replayed_frame_ids() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &COHORT,
        &[(Ambassador::Choam, Territory::Arrakeen)],
    );
    give_hand(&mut s, Faction::Ecaz, &[1, 2]);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    for stale in [0, 2, 99, u32::MAX] {
        assert_rejected(
            &g,
            &ecaz(Action::Trigger {
                frame: FrameId(stale),
                beneficiary: Faction::Ecaz,
            }),
            "rule/stale_frame",
        );
    }
    let trig = trigger(&g, Faction::Ecaz);
    let (g, _) = ok(&g, &trig);
    // Replays of the answered offer: stale (the CHOAM frame 2 is open).
    let err = assert_rejected(&g, &trig, "rule/stale_frame");
    assert_eq!(
        err,
        ecaz::ApplyError::StaleFrame {
            named: FrameId(1),
            open: Some(FrameId(2))
        }
    );
    assert_rejected(&g, &ecaz(Action::Decline { frame: FrameId(1) }), "rule/stale_frame");
    let discard = ecaz(Action::DiscardForSpice {
        frame: FrameId(2),
        cards: vec![CardId(1)],
    });
    let (g, _) = ok(&g, &discard);
    let spice_after = spice(&g, Faction::Ecaz);
    assert_rejected(&g, &discard, "rule/stale_frame");
    assert_rejected(&g, &trig, "rule/stale_frame");
    assert_eq!(spice(&g, Faction::Ecaz), spice_after, "no double commit");
}

#[test]
fn protocol_json_reload_at_each_pending_decision_gives_the_same_result() {
    let cohort = [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &cohort,
        &[
            (Ambassador::BeneGesserit, Territory::Arrakeen),
            (Ambassador::Choam, Territory::Carthag),
        ],
    );
    ally(&mut s, Faction::Atreides);
    give_hand(&mut s, Faction::Atreides, &[5, 6, 7]);
    fs(&mut s, Faction::Harkonnen).traitors = vec![
        TraitorCard::Leader(Leader::SanyaEcaz),
        TraitorCard::Leader(Leader::ThufirHawat),
        TraitorCard::Leader(Leader::Caid),
    ];
    s.seats.push(Faction::Emperor);
    let g = build_setup(&s);
    // BG → copy Harkonnen (RNG at the commit) for the ally.
    let (g, _) = ok_reloaded(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, _) = ok_reloaded(&g, &trigger(&g, Faction::Atreides));
    let (g, events) = ok_reloaded(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Harkonnen,
        }),
    );
    assert_eq!(count(&events, "traitorSeen"), 1);
    // CHOAM for the ally: offer, then the ally's frame.
    let (g, _) = ok_reloaded(&g, &ship(Faction::Harkonnen, Territory::Carthag, 1));
    let (g, _) = ok_reloaded(&g, &trigger(&g, Faction::Atreides));
    let (g, events) = ok_reloaded(
        &g,
        &as_faction(
            Faction::Atreides,
            Action::DiscardForSpice {
                frame: open_id(&g),
                cards: vec![CardId(5), CardId(7)],
            },
        ),
    );
    assert_eq!(resumes(&events), vec![ArrivalId(2)]);
    assert_round_trip(&g);
}

#[test]
fn options_list_every_answer_of_every_new_frame_and_each_is_accepted() {
    let cohort = [
        Ambassador::Choam,
        Ambassador::BeneGesserit,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Emperor,
    ];
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &cohort,
        &[
            (Ambassador::Choam, Territory::Arrakeen),
            (Ambassador::BeneGesserit, Territory::Carthag),
            (Ambassador::Ixians, Territory::SietchTabr),
            (Ambassador::Richese, Territory::TueksSietch),
        ],
    );
    ally(&mut s, Faction::Atreides);
    give_hand(&mut s, Faction::Ecaz, &[1, 2]);
    give_hand(&mut s, Faction::Atreides, &[3]);
    fs(&mut s, Faction::Harkonnen).traitors = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    let g = build_setup(&s);
    let actors = [
        Actor::Host,
        Actor::Faction(Faction::Ecaz),
        Actor::Faction(Faction::Harkonnen),
        Actor::Faction(Faction::Atreides),
    ];
    let mut kinds_seen = BTreeSet::new();
    // Walk every frame reachable from the four entries, trying every listed command.
    let mut stack: Vec<Game> = [
        Territory::Arrakeen,
        Territory::Carthag,
        Territory::SietchTabr,
        Territory::TueksSietch,
    ]
    .iter()
    .map(|&t| ok(&g, &ship(Faction::Harkonnen, t, 1)).0)
    .collect();
    let mut visited = 0;
    while let Some(g) = stack.pop() {
        let Some(open) = g.open_frame() else { continue };
        visited += 1;
        kinds_seen.insert(open.decision.name());
        for actor in actors {
            let o = options(&g, actor);
            if actor != open.actor {
                assert!(
                    o.commands.is_empty() && o.frame.is_none(),
                    "{actor} on {}",
                    open.decision.name()
                );
                continue;
            }
            assert_eq!(o.frame, Some(open.id));
            assert!(!o.commands.is_empty(), "{}: no answer listed", open.decision.name());
            for cmd in &o.commands {
                let before = rng_words(&g);
                validate(&g, cmd).unwrap_or_else(|e| panic!("{cmd:?} listed but invalid: {e}"));
                assert_eq!(rng_words(&g), before);
                let (next, _) = ok(&g, cmd);
                stack.push(next);
            }
        }
    }
    assert!(visited >= 12, "{visited} frames");
    for kind in ["triggerOffer", "copyEffect", "choamDiscard", "ixianSwap", "richeseBuy"] {
        assert!(kinds_seen.contains(kind), "{kind} never reached");
    }
}

#[test]
fn r_trg_3_group_origin_conserves_forces_and_checks_its_sums() {
    let g = harkonnen_on_board(vec![basin(9, 2), basin(10, 3)]);
    // The group is built from its wire form.
    let group = |sectors: Vec<(Sector, u32)>| -> Origin {
        let sectors: Vec<serde_json::Value> = sectors
            .into_iter()
            .map(|(sector, normal)| serde_json::json!({"sector": sector, "normal": normal}))
            .collect();
        serde_json::from_value(serde_json::json!({
            "kind": "group",
            "territory": "imperial_basin",
            "sectors": sectors,
        }))
        .unwrap()
    };
    let report = |from: Origin, normal: u32| {
        arrive(
            Faction::Harkonnen,
            Cause::Movement,
            from,
            Territory::Arrakeen,
            10,
            normal,
            0,
            false,
            None,
        )
    };
    assert_rejected(&g, &report(group(vec![(9, 2), (10, 1)]), 4), "rule/group_mismatch");
    assert_rejected(&g, &report(group(vec![(9, 1), (9, 1)]), 2), "rule/duplicate_sector");
    assert_rejected(&g, &report(group(vec![(9, 3)]), 3), "rule/not_enough_forces");
    let (g, events) = ok(&g, &report(group(vec![(9, 2), (10, 1)]), 3));
    assert!(matches!(events[0].event, EventKind::Arrived { entry: true, .. }));
    assert_eq!(offer(&g).map(|o| o.0), Some(Ambassador::Emperor));
    assert_eq!(stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 9), None);
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::ImperialBasin, 10)
            .unwrap()
            .normal,
        2
    );
    assert_eq!(
        stack_at(&g, Faction::Harkonnen, Territory::Arrakeen, 10)
            .unwrap()
            .normal,
        3
    );
    assert_eq!(g.faction(Faction::Harkonnen).unwrap().total_forces(), 20);
}

#[test]
fn p_nest_host_cannot_report_engine_made_arrivals() {
    // Only the engine makes the Fremen relocation and the Guild shipment
    // (R-EFF-FRE, R-EFF-GLD); a host report with those causes is refused,
    // linked or not, whatever else it says.
    let g = harkonnen_on_board(vec![basin(9, 2), basin(10, 3)]);
    let group = Origin::Group {
        territory: Territory::ImperialBasin,
        sectors: vec![SectorForces {
            sector: 9,
            normal: 2,
            elite: 0,
        }],
    };
    let report = |cause: Cause, from: Origin, parent: Option<ArrivalId>| {
        arrive(
            Faction::Harkonnen,
            cause,
            from,
            Territory::Arrakeen,
            10,
            2,
            0,
            false,
            parent,
        )
    };
    let forged = |parent: Option<ArrivalId>| {
        [
            report(Cause::AmbassadorFremen, group.clone(), parent),
            report(Cause::AmbassadorGuild, Origin::Reserves, parent),
        ]
    };
    for cmd in forged(None) {
        let err = assert_rejected(&g, &cmd, "rule/engine_cause");
        assert_eq!(err.rule(), Some("P-NEST"));
    }
    // The wire form is refused too.
    for cause in ["ambassadorFremen", "ambassadorGuild"] {
        let cmd: Command = serde_json::from_value(serde_json::json!({
            "actor": "host",
            "action": {
                "kind": "arrive",
                "entrant": "harkonnen",
                "cause": cause,
                "from": { "kind": "reserves" },
                "territory": "arrakeen",
                "sector": 10,
                "normal": 1,
            }
        }))
        .unwrap();
        assert_rejected(&g, &cmd, "rule/engine_cause");
    }
    // The same reports with a host cause are entries.
    let (after, _) = ok(&g, &report(Cause::Movement, group.clone(), None));
    assert_eq!(offer(&after).map(|o| o.0), Some(Ambassador::Emperor));
    ok(&g, &report(Cause::Shipment, Origin::Reserves, None));
    // Linked to an open arrival (where the engine would make them): refused.
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::SietchTabr, 1));
    assert!(offer(&g).is_some());
    for cmd in forged(Some(ArrivalId(1))) {
        assert_rejected(&g, &cmd, "rule/engine_cause");
    }
    ok(&g, &report(Cause::Movement, group.clone(), Some(ArrivalId(1))));
}

#[test]
fn r_trg_8_completed_in_a_nested_entry_recycles_once_before_the_outermost_resume() {
    // The Ecaz token in Arrakeen (never counts); the fifth cohort token, the
    // Emperor, in Carthag.
    let zones = [
        (Ambassador::Atreides, Zone::Used),
        (Ambassador::BeneGesserit, Zone::Removed),
        (Ambassador::Choam, Zone::Used),
        (Ambassador::Harkonnen, Zone::Used),
        (Ambassador::Ecaz, placed(Territory::Arrakeen)),
        (Ambassador::Emperor, placed(Territory::Carthag)),
    ];
    let g = build_setup(&table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &zones,
    ));
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    assert_eq!(offer(&g).map(|o| o.0), Some(Ambassador::Ecaz));
    // A linked entry into Carthag while the parent's offer is open.
    let (g, _) = ok(&g, &ship_linked(Faction::Atreides, Territory::Carthag, 1, 1));
    let (g, child) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(resumes(&child), vec![ArrivalId(2)]);
    assert_eq!(
        count(&child, "cohortRecycled"),
        0,
        "the outermost arrival is still open"
    );
    let (g, outer) = ok(&g, &decline(&g));
    assert_eq!(
        kind_names(&outer),
        vec!["triggerDeclined", "cohortRecycled", "cohortDrawn", "resume"]
    );
    assert_eq!(resumes(&outer), vec![ArrivalId(1)]);
    assert_eq!(g.ambassadors().cycle, 1);
    assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::Arrakeen));
}
