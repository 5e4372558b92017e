//! Rules fidelity (D-48–D-56): each decision's accepted path and every rejection
//! (error code + state byte-identical, RNG included + `validate` agreeing,
//! through `assert_rejected`). Test names carry the rule id.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    game_from_json, printed_start, Action, Actor, Ambassador, AmbassadorsSetup, Audience, CardId, Cause, Command,
    Decision, DukeCustody, DukeReason, DukeSource, Event, EventKind, Faction, FactionSetup, Forces, Game,
    LeaderCustody, LeaderState, Origin, Phase, Setup, Stack, Territory, Zone,
};

// ---- helpers ----

fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

fn allied(mut s: Setup, a: Faction, b: Faction) -> Setup {
    fs(&mut s, a).ally = Some(b);
    fs(&mut s, b).ally = Some(a);
    s
}

fn stack(territory: Territory, sector: u8, normal: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal,
        elite: 0,
        advisors: 0,
    }
}

fn arrive(entrant: Faction, territory: Territory, sector: u8, parent: Option<ecaz::ArrivalId>) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal: 1,
        elite: 0,
        advisors: false,
        parent,
        reactions_first: false,
    })
}

fn trigger(g: &Game, beneficiary: Faction) -> (Game, Vec<Event>) {
    ok(
        g,
        &ecaz(Action::Trigger {
            frame: open_id(g),
            beneficiary,
        }),
    )
}

fn duke_moves(events: &[Event]) -> Vec<(DukeCustody, DukeReason)> {
    events
        .iter()
        .filter_map(|e| match e.event {
            EventKind::DukeMoved { custody, reason } => Some((custody, reason)),
            _ => None,
        })
        .collect()
}

fn host_options(g: &Game) -> Vec<Action> {
    options(g, Actor::Host).commands.into_iter().map(|c| c.action).collect()
}

// ---- D-48: R-INV-2 / R-TRG-8, the removed BG token never returns ----

fn inventory(zones: &[(Ambassador, Zone)]) -> AmbassadorsSetup {
    AmbassadorsSetup {
        zones: zones.iter().copied().collect::<BTreeMap<_, _>>(),
        cohort: vec![
            Ambassador::BeneGesserit,
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Fremen,
            Ambassador::Emperor,
        ],
        cycle: 0,
        placement: Default::default(),
    }
}

fn one_left(seed: u64, bg: Zone) -> Setup {
    let mut s = setup(&[Faction::Ecaz, Faction::Harkonnen, Faction::Guild], seed);
    s.ambassadors = Some(inventory(&[
        (Ambassador::BeneGesserit, bg),
        (Ambassador::Atreides, Zone::Used),
        (Ambassador::Choam, Zone::Used),
        (Ambassador::Fremen, Zone::Used),
        (Ambassador::Emperor, placed(Territory::Arrakeen)),
    ]));
    s
}

#[test]
fn r_inv_2_r_trg_8_setup_with_the_bg_token_used_is_refused() {
    let err = one_left(3, Zone::Used).build().expect_err("BG in `used` was accepted");
    assert_eq!(err.code(), "setup/invalid");
    assert!(
        err.problems()
            .iter()
            .any(|p| p.path == "ambassadors.zones.beneGesserit"),
        "{:?}",
        err.problems()
    );
    // The same inventory with BG removed (or still in the supply) is sound.
    build_setup(&one_left(3, Zone::Removed));
    build_setup(&one_left(3, Zone::Supply));
}

#[test]
fn r_inv_2_r_trg_8_saved_state_with_the_bg_token_used_is_inconsistent() {
    let g = build_setup(&one_left(5, Zone::Removed));
    let mut v = json_value(&g);
    let tokens = v["ambassadors"]["tokens"].as_array_mut().unwrap();
    let bg = tokens.iter_mut().find(|t| t["token"] == "beneGesserit").unwrap();
    bg["zone"] = serde_json::json!({ "kind": "used" });
    let err = game_from_json(&v.to_string()).expect_err("BG in `used` loaded");
    assert_eq!(err.code(), "state/inconsistent");
    assert!(err
        .problems()
        .iter()
        .any(|p| p.path == "ambassadors.zones.beneGesserit"));
}

#[test]
fn r_trg_8_r_inv_2_a_removed_bg_token_never_comes_back_through_a_recycle() {
    for seed in 1..=20 {
        let g = build_setup(&one_left(seed, Zone::Removed));
        let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Territory::Arrakeen, 10, None));
        let (g, events) = trigger(&g, Faction::Ecaz);
        assert!(
            events
                .iter()
                .any(|e| matches!(&e.event, EventKind::CohortRecycled { returned, .. } if !returned.contains(&Ambassador::BeneGesserit))),
            "seed {seed}: no recycle without BG: {events:?}"
        );
        let a = g.ambassadors();
        assert_eq!(a.zone(Ambassador::BeneGesserit), Zone::Removed, "seed {seed}");
        assert!(!a.cohort.contains(&Ambassador::BeneGesserit), "seed {seed}");
        assert_eq!(
            a.in_zone(Zone::Pool).count(),
            4,
            "seed {seed}: 9 non-Ecaz tokens, 5 drawn"
        );
        assert_round_trip(&g);
    }
}

// ---- D-49: Karama equivalents (BG Advanced advantage) ----

fn worthless_table(advanced: bool) -> Setup {
    let mut s = setup(&[Faction::Ecaz, Faction::BeneGesserit, Faction::Atreides], 9);
    s.options.advanced = advanced;
    s.options.nexus = true;
    // D-169: an Advanced Bene Gesserit's first force is placed by the setup.
    fs(&mut s, Faction::BeneGesserit).board = Some(vec![stack(Territory::PolarSink, 0, 1)]);
    // D-164: Kull Wahad (Ixians & Tleilaxu deck) is card 33, after the base 33.
    s.extra_cards = vec!["kull_wahad".to_string()];
    let baliset = card("baliset");
    let kulon = card("kulon");
    fs(&mut s, Faction::BeneGesserit).hand = vec![baliset, KULL_WAHAD];
    fs(&mut s, Faction::Atreides).hand = vec![kulon];
    s
}

const KULL_WAHAD: CardId = CardId(33);

fn at_placement_response(advanced: bool) -> Game {
    let mut s = worthless_table(advanced);
    s.phase = Some(Phase::Revival);
    s.placement_open = true;
    let g = build_setup(&s);
    let token = supply(&g).into_iter().find(|&t| t != Ambassador::Ecaz).unwrap();
    announce(&g, token, Territory::SietchTabr).0
}

fn cancel_placement(g: &Game, faction: Faction, kind: &str) -> Command {
    host(Action::CancelPlacement {
        frame: open_id(g),
        faction,
        card: card(kind),
        host_vouched_karama: false,
    })
}

