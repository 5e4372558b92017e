//! End-of-Revival Ambassador placement (RULES §3, R-PLC-1..6; R-TRG-9 returns).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::{
    Action, Actor, Ambassador, AmbassadorsSetup, Command, Decision, Destruction, EventKind, Faction, FactionSetup,
    Game, HmsPointer, Phase, PlacementEnd, ReturnCause, Setup, Stack, Territory, Viewer, Zone,
};

const ALL_FIVE: [Ambassador; 5] = [
    Ambassador::Atreides,
    Ambassador::BeneGesserit,
    Ambassador::Choam,
    Ambassador::Emperor,
    Ambassador::Fremen,
];

/// A setup with a known cohort (atreides, beneGesserit, choam, emperor, fremen).
fn fixed(seats: &[Faction]) -> Setup {
    let mut s = setup(seats, 11);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: ALL_FIVE.to_vec(),
        ..AmbassadorsSetup::default()
    });
    s
}

fn fixed_game() -> Game {
    build_setup(&fixed(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen]))
}

fn with_ecaz_spice(mut s: Setup, spice: u32) -> Setup {
    s.factions.entry(Faction::Ecaz).or_default().spice = Some(spice);
    s
}

/// A game at the end of Revival with the placement frame open.
fn at_placement(s: &Setup) -> Game {
    let (g, _) = walk_to_revival_end(&build_setup(s));
    assert!(placement_open(&g));
    g
}

fn others_spice(g: &Game) -> Vec<(Faction, u32)> {
    g.seats()
        .iter()
        .filter(|&&f| f != Faction::Ecaz)
        .map(|&f| (f, spice(g, f)))
        .collect()
}

// ---- R-PLC-1 timing ----

#[test]
fn r_plc_1_frame_opens_only_when_revival_ends() {
    let mut g = fixed_game();
    for phase in [Phase::Storm, Phase::SpiceBlow, Phase::ChoamCharity, Phase::Bidding] {
        assert_eq!(g.phase(), phase);
        let (next, events) = end_phase(&g);
        assert!(next.open_frame().is_none(), "no frame after {phase}");
        assert_eq!(kind_names(&events), vec!["phaseStarted"]);
        g = next;
    }
    assert_eq!(g.phase(), Phase::Revival);
    let (g, events) = end_phase(&g);
    assert_eq!(g.phase(), Phase::Revival, "the phase ends when placement closes");
    assert!(placement_open(&g));
    let id = open_id(&g);
    assert_eq!(
        kinds(&events),
        vec![&EventKind::PlacementOpened {
            frame: id,
            next_cost: 1
        }]
    );
    assert_eq!(g.pending().len(), 1);
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(o.frame, Some(id));
    assert!(o
        .commands
        .iter()
        .any(|c| matches!(c.action, Action::FinishPlacement { .. })));
    assert!(options(&g, Actor::Host).commands.is_empty(), "host waits for Ecaz");
}

#[test]
fn r_plc_1_without_ecaz_revival_goes_straight_to_shipment() {
    let g = build(&[Faction::Atreides, Faction::Harkonnen], 3);
    let (g, events) = walk_to_revival_end(&g);
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    assert!(g.open_frame().is_none());
    assert_eq!(kind_names(&events), vec!["phaseStarted"]);
    assert!(g.ambassadors().tokens.iter().all(|t| t.zone == Zone::Pool));
}

#[test]
fn r_plc_1_finish_closes_and_advances_to_shipment() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    let before = spice(&g, Faction::Ecaz);
    let (g, events) = finish(&g);
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    assert!(g.open_frame().is_none());
    assert_eq!(spice(&g, Faction::Ecaz), before);
    assert!(g.ambassadors().placement.closed);
    assert_eq!(
        kinds(&events),
        vec![
            &EventKind::PlacementClosed {
                placed: 0,
                reason: PlacementEnd::Finished
            },
            &EventKind::PhaseStarted {
                turn: 1,
                phase: Phase::ShipmentMovement
            }
        ]
    );
}

