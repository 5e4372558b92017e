//! The Ecaz Nexus card: RULES §7 (Nexus basics, the three modes),
//! R-NEX-CUN / P-NEX-CUN-TIME, R-NEX-BET / P-NEX-BET-TIME, R-NEX-SEC /
//! P-NEX-SEC-SCOPE / P-NEX-SEC-AUDIENCE / P-NEX-SEC-FD, and the seed audit
//! `003_208d6715620a9c78` (Secret Ally and Betrayal intent). Every rejection
//! goes through `assert_rejected` (code + the state byte-identical +
//! `validate` agreeing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    command_from_json, game_from_json, setup_from_json, Action, Actor, Ambassador, AmbassadorsSetup, Audience, CardId,
    Cause, Command, Decision, DukeCustody, DukeReason, DukeSource, Event, EventKind, Faction, FactionSetup, Forces,
    Game, Insight, Knowledge, Leader, LeaderCustody, LeaderState, NexusMode, Origin, Phase, SecretAllyAudience,
    SecretAllyFaceDancers, SecretAllyScope, Setup, Stack, Territory, Viewer, Zone,
};

// ---- helpers ----

/// A setup with the Nexus module on.
fn nexus_table(seats: &[Faction], phase: Phase) -> Setup {
    let mut s = setup(seats, 21);
    s.options.nexus = true;
    s.phase = Some(phase);
    s
}

fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

fn hold(mut s: Setup, f: Faction, card: Faction) -> Setup {
    fs(&mut s, f).nexus = Some(card);
    s
}

fn allied(mut s: Setup, a: Faction, b: Faction) -> Setup {
    fs(&mut s, a).ally = Some(b);
    fs(&mut s, b).ally = Some(a);
    s
}

fn play(f: Faction, action: Action) -> Command {
    Command::faction(f, action)
}

fn cunning() -> Command {
    ecaz(Action::PlayCunning {})
}

fn betrayal(f: Faction, territory: Territory) -> Command {
    play(f, Action::PlayBetrayal { territory })
}

fn secret_ally(f: Faction, target: Faction) -> Command {
    play(f, Action::PlaySecretAlly { target })
}

fn deal(f: Faction) -> Command {
    host(Action::DealNexus { faction: f })
}

fn discard(f: Faction) -> Command {
    host(Action::DiscardNexus { faction: f })
}

fn held(g: &Game, f: Faction) -> Option<Faction> {
    g.faction(f).expect("seated").nexus
}

/// The 12 Nexus cards are each in exactly one place: deck, discard or a hand.
fn assert_nexus_census(g: &Game) {
    let mut all: Vec<Faction> = g.nexus().deck.clone();
    all.extend(g.nexus().discard.iter().copied());
    all.extend(g.seats().iter().filter_map(|&f| held(g, f)));
    all.sort();
    let mut every = Faction::ALL.to_vec();
    every.sort();
    assert_eq!(all, every, "the 12 Nexus cards are conserved");
}

/// Every seat, a spectator and the host.
fn viewers(g: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = g.seats().iter().map(|&f| Viewer::Faction(f)).collect();
    v.push(Viewer::Spectator);
    v.push(Viewer::Host);
    v
}

/// Every seat and a spectator (not the host, who sees everything).
fn players_and_spectator(g: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = g.seats().iter().map(|&f| Viewer::Faction(f)).collect();
    v.push(Viewer::Spectator);
    v
}

/// A state edit (a host importing a game); the edited state must load.
fn edited(g: &Game, edit: impl FnOnce(&mut serde_json::Value)) -> Game {
    let mut v = json_value(g);
    edit(&mut v);
    match game_from_json(&v.to_string()) {
        Ok(g) => g,
        Err(e) => panic!("edited state rejected: {} {:?}", e.code(), e.problems()),
    }
}

fn faction_index(g: &Game, f: Faction) -> usize {
    g.seats().iter().position(|&s| s == f).expect("seated")
}

fn plays_of(g: &Game, f: Faction) -> Vec<Command> {
    options(g, Actor::Faction(f)).commands
}

fn stack(territory: Territory, sector: u8, normal: u32, elite: u32, advisors: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal,
        elite,
        advisors,
    }
}

fn stacks_in(g: &Game, f: Faction, t: Territory) -> Vec<Stack> {
    g.faction(f)
        .expect("seated")
        .board
        .iter()
        .filter(|s| s.territory == t)
        .copied()
        .collect()
}

fn arrive(entrant: Faction, cause: Cause, territory: Territory, sector: u8) -> Command {
    host(Action::Arrive {
        entrant,
        cause,
        from: Origin::Reserves,
        territory,
        sector,
        normal: 1,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

// ======================================================================
// 1. Nexus holding (RULES §7 basics)
// ======================================================================

#[test]
fn rules_7_deal_refused_when_the_module_is_off() {
    let mut s = nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm);
    s.options.nexus = false;
    let g = build_setup(&s);
    let e = assert_rejected(&g, &deal(Faction::Atreides), "rule/nexus_off");
    assert_eq!(e.rule(), Some("RULES §7"));
    // Plays are refused too (nobody can hold a card without the module).
    s.phase = Some(Phase::Battle);
    let g = build_setup(&s);
    assert_rejected(&g, &cunning(), "rule/nexus_off");
    assert!(plays_of(&g, Faction::Ecaz).is_empty());
    // A Nexus card in a setup without the module is refused.
    let e = hold(s, Faction::Ecaz, Faction::Ecaz).build().expect_err("module off");
    assert_eq!(e.code(), "setup/invalid");
}

#[test]
fn rules_7_deal_refused_to_an_allied_player() {
    let s = allied(
        nexus_table(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], Phase::Storm),
        Faction::Ecaz,
        Faction::Atreides,
    );
    let g = build_setup(&s);
    let e = assert_rejected(&g, &deal(Faction::Atreides), "rule/allied_nexus");
    assert_eq!(e.rule(), Some("RULES §7"));
    assert_rejected(&g, &deal(Faction::Ecaz), "rule/allied_nexus");
    // The unallied third player may be dealt a card.
    let (g, _) = ok(&g, &deal(Faction::Harkonnen));
    assert!(held(&g, Faction::Harkonnen).is_some());
    assert_nexus_census(&g);
}

#[test]
fn rules_7_an_allied_holder_is_refused_at_setup() {
    let s = hold(
        allied(
            nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm),
            Faction::Ecaz,
            Faction::Atreides,
        ),
        Faction::Atreides,
        Faction::Ecaz,
    );
    let e = s.build().expect_err("allied players hold no Nexus card");
    assert_eq!(e.code(), "setup/invalid");
    assert!(e.problems().iter().any(|p| p.path == "factions.atreides.nexus"));
}

#[test]
fn rules_7_deal_refused_to_a_player_already_holding_one() {
    let s = hold(
        nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm),
        Faction::Atreides,
        Faction::Fremen,
    );
    let g = build_setup(&s);
    let e = assert_rejected(&g, &deal(Faction::Atreides), "rule/nexus_deal");
    assert!(e.to_string().contains("already holds"), "{e}");
}

#[test]
fn rules_7_deal_from_an_empty_deck_reshuffles_the_discard() {
    // D-53 (E3 pp.10–11): accepted; tests/fidelity.rs has the detail.
    let mut s = nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm);
    s.nexus_deck = Some(Vec::new());
    s.nexus_discard = Faction::ALL.to_vec();
    let g = build_setup(&s);
    let (g, events) = ok(&g, &deal(Faction::Atreides));
    assert!(kind_names(&events).contains(&"nexusReshuffled".to_string()));
    assert!(g.nexus().discard.is_empty());
    assert_eq!(g.nexus().deck.len(), 11);
    assert_nexus_census(&g);
}

#[test]
fn rules_7_deal_and_discard_are_host_reports() {
    let g = build_setup(&nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm));
    for f in [Faction::Ecaz, Faction::Atreides] {
        assert_rejected(&g, &play(f, Action::DealNexus { faction: f }), "rule/wrong_actor");
        assert_rejected(&g, &play(f, Action::DiscardNexus { faction: f }), "rule/wrong_actor");
    }
    assert_rejected(&g, &deal(Faction::Fremen), "rule/not_seated");
    assert_rejected(&g, &discard(Faction::Fremen), "rule/not_seated");
}

#[test]
fn rules_7_dealt_identity_goes_to_the_receiver_only() {
    let mut s = nexus_table(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], Phase::Storm);
    let mut deck = vec![Faction::Ecaz];
    deck.extend(Faction::ALL.into_iter().filter(|&f| f != Faction::Ecaz));
    s.nexus_deck = Some(deck);
    let g = build_setup(&s);
    assert_nexus_census(&g);
    let (g, events) = ok(&g, &deal(Faction::Atreides));
    assert_eq!(held(&g, Faction::Atreides), Some(Faction::Ecaz));
    assert_eq!(g.nexus().deck.len(), 11);
    assert_nexus_census(&g);
    assert_eq!(
        events,
        vec![
            Event::public(EventKind::NexusDealt {
                faction: Faction::Atreides
            }),
            Event::only(
                vec![Faction::Atreides],
                EventKind::NexusReceived {
                    faction: Faction::Atreides,
                    card: Faction::Ecaz
                }
            ),
        ]
    );
    for v in viewers(&g) {
        let sees_card = matches!(v, Viewer::Host | Viewer::Faction(Faction::Atreides));
        assert!(events[0].visible_to(v), "{v}: nexusDealt is public");
        assert_eq!(events[1].visible_to(v), sees_card, "{v}: nexusReceived");
        let seen = view(&g, v);
        let atr = seen.factions.iter().find(|f| f.faction == Faction::Atreides).unwrap();
        assert!(atr.holds_nexus, "{v} sees that Atreides holds a card");
        assert_eq!(atr.nexus, sees_card.then_some(Faction::Ecaz), "{v}: the identity");
        assert_eq!(seen.nexus.deck_count, 11);
        // The identity appears nowhere else in the view.
        if !sees_card {
            let text = serde_json::to_string(&seen).unwrap();
            assert!(!text.contains("\"nexus\":\"ecaz\""), "{v} sees the identity: {text}");
        }
    }
    // The holder is offered nothing in the Storm phase (Betrayal's window is
    // Shipment & Movement); the others are never offered a play.
    assert!(plays_of(&g, Faction::Atreides).is_empty());
    assert_round_trip(&g);
}