#[test]
fn r_plc_5_advanced_bg_may_cancel_a_placement_with_a_worthless_card() {
    let g = at_placement_response(true);
    let cmd = cancel_placement(&g, Faction::BeneGesserit, "baliset");
    assert!(
        host_options(&g).contains(&cmd.action),
        "not listed: {:?}",
        host_options(&g)
    );
    let (g2, events) = ok(&g, &cmd);
    assert!(events.iter().any(|e| matches!(
        e.event,
        EventKind::PlacementCancelled {
            by: Faction::BeneGesserit,
            ..
        }
    )));
    assert!(g2.treachery().discard.contains(&card("baliset")));
    assert_eq!(g2.ambassadors().placement.prevented_by, Some(Faction::BeneGesserit));
    // D-164 (finding R3): any worthless card, whatever its deck — Kull
    // Wahad of the Ixians & Tleilaxu deck too.
    let kull = host(Action::CancelPlacement {
        frame: open_id(&g),
        faction: Faction::BeneGesserit,
        card: KULL_WAHAD,
        host_vouched_karama: false,
    });
    assert!(host_options(&g).contains(&kull.action), "Kull Wahad not listed");
    let (g3, _) = ok(&g, &kull);
    assert!(g3.treachery().discard.contains(&KULL_WAHAD));
    assert_eq!(g3.ambassadors().placement.prevented_by, Some(Faction::BeneGesserit));
    // Only the Bene Gesserit have the advantage.
    let other = cancel_placement(&g, Faction::Atreides, "kulon");
    assert!(!host_options(&g).contains(&other.action));
    assert_rejected(&g, &other, "rule/not_karama");
}

#[test]
fn r_plc_5_basic_game_bg_worthless_card_is_not_a_karama() {
    let g = at_placement_response(false);
    let cmd = cancel_placement(&g, Faction::BeneGesserit, "baliset");
    assert!(!host_options(&g).contains(&cmd.action));
    assert_rejected(&g, &cmd, "rule/not_karama");
    assert_rejected(&g, &cancel_placement(&g, Faction::Atreides, "kulon"), "rule/not_karama");
    let kull = host(Action::CancelPlacement {
        frame: open_id(&g),
        faction: Faction::BeneGesserit,
        card: KULL_WAHAD,
        host_vouched_karama: false,
    });
    assert!(!host_options(&g).contains(&kull.action));
    assert_rejected(&g, &kull, "rule/not_karama");
}

fn at_betrayal_response(advanced: bool) -> Game {
    let mut s = allied(worthless_table(advanced), Faction::Ecaz, Faction::Atreides);
    s.phase = Some(Phase::ShipmentMovement);
    fs(&mut s, Faction::Ecaz).board = Some(vec![
        stack(Territory::Arrakeen, 10, 2),
        stack(Territory::ImperialBasin, 10, 4),
    ]);
    fs(&mut s, Faction::Atreides).board = Some(vec![stack(Territory::Arrakeen, 10, 10)]);
    fs(&mut s, Faction::BeneGesserit).nexus = Some(Faction::Ecaz);
    let g = build_setup(&s);
    let betray = Command::faction(
        Faction::BeneGesserit,
        Action::PlayBetrayal {
            territory: Territory::Arrakeen,
        },
    );
    ok(&g, &betray).0
}

#[test]
fn r_nex_bet_a_worthless_card_cancels_betrayal_only_for_an_advanced_bg() {
    // The holder cannot cancel its own play, so here the BG worthless card is
    // answered by… the BG itself being the holder: use a Basic/Advanced pair
    // where another faction holds the Betrayal card instead.
    for advanced in [true, false] {
        let mut s = allied(worthless_table(advanced), Faction::Ecaz, Faction::Atreides);
        s.seats.push(Faction::Harkonnen);
        s.phase = Some(Phase::ShipmentMovement);
        fs(&mut s, Faction::Ecaz).board = Some(vec![
            stack(Territory::Arrakeen, 10, 2),
            stack(Territory::ImperialBasin, 10, 4),
        ]);
        fs(&mut s, Faction::Atreides).board = Some(vec![stack(Territory::Arrakeen, 10, 10)]);
        fs(&mut s, Faction::Harkonnen).nexus = Some(Faction::Ecaz);
        let g = build_setup(&s);
        let betray = Command::faction(
            Faction::Harkonnen,
            Action::PlayBetrayal {
                territory: Territory::Arrakeen,
            },
        );
        let (g, _) = ok(&g, &betray);
        let cmd = host(Action::CancelBetrayal {
            frame: open_id(&g),
            faction: Faction::BeneGesserit,
            card: card("baliset"),
            host_vouched_karama: false,
        });
        if advanced {
            assert!(host_options(&g).contains(&cmd.action));
            let (g2, events) = ok(&g, &cmd);
            assert!(events.iter().any(|e| matches!(
                e.event,
                EventKind::BetrayalCancelled {
                    by: Faction::BeneGesserit
                }
            )));
            assert!(g2.open_frame().is_none());
        } else {
            assert!(!host_options(&g).contains(&cmd.action));
            assert_rejected(&g, &cmd, "rule/not_karama");
        }
        let not_bg = host(Action::CancelBetrayal {
            frame: open_id(&g),
            faction: Faction::Atreides,
            card: card("kulon"),
            host_vouched_karama: false,
        });
        assert_rejected(&g, &not_bg, "rule/not_karama");
    }
    // A BG holder still cannot answer its own Betrayal, whatever the card.
    let g = at_betrayal_response(true);
    let own = host(Action::CancelBetrayal {
        frame: open_id(&g),
        faction: Faction::BeneGesserit,
        card: card("baliset"),
        host_vouched_karama: false,
    });
    assert!(!host_options(&g).contains(&own.action));
    assert_rejected(&g, &own, "rule/own_placement");
}

// ---- D-50: R-NEX-CUN / R-EFF-ECAZ, no Cunning for a Duke Ecaz controls ----

fn cunning_table(duke: DukeCustody) -> Game {
    let mut s = setup(
        &[Faction::Ecaz, Faction::Atreides, Faction::Moritani, Faction::Tleilaxu],
        4,
    );
    s.options.nexus = true;
    s.phase = Some(Phase::Battle);
    s.duke = Some(duke);
    fs(&mut s, Faction::Moritani).board = Some(vec![stack(Territory::Carthag, 11, 6)]);
    fs(&mut s, Faction::Ecaz).nexus = Some(Faction::Ecaz);
    build_setup(&s)
}

fn lists_cunning(g: &Game) -> bool {
    options(g, Actor::Faction(Faction::Ecaz))
        .commands
        .iter()
        .any(|c| c.action == Action::PlayCunning {})
}