#[test]
fn r_plc_1_placement_never_reopens_same_turn() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = finish(&g);
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    assert_rejected(
        &g,
        &host(Action::EndPhase { phase: Phase::Revival }),
        "rule/wrong_phase",
    );
    // No place command is accepted for the rest of the turn.
    for stale in 1..=5 {
        assert_rejected(
            &g,
            &ecaz(Action::Place {
                frame: ecaz::FrameId(stale),
                token: Ambassador::Atreides,
                territory: Territory::Carthag,
            }),
            "rule/stale_frame",
        );
    }
    let mut g2 = g.clone();
    for phase in [Phase::ShipmentMovement, Phase::Battle, Phase::Collection] {
        g2 = ok(&g2, &host(Action::EndPhase { phase })).0;
        assert!(g2.open_frame().is_none(), "nothing reopens in {phase}");
    }
}

#[test]
fn r_plc_1_closed_opportunity_imported_mid_revival_does_not_reopen() {
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.phase = Some(Phase::Revival);
    if let Some(a) = s.ambassadors.as_mut() {
        a.placement.closed = true;
        a.placement.placed = 1;
    }
    let g = build_setup(&s);
    let (g, _) = end_phase(&g);
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    assert!(g.open_frame().is_none());
}

// ---- R-PLC-2 cost ----

#[test]
fn r_plc_2_costs_one_two_three_sum_six_paid_to_bank() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen]));
    let start = spice(&g, Faction::Ecaz);
    let others = others_spice(&g);
    assert_eq!(start, 12);
    let mut g = g;
    let mut paid = 0;
    for (k, (token, territory)) in [
        (Ambassador::Ecaz, Territory::Arrakeen),
        (Ambassador::Atreides, Territory::Carthag),
        (Ambassador::Choam, Territory::TueksSietch),
    ]
    .into_iter()
    .enumerate()
    {
        let cost = u32::try_from(k).unwrap() + 1;
        assert_eq!(view(&g, Viewer::Spectator).ambassadors.next_cost, cost);
        let before = spice(&g, Faction::Ecaz);
        let (next, events) = announce(&g, token, territory);
        assert_eq!(spice(&next, Faction::Ecaz), before, "nothing is paid at announcement");
        assert!(matches!(
            next.open_frame().unwrap().decision,
            Decision::PlacementResponse { cost: c, .. } if c == cost
        ));
        assert_eq!(kind_names(&events), vec!["placementAnnounced"]);
        let (next, events) = allow(&next);
        assert_eq!(
            spice(&next, Faction::Ecaz),
            before - cost,
            "token {} costs {cost}",
            k + 1
        );
        assert_eq!(others_spice(&next), others, "the bank is paid, no faction gains");
        assert_eq!(zone(&next, token), placed(territory));
        assert_eq!(next.ambassadors().placement.placed, u8::try_from(k).unwrap() + 1);
        assert!(kinds(&events).contains(&&EventKind::AmbassadorPlaced { token, territory, cost }));
        paid += cost;
        g = next;
    }
    assert_eq!(paid, 6);
    assert_eq!(spice(&g, Faction::Ecaz), start - 6);
    assert_eq!(view(&g, Viewer::Spectator).ambassadors.next_cost, 4);
    let (g, events) = finish(&g);
    assert!(kinds(&events).contains(&&EventKind::PlacementClosed {
        placed: 3,
        reason: PlacementEnd::Finished
    }));
    assert_eq!(spice(&g, Faction::Ecaz), start - 6);
}