#[test]
fn rules_7_deal_is_refused_while_a_decision_is_open() {
    let s = nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Revival);
    let (g, _) = walk_to_revival_end(&build_setup(&s));
    assert!(placement_open(&g));
    assert_rejected(&g, &deal(Faction::Atreides), "rule/decision_pending");
    assert_rejected(&g, &discard(Faction::Atreides), "rule/decision_pending");
}

#[test]
fn rules_7_discard_nexus_is_public_and_conserves_the_cards() {
    let s = hold(
        nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Storm),
        Faction::Atreides,
        Faction::Ecaz,
    );
    let g = build_setup(&s);
    assert_nexus_census(&g);
    let (g, events) = ok(&g, &discard(Faction::Atreides));
    assert_eq!(
        events,
        vec![Event::public(EventKind::NexusDiscarded {
            faction: Faction::Atreides,
            card: Faction::Ecaz
        })]
    );
    assert_eq!(held(&g, Faction::Atreides), None);
    assert_eq!(g.nexus().discard, vec![Faction::Ecaz]);
    assert_nexus_census(&g);
    for v in viewers(&g) {
        assert_eq!(
            view(&g, v).nexus.discard,
            vec![Faction::Ecaz],
            "{v}: discards are public"
        );
    }
    // Nothing left to discard; and a discarded card cannot be played.
    assert_rejected(&g, &discard(Faction::Atreides), "rule/nexus_deal");
    let g = edited(&g, |v| v["phase"] = "shipmentMovement".into());
    assert_rejected(
        &g,
        &betrayal(Faction::Atreides, Territory::ImperialBasin),
        "rule/nexus_not_held",
    );
    // A new card can be dealt after the discard.
    let (g, _) = ok(&g, &deal(Faction::Atreides));
    assert!(held(&g, Faction::Atreides).is_some());
    assert_nexus_census(&g);
}

/// Joining an alliance through the Ecaz Ambassador (R-EFF-ECAZ (b))
/// discards both partners' held cards; Ecaz can no longer play Cunning.
#[test]
fn rules_7_joining_an_alliance_discards_held_nexus_cards() {
    let mut s = nexus_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen],
        Phase::ShipmentMovement,
    );
    let mut zones = BTreeMap::new();
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        zones,
        ..AmbassadorsSetup::default()
    });
    let s = hold(
        hold(s, Faction::Ecaz, Faction::Ecaz),
        Faction::Harkonnen,
        Faction::Moritani,
    );
    let s = hold(s, Faction::Atreides, Faction::Guild);
    let g = build_setup(&s);
    let (g, _) = ok(
        &g,
        &arrive(Faction::Harkonnen, Cause::Shipment, Territory::Arrakeen, 10),
    );
    let (g, _) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    let g = if matches!(g.open_frame().unwrap().decision, Decision::EcazBranch { .. }) {
        ok(
            &g,
            &ecaz(Action::ChooseBranch {
                frame: open_id(&g),
                branch: ecaz::EcazBranch::Alliance,
            }),
        )
        .0
    } else {
        g
    };
    let (g, events) = ok(
        &g,
        &play(
            Faction::Harkonnen,
            Action::AnswerAlliance {
                frame: open_id(&g),
                accept: true,
            },
        ),
    );
    let discarded: Vec<(Faction, Faction)> = events
        .iter()
        .filter_map(|e| match e.event {
            EventKind::NexusDiscarded { faction, card } => {
                assert_eq!(e.audience, Audience::Public);
                Some((faction, card))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        discarded,
        vec![(Faction::Ecaz, Faction::Ecaz), (Faction::Harkonnen, Faction::Moritani)]
    );
    assert_eq!(held(&g, Faction::Ecaz), None);
    assert_eq!(held(&g, Faction::Harkonnen), None);
    assert_eq!(
        held(&g, Faction::Atreides),
        Some(Faction::Guild),
        "a third party keeps its card"
    );
    assert_nexus_census(&g);
    // Settle the loan frame, go to the Battle phase: no Cunning, no new card.
    let (g, _) = ok(
        &g,
        &ecaz(Action::LendDuke {
            frame: open_id(&g),
            lend: false,
        }),
    );
    let g = walk_to_phase(&g, Phase::Battle);
    assert_rejected(&g, &cunning(), "rule/nexus_not_held");
    assert_rejected(&g, &deal(Faction::Ecaz), "rule/allied_nexus");
    assert_rejected(&g, &deal(Faction::Harkonnen), "rule/allied_nexus");
    assert_round_trip(&g);
}

#[test]
fn rules_7_nexus_cards_are_conserved_through_deals_plays_and_discards() {
    let mut s = nexus_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Fremen],
        Phase::Storm,
    );
    // Deck: Ecaz first, then the rest in a fixed order.
    let mut deck = vec![Faction::Ecaz];
    deck.extend(Faction::ALL.into_iter().filter(|&f| f != Faction::Ecaz));
    s.nexus_deck = Some(deck);
    let mut g = build_setup(&s);
    assert_nexus_census(&g);
    for cmd in [
        deal(Faction::Ecaz),
        deal(Faction::Atreides),
        deal(Faction::Harkonnen),
        discard(Faction::Atreides),
        deal(Faction::Atreides),
        deal(Faction::Fremen),
    ] {
        g = ok(&g, &cmd).0;
        assert_nexus_census(&g);
        assert_round_trip(&g);
    }
    assert_eq!(held(&g, Faction::Ecaz), Some(Faction::Ecaz));
    let g = walk_to_phase(&g, Phase::Battle);
    let (g, _) = ok(&g, &cunning());
    assert_nexus_census(&g);
    assert_eq!(g.nexus().discard.last(), Some(&Faction::Ecaz));
    // Deal and discard every remaining card: still 12.
    let mut g = g;
    for _ in 0..20 {
        if g.nexus().deck.is_empty() {
            break;
        }
        if held(&g, Faction::Ecaz).is_some() {
            g = ok(&g, &discard(Faction::Ecaz)).0;
        }
        g = ok(&g, &deal(Faction::Ecaz)).0;
        assert_nexus_census(&g);
    }
    assert!(g.nexus().deck.is_empty());
    assert_rejected(&g, &deal(Faction::Ecaz), "rule/nexus_deal");
    assert_nexus_census(&g);
}

// ======================================================================
// 2. The mode follows the holder and the seating (RULES §7)
// ======================================================================

/// Ecaz, Emperor (Ecaz's ally), Harkonnen, Atreides; both Ecaz and the
/// Emperor have forces in Imperial Basin; the Emperor also holds Arrakeen.
fn betrayal_table(phase: Phase) -> Setup {
    let mut s = allied(
        nexus_table(
            &[Faction::Ecaz, Faction::Emperor, Faction::Harkonnen, Faction::Atreides],
            phase,
        ),
        Faction::Ecaz,
        Faction::Emperor,
    );
    fs(&mut s, Faction::Emperor).board = Some(vec![
        stack(Territory::ImperialBasin, 9, 2, 1, 0),
        stack(Territory::ImperialBasin, 11, 1, 2, 0),
        stack(Territory::Arrakeen, 10, 3, 0, 0),
    ]);
    s
}

#[test]
fn rules_7_mode_ecaz_holds_only_cunning() {
    for phase in [Phase::Battle, Phase::ShipmentMovement] {
        let s = hold(
            allied(
                nexus_table(&[Faction::Ecaz, Faction::Emperor, Faction::Harkonnen], phase),
                Faction::Emperor,
                Faction::Harkonnen,
            ),
            Faction::Ecaz,
            Faction::Ecaz,
        );
        let g = build_setup(&s);
        let e = assert_rejected(
            &g,
            &betrayal(Faction::Ecaz, Territory::ImperialBasin),
            "rule/wrong_nexus_mode",
        );
        assert!(e.to_string().contains("Cunning"), "{e}");
        assert_eq!(e.rule(), Some("RULES §7"));
        assert_rejected(
            &g,
            &secret_ally(Faction::Ecaz, Faction::Emperor),
            "rule/wrong_nexus_mode",
        );
        assert_rejected(&g, &secret_ally(Faction::Ecaz, Faction::Ecaz), "rule/wrong_nexus_mode");
        let expected: Vec<Command> = if phase == Phase::Battle {
            vec![cunning()]
        } else {
            vec![]
        };
        assert_eq!(plays_of(&g, Faction::Ecaz), expected, "{phase}");
    }
}

#[test]
fn rules_7_mode_another_holder_with_ecaz_seated_only_betrayal() {
    for phase in [Phase::Battle, Phase::ShipmentMovement] {
        let g = build_setup(&hold(betrayal_table(phase), Faction::Harkonnen, Faction::Ecaz));
        let e = assert_rejected(
            &g,
            &play(Faction::Harkonnen, Action::PlayCunning {}),
            "rule/wrong_nexus_mode",
        );
        assert!(e.to_string().contains("Betrayal"), "{e}");
        assert_rejected(
            &g,
            &secret_ally(Faction::Harkonnen, Faction::Atreides),
            "rule/wrong_nexus_mode",
        );
        // Ecaz, not holding it, cannot play Cunning.
        assert_rejected(&g, &cunning(), "rule/nexus_not_held");
    }
    let g = build_setup(&hold(
        betrayal_table(Phase::ShipmentMovement),
        Faction::Harkonnen,
        Faction::Ecaz,
    ));
    assert_eq!(
        plays_of(&g, Faction::Harkonnen),
        vec![betrayal(Faction::Harkonnen, Territory::ImperialBasin)]
    );
}

#[test]
fn rules_7_mode_ecaz_not_seated_only_secret_ally() {
    for phase in [Phase::Battle, Phase::ShipmentMovement] {
        let g = build_setup(&hold(
            nexus_table(&[Faction::Atreides, Faction::Harkonnen], phase),
            Faction::Atreides,
            Faction::Ecaz,
        ));
        let e = assert_rejected(
            &g,
            &play(Faction::Atreides, Action::PlayCunning {}),
            "rule/wrong_nexus_mode",
        );
        assert!(e.to_string().contains("Secret Ally"), "{e}");
        assert_rejected(
            &g,
            &betrayal(Faction::Atreides, Territory::ImperialBasin),
            "rule/wrong_nexus_mode",
        );
        assert_eq!(
            plays_of(&g, Faction::Atreides),
            vec![
                secret_ally(Faction::Atreides, Faction::Atreides),
                secret_ally(Faction::Atreides, Faction::Harkonnen)
            ]
        );
    }
}