#[test]
fn r_nex_cun_refused_and_not_listed_when_ecaz_already_controls_the_duke() {
    // The one route by which Ecaz controls him while still holding the card
    // (a Cunning control spends it; Moritani control is Moritani's).
    let g = cunning_table(ecaz_holds());
    assert!(!lists_cunning(&g));
    assert_rejected(&g, &ecaz(Action::PlayCunning {}), "rule/duke_already_controlled");
    // Another controller, or any custody out of play: accepted and listed.
    for custody in [
        DukeCustody::SetAside,
        DukeCustody::Controlled {
            by: Faction::Moritani,
            source: DukeSource::Moritani,
        },
        DukeCustody::Captured { by: Faction::Atreides },
        DukeCustody::Tanks,
        DukeCustody::Ghola { by: Faction::Tleilaxu },
    ] {
        let g = cunning_table(custody);
        assert!(lists_cunning(&g), "{custody:?}");
        let (g, _) = ok(&g, &ecaz(Action::PlayCunning {}));
        assert_eq!(
            g.duke().custody,
            DukeCustody::Controlled {
                by: Faction::Ecaz,
                source: DukeSource::NexusCunning
            }
        );
    }
}

// ---- D-51: P-DUKE-LOAN / R-DUKE-3 after a battle ----

fn lent(before: DukeCustody) -> Game {
    let mut s = allied(
        setup(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], 6),
        Faction::Ecaz,
        Faction::Harkonnen,
    );
    s.phase = Some(Phase::Battle);
    s.duke = Some(DukeCustody::Controlled {
        by: Faction::Harkonnen,
        source: DukeSource::AllianceLoan,
    });
    s.duke_before_loan = Some(before);
    build_setup(&s)
}

fn ecaz_holds() -> DukeCustody {
    DukeCustody::Controlled {
        by: Faction::Ecaz,
        source: DukeSource::EcazAmbassador,
    }
}

#[test]
fn p_duke_loan_r_duke_3_a_lent_duke_used_in_battle_is_set_aside() {
    for before in [DukeCustody::SetAside, ecaz_holds()] {
        let g = lent(before);
        let (g, events) = ok(&g, &host(Action::DukeUsedInBattle {}));
        assert_eq!(g.duke().custody, DukeCustody::SetAside);
        assert_eq!(g.duke().before_loan, None);
        assert_eq!(
            duke_moves(&events),
            vec![(DukeCustody::SetAside, DukeReason::BattleUse)]
        );
        // The turn end changes nothing more.
        let (g2, events) = end_phase(&walk_to_phase(&g, Phase::Mentat));
        assert_eq!(g2.duke().custody, DukeCustody::SetAside);
        assert!(duke_moves(&events).is_empty());
    }
}

#[test]
fn p_duke_loan_an_unused_lent_duke_returns_to_his_holder_before_the_loan_at_turn_end() {
    for before in [DukeCustody::SetAside, ecaz_holds()] {
        let g = walk_to_phase(&lent(before), Phase::Mentat);
        let (g, events) = end_phase(&g);
        assert_eq!(g.duke().custody, before);
        assert_eq!(duke_moves(&events), vec![(before, DukeReason::LoanEnded)]);
    }
}

// ---- D-52: a captured Duke and a ghola Duke (R-DUKE-2, R-DUKE-3) ----

fn duke_table(custody: DukeCustody) -> Game {
    duke_table_from(custody, None)
}

/// A Battle-phase table with the Duke in `custody`; a captive remembers the
/// lasting custody `before` he was captured from (D-168).
fn duke_table_from(custody: DukeCustody, before: Option<DukeCustody>) -> Game {
    let mut s = setup(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Tleilaxu],
        8,
    );
    s.phase = Some(Phase::Battle);
    s.duke = Some(custody);
    s.duke_before_capture = before;
    build_setup(&s)
}

/// Every Duke report from every custody: the custody it leads to (and what
/// a captive remembers), or the rejection code (state and RNG untouched,
/// `assert_rejected`). D-52 as revised by D-168: a captor who uses him in a
/// battle, or returns him, gives him back to the lasting custody he was
/// captured from (Ecaz Ambassador control or a Tleilaxu ghola), else he is
/// set aside; only the Tleilaxu make gholas.
#[test]
fn r_duke_2_r_duke_3_d_168_captured_and_ghola_duke_custody_transitions() {
    use DukeCustody::*;
    let har = Faction::Harkonnen;
    let atr = Faction::Atreides;
    let tlx = Faction::Tleilaxu;
    let captured = Captured { by: har };
    let ghola = Ghola { by: tlx };
    let held = Controlled {
        by: atr,
        source: DukeSource::EcazAmbassador,
    };
    let cunning = Controlled {
        by: Faction::Ecaz,
        source: DukeSource::NexusCunning,
    };
    let cap = |by| Action::DukeCaptured { by };
    let gh = |by| Action::DukeGhola { by };
    type Row<'a> = (
        DukeCustody,
        Option<DukeCustody>,
        Action,
        Result<(DukeCustody, Option<DukeCustody>), &'a str>,
    );
    let rows: Vec<Row> = vec![
        // A captive with no lasting holder to go back to is set aside.
        (captured, None, Action::DukeUsedInBattle {}, Ok((SetAside, None))),
        (captured, None, Action::DukeReturned {}, Ok((SetAside, None))),
        // A captive goes back to whoever last had him, after its battle use or when returned.
        (captured, Some(held), Action::DukeUsedInBattle {}, Ok((held, None))),
        (captured, Some(held), Action::DukeReturned {}, Ok((held, None))),
        (captured, Some(ghola), Action::DukeUsedInBattle {}, Ok((ghola, None))),
        (captured, Some(ghola), Action::DukeReturned {}, Ok((ghola, None))),
        (captured, Some(held), Action::DukeKilled {}, Ok((Tanks, None))),
        // Captured again: the first holder is still the one he returns to.
        (captured, Some(held), cap(tlx), Ok((Captured { by: tlx }, Some(held)))),
        // His first holder capturing him takes him back.
        (captured, Some(held), cap(atr), Ok((held, None))),
        (captured, Some(ghola), cap(tlx), Ok((ghola, None))),
        (captured, None, cap(har), Err("rule/duke_already_controlled")),
        (captured, None, gh(tlx), Err("rule/duke_not_in_tanks")),
        (captured, None, Action::DukeRevived {}, Err("rule/duke_not_in_tanks")),
        // Capture remembers a lasting custody, never a temporary one.
        (held, None, cap(har), Ok((captured, Some(held)))),
        (ghola, None, cap(har), Ok((captured, Some(ghola)))),
        (cunning, None, cap(har), Ok((captured, None))),
        // A dead Duke becomes a ghola of the Tleilaxu only.
        (Tanks, None, gh(tlx), Ok((ghola, None))),
        (Tanks, None, gh(atr), Err("rule/ghola_tleilaxu_only")),
        (Tanks, None, gh(har), Err("rule/ghola_tleilaxu_only")),
        (Tanks, None, gh(Faction::Guild), Err("rule/not_seated")),
        (Tanks, None, Action::DukeUsedInBattle {}, Err("rule/duke_not_in_play")),
        (Tanks, None, Action::DukeKilled {}, Err("rule/duke_not_in_play")),
        (Tanks, None, cap(har), Err("rule/duke_not_in_play")),
        (Tanks, None, Action::DukeReturned {}, Err("rule/duke_not_captured")),
        // The ghola holder fights with him and keeps him; he can die or be captured.
        (ghola, None, Action::DukeUsedInBattle {}, Ok((ghola, None))),
        (ghola, None, Action::DukeKilled {}, Ok((Tanks, None))),
        (ghola, None, cap(tlx), Err("rule/duke_already_controlled")),
        (ghola, None, Action::DukeReturned {}, Err("rule/duke_not_captured")),
        (ghola, None, gh(tlx), Err("rule/duke_not_in_tanks")),
        // Set aside he is in nobody's play.
        (
            SetAside,
            None,
            Action::DukeUsedInBattle {},
            Err("rule/duke_not_in_play"),
        ),
        (SetAside, None, Action::DukeReturned {}, Err("rule/duke_not_captured")),
        (SetAside, None, gh(tlx), Err("rule/duke_not_in_tanks")),
    ];
    for (from, before, action, expected) in rows {
        let g = duke_table_from(from, before);
        let cmd = host(action.clone());
        match expected {
            Ok((to, remembered)) => {
                let (g2, events) = ok(&g, &cmd);
                assert_eq!(g2.duke().custody, to, "{from:?} {before:?} {action:?}");
                assert_eq!(g2.duke().before_capture, remembered, "{from:?} {before:?} {action:?}");
                assert_eq!(duke_moves(&events).len(), 1, "{from:?} {action:?}");
                if matches!(action, Action::DukeUsedInBattle {} | Action::DukeKilled {}) {
                    assert_eq!(g2.duke().battle_turn, Some(g.turn()));
                }
                assert_round_trip(&g2);
            }
            Err(code) => {
                assert_rejected(&g, &cmd, code);
            }
        }
    }
}