#[test]
fn r_plc_2_counter_resets_next_turn() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = place(&g, Ambassador::Atreides, Territory::Carthag);
    let (g, _) = finish(&g);
    assert_eq!(g.ambassadors().placement.placed, 2);
    let g = walk_to_next_turn(&g);
    assert_eq!(g.turn(), 2);
    assert_eq!(g.ambassadors().placement, ecaz::PlacementTurn::default());
    let (g, events) = walk_to_revival_end(&g);
    assert!(kinds(&events).contains(&&EventKind::PlacementOpened {
        frame: open_id(&g),
        next_cost: 1
    }));
    let before = spice(&g, Faction::Ecaz);
    let (g, _) = place(&g, Ambassador::Choam, Territory::SietchTabr);
    assert_eq!(
        spice(&g, Faction::Ecaz),
        before - 1,
        "first token of the new turn costs 1"
    );
}

#[test]
fn r_plc_2_explosion_return_does_not_refund_or_reset_counter() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = place(&g, Ambassador::Atreides, Territory::Carthag);
    let (g, _) = finish(&g);
    let g = walk_to_phase(&g, Phase::Battle);
    let spice_before = spice(&g, Faction::Ecaz);
    let (g, events) = ok(
        &g,
        &host(Action::DestroyTerritory {
            territory: Territory::Carthag,
            cause: Destruction::LasgunShield,
        }),
    );
    assert_eq!(
        kinds(&events),
        vec![&EventKind::AmbassadorReturned {
            token: Ambassador::Atreides,
            territory: Territory::Carthag,
            cause: ReturnCause::LasgunShield
        }]
    );
    assert_eq!(zone(&g, Ambassador::Atreides), Zone::Supply, "R-TRG-9: back to supply");
    assert_eq!(spice(&g, Faction::Ecaz), spice_before, "no refund");
    assert_eq!(g.ambassadors().placement.placed, 2, "counter not reset");
    assert_eq!(g.ambassadors().cohort, ALL_FIVE.to_vec(), "still in its cohort");
}

#[test]
fn r_plc_2_storm_return_does_not_refund_and_token_can_be_placed_again() {
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.storm = Some(1);
    let g = at_placement(&s);
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = place(&g, Ambassador::Fremen, Territory::Carthag);
    let (g, _) = finish(&g);
    let g = walk_to_next_turn(&g);
    let (g, _) = ok(&g, &host(Action::DestroyShieldWall {}));
    let spice_before = spice(&g, Faction::Ecaz);
    // From sector 1, ten sectors: 2..=11 crosses Arrakeen (10) and Carthag (11).
    let (g, events) = ok(&g, &host(Action::MoveStorm { sectors: 10 }));
    assert_eq!(g.storm(), 11);
    let returned: Vec<_> = kinds(&events)
        .into_iter()
        .filter(|e| matches!(e, EventKind::AmbassadorReturned { .. }))
        .collect();
    assert_eq!(returned.len(), 2, "{events:?}");
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    assert_eq!(zone(&g, Ambassador::Fremen), Zone::Supply);
    assert_eq!(spice(&g, Faction::Ecaz), spice_before, "no refund");
    assert_eq!(g.ambassadors().cohort, ALL_FIVE.to_vec());
    // The storm sits on Carthag now; Arrakeen is clear again.
    let (g, _) = walk_to_revival_end(&g);
    let (g, _) = place(&g, Ambassador::Fremen, Territory::Arrakeen);
    assert_eq!(zone(&g, Ambassador::Fremen), placed(Territory::Arrakeen));
}

// ---- R-TRG-9 storm exposure ----

#[test]
fn r_trg_9_storm_spares_protected_cities_and_sietches() {
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.storm = Some(1);
    let g = at_placement(&s);
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = place(&g, Ambassador::Atreides, Territory::SietchTabr);
    let (g, _) = place(&g, Ambassador::Choam, Territory::TueksSietch);
    let (g, _) = finish(&g);
    let g = walk_to_next_turn(&g);
    // A full circle with the Shield Wall standing: nothing returns.
    let (g2, events) = ok(&g, &host(Action::MoveStorm { sectors: 18 }));
    assert_eq!(kind_names(&events), vec!["stormMoved"]);
    assert_eq!(g2.ambassadors(), g.ambassadors());
    // With the wall down, only Arrakeen is hit; sietches never.
    let (g3, _) = ok(&g, &host(Action::DestroyShieldWall {}));
    let (g3, _) = ok(&g3, &host(Action::MoveStorm { sectors: 20 }));
    assert_eq!(zone(&g3, Ambassador::Ecaz), Zone::Supply);
    assert_eq!(zone(&g3, Ambassador::Atreides), placed(Territory::SietchTabr));
    assert_eq!(zone(&g3, Ambassador::Choam), placed(Territory::TueksSietch));
}