#[test]
fn rules_7_non_holders_are_refused_and_offered_nothing() {
    // Harkonnen holds another Nexus card (its own); Atreides holds none.
    let s = hold(
        hold(
            betrayal_table(Phase::ShipmentMovement),
            Faction::Harkonnen,
            Faction::Harkonnen,
        ),
        Faction::Atreides,
        Faction::Ecaz,
    );
    let g = build_setup(&s);
    let e = assert_rejected(
        &g,
        &betrayal(Faction::Harkonnen, Territory::ImperialBasin),
        "rule/nexus_not_held",
    );
    assert_eq!(e.rule(), Some("RULES §7"));
    assert_rejected(&g, &cunning(), "rule/nexus_not_held");
    assert!(plays_of(&g, Faction::Harkonnen).is_empty());
    assert!(plays_of(&g, Faction::Ecaz).is_empty());
    assert!(plays_of(&g, Faction::Emperor).is_empty());
    assert_eq!(plays_of(&g, Faction::Atreides).len(), 1);
    // An unseated faction cannot play at all.
    assert_rejected(&g, &secret_ally(Faction::Fremen, Faction::Ecaz), "rule/not_seated");

    let g = build_setup(&hold(
        nexus_table(&[Faction::Atreides, Faction::Harkonnen], Phase::Storm),
        Faction::Atreides,
        Faction::Ecaz,
    ));
    assert_rejected(
        &g,
        &secret_ally(Faction::Harkonnen, Faction::Atreides),
        "rule/nexus_not_held",
    );
    assert!(plays_of(&g, Faction::Harkonnen).is_empty());
}

#[test]
fn rules_7_the_host_cannot_send_a_play() {
    let g = build_setup(&hold(
        nexus_table(&[Faction::Ecaz, Faction::Atreides], Phase::Battle),
        Faction::Ecaz,
        Faction::Ecaz,
    ));
    let e = assert_rejected(&g, &host(Action::PlayCunning {}), "rule/wrong_actor");
    assert!(e.to_string().contains("host"), "{e}");
    assert_rejected(
        &g,
        &host(Action::PlayBetrayal {
            territory: Territory::ImperialBasin,
        }),
        "rule/wrong_actor",
    );
    assert_rejected(
        &g,
        &host(Action::PlaySecretAlly {
            target: Faction::Atreides,
        }),
        "rule/wrong_actor",
    );
    // The host is never offered a play.
    assert_eq!(
        options(&g, Actor::Host).commands,
        vec![host(Action::EndPhase { phase: Phase::Battle })]
    );
}

#[test]
fn rules_7_no_play_while_a_decision_is_open() {
    // Battle phase, the Ecaz token in Arrakeen: a (non-shipment) arrival opens
    // a trigger offer; Cunning waits until it is settled.
    let mut s = hold(
        nexus_table(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], Phase::Battle),
        Faction::Ecaz,
        Faction::Ecaz,
    );
    let mut zones = BTreeMap::new();
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        zones,
        ..AmbassadorsSetup::default()
    });
    let g = build_setup(&s);
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Cause::Other, Territory::Arrakeen, 10));
    let frame = open_id(&g);
    let e = assert_rejected(&g, &cunning(), "rule/decision_pending");
    assert!(e.to_string().contains(&frame.to_string()), "{e}");
    assert!(plays_of(&g, Faction::Ecaz).iter().all(|c| !c.action.is_play()));
    // Settled: Cunning is playable again.
    let (g, _) = ok(&g, &ecaz(Action::Decline { frame }));
    assert!(g.open_frame().is_none());
    assert_eq!(plays_of(&g, Faction::Ecaz), vec![cunning()]);
    ok(&g, &cunning());

    // Betrayal: while its own Karama window is open, no play either.
    let g = build_setup(&hold(
        betrayal_table(Phase::ShipmentMovement),
        Faction::Harkonnen,
        Faction::Ecaz,
    ));
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    assert_rejected(&g, &cunning(), "rule/decision_pending");
    assert_rejected(
        &g,
        &betrayal(Faction::Harkonnen, Territory::ImperialBasin),
        "rule/decision_pending",
    );
}

// ======================================================================
// 3. Cunning (R-NEX-CUN, P-NEX-CUN-TIME)
// ======================================================================

const CUNNING_SEATS: [Faction; 5] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Tleilaxu,
    Faction::Moritani,
];

fn cunning_table(phase: Phase, duke: DukeCustody) -> Setup {
    let mut s = hold(nexus_table(&CUNNING_SEATS, phase), Faction::Ecaz, Faction::Ecaz);
    s.duke = Some(duke);
    s
}

fn ecaz_cunning() -> DukeCustody {
    DukeCustody::Controlled {
        by: Faction::Ecaz,
        source: DukeSource::NexusCunning,
    }
}

#[test]
fn r_nex_cun_p_nex_cun_time_only_in_the_battle_phase() {
    for phase in Phase::ALL {
        let g = build_setup(&cunning_table(phase, DukeCustody::SetAside));
        if phase == Phase::Battle {
            assert_eq!(plays_of(&g, Faction::Ecaz), vec![cunning()]);
            ok(&g, &cunning());
        } else {
            let e = assert_rejected(&g, &cunning(), "rule/nexus_window");
            assert_eq!(e.rule(), Some("P-NEX-CUN-TIME"), "{phase}");
            assert!(plays_of(&g, Faction::Ecaz).is_empty(), "{phase}");
        }
    }
}

#[test]
fn r_nex_cun_p_nex_cun_time_not_after_the_dukes_battle_this_turn() {
    // Moritani had him for a battle (R-DUKE-2) and used him: Cunning is over
    // for this turn; next turn's Battle phase it is playable.
    let duke = DukeCustody::Controlled {
        by: Faction::Moritani,
        source: DukeSource::Moritani,
    };
    let g = build_setup(&cunning_table(Phase::Battle, duke));
    let (g, _) = ok(&g, &host(Action::DukeUsedInBattle {}));
    let e = assert_rejected(&g, &cunning(), "rule/nexus_window");
    assert_eq!(e.rule(), Some("P-NEX-CUN-TIME"));
    assert!(e.to_string().contains("fought"), "{e}");
    assert!(plays_of(&g, Faction::Ecaz).is_empty());
    assert_round_trip(&g);
    let g = walk_to_phase(&walk_to_next_turn(&g), Phase::Battle);
    assert_eq!(g.turn(), 2);
    let (g, _) = ok(&g, &cunning());
    assert_eq!(g.duke().custody, ecaz_cunning());

    // Killed in his battle: same.
    let g = build_setup(&cunning_table(Phase::Battle, duke));
    let (g, _) = ok(&g, &host(Action::DukeKilled {}));
    assert_eq!(g.duke().custody, DukeCustody::Tanks);
    assert_rejected(&g, &cunning(), "rule/nexus_window");
}

/// R-NEX-CUN: Ecaz takes him from every custody (even the Tanks, capture or a
/// ghola — he returns to play); at turn end he is set aside whatever his
/// custody was before; the card goes to the Nexus discard.
#[test]
fn r_nex_cun_from_every_custody_then_set_aside_at_turn_end() {
    let custodies = [
        DukeCustody::SetAside,
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Harkonnen },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
        DukeCustody::Controlled {
            by: Faction::Moritani,
            source: DukeSource::Moritani,
        },
        DukeCustody::Controlled {
            by: Faction::Atreides,
            source: DukeSource::EcazAmbassador,
        },
        // A Duke Ecaz already controls: refused (D-50, tests/fidelity.rs).
    ];
    for before in custodies {
        let g = build_setup(&cunning_table(Phase::Battle, before));
        assert_nexus_census(&g);
        let discard_before = g.nexus().discard.len();
        let (g, events) = ok(&g, &cunning());
        assert_eq!(
            events,
            vec![
                Event::public(EventKind::NexusPlayed {
                    faction: Faction::Ecaz,
                    mode: NexusMode::Cunning
                }),
                Event::public(EventKind::DukeMoved {
                    custody: ecaz_cunning(),
                    reason: DukeReason::Cunning
                }),
            ],
            "from {before:?}"
        );
        assert_eq!(g.duke().custody, ecaz_cunning(), "from {before:?}");
        assert_eq!(g.duke().controller(), Some(Faction::Ecaz));
        assert_eq!(held(&g, Faction::Ecaz), None, "the card is spent");
        assert_eq!(g.nexus().discard.len(), discard_before + 1);
        assert_eq!(g.nexus().discard.last(), Some(&Faction::Ecaz));
        assert_nexus_census(&g);
        for v in viewers(&g) {
            let seen = view(&g, v);
            assert_eq!(seen.duke, ecaz_cunning(), "{v}");
            assert!(seen.nexus.discard.contains(&Faction::Ecaz), "{v}");
        }
        assert_round_trip(&g);
        // Spent: no second play.
        assert_rejected(&g, &cunning(), "rule/nexus_not_held");
        assert!(plays_of(&g, Faction::Ecaz).is_empty());

        // Turn end: battle → collection → mentat → (end of turn).
        let (g, e1) = end_phase(&g);
        assert_eq!(g.phase(), Phase::Collection);
        assert!(!kind_names(&e1).contains(&"dukeMoved".to_string()));
        let (g, e2) = end_phase(&g);
        assert_eq!(g.phase(), Phase::Mentat);
        assert_eq!(g.duke().custody, ecaz_cunning(), "still Ecaz's during this turn");
        assert!(!kind_names(&e2).contains(&"dukeMoved".to_string()));
        let (g, e3) = end_phase(&g);
        assert_eq!(g.turn(), 2);
        assert_eq!(g.duke().custody, DukeCustody::SetAside, "from {before:?}");
        assert!(
            e3.contains(&Event::public(EventKind::DukeMoved {
                custody: DukeCustody::SetAside,
                reason: DukeReason::TurnEnd
            })),
            "{e3:?}"
        );
        assert_round_trip(&g);
    }
}

#[test]
fn r_nex_cun_then_used_in_battle_ends_the_control() {
    let g = build_setup(&cunning_table(Phase::Battle, DukeCustody::Tanks));
    let (g, _) = ok(&g, &cunning());
    let (g, events) = ok(&g, &host(Action::DukeUsedInBattle {}));
    assert_eq!(
        events,
        vec![Event::public(EventKind::DukeMoved {
            custody: DukeCustody::SetAside,
            reason: DukeReason::BattleUse
        })]
    );
    let g = walk_to_next_turn(&g);
    assert_eq!(g.duke().custody, DukeCustody::SetAside);
}