/// D-168: a ghola held by anyone but the Tleilaxu, or a captive remembering
/// a temporary control or his captor, does not load or set up.
#[test]
fn r_duke_2_d_168_impossible_ghola_and_capture_records_are_refused() {
    let atr = Faction::Atreides;
    let bad = [
        (DukeCustody::Ghola { by: atr }, None),
        (
            DukeCustody::Captured { by: Faction::Harkonnen },
            Some(DukeCustody::Controlled {
                by: Faction::Ecaz,
                source: DukeSource::NexusCunning,
            }),
        ),
        (
            DukeCustody::Captured { by: Faction::Harkonnen },
            Some(DukeCustody::Ghola { by: Faction::Harkonnen }),
        ),
        (
            DukeCustody::SetAside,
            Some(DukeCustody::Ghola { by: Faction::Tleilaxu }),
        ),
    ];
    for (custody, before) in bad {
        let mut s = setup(
            &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Tleilaxu],
            8,
        );
        s.duke = Some(custody);
        s.duke_before_capture = before;
        let err = s.build().expect_err("an impossible Duke custody was built");
        assert_eq!(err.code(), "setup/invalid", "{custody:?} {before:?}");
    }
    // A leader ghola of anyone but the Tleilaxu: refused as a report and at setup.
    let leader = Faction::Atreides.leaders()[0];
    let mut s = setup(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Tleilaxu],
        8,
    );
    fs(&mut s, atr).leaders = vec![LeaderState {
        leader,
        custody: LeaderCustody::Tanks,
    }];
    let g = build_setup(&s);
    let to = |by| {
        host(Action::SetLeader {
            leader,
            custody: LeaderCustody::Ghola { by },
        })
    };
    assert_rejected(&g, &to(Faction::Harkonnen), "rule/leader_move");
    ok(&g, &to(Faction::Tleilaxu));
    fs(&mut s, atr).leaders = vec![LeaderState {
        leader,
        custody: LeaderCustody::Ghola { by: Faction::Harkonnen },
    }];
    assert_eq!(s.build().unwrap_err().code(), "setup/invalid");
}

#[test]
fn r_duke_2_a_captured_or_ghola_duke_stays_with_his_holder_at_turn_end() {
    for custody in [
        DukeCustody::Captured { by: Faction::Harkonnen },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
    ] {
        let (g, events) = end_phase(&walk_to_phase(&duke_table(custody), Phase::Mentat));
        assert_eq!(g.duke().custody, custody);
        assert!(duke_moves(&events).is_empty());
    }
}

#[test]
fn issue17_leader_custody_a_captive_or_ghola_can_be_captured_again() {
    let leader = Faction::Atreides.leaders()[0];
    let with = |custody: LeaderCustody| {
        let mut s = setup(
            &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Tleilaxu],
            2,
        );
        fs(&mut s, Faction::Atreides).leaders = vec![LeaderState { leader, custody }];
        build_setup(&s)
    };
    let set = |to: LeaderCustody| host(Action::SetLeader { leader, custody: to });
    let by = |f| LeaderCustody::Captured { by: f };
    // Captive of Harkonnen, captured by the Tleilaxu.
    let g = with(by(Faction::Harkonnen));
    ok(&g, &set(by(Faction::Tleilaxu)));
    assert_rejected(&g, &set(by(Faction::Atreides)), "rule/leader_move");
    // A Tleilaxu ghola captured by Harkonnen, never by its own holder.
    let g = with(LeaderCustody::Ghola { by: Faction::Tleilaxu });
    ok(&g, &set(by(Faction::Harkonnen)));
    assert_rejected(&g, &set(by(Faction::Tleilaxu)), "rule/leader_move");
    // A dead leader is not captured.
    let g = with(LeaderCustody::Tanks);
    assert_rejected(&g, &set(by(Faction::Harkonnen)), "rule/leader_move");
}

// ---- D-53: the Nexus deck reshuffle (E3 pp.10–11) ----

fn empty_nexus_deck(seed: u64) -> Game {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], seed);
    s.options.nexus = true;
    s.nexus_deck = Some(Vec::new());
    s.nexus_discard = Faction::ALL.to_vec();
    build_setup(&s)
}