// ---- R-PLC-3 rejections ----

#[test]
fn r_plc_3_token_not_in_supply_pool_or_placed() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    // A pool token.
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Tleilaxu, Territory::Arrakeen),
        "rule/token_not_in_supply",
    );
    // A token already placed never moves.
    let (g, _) = place(&g, Ambassador::Atreides, Territory::Arrakeen);
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Atreides, Territory::Carthag),
        "rule/token_not_in_supply",
    );
}

#[test]
fn r_plc_3_not_a_stronghold() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    for t in [Territory::ImperialBasin, Territory::PolarSink, Territory::ShieldWall] {
        assert_rejected(&g, &place_cmd(&g, Ambassador::Ecaz, t), "rule/not_a_stronghold");
    }
}

#[test]
fn r_plc_4_hms_not_in_play() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Ixians]));
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::HiddenMobileStronghold),
        "rule/hms_not_in_play",
    );
}

#[test]
fn r_plc_3_stronghold_in_storm_protected_city() {
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.storm = Some(10);
    let g = at_placement(&s);
    assert!(g.shield_wall_standing(), "protected from destruction, still in storm");
    let err = assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::Arrakeen),
        "rule/stronghold_in_storm",
    );
    assert_eq!(err.rule(), Some("R-PLC-3"));
    // The neighbour city is fine.
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Carthag);
    assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::Carthag));
}

#[test]
fn r_plc_3_stronghold_in_storm_sietch() {
    for (storm, sietch) in [
        (14, Territory::SietchTabr),
        (17, Territory::HabbanyaRidgeSietch),
        (5, Territory::TueksSietch),
    ] {
        let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
        s.storm = Some(storm);
        let g = at_placement(&s);
        assert_rejected(
            &g,
            &place_cmd(&g, Ambassador::Choam, sietch),
            "rule/stronghold_in_storm",
        );
        let legal = options(&g, Actor::Faction(Faction::Ecaz));
        assert!(
            !legal
                .commands
                .iter()
                .any(|c| matches!(c.action, Action::Place { territory, .. } if territory == sietch)),
            "options never list a stronghold in storm"
        );
    }
}

#[test]
fn r_plc_3_stronghold_has_ambassador() {
    let g = at_placement(&fixed(&[Faction::Ecaz, Faction::Atreides]));
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::HabbanyaRidgeSietch);
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Atreides, Territory::HabbanyaRidgeSietch),
        "rule/stronghold_has_ambassador",
    );
    // Also against a token placed on an earlier turn (explicit inventory).
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Emperor, placed(Territory::Carthag));
    s.ambassadors.as_mut().unwrap().zones = zones;
    let g = at_placement(&s);
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::Carthag),
        "rule/stronghold_has_ambassador",
    );
}

#[test]
fn r_plc_2_insufficient_spice_at_second_token() {
    let g = at_placement(&with_ecaz_spice(fixed(&[Faction::Ecaz, Faction::Atreides]), 2));
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    assert_eq!(spice(&g, Faction::Ecaz), 1);
    let err = assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Atreides, Territory::Carthag),
        "rule/insufficient_spice",
    );
    assert_eq!(
        err,
        ecaz::ApplyError::InsufficientSpice {
            faction: Faction::Ecaz,
            has: 1,
            needs: 2
        }
    );
    let legal = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(legal.commands.len(), 1, "only finish is left: {legal:?}");
    let (g, _) = finish(&g);
    assert_eq!(spice(&g, Faction::Ecaz), 1);
}