#[test]
fn r_nex_cun_survives_a_json_round_trip_mid_turn() {
    let g = build_setup(&cunning_table(
        Phase::Battle,
        DukeCustody::Captured { by: Faction::Harkonnen },
    ));
    let (g, _) = ok(&g, &cunning());
    let back = game_from_json(&json(&g)).unwrap();
    assert_eq!(back, g);
    let g = walk_to_next_turn(&back);
    assert_eq!(g.duke().custody, DukeCustody::SetAside);
}

// ======================================================================
// 4. Betrayal (R-NEX-BET, P-NEX-BET-TIME)
// ======================================================================

/// Harkonnen holds the Ecaz card and a Karama; Atreides holds the other
/// Karama; Ecaz holds a Lasgun.
fn betrayal_game(phase: Phase) -> Game {
    let k = karamas();
    let mut s = hold(betrayal_table(phase), Faction::Harkonnen, Faction::Ecaz);
    fs(&mut s, Faction::Harkonnen).hand = vec![k[0]];
    fs(&mut s, Faction::Atreides).hand = vec![k[1]];
    fs(&mut s, Faction::Ecaz).hand = vec![card("lasgun")];
    build_setup(&s)
}

fn response_frame(g: &Game) -> (ecaz::FrameId, Decision) {
    let f = g.open_frame().expect("the Betrayal response frame is open");
    assert_eq!(f.actor, Actor::Host);
    (f.id, f.decision.clone())
}

fn emperor_group() -> Vec<Stack> {
    vec![
        stack(Territory::ImperialBasin, 9, 2, 1, 0),
        stack(Territory::ImperialBasin, 11, 1, 2, 0),
    ]
}

#[test]
fn r_nex_bet_p_nex_bet_time_only_in_shipment_and_movement() {
    for phase in Phase::ALL {
        let g = betrayal_game(phase);
        let cmd = betrayal(Faction::Harkonnen, Territory::ImperialBasin);
        if phase == Phase::ShipmentMovement {
            assert_eq!(plays_of(&g, Faction::Harkonnen), vec![cmd.clone()]);
            ok(&g, &cmd);
        } else {
            let e = assert_rejected(&g, &cmd, "rule/nexus_window");
            assert_eq!(e.rule(), Some("P-NEX-BET-TIME"), "{phase}");
            assert!(plays_of(&g, Faction::Harkonnen).is_empty(), "{phase}");
        }
    }
}

#[test]
fn r_nex_bet_p_nex_bet_time_closed_by_the_first_shipment_or_movement() {
    let cmd = betrayal(Faction::Harkonnen, Territory::ImperialBasin);
    for cause in [Cause::Shipment, Cause::Movement] {
        let g = betrayal_game(Phase::ShipmentMovement);
        // Anyone's shipment or movement, here Atreides into the Funeral Plain.
        let arrival = if cause == Cause::Movement {
            // Movement from the board: Ecaz moves one force out of Imperial Basin.
            host(Action::Arrive {
                entrant: Faction::Ecaz,
                cause,
                from: Origin::Board {
                    territory: Territory::ImperialBasin,
                    sector: 10,
                },
                territory: Territory::PolarSink,
                sector: 0,
                normal: 1,
                elite: 0,
                advisors: false,
                parent: None,
                reactions_first: false,
            })
        } else {
            arrive(Faction::Atreides, cause, Territory::FuneralPlain, 15)
        };
        let (g, _) = ok(&g, &arrival);
        assert!(g.open_frame().is_none());
        let e = assert_rejected(&g, &cmd, "rule/nexus_window");
        assert!(e.to_string().contains("before anyone ships or moves"), "{e}");
        assert!(plays_of(&g, Faction::Harkonnen).is_empty());
        // Survives a round trip (the flag is state).
        assert_round_trip(&g);
        let back = game_from_json(&json(&g)).unwrap();
        assert_rejected(&back, &cmd, "rule/nexus_window");
        // Next turn's Shipment & Movement opens the window again.
        let g = walk_to_phase(&walk_to_next_turn(&g), Phase::ShipmentMovement);
        assert_eq!(g.turn(), 2);
        assert_eq!(plays_of(&g, Faction::Harkonnen), vec![cmd.clone()]);
    }
    // A worm ride or another host-reported arrival is not a shipment or move.
    for cause in [Cause::Worm, Cause::Other] {
        let g = betrayal_game(Phase::ShipmentMovement);
        let (g, _) = ok(&g, &arrive(Faction::Atreides, cause, Territory::FuneralPlain, 15));
        assert_eq!(plays_of(&g, Faction::Harkonnen), vec![cmd.clone()], "{cause:?}");
        ok(&g, &cmd);
    }
    // A shipment in another phase does not close next Shipment & Movement's window.
    let g = betrayal_game(Phase::Revival);
    let (g, _) = ok(
        &g,
        &arrive(Faction::Atreides, Cause::Shipment, Territory::FuneralPlain, 15),
    );
    let g = walk_to_phase(&g, Phase::ShipmentMovement);
    assert_eq!(g.turn(), 1);
    ok(&g, &cmd);
}

#[test]
fn r_nex_bet_needs_a_territory_shared_by_ecaz_and_its_ally() {
    let g = betrayal_game(Phase::ShipmentMovement);
    // Only the ally (Arrakeen), neither (Carthag), a non-territory for both.
    for t in [Territory::Arrakeen, Territory::Carthag, Territory::PolarSink] {
        let e = assert_rejected(&g, &betrayal(Faction::Harkonnen, t), "rule/not_shared");
        assert_eq!(e.rule(), Some("R-NEX-BET"));
    }
    // Only Ecaz: move the Emperor out of Imperial Basin by an edit.
    let only_ecaz = edited(&g, |v| {
        let i = 1; // Emperor's record
        v["factions"][i]["board"] = serde_json::json!([
            {"territory": "arrakeen", "sector": 10, "normal": 3},
            {"territory": "carthag", "sector": 11, "normal": 3, "elite": 3}
        ]);
    });
    assert_rejected(
        &only_ecaz,
        &betrayal(Faction::Harkonnen, Territory::ImperialBasin),
        "rule/not_shared",
    );
    assert!(plays_of(&only_ecaz, Faction::Harkonnen).is_empty());

    // Ecaz unallied: nothing is shared, even where Emperor and Ecaz both stand.
    let mut s = hold(
        betrayal_table(Phase::ShipmentMovement),
        Faction::Harkonnen,
        Faction::Ecaz,
    );
    fs(&mut s, Faction::Ecaz).ally = None;
    fs(&mut s, Faction::Emperor).ally = None;
    let g = build_setup(&s);
    assert_rejected(
        &g,
        &betrayal(Faction::Harkonnen, Territory::ImperialBasin),
        "rule/not_shared",
    );
    assert!(plays_of(&g, Faction::Harkonnen).is_empty());
}

#[test]
fn r_nex_bet_the_card_is_spent_at_once_and_a_host_window_opens() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let before = g.clone();
    let (g, events) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, decision) = response_frame(&g);
    assert_eq!(
        events,
        vec![
            Event::public(EventKind::NexusPlayed {
                faction: Faction::Harkonnen,
                mode: NexusMode::Betrayal
            }),
            Event::public(EventKind::BetrayalAnnounced {
                frame,
                territory: Territory::ImperialBasin,
                ally: Faction::Emperor
            }),
        ]
    );
    assert_eq!(
        decision,
        Decision::BetrayalResponse {
            holder: Faction::Harkonnen,
            territory: Territory::ImperialBasin,
            ally: Faction::Emperor,
            group: emperor_group(),
        }
    );
    assert_eq!(held(&g, Faction::Harkonnen), None, "spent at once");
    assert_eq!(g.nexus().discard.last(), Some(&Faction::Ecaz));
    assert_nexus_census(&g);
    // The board is untouched until the host answers.
    for f in g.seats() {
        assert_eq!(g.faction(*f).unwrap().board, before.faction(*f).unwrap().board);
    }
    // Host options: allow, or a Karama from anyone but the holder.
    let k = karamas();
    assert_eq!(
        options(&g, Actor::Host).commands,
        vec![
            host(Action::AllowBetrayal { frame }),
            host(Action::CancelBetrayal {
                frame,
                faction: Faction::Atreides,
                card: k[1],
                host_vouched_karama: false,
            }),
        ]
    );
    for f in g.seats() {
        assert!(plays_of(&g, *f).is_empty(), "{f}");
    }
    assert_round_trip(&g);
}

#[test]
fn r_nex_bet_allowed_every_ally_force_there_returns_to_reserves() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let emperor_before = g.faction(Faction::Emperor).unwrap().clone();
    let ecaz_before = g.faction(Faction::Ecaz).unwrap().clone();
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let (g, events) = ok(&g, &host(Action::AllowBetrayal { frame }));
    assert_eq!(
        events,
        vec![Event::public(EventKind::ForcesReturned {
            faction: Faction::Emperor,
            stacks: emperor_group()
        })]
    );
    assert!(g.open_frame().is_none());
    let emperor = g.faction(Faction::Emperor).unwrap();
    assert!(stacks_in(&g, Faction::Emperor, Territory::ImperialBasin).is_empty());
    assert_eq!(
        emperor.board,
        vec![stack(Territory::Arrakeen, 10, 3, 0, 0)],
        "its other territories stay"
    );
    assert_eq!(
        emperor.reserves,
        Forces {
            normal: emperor_before.reserves.normal + 3,
            elite: emperor_before.reserves.elite + 3
        }
    );
    assert_eq!(emperor.tanks, emperor_before.tanks, "not a battle loss");
    assert_eq!(emperor.total_forces(), 20);
    assert_eq!(g.faction(Faction::Ecaz).unwrap(), &ecaz_before, "Ecaz's forces stay");
    assert_eq!(emperor.ally, Some(Faction::Ecaz), "the alliance stays");
    // Not a shipment or movement: no arrival, nothing open.
    assert!(g.open_arrivals().is_empty());
    for v in viewers(&g) {
        assert!(events[0].visible_to(v));
        let seen = view(&g, v);
        let emp = seen.factions.iter().find(|f| f.faction == Faction::Emperor).unwrap();
        assert_eq!(emp.reserves, emperor.reserves, "{v}");
    }
    // Replayed answers are stale.
    assert_rejected(&g, &host(Action::AllowBetrayal { frame }), "rule/stale_frame");
    assert_rejected(
        &g,
        &host(Action::CancelBetrayal {
            frame,
            faction: Faction::Atreides,
            card: karamas()[1],
            host_vouched_karama: false,
        }),
        "rule/stale_frame",
    );
    // The phase goes on; the ally may ship again (not this engine's concern).
    let (g, _) = end_phase(&g);
    assert_eq!(g.phase(), Phase::Battle);
    assert_round_trip(&g);
}