#[test]
fn nexus_e3_p10_an_empty_deck_is_refilled_from_the_shuffled_discard() {
    let g = empty_nexus_deck(12);
    let deal = host(Action::DealNexus {
        faction: Faction::Atreides,
    });
    let (g2, events) = ok(&g, &deal);
    assert!(g2.nexus().discard.is_empty());
    assert_eq!(g2.nexus().deck.len(), 11);
    let dealt = g2.faction(Faction::Atreides).unwrap().nexus.expect("a card was dealt");
    assert!(!g2.nexus().deck.contains(&dealt));
    let reshuffle = events
        .iter()
        .position(|e| e.event == EventKind::NexusReshuffled { cards: 12 })
        .expect("a public reshuffle event");
    assert_eq!(events[reshuffle].audience, Audience::Public);
    let order = events
        .iter()
        .find_map(|e| match &e.event {
            EventKind::NexusDeckOrder { deck } => Some((e.audience.clone(), deck.clone())),
            _ => None,
        })
        .expect("the new order for the host");
    assert_eq!(order.0, Audience::Host);
    assert_eq!(order.1.first(), Some(&dealt));
    assert_eq!(&order.1[1..], g2.nexus().deck.as_slice());
    // Seeded (R-INV-4): same state and command, same bytes.
    assert_eq!(json(&ok(&g, &deal).0), json(&g2));
    // Over several seeds the shuffled order differs (it is really shuffled).
    let tops: std::collections::BTreeSet<Faction> = (1..=12)
        .map(|seed| {
            ok(&empty_nexus_deck(seed), &deal)
                .0
                .faction(Faction::Atreides)
                .unwrap()
                .nexus
                .unwrap()
        })
        .collect();
    assert!(tops.len() > 1, "{tops:?}");
    // A faction already holding a card is still refused, nothing reshuffled.
    let (g3, _) = ok(&g2, &host(Action::DealNexus { faction: Faction::Ecaz }));
    assert_rejected(&g3, &deal, "rule/nexus_deal");
}

// ---- D-54: host reports are facts (P-TLX) ----

#[test]
fn p_tlx_issue17_ordinary_revival_report_is_not_refused_for_the_tleilaxu_elite_limit() {
    let mut s = setup(&[Faction::Ecaz, Faction::Emperor, Faction::Fremen], 3);
    fs(&mut s, Faction::Emperor).tanks = Some(Forces { normal: 0, elite: 3 });
    fs(&mut s, Faction::Emperor).board = Some(Vec::new());
    fs(&mut s, Faction::Fremen).board = Some(vec![stack(Territory::SietchTabr, 14, 10)]);
    let g = build_setup(&s);
    let revive = |elite| {
        host(Action::ReviveFromTanks {
            faction: Faction::Emperor,
            normal: 0,
            elite,
        })
    };
    let (g, _) = ok(&g, &revive(2));
    let (g, _) = ok(&g, &revive(1));
    assert_eq!(g.faction(Faction::Emperor).unwrap().elite_revived, 3);
    assert_round_trip(&g);
    // Conservation is still checked: nothing left in the Tanks.
    assert_rejected(&g, &revive(1), "rule/not_enough_forces");
}

// ---- D-55: R-TRG-7, a token used by a nested reaction ----

#[test]
fn r_trg_7_the_parent_offer_is_withdrawn_when_a_nested_reaction_triggers_its_token() {
    let mut s = setup(&[Faction::Ecaz, Faction::Harkonnen, Faction::BeneGesserit], 14);
    s.ambassadors = Some(AmbassadorsSetup {
        zones: [(Ambassador::Emperor, placed(Territory::Carthag))]
            .into_iter()
            .collect(),
        cohort: vec![
            Ambassador::Emperor,
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Fremen,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: Default::default(),
    });
    let g = build_setup(&s);
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Territory::Carthag, 11, None));
    let parent = g.open_arrivals()[0].id;
    let parent_frame = open_id(&g);
    // BG fighters accompany the shipment: a linked arrival, whose offer nests.
    let (g, _) = ok(&g, &arrive(Faction::BeneGesserit, Territory::Carthag, 11, Some(parent)));
    assert_eq!(g.pending().len(), 2);
    let stale_decline = ecaz(Action::Decline { frame: parent_frame });
    let (g, events) = trigger(&g, Faction::Ecaz);
    let withdrawn: Vec<&EventKind> = kinds(&events)
        .into_iter()
        .filter(|k| matches!(k, EventKind::TriggerOfferWithdrawn { .. }))
        .collect();
    assert_eq!(
        withdrawn,
        vec![&EventKind::TriggerOfferWithdrawn {
            frame: parent_frame,
            arrival: parent,
            token: Ambassador::Emperor,
            territory: Territory::Carthag,
        }]
    );
    assert!(!kinds(&events)
        .iter()
        .any(|k| matches!(k, EventKind::TriggerDeclined { .. })));
    // Both arrivals settled (child first), nothing is left to answer.
    let resumes: Vec<_> = kinds(&events)
        .into_iter()
        .filter_map(|k| match k {
            EventKind::Resume { arrival } => Some(*arrival),
            _ => None,
        })
        .collect();
    assert_eq!(resumes.len(), 2);
    assert_eq!(resumes.last(), Some(&parent));
    assert!(g.pending().is_empty() && g.open_arrivals().is_empty());
    assert_eq!(zone(&g, Ambassador::Emperor), Zone::Used);
    // The withdrawn offer can no longer be answered.
    assert_rejected(&g, &stale_decline, "rule/stale_frame");
    assert!(!matches!(
        g.open_frame().map(|f| &f.decision),
        Some(Decision::TriggerOffer { .. })
    ));
}

// ---- D-56: printed starting positions ----