#[test]
fn r_plc_2_zero_spice_cannot_place_at_all() {
    let g = at_placement(&with_ecaz_spice(fixed(&[Faction::Ecaz, Faction::Atreides]), 0));
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::Arrakeen),
        "rule/insufficient_spice",
    );
}

#[test]
fn r_plc_3_forces_of_anyone_do_not_matter() {
    let mut s = fixed(&[
        Faction::Ecaz,
        Faction::Atreides,
        Faction::Harkonnen,
        Faction::BeneGesserit,
    ]);
    let stack = |territory, sector, normal, advisors| Stack {
        territory,
        sector,
        normal,
        elite: 0,
        advisors,
    };
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            board: Some(vec![stack(Territory::Carthag, 11, 5, 0)]),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Harkonnen,
        FactionSetup {
            board: Some(vec![stack(Territory::Carthag, 11, 10, 0)]),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::BeneGesserit,
        FactionSetup {
            board: Some(vec![stack(Territory::Carthag, 11, 0, 1)]),
            ..FactionSetup::default()
        },
    );
    let g = at_placement(&s);
    let (g, events) = place(&g, Ambassador::Emperor, Territory::Carthag);
    assert_eq!(zone(&g, Ambassador::Emperor), placed(Territory::Carthag));
    assert_eq!(
        kind_names(&events),
        vec!["placementAnnounced", "ambassadorPlaced", "placementOpened"]
    );
    assert!(placement_open(&g), "no trigger/offer frame: Ecaz places on");
}

// ---- R-PLC-4 HMS ----

fn hms_setup(storm: u8) -> Setup {
    let mut s = fixed(&[Faction::Ecaz, Faction::Ixians, Faction::Atreides]);
    s.hms = Some(HmsPointer {
        territory: Territory::HaggaBasin,
        sector: 12,
    });
    s.storm = Some(storm);
    s
}

#[test]
fn r_plc_4_hms_placement_with_pointer_sector_in_storm() {
    let g = at_placement(&hms_setup(12));
    assert_eq!(g.storm(), g.hms().unwrap().sector);
    let legal = options(&g, Actor::Faction(Faction::Ecaz));
    assert!(legal.commands.iter().any(|c| matches!(
        c.action,
        Action::Place {
            territory: Territory::HiddenMobileStronghold,
            ..
        }
    )));
    let (g, _) = place(&g, Ambassador::Choam, Territory::HiddenMobileStronghold);
    assert_eq!(zone(&g, Ambassador::Choam), placed(Territory::HiddenMobileStronghold));
    assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::HiddenMobileStronghold),
        "rule/stronghold_has_ambassador",
    );
}