#[test]
fn r_nex_bet_bene_gesserit_ally_advisors_and_fighters_return() {
    let mut s = allied(
        nexus_table(
            &[Faction::Ecaz, Faction::BeneGesserit, Faction::Harkonnen],
            Phase::ShipmentMovement,
        ),
        Faction::Ecaz,
        Faction::BeneGesserit,
    );
    fs(&mut s, Faction::BeneGesserit).board = Some(vec![
        stack(Territory::ImperialBasin, 9, 1, 0, 2),
        stack(Territory::ImperialBasin, 10, 0, 0, 1),
        stack(Territory::PolarSink, 0, 2, 0, 0),
    ]);
    let s = hold(s, Faction::Harkonnen, Faction::Ecaz);
    let g = build_setup(&s);
    let reserves = g.faction(Faction::BeneGesserit).unwrap().reserves;
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let (g, events) = ok(&g, &host(Action::AllowBetrayal { frame }));
    assert_eq!(
        events,
        vec![Event::public(EventKind::ForcesReturned {
            faction: Faction::BeneGesserit,
            stacks: vec![
                stack(Territory::ImperialBasin, 9, 1, 0, 2),
                stack(Territory::ImperialBasin, 10, 0, 0, 1),
            ]
        })]
    );
    let bg = g.faction(Faction::BeneGesserit).unwrap();
    assert_eq!(bg.reserves.normal, reserves.normal + 4);
    assert_eq!(bg.board, vec![stack(Territory::PolarSink, 0, 2, 0, 0)]);
    assert_eq!(bg.total_forces(), 20);
}

#[test]
fn r_nex_bet_cancelled_by_karama_board_unchanged_card_still_spent() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let boards: Vec<_> = g.seats().iter().map(|f| g.faction(*f).unwrap().board.clone()).collect();
    let reserves: Vec<_> = g.seats().iter().map(|f| g.faction(*f).unwrap().reserves).collect();
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let k = karamas()[1];
    let cancel = host(Action::CancelBetrayal {
        frame,
        faction: Faction::Atreides,
        card: k,
        host_vouched_karama: false,
    });
    let (g, events) = ok(&g, &cancel);
    assert_eq!(
        events,
        vec![
            Event::public(EventKind::CardDiscarded {
                faction: Faction::Atreides,
                card: k
            }),
            Event::public(EventKind::BetrayalCancelled { by: Faction::Atreides }),
        ]
    );
    assert!(g.open_frame().is_none());
    let boards_after: Vec<_> = g.seats().iter().map(|f| g.faction(*f).unwrap().board.clone()).collect();
    let reserves_after: Vec<_> = g.seats().iter().map(|f| g.faction(*f).unwrap().reserves).collect();
    assert_eq!(boards_after, boards, "the board is unchanged");
    assert_eq!(reserves_after, reserves);
    assert_eq!(held(&g, Faction::Harkonnen), None, "the card stays spent");
    assert_eq!(g.nexus().discard.last(), Some(&Faction::Ecaz));
    assert_nexus_census(&g);
    assert!(g.faction(Faction::Atreides).unwrap().hand.is_empty());
    assert_eq!(g.treachery().discard.last(), Some(&k));
    // No second try: the card is gone.
    assert_rejected(
        &g,
        &betrayal(Faction::Harkonnen, Territory::ImperialBasin),
        "rule/nexus_not_held",
    );
    // Replays are stale.
    assert_rejected(&g, &cancel, "rule/stale_frame");
    assert_rejected(&g, &host(Action::AllowBetrayal { frame }), "rule/stale_frame");
    assert_round_trip(&g);
}

#[test]
fn r_nex_bet_ecaz_or_its_ally_may_cancel_with_karama() {
    for by in [Faction::Ecaz, Faction::Emperor] {
        let k = karamas();
        let mut s = hold(
            betrayal_table(Phase::ShipmentMovement),
            Faction::Harkonnen,
            Faction::Ecaz,
        );
        fs(&mut s, by).hand = vec![k[0]];
        let g = build_setup(&s);
        let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
        let (frame, _) = response_frame(&g);
        let (g, _) = ok(
            &g,
            &host(Action::CancelBetrayal {
                frame,
                faction: by,
                card: k[0],
                host_vouched_karama: false,
            }),
        );
        assert_eq!(
            stacks_in(&g, Faction::Emperor, Territory::ImperialBasin),
            emperor_group()
        );
    }
}

#[test]
fn r_nex_bet_the_holder_cannot_karama_its_own_play() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let own = host(Action::CancelBetrayal {
        frame,
        faction: Faction::Harkonnen,
        card: karamas()[0],
        host_vouched_karama: false,
    });
    // The code reused from R-PLC-5 (a faction cannot cancel its own act).
    let e = assert_rejected(&g, &own, "rule/own_placement");
    assert!(e.to_string().contains("its own act"), "{e}");
    assert!(!options(&g, Actor::Host).commands.contains(&own));
}

#[test]
fn r_nex_bet_stale_replayed_and_forged_answers() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let k = karamas();
    let wrong = ecaz::FrameId(frame.0 + 1);
    assert_rejected(&g, &host(Action::AllowBetrayal { frame: wrong }), "rule/stale_frame");
    assert_rejected(
        &g,
        &host(Action::AllowBetrayal {
            frame: ecaz::FrameId(0),
        }),
        "rule/stale_frame",
    );
    // Players cannot answer the host's window.
    for f in g.seats() {
        assert_rejected(&g, &play(*f, Action::AllowBetrayal { frame }), "rule/not_your_decision");
        assert_rejected(
            &g,
            &play(
                *f,
                Action::CancelBetrayal {
                    frame,
                    faction: Faction::Atreides,
                    card: k[1],
                    host_vouched_karama: false,
                },
            ),
            "rule/not_your_decision",
        );
    }
    // A Karama nobody seated holds / a card not held / not a Karama / an unseated faction.
    assert_rejected(
        &g,
        &host(Action::CancelBetrayal {
            frame,
            faction: Faction::Atreides,
            card: k[0],
            host_vouched_karama: false,
        }),
        "rule/card_not_held",
    );
    assert_rejected(
        &g,
        &host(Action::CancelBetrayal {
            frame,
            faction: Faction::Ecaz,
            card: card("lasgun"),
            host_vouched_karama: false,
        }),
        "rule/not_karama",
    );
    assert_rejected(
        &g,
        &host(Action::CancelBetrayal {
            frame,
            faction: Faction::Fremen,
            card: k[1],
            host_vouched_karama: false,
        }),
        "rule/not_seated",
    );
    assert_rejected(
        &g,
        &host(Action::CancelBetrayal {
            frame,
            faction: Faction::Atreides,
            card: CardId(999),
            host_vouched_karama: false,
        }),
        "rule/card_not_held",
    );
    // Another window's answer does not fit this one.
    assert_rejected(&g, &host(Action::AllowPlacement { frame }), "rule/wrong_decision");
    // Host reports wait for the window.
    assert_rejected(
        &g,
        &host(Action::EndPhase {
            phase: Phase::ShipmentMovement,
        }),
        "rule/decision_pending",
    );
    assert_rejected(
        &g,
        &arrive(Faction::Atreides, Cause::Shipment, Territory::FuneralPlain, 15),
        "rule/decision_pending",
    );
    // A forged answer carrying its own group (or a holder) does not decode.
    for text in [
        r#"{"actor":"host","action":{"kind":"allowBetrayal","frame":1,"group":[]}}"#,
        r#"{"actor":"host","action":{"kind":"allowBetrayal","frame":1,"ally":"harkonnen"}}"#,
        r#"{"actor":"harkonnen","action":{"kind":"playBetrayal","territory":"imperial_basin","ally":"emperor"}}"#,
        r#"{"actor":"harkonnen","action":{"kind":"playBetrayal","territory":"imperial_basin","frame":1}}"#,
    ] {
        let e = command_from_json(text).expect_err(text);
        assert_eq!(e.code(), "decode/invalid_command", "{text}");
    }
    // The right answer still works after all of that.
    ok(&g, &host(Action::AllowBetrayal { frame }));
}

/// The captured group is validated against live custody: a state edited so
/// that the ally's forces there changed is refused with `rule/group_mismatch`.
#[test]
fn r_nex_bet_group_is_validated_against_live_custody_d_87() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let emp = faction_index(&g, Faction::Emperor);
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = json_value(&g);
        f(&mut v);
        v.to_string()
    };
    // One Emperor force moved from sector 9 to sector 11 (forces conserved).
    let moved = edit(&|v| {
        v["factions"][emp]["board"] = serde_json::json!([
            {"territory": "imperial_basin", "sector": 9, "normal": 1, "elite": 1},
            {"territory": "imperial_basin", "sector": 11, "normal": 2, "elite": 2},
            {"territory": "arrakeen", "sector": 10, "normal": 3}
        ]);
    });
    // One more Emperor force there (from reserves).
    let grown = edit(&|v| {
        v["factions"][emp]["board"][0]["normal"] = 3.into();
        let n = v["factions"][emp]["reserves"]["normal"].as_u64().unwrap();
        v["factions"][emp]["reserves"]["normal"] = (n - 1).into();
    });
    // All gone (back to reserves by some host edit).
    let gone = edit(&|v| {
        v["factions"][emp]["board"] = serde_json::json!([{"territory": "arrakeen", "sector": 10, "normal": 3}]);
        let n = v["factions"][emp]["reserves"]["normal"].as_u64().unwrap();
        let e = v["factions"][emp]["reserves"]["elite"].as_u64().unwrap();
        v["factions"][emp]["reserves"]["normal"] = (n + 3).into();
        v["factions"][emp]["reserves"]["elite"] = (e + 3).into();
    });
    // The frame's quoted group edited instead of the board.
    let forged = edit(&|v| {
        v["pending"][0]["decision"]["group"][0]["normal"] = 1.into();
    });
    // D-87: the partners' boards are frozen while the window is open
    // (D-101), so none of these can be reached by play; each is refused on
    // load, naming the window (before, allowBetrayal was refused and a host
    // with no Karama at the table had no legal command).
    for (name, text) in [("moved", moved), ("grown", grown), ("gone", gone), ("forged", forged)] {
        let e = game_from_json(&text).expect_err(name);
        assert_eq!(e.code(), "state/inconsistent", "{name}");
        assert!(
            e.problems()
                .iter()
                .any(|p| p.path == "pending" && p.message.contains(&format!("frame {frame} (betrayalResponse)"))),
            "{name}: {:?}",
            e.problems()
        );
    }
    // The live window loads, and both answers are listed and accepted.
    let g = game_from_json(&edit(&|_| {})).unwrap();
    let host_options = options(&g, Actor::Host).commands;
    assert!(host_options.contains(&host(Action::AllowBetrayal { frame })));
    let cancel = host(Action::CancelBetrayal {
        frame,
        faction: Faction::Atreides,
        card: karamas()[1],
        host_vouched_karama: false,
    });
    assert!(host_options.contains(&cancel));
    let (after, _) = ok(&g, &cancel);
    assert_eq!(
        after.faction(Faction::Emperor).unwrap().board,
        g.faction(Faction::Emperor).unwrap().board
    );
    ok(&g, &host(Action::AllowBetrayal { frame }));
}