#[test]
fn issue17_printed_starting_positions_are_the_defaults() {
    let s = Setup::for_seats(
        &[
            Faction::Atreides,
            Faction::Harkonnen,
            Faction::Guild,
            Faction::BeneGesserit,
            Faction::Emperor,
            Faction::Ecaz,
        ],
        1,
    );
    let g = build_setup(&s);
    let board = |f: Faction| g.faction(f).unwrap().board.clone();
    let reserves = |f: Faction| g.faction(f).unwrap().reserves;
    assert_eq!(board(Faction::Atreides), vec![stack(Territory::Arrakeen, 10, 10)]);
    assert_eq!(reserves(Faction::Atreides), Forces { normal: 10, elite: 0 });
    assert_eq!(board(Faction::Harkonnen), vec![stack(Territory::Carthag, 11, 10)]);
    assert_eq!(board(Faction::Guild), vec![stack(Territory::TueksSietch, 5, 5)]);
    assert_eq!(reserves(Faction::Guild), Forces { normal: 15, elite: 0 });
    assert_eq!(board(Faction::BeneGesserit), vec![stack(Territory::PolarSink, 0, 1)]);
    assert_eq!(reserves(Faction::BeneGesserit), Forces { normal: 19, elite: 0 });
    assert!(board(Faction::Emperor).is_empty());
    assert_eq!(reserves(Faction::Emperor), Forces { normal: 15, elite: 5 });
    assert_eq!(board(Faction::Ecaz), vec![stack(Territory::ImperialBasin, 10, 6)]);
    let s = Setup::for_seats(&[Faction::Tleilaxu, Faction::Choam, Faction::Richese, Faction::Ecaz], 1);
    let g = build_setup(&s);
    for f in [Faction::Tleilaxu, Faction::Choam, Faction::Richese] {
        assert!(g.faction(f).unwrap().board.is_empty(), "{f}");
        assert_eq!(g.faction(f).unwrap().reserves.total(), 20, "{f}");
    }
    // Ixians with their HMS placed: 3 Suboids and 3 Cyborgs inside it.
    let mut s = Setup::for_seats(&[Faction::Ixians, Faction::Ecaz], 1);
    s.hms = Some(ecaz::HmsPointer {
        territory: Territory::HaggaBasin,
        sector: 12,
    });
    let g = build_setup(&s);
    let ix = g.faction(Faction::Ixians).unwrap();
    assert_eq!(
        ix.board,
        vec![Stack {
            territory: Territory::HiddenMobileStronghold,
            sector: 0,
            normal: 3,
            elite: 3,
            advisors: 0
        }]
    );
    assert_eq!(ix.total_forces(), 20);
    assert_eq!(printed_start(Faction::Ixians, true, false), Some(ix.board.clone()));
}

#[test]
fn issue17_player_chosen_starting_positions_must_be_given() {
    for (f, hms) in [
        (Faction::Fremen, false),
        (Faction::Moritani, false),
        (Faction::Ixians, false),
    ] {
        let s = Setup::for_seats(&[Faction::Ecaz, f], 2);
        let err = s.build().expect_err("a player-chosen start was defaulted");
        assert_eq!(err.code(), "setup/invalid");
        let path = format!("factions.{f}.board");
        assert!(
            err.problems().iter().any(|p| p.path == path),
            "{f}: {:?}",
            err.problems()
        );
        assert_eq!(printed_start(f, hms, false), None);
        // Said by the setup: accepted as given.
        let mut s = s.clone();
        let given = match f {
            Faction::Fremen => vec![
                stack(Territory::SietchTabr, 14, 6),
                stack(Territory::FalseWallWest, 17, 4),
            ],
            Faction::Moritani => vec![stack(Territory::TheGreatFlat, 15, 6)],
            _ => Vec::new(),
        };
        fs(&mut s, f).board = Some(given.clone());
        let g = build_setup(&s);
        assert_eq!(g.faction(f).unwrap().board, given);
        assert_eq!(g.faction(f).unwrap().total_forces(), 20);
    }
}

#[test]
fn r_trg_7_p_nest_a_sibling_whose_offer_is_withdrawn_resumes_at_once() {
    let mut s = setup(
        &[
            Faction::Ecaz,
            Faction::Harkonnen,
            Faction::BeneGesserit,
            Faction::Atreides,
        ],
        15,
    );
    s.ambassadors = Some(AmbassadorsSetup {
        zones: [(Ambassador::Emperor, placed(Territory::Carthag))]
            .into_iter()
            .collect(),
        cohort: vec![
            Ambassador::Emperor,
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Fremen,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: Default::default(),
    });
    let g = build_setup(&s);
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Territory::Carthag, 11, None));
    let parent = g.open_arrivals()[0].id;
    // Two reactions linked to the same parent: siblings, each offered the token.
    let (g, _) = ok(&g, &arrive(Faction::BeneGesserit, Territory::Carthag, 11, Some(parent)));
    let first = g.open_arrivals()[1].id;
    let (g, _) = ok(&g, &arrive(Faction::Atreides, Territory::Carthag, 11, Some(parent)));
    let second = g.open_arrivals()[2].id;
    assert_eq!(g.pending().len(), 3);
    let (g, events) = trigger(&g, Faction::Ecaz);
    assert_eq!(count_kind(&events, "triggerOfferWithdrawn"), 2);
    let resumes: Vec<_> = kinds(&events)
        .into_iter()
        .filter_map(|k| match k {
            EventKind::Resume { arrival } => Some(*arrival),
            _ => None,
        })
        .collect();
    // The withdrawn sibling resumes at once; then the trigger's own arrival,
    // then their parent (P-NEST).
    assert_eq!(resumes, vec![first, second, parent]);
    assert!(g.pending().is_empty() && g.open_arrivals().is_empty());
    assert_round_trip(&g);
}

fn count_kind(events: &[Event], name: &str) -> usize {
    kind_names(events).iter().filter(|k| k.as_str() == name).count()
}

// ---- rules fidelity, third pass (D-162 … D-169): the findings' reproductions ----

fn setup_doc(doc: serde_json::Value) -> Setup {
    serde_json::from_value(doc).unwrap()
}

fn cmd(doc: serde_json::Value) -> Command {
    serde_json::from_value(doc).unwrap()
}

/// Atreides ships into Carthag and Ecaz triggers the token placed there for
/// `beneficiary`.
fn enter_and_trigger(g: &Game, beneficiary: Faction) -> (Game, Vec<Event>) {
    let (g, _) = ok(
        g,
        &cmd(
            serde_json::json!({"actor": "host", "action": {"kind": "arrive", "entrant": "atreides", "cause": "shipment",
            "from": {"kind": "reserves"}, "territory": "carthag", "sector": 11, "normal": 1}}),
        ),
    );
    ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary,
        }),
    )
}

/// The Guild-token table of finding R2 (Ecaz and the Ixians allied, the
/// Guild token at Carthag), with `ixians` merged into the Ixians' setup.
fn ixian_guild_table(token: &str, ixians: serde_json::Value) -> Setup {
    let mut ix = serde_json::json!({"ally": "ecaz"});
    for (k, v) in ixians.as_object().unwrap() {
        ix[k] = v.clone();
    }
    let other = if token == "guild" { "tleilaxu" } else { "guild" };
    setup_doc(serde_json::json!({
        "seats": ["ecaz", "ixians", "atreides"], "seed": 46, "phase": "shipmentMovement", "storm": 3,
        "hms": {"territory": "imperial_basin", "sector": 9},
        "factions": {"ecaz": {"ally": "ixians"}, "ixians": ix},
        "ambassadors": {"cohort": ["fremen", "guild", "tleilaxu", "atreides", "choam"],
            "zones": {token: {"kind": "placed", "territory": "carthag"}, other: {"kind": "placed", "territory": "arrakeen"}}}
    }))
}