#[test]
fn r_plc_4_hms_token_stays_attached_through_move_hms_and_storm() {
    let g = at_placement(&hms_setup(1));
    let (g, _) = place(&g, Ambassador::Fremen, Territory::HiddenMobileStronghold);
    let (g, _) = finish(&g);
    let spice_before = spice(&g, Faction::Ecaz);
    let placed_before = g.ambassadors().placement.placed;
    let (g, events) = ok(
        &g,
        &host(Action::MoveHms {
            territory: Territory::TheGreatFlat,
            sector: 15,
        }),
    );
    assert_eq!(kind_names(&events), vec!["hmsMoved"], "not re-placed, not re-charged");
    assert_eq!(zone(&g, Ambassador::Fremen), placed(Territory::HiddenMobileStronghold));
    assert_eq!(spice(&g, Faction::Ecaz), spice_before);
    assert_eq!(g.ambassadors().placement.placed, placed_before);
    assert_eq!(
        g.hms(),
        Some(HmsPointer {
            territory: Territory::TheGreatFlat,
            sector: 15
        })
    );
    // The pointed-at territory being destroyed does not touch the HMS interior.
    let (g, events) = ok(
        &g,
        &host(Action::DestroyTerritory {
            territory: Territory::TheGreatFlat,
            cause: Destruction::Other,
        }),
    );
    assert!(events.is_empty());
    assert_eq!(zone(&g, Ambassador::Fremen), placed(Territory::HiddenMobileStronghold));
    // Storm over every sector, Shield Wall down: never returned.
    let g = walk_to_next_turn(&g);
    let (g, _) = ok(&g, &host(Action::DestroyShieldWall {}));
    let (g, events) = ok(&g, &host(Action::MoveStorm { sectors: 20 }));
    assert!(!kind_names(&events).contains(&"ambassadorReturned".to_string()));
    assert_eq!(zone(&g, Ambassador::Fremen), placed(Territory::HiddenMobileStronghold));
    // And it stays through a second move, now while the HMS points into the storm.
    let storm = g.storm();
    let target = ecaz::Territory::ALL
        .into_iter()
        .find(|&t| !ecaz::is_stronghold(t) && ecaz::has_sector(t, storm))
        .unwrap();
    let (g, _) = ok(
        &g,
        &host(Action::MoveHms {
            territory: target,
            sector: storm,
        }),
    );
    assert_eq!(zone(&g, Ambassador::Fremen), placed(Territory::HiddenMobileStronghold));
}

#[test]
fn r_plc_4_move_hms_rejections() {
    let g = walk_to_phase(&build_setup(&hms_setup(1)), Phase::ShipmentMovement);
    assert_rejected(
        &g,
        &host(Action::MoveHms {
            territory: Territory::Arrakeen,
            sector: 10,
        }),
        "rule/invalid_hms_pointer",
    );
    assert_rejected(
        &g,
        &host(Action::MoveHms {
            territory: Territory::HaggaBasin,
            sector: 3,
        }),
        "rule/invalid_hms_pointer",
    );
    let no_hms = walk_to_phase(&fixed_game(), Phase::ShipmentMovement);
    assert_rejected(
        &no_hms,
        &host(Action::MoveHms {
            territory: Territory::HaggaBasin,
            sector: 12,
        }),
        "rule/hms_not_in_play",
    );
}

// ---- R-PLC-5 Karama ----

fn karama_setup() -> Setup {
    let k = karamas();
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen]);
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            hand: vec![k[0], card("lasgun")],
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Ecaz,
        FactionSetup {
            hand: vec![k[1]],
            ..FactionSetup::default()
        },
    );
    s
}