// ======================================================================
// 5. Secret Ally (R-NEX-SEC, P-NEX-SEC-SCOPE, P-NEX-SEC-AUDIENCE, P-NEX-SEC-FD)
// ======================================================================

const SA_SEATS: [Faction; 5] = [
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Emperor,
    Faction::Fremen,
    Faction::Tleilaxu,
];

/// Ecaz not seated; Atreides holds the Ecaz card.
fn sa_table() -> Setup {
    hold(nexus_table(&SA_SEATS, Phase::Storm), Faction::Atreides, Faction::Ecaz)
}

fn with_traitors(mut s: Setup, f: Faction, traitors: &[Leader]) -> Setup {
    fs(&mut s, f).traitors = traitors.iter().copied().map(TraitorCard::Leader).collect();
    s
}

fn with_leader(mut s: Setup, f: Faction, leader: Leader, custody: LeaderCustody) -> Setup {
    fs(&mut s, f).leaders.push(LeaderState { leader, custody });
    s
}

fn with_scope(mut s: Setup, scope: SecretAllyScope) -> Setup {
    s.policies.secret_ally_scope = scope;
    s
}

/// Ask and return the answer recorded for the asker.
fn ask(s: &Setup, holder: Faction, target: Faction) -> bool {
    let g = build_setup(s);
    let (g, events) = ok(&g, &secret_ally(holder, target));
    let answer = answer_in(&events).expect("an answer event");
    let known = sa_knowledge(&g, holder, holder, target).expect("a record");
    assert_eq!(known, answer);
    answer
}

fn answer_in(events: &[Event]) -> Option<bool> {
    events.iter().find_map(|e| match e.event {
        EventKind::SecretAllyAnswered { answer, .. } => Some(answer),
        _ => None,
    })
}

/// The Secret Ally record `viewer` holds about `target`, asked by `asker`.
fn sa_knowledge(g: &Game, viewer: Faction, asker: Faction, target: Faction) -> Option<bool> {
    let found: Vec<bool> = g
        .knowledge()
        .iter()
        .filter(|k| k.viewer == viewer && k.about == target)
        .filter_map(|k| match k.info {
            Insight::SecretAlly { asker: a, answer } if a == asker => Some(answer),
            _ => None,
        })
        .collect();
    assert!(found.len() <= 1, "recorded once");
    found.first().copied()
}

#[test]
fn r_nex_sec_yes_and_no_from_the_targets_held_traitors() {
    let yes = with_traitors(sa_table(), Faction::Harkonnen, &[Leader::Caid, Leader::ThufirHawat]);
    assert!(ask(&yes, Faction::Atreides, Faction::Harkonnen));
    let no = with_traitors(sa_table(), Faction::Harkonnen, &[Leader::Caid, Leader::Stilgar]);
    assert!(!ask(&no, Faction::Atreides, Faction::Harkonnen));
    // No traitors at all.
    assert!(!ask(&sa_table(), Faction::Atreides, Faction::Harkonnen));
    // The Atreides leader is held by someone else, not the target.
    let elsewhere = with_traitors(no, Faction::Emperor, &[Leader::DuncanIdaho]);
    assert!(!ask(&elsewhere, Faction::Atreides, Faction::Harkonnen));
    assert!(ask(&elsewhere, Faction::Atreides, Faction::Emperor));
}

#[test]
fn r_nex_sec_events_carry_no_count_and_no_identity() {
    let s = with_traitors(
        sa_table(),
        Faction::Harkonnen,
        &[Leader::ThufirHawat, Leader::DuncanIdaho, Leader::Caid],
    );
    let g = build_setup(&s);
    let (g, events) = ok(&g, &secret_ally(Faction::Atreides, Faction::Harkonnen));
    assert_eq!(
        events,
        vec![
            Event::public(EventKind::NexusPlayed {
                faction: Faction::Atreides,
                mode: NexusMode::SecretAlly
            }),
            Event::public(EventKind::SecretAllyAsked {
                holder: Faction::Atreides,
                target: Faction::Harkonnen
            }),
            Event::only(
                vec![Faction::Atreides],
                EventKind::SecretAllyAnswered {
                    holder: Faction::Atreides,
                    target: Faction::Harkonnen,
                    answer: true
                }
            ),
        ]
    );
    let text = serde_json::to_string(&events).unwrap();
    for l in Leader::ALL {
        assert!(!text.contains(&format!("\"{}\"", l.id())), "{l} named: {text}");
    }
    for word in ["count", "leader", "traitor"] {
        assert!(!text.to_lowercase().contains(word), "{word}: {text}");
    }
    // The knowledge record is a bare boolean too.
    let k: Vec<&Knowledge> = g.knowledge().iter().collect();
    assert_eq!(
        k,
        vec![&Knowledge {
            viewer: Faction::Atreides,
            about: Faction::Harkonnen,
            turn: 1,
            info: Insight::SecretAlly {
                asker: Faction::Atreides,
                answer: true
            }
        }]
    );
    assert_nexus_census(&g);
    assert_eq!(held(&g, Faction::Atreides), None, "the card is spent");
    assert_eq!(g.nexus().discard.last(), Some(&Faction::Ecaz));
}

#[test]
fn r_nex_sec_any_phase_any_seated_target_the_holder_included() {
    for phase in Phase::ALL {
        let mut s = sa_table();
        s.phase = Some(phase);
        let g = build_setup(&s);
        let offered = plays_of(&g, Faction::Atreides);
        let expected: Vec<Command> = SA_SEATS.iter().map(|&t| secret_ally(Faction::Atreides, t)).collect();
        assert_eq!(offered, expected, "{phase}");
        for cmd in &offered {
            ok(&g, cmd);
        }
    }
    // The holder itself: accepted (it learns nothing new).
    let s = with_traitors(sa_table(), Faction::Atreides, &[Leader::Stilgar]);
    assert!(!ask(&s, Faction::Atreides, Faction::Atreides));
    // An unseated target.
    let g = build_setup(&sa_table());
    assert_rejected(&g, &secret_ally(Faction::Atreides, Faction::Guild), "rule/not_seated");
    assert_rejected(&g, &secret_ally(Faction::Atreides, Faction::Ecaz), "rule/not_seated");
}

#[test]
fn r_nex_sec_offers_do_not_depend_on_the_answer() {
    let yes = build_setup(&with_traitors(sa_table(), Faction::Harkonnen, &[Leader::ThufirHawat]));
    let no = build_setup(&with_traitors(sa_table(), Faction::Harkonnen, &[Leader::Caid]));
    for f in SA_SEATS {
        assert_eq!(plays_of(&yes, f), plays_of(&no, f), "{f}");
    }
    assert_eq!(options(&yes, Actor::Host), options(&no, Actor::Host));
}

/// P-NEX-SEC-SCOPE default `native`: the holder's native leaders, dead
/// (Tanks) or captured, count.
#[test]
fn p_nex_sec_scope_native_counts_dead_and_captured_leaders() {
    let dead = with_leader(
        with_traitors(sa_table(), Faction::Harkonnen, &[Leader::ThufirHawat]),
        Faction::Atreides,
        Leader::ThufirHawat,
        LeaderCustody::Tanks,
    );
    assert!(
        ask(&dead, Faction::Atreides, Faction::Harkonnen),
        "a dead leader counts"
    );
    let captured = with_leader(
        with_traitors(sa_table(), Faction::Emperor, &[Leader::GurneyHalleck]),
        Faction::Atreides,
        Leader::GurneyHalleck,
        LeaderCustody::Captured { by: Faction::Harkonnen },
    );
    assert!(
        ask(&captured, Faction::Atreides, Faction::Emperor),
        "a captured leader counts"
    );
    let ghola = with_leader(
        with_traitors(sa_table(), Faction::Emperor, &[Leader::GurneyHalleck]),
        Faction::Atreides,
        Leader::GurneyHalleck,
        LeaderCustody::Ghola { by: Faction::Tleilaxu },
    );
    assert!(
        ask(&ghola, Faction::Atreides, Faction::Emperor),
        "a leader made a ghola counts"
    );
    // A foreign leader the holder captured is not native.
    let foreign = with_leader(
        with_traitors(sa_table(), Faction::Emperor, &[Leader::FeydRautha]),
        Faction::Harkonnen,
        Leader::FeydRautha,
        LeaderCustody::Captured { by: Faction::Atreides },
    );
    assert!(!ask(&foreign, Faction::Atreides, Faction::Emperor));
}