/// Atreides ships into Carthag and Ecaz triggers the token there for the Ixians.
fn ixians_benefit(s: &Setup) -> Game {
    enter_and_trigger(&build_setup(s), Faction::Ixians).0
}

/// D-163 (findings R1, R2; board.md): the Ixians have 13 Suboids and 7
/// Cyborgs — reserves 10 + 4 with 3 + 3 in the HMS — and a Guild-token
/// beneficiary ships the 4 Cyborgs it really has. Refusals: a fifth force,
/// more Cyborgs than the reserves hold; a setup whose elite count is not 7.
#[test]
fn setup_r_eff_gld_d_163_ixians_13_suboids_and_7_cyborgs() {
    let s = setup_doc(serde_json::json!({"seats": ["ecaz", "ixians", "atreides"], "seed": 7,
        "hms": {"territory": "imperial_basin", "sector": 9}}));
    let g = build_setup(&s);
    let ix = g.faction(Faction::Ixians).unwrap();
    assert_eq!(ix.reserves, Forces { normal: 10, elite: 4 });
    let hms: Vec<(Territory, u32, u32)> = ix.board.iter().map(|x| (x.territory, x.normal, x.elite)).collect();
    assert_eq!(hms, [(Territory::HiddenMobileStronghold, 3, 3)]);
    assert_eq!(ecaz::elite_total(Faction::Ixians), 7);
    // R2: four Cyborgs shipped by the Guild effect.
    let g = ixians_benefit(&ixian_guild_table("guild", serde_json::json!({})));
    let ship = |normal: u32, elite: u32| {
        cmd(
            serde_json::json!({"actor": "ixians", "action": {"kind": "ship", "frame": open_id(&g).0,
            "territory": "sietch_tabr", "sector": 14, "normal": normal, "elite": elite}}),
        )
    };
    assert_rejected(&g, &ship(1, 4), "rule/too_many_forces");
    let mut fewer = ixian_guild_table(
        "guild",
        serde_json::json!({"reserves": {"normal": 10, "elite": 3}, "tanks": {"normal": 0, "elite": 1}}),
    );
    fewer.seed = Some(46);
    let g2 = ixians_benefit(&fewer);
    let ship2 = cmd(
        serde_json::json!({"actor": "ixians", "action": {"kind": "ship", "frame": open_id(&g2).0,
        "territory": "sietch_tabr", "sector": 14, "normal": 0, "elite": 4}}),
    );
    assert_rejected(&g2, &ship2, "rule/not_enough_forces");
    let (after, _) = ok(&g, &ship(0, 4));
    let ix = after.faction(Faction::Ixians).unwrap();
    assert_eq!(ix.reserves, Forces { normal: 10, elite: 0 });
    assert!(ix
        .board
        .iter()
        .any(|x| x.territory == Territory::SietchTabr && x.elite == 4));
    // The elite forces are conserved components: 16 + 4 no longer sets up.
    let old = setup_doc(serde_json::json!({"seats": ["ecaz", "ixians", "atreides"], "seed": 7,
        "hms": {"territory": "imperial_basin", "sector": 9},
        "factions": {"ixians": {"reserves": {"normal": 13, "elite": 1}}}}));
    let err = old.build().unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
    assert!(
        err.problems().iter().any(|p| p.path == "factions.ixians.forces"),
        "{:?}",
        err.problems()
    );
}

/// D-165 (finding R5; P-TLX as printed): the one-elite-a-turn limit is the
/// Advanced game's, for Sardaukar and Fedaykin only. Two Cyborgs revived by
/// the Tleilaxu effect are accepted; an Advanced Emperor asking for two
/// Sardaukar is refused with a message that says how many are left; in the
/// Basic game two Sardaukar are accepted.
#[test]
fn p_tlx_d_165_elite_revival_limit_is_advanced_sardaukar_and_fedaykin_only() {
    let ix = serde_json::json!({"reserves": {"normal": 10, "elite": 1}, "tanks": {"normal": 0, "elite": 3}});
    let g = ixians_benefit(&ixian_guild_table("tleilaxu", ix.clone()));
    let revive = |g: &Game, f: &str, elite: u32| {
        cmd(
            serde_json::json!({"actor": f, "action": {"kind": "reviveForces", "frame": open_id(g).0, "normal": 0, "elite": elite}}),
        )
    };
    let (after, _) = ok(&g, &revive(&g, "ixians", 2));
    assert_eq!(
        after.faction(Faction::Ixians).unwrap().tanks,
        Forces { normal: 0, elite: 1 }
    );
    // Advanced too: Cyborgs are exempt.
    let mut adv = ixian_guild_table("tleilaxu", ix);
    adv.options.advanced = true;
    let g = ixians_benefit(&adv);
    ok(&g, &revive(&g, "ixians", 3));
    // The Emperor: limited in the Advanced game only.
    for advanced in [true, false] {
        let mut s = setup_doc(serde_json::json!({
            "seats": ["ecaz", "emperor", "atreides"], "seed": 46, "phase": "shipmentMovement",
            "factions": {"ecaz": {"ally": "emperor"},
                "emperor": {"ally": "ecaz", "reserves": {"normal": 15, "elite": 2}, "tanks": {"normal": 0, "elite": 3}}},
            "ambassadors": {"cohort": ["fremen", "guild", "tleilaxu", "atreides", "choam"],
                "zones": {"tleilaxu": {"kind": "placed", "territory": "carthag"}}}
        }));
        s.options.advanced = advanced;
        let g = build_setup(&s);
        let (g, _) = enter_and_trigger(&g, Faction::Emperor);
        if advanced {
            let err = assert_rejected(&g, &revive(&g, "emperor", 2), "rule/elite_revival_used");
            assert_eq!(err.rule(), Some("P-TLX"));
            assert!(err.to_string().contains("may revive 1 more"), "{err}");
            ok(&g, &revive(&g, "emperor", 1));
        } else {
            ok(&g, &revive(&g, "emperor", 3));
        }
    }
}