#[test]
fn r_plc_5_karama_cancels_pending_placement() {
    let k = karamas();
    let g = at_placement(&karama_setup());
    let (g, _) = place(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let spice_before = spice(&g, Faction::Ecaz);
    let others = others_spice(&g);
    let (g, _) = announce(&g, Ambassador::Atreides, Territory::Carthag);
    let response = open_id(&g);
    let host_options = options(&g, Actor::Host);
    assert!(host_options.commands.iter().any(|c| c.action
        == Action::CancelPlacement {
            frame: response,
            faction: Faction::Atreides,
            card: k[0],
            host_vouched_karama: false,
        }));
    assert!(
        !host_options.commands.iter().any(|c| matches!(
            c.action,
            Action::CancelPlacement {
                faction: Faction::Ecaz,
                ..
            }
        )),
        "Ecaz's own Karama is not an option"
    );
    let (g, events) = ok(
        &g,
        &host(Action::CancelPlacement {
            frame: response,
            faction: Faction::Atreides,
            card: k[0],
            host_vouched_karama: false,
        }),
    );
    // Card discarded, nothing paid, token in supply, counter unchanged.
    assert!(!g.faction(Faction::Atreides).unwrap().hand.contains(&k[0]));
    assert!(g.faction(Faction::Atreides).unwrap().hand.contains(&card("lasgun")));
    assert_eq!(g.treachery().discard.last(), Some(&k[0]));
    assert_eq!(spice(&g, Faction::Ecaz), spice_before);
    assert_eq!(others_spice(&g), others);
    assert_eq!(zone(&g, Ambassador::Atreides), Zone::Supply);
    let p = g.ambassadors().placement;
    assert_eq!(p.placed, 1, "counter unchanged");
    assert!(p.closed);
    assert_eq!(p.prevented_by, Some(Faction::Atreides));
    // Earlier placements stay; the phase advanced; nothing reopens.
    assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::Arrakeen));
    assert_eq!(g.phase(), Phase::ShipmentMovement);
    assert!(g.open_frame().is_none());
    assert_eq!(
        kinds(&events),
        vec![
            &EventKind::CardDiscarded {
                faction: Faction::Atreides,
                card: k[0]
            },
            &EventKind::PlacementCancelled {
                token: Some(Ambassador::Atreides),
                territory: Territory::Carthag,
                by: Faction::Atreides
            },
            &EventKind::PlacementClosed {
                placed: 1,
                reason: PlacementEnd::Prevented
            },
            &EventKind::PhaseStarted {
                turn: 1,
                phase: Phase::ShipmentMovement
            },
        ]
    );
    assert_round_trip(&g);
    // Next turn placement is possible again, and the counter restarts at 1.
    let g = walk_to_next_turn(&g);
    assert_eq!(g.ambassadors().placement.prevented_by, None);
    let (g, _) = walk_to_revival_end(&g);
    assert!(placement_open(&g));
}

#[test]
fn r_plc_5_karama_as_first_announcement_pays_nothing() {
    let k = karamas();
    let g = at_placement(&karama_setup());
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let (g, _) = ok(
        &g,
        &host(Action::CancelPlacement {
            frame: open_id(&g),
            faction: Faction::Atreides,
            card: k[0],
            host_vouched_karama: false,
        }),
    );
    assert_eq!(spice(&g, Faction::Ecaz), 12);
    assert_eq!(supply(&g).len(), 6);
    assert_eq!(g.ambassadors().placement.placed, 0);
}

#[test]
fn r_plc_5_cancel_rejections() {
    let k = karamas();
    let g = at_placement(&karama_setup());
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let id = open_id(&g);
    let cancel = |faction, card| {
        host(Action::CancelPlacement {
            frame: id,
            faction,
            card,
            host_vouched_karama: false,
        })
    };
    let err = assert_rejected(&g, &cancel(Faction::Ecaz, k[1]), "rule/own_placement");
    assert_eq!(err.rule(), Some("R-PLC-5"));
    assert_rejected(&g, &cancel(Faction::Harkonnen, k[0]), "rule/card_not_held");
    assert_rejected(&g, &cancel(Faction::Atreides, k[1]), "rule/card_not_held");
    assert_rejected(&g, &cancel(Faction::Atreides, card("lasgun")), "rule/not_karama");
    assert_rejected(&g, &cancel(Faction::Moritani, k[0]), "rule/not_seated");
    // A non-existent card id.
    assert_rejected(&g, &cancel(Faction::Atreides, ecaz::CardId(999)), "rule/card_not_held");
    // The faction itself cannot send it: the host reports Karama plays.
    assert_rejected(
        &g,
        &Command::faction(
            Faction::Atreides,
            Action::CancelPlacement {
                frame: id,
                faction: Faction::Atreides,
                card: k[0],
                host_vouched_karama: false,
            },
        ),
        "rule/not_your_decision",
    );
}

// ---- R-PLC-6 ----