/// P-NEX-SEC-SCOPE `controlled`: a leader the holder captured counts; its
/// own captured one does not.
#[test]
fn p_nex_sec_scope_controlled_counts_held_captives_not_own_captured() {
    let captive = with_scope(
        with_leader(
            with_traitors(sa_table(), Faction::Emperor, &[Leader::FeydRautha]),
            Faction::Harkonnen,
            Leader::FeydRautha,
            LeaderCustody::Captured { by: Faction::Atreides },
        ),
        SecretAllyScope::Controlled,
    );
    assert!(ask(&captive, Faction::Atreides, Faction::Emperor));
    let own_captured = with_scope(
        with_leader(
            with_traitors(sa_table(), Faction::Emperor, &[Leader::GurneyHalleck]),
            Faction::Atreides,
            Leader::GurneyHalleck,
            LeaderCustody::Captured { by: Faction::Harkonnen },
        ),
        SecretAllyScope::Controlled,
    );
    assert!(!ask(&own_captured, Faction::Atreides, Faction::Emperor));
    // Same two setups under the default scope give the opposite answers.
    let mut native = captive.clone();
    native.policies.secret_ally_scope = SecretAllyScope::Native;
    assert!(!ask(&native, Faction::Atreides, Faction::Emperor));
    let mut native = own_captured.clone();
    native.policies.secret_ally_scope = SecretAllyScope::Native;
    assert!(ask(&native, Faction::Atreides, Faction::Emperor));
    // Own available leaders count under both scopes.
    let own = with_scope(
        with_traitors(sa_table(), Faction::Emperor, &[Leader::LadyJessica]),
        SecretAllyScope::Controlled,
    );
    assert!(ask(&own, Faction::Atreides, Faction::Emperor));
    // A ghola the holder controls counts (Tleilaxu holder, a Fremen ghola).
    let mut ghola = hold(nexus_table(&SA_SEATS, Phase::Storm), Faction::Tleilaxu, Faction::Ecaz);
    ghola = with_leader(
        with_traitors(ghola, Faction::Harkonnen, &[Leader::Stilgar]),
        Faction::Fremen,
        Leader::Stilgar,
        LeaderCustody::Ghola { by: Faction::Tleilaxu },
    );
    assert!(ask(
        &with_scope(ghola.clone(), SecretAllyScope::Controlled),
        Faction::Tleilaxu,
        Faction::Harkonnen
    ));
    assert!(!ask(&ghola, Faction::Tleilaxu, Faction::Harkonnen));
}

/// D-39 ("dead ones count") and the seed ("a leader's death does not …
/// make that identity cease to be a traitor"; "do not silently use only
/// currently battle-available leaders") hold whatever the scope: the
/// holder's own leader in the Tanks is still its leader under `controlled`.
#[test]
fn p_nex_sec_scope_controlled_still_counts_own_dead_leaders() {
    let dead = with_scope(
        with_leader(
            with_traitors(sa_table(), Faction::Harkonnen, &[Leader::ThufirHawat]),
            Faction::Atreides,
            Leader::ThufirHawat,
            LeaderCustody::Tanks,
        ),
        SecretAllyScope::Controlled,
    );
    assert!(ask(&dead, Faction::Atreides, Faction::Harkonnen));
}

/// R-DUKE-1 / R-NEX-SEC: Duke Vidal never counts: he has no Traitor card
/// (no such leader id), and controlling him adds nothing to the scope.
#[test]
fn r_nex_sec_duke_vidal_never_counts() {
    let text = r#"{"seats":["atreides","harkonnen"],"options":{"nexus":true},
        "factions":{"harkonnen":{"traitors":["duke_vidal"]}}}"#;
    let e = setup_from_json(text).expect_err("no Duke Vidal traitor card");
    assert_eq!(e.code(), "decode/invalid_setup");
    // Moritani holds the card and controls the Duke; Harkonnen holds no
    // Moritani traitor: no, under both scopes.
    let mut s = hold(
        nexus_table(
            &[Faction::Moritani, Faction::Harkonnen, Faction::Atreides],
            Phase::Battle,
        ),
        Faction::Moritani,
        Faction::Ecaz,
    );
    s.duke = Some(DukeCustody::Controlled {
        by: Faction::Moritani,
        source: DukeSource::Moritani,
    });
    let s = with_traitors(s, Faction::Harkonnen, &[Leader::ThufirHawat]);
    assert!(!ask(&s, Faction::Moritani, Faction::Harkonnen));
    assert!(!ask(
        &with_scope(s.clone(), SecretAllyScope::Controlled),
        Faction::Moritani,
        Faction::Harkonnen
    ));
    // The same table with a Moritani traitor held: yes.
    let s = with_traitors(s, Faction::Harkonnen, &[Leader::GrieuKronos]);
    assert!(ask(&s, Faction::Moritani, Faction::Harkonnen));
}

/// P-NEX-SEC-FD: Face Dancers are not traitors by default; `yes` counts them.
#[test]
fn p_nex_sec_fd_face_dancers_count_only_when_selected() {
    let mut s = sa_table();
    fs(&mut s, Faction::Tleilaxu).face_dancers = vec![
        TraitorCard::Leader(Leader::ThufirHawat),
        TraitorCard::Leader(Leader::Caid),
    ];
    assert!(!ask(&s, Faction::Atreides, Faction::Tleilaxu));
    s.policies.secret_ally_face_dancers = SecretAllyFaceDancers::Yes;
    assert!(ask(&s, Faction::Atreides, Faction::Tleilaxu));
    // Wire name of the policy value.
    let text = r#"{"seats":["atreides","tleilaxu"],"policies":{"secretAllyFaceDancers":"yes"}}"#;
    let setup = setup_from_json(text).unwrap();
    assert_eq!(setup.policies.secret_ally_face_dancers, SecretAllyFaceDancers::Yes);
    // Face Dancers of other leaders: still no.
    let mut s = sa_table();
    s.policies.secret_ally_face_dancers = SecretAllyFaceDancers::Yes;
    fs(&mut s, Faction::Tleilaxu).face_dancers = vec![TraitorCard::Leader(Leader::Caid)];
    assert!(!ask(&s, Faction::Atreides, Faction::Tleilaxu));
}

/// Two games with equal public state — Harkonnen holds one Traitor in each —
/// one answering yes, one no.
fn yes_and_no(audience: SecretAllyAudience) -> [(Game, Vec<Event>); 2] {
    [Leader::ThufirHawat, Leader::Caid].map(|t| {
        let mut s = with_traitors(sa_table(), Faction::Harkonnen, &[t]);
        s.policies.secret_ally_audience = audience;
        let g = build_setup(&s);
        ok(&g, &secret_ally(Faction::Atreides, Faction::Harkonnen))
    })
}

/// A view as JSON, without the viewer's own traitors (Harkonnen's differ
/// between the two games, by construction).
fn view_without_own_traitors(g: &Game, v: Viewer) -> serde_json::Value {
    let mut value = serde_json::to_value(view(g, v)).unwrap();
    if let Viewer::Faction(f) = v {
        let i = faction_index(g, f);
        value["factions"][i]["traitors"] = serde_json::Value::Null;
    }
    value
}

fn contains_answer(value: &serde_json::Value) -> bool {
    let text = value.to_string();
    text.contains("\"kind\":\"secretAlly\"") || text.contains("\"answer\"") || text.contains("secretAllyAnswered")
}

/// P-NEX-SEC-AUDIENCE default `holder`: only the holder's view and event
/// stream ever contain the answer.
#[test]
fn p_nex_sec_audience_holder_no_other_view_or_stream_has_the_answer() {
    let [(yes, yes_events), (no, no_events)] = yes_and_no(SecretAllyAudience::Holder);
    assert_eq!(answer_in(&yes_events), Some(true));
    assert_eq!(answer_in(&no_events), Some(false));
    for v in players_and_spectator(&yes) {
        let a = view_without_own_traitors(&yes, v);
        let b = view_without_own_traitors(&no, v);
        let ea: Vec<&Event> = yes_events.iter().filter(|e| e.visible_to(v)).collect();
        let eb: Vec<&Event> = no_events.iter().filter(|e| e.visible_to(v)).collect();
        if v == Viewer::Faction(Faction::Atreides) {
            assert_ne!(a, b, "the holder learns the answer");
            assert!(contains_answer(&a));
            assert_eq!(view(&yes, v).knowledge.len(), 1);
            assert_eq!(ea.len(), 3);
            continue;
        }
        assert_eq!(a, b, "{v}'s view tells yes from no");
        assert_eq!(ea, eb, "{v}'s event stream tells yes from no");
        assert!(!contains_answer(&a), "{v}'s view has the answer");
        assert!(view(&yes, v).knowledge.is_empty(), "{v}");
        assert_eq!(ea.len(), 2, "{v}: nexusPlayed and secretAllyAsked only");
        for e in ea {
            assert!(!matches!(e.event, EventKind::SecretAllyAnswered { .. }), "{v}");
        }
    }
    // The host sees everything.
    assert_eq!(view(&yes, Viewer::Host).knowledge.len(), 1);
    assert!(yes_events.iter().all(|e| e.visible_to(Viewer::Host)));
    // The same after further commands and a round trip.
    let later = |g: &Game| game_from_json(&json(&walk_to_next_turn(g))).unwrap();
    let (yes2, no2) = (later(&yes), later(&no));
    for v in players_and_spectator(&yes2) {
        if v == Viewer::Faction(Faction::Atreides) {
            continue;
        }
        assert_eq!(
            view_without_own_traitors(&yes2, v),
            view_without_own_traitors(&no2, v),
            "{v}"
        );
    }
}

/// P-NEX-SEC-AUDIENCE `table`: every seat's view carries the answer.
#[test]
fn p_nex_sec_audience_table_every_seat_learns_it() {
    let [(yes, yes_events), (no, no_events)] = yes_and_no(SecretAllyAudience::Table);
    for (g, events, answer) in [(&yes, &yes_events, true), (&no, &no_events, false)] {
        let answered: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e.event, EventKind::SecretAllyAnswered { .. }))
            .collect();
        assert_eq!(answered.len(), 1);
        // "Every player": the seated factions (and the host), not spectators.
        assert_eq!(
            answered[0].audience,
            Audience::Only {
                factions: SA_SEATS.to_vec()
            }
        );
        for f in SA_SEATS {
            assert_eq!(
                sa_knowledge(g, f, Faction::Atreides, Faction::Harkonnen),
                Some(answer),
                "{f}"
            );
            let seen = view(g, Viewer::Faction(f));
            assert_eq!(seen.knowledge.len(), 1, "{f} sees its own record only");
            assert_eq!(seen.knowledge[0].viewer, f);
            assert_eq!(
                seen.knowledge[0].info,
                Insight::SecretAlly {
                    asker: Faction::Atreides,
                    answer
                }
            );
            assert!(answered[0].visible_to(Viewer::Faction(f)));
        }
        assert_eq!(g.knowledge().len(), SA_SEATS.len());
        let text = serde_json::to_string(events).unwrap();
        for l in Leader::ALL {
            assert!(!text.contains(&format!("\"{}\"", l.id())), "{l} named");
        }
    }
}