/// D-167 (finding R4): CHOAM's Auditor has a Traitor card when it is in
/// play: dealt by `setTraitors`, given in a setup, seen by the Harkonnen
/// effect, counted by Secret Ally. Without the Auditor in play it is still
/// refused; the Kwisatz Haderach never has one.
#[test]
fn r_eff_har_d_167_the_choam_auditor_traitor_card() {
    let with_auditor = |traitors: serde_json::Value| {
        setup_doc(serde_json::json!({"seats": ["ecaz", "choam", "atreides"], "seed": 3,
            "factions": {"choam": {"extraLeaders": ["choam_auditor"]}, "atreides": {"traitors": traitors}}}))
    };
    let g = build_setup(&with_auditor(serde_json::json!([])));
    let deal = |l: &str| {
        cmd(
            serde_json::json!({"actor": "host", "action": {"kind": "setTraitors", "faction": "atreides", "traitors": [l]}}),
        )
    };
    let (after, _) = ok(&g, &deal("choam_auditor"));
    assert_eq!(
        after.faction(Faction::Atreides).unwrap().traitors,
        [ecaz::Leader::ChoamAuditor]
    );
    assert_round_trip(&after);
    // Given in the setup: accepted.
    build_setup(&with_auditor(serde_json::json!(["choam_auditor"])));
    // Not in play: refused as a report and in a setup.
    let plain = setup_doc(serde_json::json!({"seats": ["ecaz", "choam", "atreides"], "seed": 3}));
    let g0 = build_setup(&plain);
    assert_rejected(&g0, &deal("choam_auditor"), "rule/traitor_unavailable");
    let mut given = plain.clone();
    given.factions.entry(Faction::Atreides).or_default().traitors =
        vec![TraitorCard::Leader(ecaz::Leader::ChoamAuditor)];
    assert_eq!(given.build().unwrap_err().code(), "setup/invalid");
    // The Kwisatz Haderach has no Traitor card, even in play.
    let kh = setup_doc(serde_json::json!({"seats": ["ecaz", "choam", "atreides"], "seed": 3,
        "factions": {"atreides": {"extraLeaders": ["kwisatz_haderach"]}}}));
    let gk = build_setup(&kh);
    let deal_kh = cmd(
        serde_json::json!({"actor": "host", "action": {"kind": "setTraitors", "faction": "choam", "traitors": ["kwisatz_haderach"]}}),
    );
    assert_rejected(&gk, &deal_kh, "rule/traitor_unavailable");
    // The Harkonnen effect sees it: Atreides holds only the Auditor and enters.
    let mut s = with_auditor(serde_json::json!(["choam_auditor"]));
    harkonnen_token_in_carthag(&mut s);
    let g = build_setup(&s);
    let (_, events) = enter_and_trigger(&g, Faction::Ecaz);
    assert!(events.iter().any(|e| matches!(
        e.event,
        EventKind::TraitorSeen {
            leader: TraitorCard::Leader(ecaz::Leader::ChoamAuditor),
            ..
        }
    )));
}

/// D-169 (finding R8; D-56's principle): in the Advanced game the Bene
/// Gesserit's first force is placed where the player chooses, so the setup
/// must give it; the Basic game keeps the printed Polar Sink fighter.
#[test]
fn setup_d_169_advanced_bene_gesserit_first_force_is_given_by_the_setup() {
    let seats = serde_json::json!(["choam", "emperor", "beneGesserit", "tleilaxu", "richese", "guild"]);
    let adv = setup_doc(serde_json::json!({"seats": seats, "seed": 7, "options": {"advanced": true}}));
    let err = adv.build().unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
    assert!(
        err.problems().iter().any(|p| p.path == "factions.beneGesserit.board"),
        "{:?}",
        err.problems()
    );
    assert_eq!(printed_start(Faction::BeneGesserit, false, true), None);
    // Given: an advisor with the Guild in Tuek's Sietch.
    let mut given = adv.clone();
    given.factions.entry(Faction::BeneGesserit).or_default().board = Some(vec![Stack {
        territory: Territory::TueksSietch,
        sector: 5,
        normal: 0,
        elite: 0,
        advisors: 1,
    }]);
    let g = build_setup(&given);
    let bg = g.faction(Faction::BeneGesserit).unwrap();
    assert_eq!(bg.board[0].advisors, 1);
    assert_eq!(bg.reserves, Forces { normal: 19, elite: 0 });
    // R8 also: CHOAM's hand limit is 5 (D-162).
    assert_eq!(g.faction(Faction::Choam).unwrap().hand_limit, 5);
    // Basic: the printed fighter in the Polar Sink.
    let basic = setup_doc(serde_json::json!({"seats": seats, "seed": 7}));
    let g = build_setup(&basic);
    assert_eq!(
        g.faction(Faction::BeneGesserit).unwrap().board,
        vec![stack(Territory::PolarSink, 0, 1)]
    );
}

/// D-162 (finding R9): CHOAM's hand limit is 5, so CHOAM holding 4 cards as
/// the Richese beneficiary is offered the purchase; holding 5 it is not.
#[test]
fn r_eff_ric_d_162_choam_hand_limit_is_five() {
    let table = |hand: serde_json::Value| {
        setup_doc(
            serde_json::json!({"seats": ["ecaz", "choam", "atreides"], "seed": 3, "phase": "shipmentMovement",
            "factions": {"ecaz": {"ally": "choam"}, "choam": {"ally": "ecaz", "hand": hand, "spice": 10}},
            "ambassadors": {"cohort": ["richese", "guild", "fremen", "emperor", "atreides"],
                "zones": {"richese": {"kind": "placed", "territory": "carthag"}}}}),
        )
    };
    let run = |hand| enter_and_trigger(&build_setup(&table(hand)), Faction::Choam).0;
    let g = run(serde_json::json!([0, 1, 2, 3]));
    assert!(
        matches!(g.open_frame().map(|f| &f.decision), Some(Decision::RicheseBuy { .. })),
        "{:?}",
        g.pending()
    );
    let g = run(serde_json::json!([0, 1, 2, 3, 4]));
    assert!(
        g.open_frame().is_none(),
        "a full hand is offered nothing: {:?}",
        g.pending()
    );
}

/// D-170 (seed `003`): the Cheap Hero/Heroine Traitor card is not a leader
/// of any faction, so it is no `Leader` value: a Traitor report names it as
/// its own card, `cheap_hero` (one card for both printed names; the rules
/// around it are in `tests/cheap_hero.rs`).
#[test]
fn r_nex_sec_d_170_the_cheap_hero_traitor_is_no_faction_leader() {
    let text = |id: &str| {
        format!(r#"{{"actor":"host","action":{{"kind":"setTraitors","faction":"atreides","traitors":["{id}"]}}}}"#)
    };
    let decoded = ecaz::command_from_json(&text("cheap_hero")).unwrap();
    assert!(matches!(
        decoded.action,
        Action::SetTraitors { ref traitors, .. } if traitors == &[TraitorCard::CheapHero]
    ));
    let err = ecaz::command_from_json(&text("cheap_heroine")).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_command");
    for id in ["cheap_hero", "cheap_heroine"] {
        assert!(ecaz::Leader::ALL
            .iter()
            .chain(ecaz::Leader::EXTRA.iter())
            .all(|l| l.id() != id));
    }
}