#[test]
fn r_plc_6_placement_emits_only_placement_events() {
    let g = at_placement(&karama_setup());
    let (g, ev1) = announce(&g, Ambassador::Choam, Territory::TueksSietch);
    assert_eq!(kind_names(&ev1), vec!["placementAnnounced"]);
    assert_eq!(g.pending().len(), 1, "only the response window");
    assert_eq!(g.open_frame().unwrap().actor, Actor::Host);
    let (g, ev2) = allow(&g);
    assert_eq!(kind_names(&ev2), vec!["ambassadorPlaced", "placementOpened"]);
    assert_eq!(g.pending().len(), 1);
    assert!(placement_open(&g), "no trigger frame follows a placement");
    let (_, ev3) = finish(&g);
    assert_eq!(kind_names(&ev3), vec!["placementClosed", "phaseStarted"]);
}

#[test]
fn r_plc_1_every_listed_placement_accepted() {
    let g = at_placement(&hms_setup(5));
    let legal = options(&g, Actor::Faction(Faction::Ecaz));
    // 6 supply tokens × (6 strongholds − Tuek's Sietch in storm) + finish.
    assert_eq!(legal.commands.len(), 6 * 5 + 1);
    for c in &legal.commands {
        let (next, _) = ok(&g, c);
        if matches!(c.action, Action::Place { .. }) {
            let (after, _) = allow(&next);
            assert!(placement_open(&after));
        }
    }
}

#[test]
fn r_trg_9_storm_ending_on_exposed_city_returns_token_not_a_trigger() {
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.storm = Some(9);
    s.shield_wall_standing = Some(false);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Emperor, placed(Territory::Arrakeen));
    zones.insert(Ambassador::Fremen, placed(Territory::Carthag));
    s.ambassadors.as_mut().unwrap().zones = zones;
    let g = build_setup(&s);
    let used_before: Vec<Ambassador> = g.ambassadors().in_zone(Zone::Used).collect();
    let (g, events) = ok(&g, &host(Action::MoveStorm { sectors: 1 }));
    assert_eq!(g.storm(), 10);
    assert_eq!(
        kinds(&events)[1..].to_vec(),
        vec![&EventKind::AmbassadorReturned {
            token: Ambassador::Emperor,
            territory: Territory::Arrakeen,
            cause: ReturnCause::Storm
        }]
    );
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Supply);
    assert_eq!(
        zone(&g, Ambassador::Fremen),
        placed(Territory::Carthag),
        "sector 11 not reached"
    );
    let used_after: Vec<Ambassador> = g.ambassadors().in_zone(Zone::Used).collect();
    assert_eq!(used_before, used_after, "not a trigger: nothing set aside");
    assert!(g.open_frame().is_none(), "no decision follows a return");
}

#[test]
fn r_trg_9_destruction_of_hms_contents_returns_token() {
    let g = at_placement(&hms_setup(3));
    let (g, _) = place(&g, Ambassador::Atreides, Territory::HiddenMobileStronghold);
    let (g, _) = finish(&g);
    let (g, events) = ok(
        &g,
        &host(Action::DestroyTerritory {
            territory: Territory::HiddenMobileStronghold,
            cause: Destruction::LasgunShield,
        }),
    );
    assert_eq!(kind_names(&events), vec!["ambassadorReturned"]);
    assert_eq!(zone(&g, Ambassador::Atreides), Zone::Supply);
}

#[test]
fn r_plc_2_storm_return_keeps_counter_of_imported_turn() {
    // A turn imported mid-way (Storm phase with two placements already
    // counted): the storm's return refunds nothing and leaves the counter.
    let mut s = fixed(&[Faction::Ecaz, Faction::Atreides]);
    s.storm = Some(8);
    s.shield_wall_standing = Some(false);
    let a = s.ambassadors.as_mut().unwrap();
    a.zones.insert(Ambassador::Choam, placed(Territory::Carthag));
    a.placement.placed = 2;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &host(Action::MoveStorm { sectors: 4 }));
    assert_eq!(zone(&g, Ambassador::Choam), Zone::Supply);
    assert_eq!(g.ambassadors().placement.placed, 2);
    assert_eq!(spice(&g, Faction::Ecaz), 12);
}