/// R-NEX-SEC: fixed when asked — later hand changes never rewrite it; it
/// persists through JSON round trips and further commands; recorded once.
#[test]
fn r_nex_sec_answer_is_fixed_when_asked() {
    let s = with_traitors(sa_table(), Faction::Harkonnen, &[Leader::ThufirHawat]);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &secret_ally(Faction::Atreides, Faction::Harkonnen));
    assert_eq!(
        sa_knowledge(&g, Faction::Atreides, Faction::Atreides, Faction::Harkonnen),
        Some(true)
    );
    // The Harkonnen hand changes (a host import: Thufir's card went to Emperor).
    let hark = faction_index(&g, Faction::Harkonnen);
    let emp = faction_index(&g, Faction::Emperor);
    let g = edited(&g, |v| {
        v["factions"][hark]["traitors"] = serde_json::json!(["caid"]);
        v["factions"][emp]["traitors"] = serde_json::json!(["thufir_hawat"]);
    });
    assert_eq!(
        sa_knowledge(&g, Faction::Atreides, Faction::Atreides, Faction::Harkonnen),
        Some(true)
    );
    assert_round_trip(&g);
    // Further commands: two whole turns.
    let g = walk_to_next_turn(&walk_to_next_turn(&g));
    assert_eq!(g.turn(), 3);
    assert_eq!(
        sa_knowledge(&g, Faction::Atreides, Faction::Atreides, Faction::Harkonnen),
        Some(true)
    );
    assert_eq!(g.knowledge().len(), 1);
    let seen = view(&g, Viewer::Faction(Faction::Atreides));
    assert_eq!(seen.knowledge[0].turn, 1, "dated when asked");
    // Asked once: the card is spent.
    assert_rejected(
        &g,
        &secret_ally(Faction::Atreides, Faction::Harkonnen),
        "rule/nexus_not_held",
    );
    assert!(plays_of(&g, Faction::Atreides).is_empty());
    assert_round_trip(&g);
}

/// R-NEX-SEC: the engine computes the answer; a client-supplied answer (or
/// count) is not part of the command and does not decode.
#[test]
fn r_nex_sec_client_supplied_answer_is_rejected() {
    for text in [
        r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen","answer":true}}"#,
        r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen","answer":false}}"#,
        r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen","count":0}}"#,
        r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen","leaders":["thufir_hawat"]}}"#,
        r#"{"actor":"atreides","action":{"kind":"playCunning","answer":true}}"#,
    ] {
        let e = command_from_json(text).expect_err(text);
        assert_eq!(e.code(), "decode/invalid_command", "{text}");
    }
    // Through apply_json too, leaving the state as it was.
    let g = build_setup(&sa_table());
    let state = json(&g);
    let e = apply_json(
        &state,
        r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen","answer":true}}"#,
    )
    .expect_err("a client answer");
    assert_eq!(e.code(), "decode/invalid_command");
    // The plain command decodes.
    let c =
        command_from_json(r#"{"actor":"atreides","action":{"kind":"playSecretAlly","target":"harkonnen"}}"#).unwrap();
    assert_eq!(c, secret_ally(Faction::Atreides, Faction::Harkonnen));
}

#[test]
fn r_nex_sec_answer_survives_state_json_and_is_checked_on_load() {
    let s = with_traitors(sa_table(), Faction::Harkonnen, &[Leader::ThufirHawat]);
    let (g, _) = ok(&build_setup(&s), &secret_ally(Faction::Atreides, Faction::Harkonnen));
    let text = json(&g);
    assert!(text.contains("\"kind\":\"secretAlly\""));
    let back = game_from_json(&text).unwrap();
    assert_eq!(back, g);
    // A knowledge record about an unseated faction does not load.
    let mut v = json_value(&g);
    v["knowledge"][0]["about"] = "guild".into();
    let e = game_from_json(&v.to_string()).expect_err("unseated");
    assert_eq!(e.code(), "state/inconsistent");
}

/// The quoted group is compared with live custody as a set of stacks: a
/// state whose board lists the same stacks in another order (a host that
/// normalises arrays on import) still holds exactly the quoted group.
#[test]
fn r_nex_bet_group_check_ignores_board_order() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let (frame, _) = response_frame(&g);
    let emp = faction_index(&g, Faction::Emperor);
    let reordered = edited(&g, |v| {
        let board = v["factions"][emp]["board"].as_array_mut().unwrap();
        board.reverse();
    });
    assert_eq!(
        stacks_in(&reordered, Faction::Emperor, Territory::ImperialBasin).len(),
        2
    );
    let (after, _) = ok(&reordered, &host(Action::AllowBetrayal { frame }));
    assert!(stacks_in(&after, Faction::Emperor, Territory::ImperialBasin).is_empty());
}

/// R-NEX-CUN: "at the end of that turn he is set aside". A Duke taken with
/// Cunning and then lent to a new ally (P-DUKE-LOAN) goes back to Ecaz's
/// Cunning control when the loan ends at turn end — and that control expires
/// at the same turn end, not in the next turn (found in this sweep; fixed in
/// fee7169).
#[test]
fn r_nex_cun_a_lent_cunning_duke_is_still_set_aside_at_turn_end() {
    let mut s = cunning_table(Phase::Battle, DukeCustody::Tanks);
    let mut zones = BTreeMap::new();
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        zones,
        ..AmbassadorsSetup::default()
    });
    let g = build_setup(&s);
    let (g, _) = ok(&g, &cunning());
    assert_eq!(g.duke().custody, ecaz_cunning());
    // Harkonnen enters Arrakeen; Ecaz triggers its token: it already controls
    // the Duke, so the alliance is offered at once.
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Cause::Other, Territory::Arrakeen, 10));
    let (g, _) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    let (g, _) = ok(
        &g,
        &play(
            Faction::Harkonnen,
            Action::AnswerAlliance {
                frame: open_id(&g),
                accept: true,
            },
        ),
    );
    let (g, _) = ok(
        &g,
        &ecaz(Action::LendDuke {
            frame: open_id(&g),
            lend: true,
        }),
    );
    assert_eq!(
        g.duke().custody,
        DukeCustody::Controlled {
            by: Faction::Harkonnen,
            source: DukeSource::AllianceLoan
        }
    );
    let g = walk_to_phase(&g, Phase::Mentat);
    let (g, events) = end_phase(&g);
    assert_eq!(g.turn(), 2);
    assert_eq!(
        g.duke().custody,
        DukeCustody::SetAside,
        "the Cunning tenure ended with turn 1"
    );
    let moves: Vec<&EventKind> = kinds(&events)
        .into_iter()
        .filter(|e| matches!(e, EventKind::DukeMoved { .. }))
        .collect();
    assert_eq!(
        moves,
        vec![
            &EventKind::DukeMoved {
                custody: ecaz_cunning(),
                reason: DukeReason::LoanEnded
            },
            &EventKind::DukeMoved {
                custody: DukeCustody::SetAside,
                reason: DukeReason::TurnEnd
            },
        ]
    );
}

/// A state edit.
type Edit = dyn Fn(&mut serde_json::Value);

/// A saved Betrayal window is checked on load like every other frame
/// (integrity checks other frames' actors, seats and phases): its holder is
/// seated and no longer holds the Ecaz card (it was spent at the play), its
/// ally is Ecaz's ally, its group is not empty, and it exists only in
/// Shipment & Movement. Each forged state below loads today and
/// `allowBetrayal` then commits it.
#[test]
fn r_nex_bet_forged_saved_windows_are_inconsistent() {
    let g = betrayal_game(Phase::ShipmentMovement);
    let (g, _) = ok(&g, &betrayal(Faction::Harkonnen, Territory::ImperialBasin));
    let hark = faction_index(&g, Faction::Harkonnen);
    let forgeries: Vec<(&str, Box<Edit>)> = vec![
        (
            "the holder still holds the card",
            Box::new(move |v| {
                v["nexus"]["discard"].as_array_mut().unwrap().retain(|x| x != "ecaz");
                v["factions"][hark]["nexus"] = "ecaz".into();
            }),
        ),
        (
            "an unseated holder",
            Box::new(|v| v["pending"][0]["decision"]["holder"] = "guild".into()),
        ),
        (
            "an ally that is not Ecaz's",
            Box::new(|v| {
                v["pending"][0]["decision"]["ally"] = "atreides".into();
                v["pending"][0]["decision"]["group"] = serde_json::json!([]);
            }),
        ),
        (
            "an empty group",
            Box::new(|v| {
                v["pending"][0]["decision"]["territory"] = "carthag".into();
                v["pending"][0]["decision"]["group"] = serde_json::json!([]);
            }),
        ),
        ("the Battle phase", Box::new(|v| v["phase"] = "battle".into())),
    ];
    for (name, edit) in forgeries {
        let mut v = json_value(&g);
        edit(&mut v);
        match game_from_json(&v.to_string()) {
            Ok(loaded) => {
                let allowed = apply(
                    &loaded,
                    &host(Action::AllowBetrayal {
                        frame: open_id(&loaded),
                    }),
                );
                panic!(
                    "{name}: the forged window loads; allowBetrayal -> {:?}",
                    allowed.map(|(_, e)| e)
                );
            }
            Err(e) => assert_eq!(e.code(), "state/inconsistent", "{name}"),
        }
    }
}

/// D-167, R-NEX-SEC: with CHOAM's Auditor in play its Traitor card exists,
/// so a target holding it answers yes to CHOAM's Secret Ally (finding R4:
/// before, the card could not be held at all).
#[test]
fn r_nex_sec_d_167_the_choam_auditor_traitor_card_counts() {
    let seats = [Faction::Choam, Faction::Harkonnen, Faction::Atreides];
    let mut s = hold(nexus_table(&seats, Phase::Storm), Faction::Choam, Faction::Ecaz);
    fs(&mut s, Faction::Choam).extra_leaders = vec![Leader::ChoamAuditor];
    assert!(!ask(&s, Faction::Choam, Faction::Harkonnen));
    let yes = with_traitors(s, Faction::Harkonnen, &[Leader::ChoamAuditor]);
    assert!(ask(&yes, Faction::Choam, Faction::Harkonnen));
    assert!(!ask(&yes, Faction::Choam, Faction::Atreides));
}
