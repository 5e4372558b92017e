//! A real host can adopt the engine (D-100–D-109) — recover from divergence with
//! one reconcile (`syncTable`), report in its own order inside the
//! host-reactions window, the concepts a host has that the engine lacked
//! (revealed Face Dancers, cards from outside the deck, extra leaders), and
//! options that say why a choice is blocked without leaking a secret.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    apply, options, view, Action, Actor, Ambassador, AmbassadorsSetup, Audience, CardId, Cause, Command, Decision,
    EcazBranch, EventKind, Faction, FactionSetup, Game, Leader, LeaderCustody, LeaderState, Origin, Phase,
    SecretAllyFaceDancers, Setup, Stack, Territory, Viewer, Zone,
};
use serde_json::Value;

use Faction::{Atreides, Ecaz, Harkonnen, Tleilaxu};

/// Ecaz, Atreides, Harkonnen and the Tleilaxu in Shipment & Movement; the
/// Emperor token in Arrakeen, Atreides with two cards.
fn table() -> Setup {
    let mut s = Setup::for_seats(&[Ecaz, Atreides, Harkonnen, Tleilaxu], 11);
    s.options.nexus = true;
    s.phase = Some(Phase::ShipmentMovement);
    s.factions.insert(
        Atreides,
        FactionSetup {
            hand: vec![CardId(0), CardId(1)],
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Tleilaxu,
        FactionSetup {
            face_dancers: vec![
                TraitorCard::Leader(Leader::ThufirHawat),
                TraitorCard::Leader(Leader::FeydRautha),
                TraitorCard::Leader(Leader::SanyaEcaz),
            ],
            ..FactionSetup::default()
        },
    );
    s.ambassadors = Some(AmbassadorsSetup {
        zones: [(
            Ambassador::Emperor,
            Zone::Placed {
                territory: Territory::Arrakeen,
            },
        )]
        .into_iter()
        .collect(),
        cohort: vec![
            Ambassador::Ixians,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ],
        ..AmbassadorsSetup::default()
    });
    s
}

fn atreides_into_arrakeen() -> Command {
    host(Action::Arrive {
        entrant: Atreides,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory: Territory::Arrakeen,
        sector: 10,
        normal: 2,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

fn sync(g: &Game) -> Command {
    host(Action::SyncTable {
        table: Box::new(table_from_view(&view(g, Viewer::Host))),
    })
}

/// D-100: the host missed a report (a card drawn by Atreides); its
/// next report is refused; while a trigger offer whose entrant is Atreides
/// is open, the reconcile is refused naming that frame (a difference in an
/// unrelated fact is accepted under the same frame); once settled, one
/// reconcile lists exactly what drifted, and play continues identical to
/// the game where nothing was missed.
#[test]
fn issue13_1_a_drifted_host_recovers_with_one_reconcile() {
    let mut truth = build_setup(&table());
    let mut engine = truth.clone();
    // Reported to both.
    let both = |t: &mut Game, e: &mut Game, c: Command| {
        let a = ok_mut(t, &c);
        let b = ok_mut(e, &c);
        assert_eq!(a, b);
    };
    both(
        &mut truth,
        &mut engine,
        host(Action::GainSpice {
            faction: Harkonnen,
            amount: 3,
        }),
    );
    // The missed report: the host's table has the card, the engine does not.
    let drawn = ok_mut(&mut truth, &host(Action::DrawCard { faction: Atreides }));
    let card = drawn
        .iter()
        .find_map(|e| match e.event {
            EventKind::CardReceived { card, .. } => Some(card),
            _ => None,
        })
        .unwrap();
    // The drift shows at the next report that depends on it.
    let discard = host(Action::DiscardCard {
        faction: Atreides,
        card,
    });
    let refused = assert_rejected(&engine, &discard, "rule/card_not_held");
    // `ISSUE13_EXAMPLE=1` prints the worked example of docs/integration.md §11.
    let show = std::env::var("ISSUE13_EXAMPLE").is_ok();
    let say = |c: &Command, out: &str| {
        if show {
            eprintln!("→ {}\n{out}\n", serde_json::to_string(c).unwrap());
        }
    };
    say(
        &discard,
        &format!("✗ {}", serde_json::to_string(&refused.report()).unwrap()),
    );

    // Atreides enter Arrakeen: a trigger offer opens in both.
    both(&mut truth, &mut engine, atreides_into_arrakeen());
    let frame = open_id(&engine);
    assert!(matches!(
        engine.open_frame().unwrap().decision,
        Decision::TriggerOffer { .. }
    ));
    let e = assert_rejected(&engine, &sync(&truth), "rule/frame_depends");
    say(
        &sync(&truth),
        &format!("✗ {}", serde_json::to_string(&e.report()).unwrap()),
    );
    assert!(e.to_string().contains(&format!("frame {frame} (triggerOffer)")), "{e}");
    assert!(e.to_string().contains("factions.atreides.hand"), "{e}");
    // A difference the offer does not depend on is reconciled under it.
    let mut other = table_from_view(&view(&engine, Viewer::Host));
    other.factions.get_mut(&Tleilaxu).unwrap().spice += 1;
    let (under, events) = ok(&engine, &host(Action::SyncTable { table: Box::new(other) }));
    assert_eq!(under.pending(), engine.pending());
    match &events[..] {
        [e] => match &e.event {
            EventKind::TableSynced { differences } => {
                assert_eq!(e.audience, Audience::Host);
                let paths: Vec<&str> = differences.iter().map(|d| d.path.as_str()).collect();
                assert_eq!(paths, ["factions.tleilaxu.spice"]);
            }
            other => panic!("{other:?}"),
        },
        other => panic!("one event, not {other:?}"),
    }

    // Ecaz declines in both; quiet again: one reconcile repairs the drift.
    both(&mut truth, &mut engine, ecaz(Action::Decline { frame }));
    let events = ok_mut(&mut engine, &sync(&truth));
    say(&sync(&truth), &format!("← {}", serde_json::to_string(&events).unwrap()));
    let [e] = &events[..] else { panic!("{events:?}") };
    let EventKind::TableSynced { differences } = &e.event else {
        panic!("{e:?}")
    };
    let paths: Vec<&str> = differences.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        paths,
        ["factions.atreides.hand", "deck"],
        "exactly what the missed report changed"
    );
    assert_eq!(differences[0].before, serde_json::json!([0, 1]));
    assert_eq!(differences[0].after, serde_json::json!([0, 1, card.0]));
    // Everything the engine keeps for itself is kept: the games are equal
    // (but for the revision, D-230: the engine applied the reconciles too).
    assert_eq!(json_without_revision(&engine), json_without_revision(&truth));
    // A reconcile of an identical table changes nothing and says so.
    let events = ok_mut(&mut engine, &sync(&truth));
    assert!(matches!(&events[0].event, EventKind::TableSynced { differences } if differences.is_empty()));
    assert_eq!(json_without_revision(&engine), json_without_revision(&truth));
    // Play continues identically.
    for c in [
        discard,
        host(Action::EndPhase {
            phase: Phase::ShipmentMovement,
        }),
        host(Action::DrawCard { faction: Harkonnen }),
    ] {
        both(&mut truth, &mut engine, c);
        assert_eq!(json_without_revision(&engine), json_without_revision(&truth));
    }
}

/// D-100: a reconcile is validated like a Setup: every problem at
/// once, nothing changed; only the host reconciles.
#[test]
fn issue13_1_an_invalid_table_lists_every_problem_and_changes_nothing() {
    let g = build_setup(&table());
    let mut t = table_from_view(&view(&g, Viewer::Host));
    t.factions.get_mut(&Atreides).unwrap().reserves.normal += 3; // 23 forces
    t.factions.get_mut(&Harkonnen).unwrap().hand.push(CardId(0)); // held twice
    t.factions.get_mut(&Harkonnen).unwrap().ally = Some(Atreides); // not reciprocal
    t.factions.remove(&Tleilaxu); // a seated faction missing
    let e = assert_rejected(
        &g,
        &host(Action::SyncTable { table: Box::new(t) }),
        "sync/invalid_table",
    );
    let paths: Vec<&str> = e.problems().iter().map(|p| p.path.as_str()).collect();
    for expected in [
        "factions.tleilaxu",
        "factions.atreides.forces",
        "factions.harkonnen.ally",
        "factions.harkonnen.hand",
    ] {
        assert!(paths.contains(&expected), "{expected} missing from {paths:?}");
    }
    let c = Command::faction(
        Atreides,
        Action::SyncTable {
            table: Box::new(table_from_view(&view(&g, Viewer::Host))),
        },
    );
    assert_rejected(&g, &c, "rule/wrong_actor");
}

// ---------------------------------------------------------------------------
// Item 2: reports inside the host-reactions window
// ---------------------------------------------------------------------------

/// One instance of every host report kind, built from the state (valid where
/// the state allows; beyond the window rule, validity does not matter here),
/// each marked whether the host-reactions window takes it.
fn every_report(g: &Game) -> Vec<(bool, Command)> {
    let seats = g.seats().to_vec();
    let first = seats[0];
    let holder = seats
        .iter()
        .copied()
        .find(|&f| !g.faction(f).unwrap().hand.is_empty())
        .unwrap_or(first);
    let card = g.faction(holder).unwrap().hand.first().copied().unwrap_or(CardId(0));
    let other = seats.iter().copied().find(|&f| f != holder).unwrap();
    let (sf, st) = seats
        .iter()
        .find_map(|&f| g.faction(f).unwrap().board.first().map(|s| (f, *s)))
        .unwrap_or((
            first,
            Stack {
                territory: Territory::Arrakeen,
                sector: 10,
                normal: 1,
                elite: 0,
                advisors: 0,
            },
        ));
    let (normal, advisors) = if st.normal > 0 { (1, 0) } else { (0, st.advisors.min(1)) };
    let window = |c| (true, host(c));
    let turn = |c| (false, host(c));
    vec![
        window(Action::GainSpice {
            faction: first,
            amount: 1,
        }),
        window(Action::PaySpice {
            faction: first,
            amount: 1,
            to: None,
        }),
        window(Action::DrawCard { faction: first }),
        window(Action::DiscardCard { faction: holder, card }),
        window(Action::GiveCard {
            from: holder,
            to: other,
            card,
        }),
        window(Action::SetTraitors {
            faction: first,
            traitors: g.faction(first).unwrap().traitors.clone(),
        }),
        window(Action::SetFaceDancers { face_dancers: vec![] }),
        window(Action::RevealFaceDancer {
            leader: TraitorCard::Leader(Leader::ThufirHawat),
        }),
        window(Action::TakeOutsideCard {
            faction: first,
            card: CardId(0),
        }),
        window(Action::LoseForces {
            faction: sf,
            territory: st.territory,
            sector: st.sector,
            normal,
            elite: 0,
            advisors,
        }),
        window(Action::ReturnForces {
            faction: sf,
            territory: st.territory,
            sector: st.sector,
            normal,
            elite: 0,
            advisors,
        }),
        window(Action::ReviveFromTanks {
            faction: first,
            normal: 1,
            elite: 0,
        }),
        window(Action::FlipAdvisors {
            territory: st.territory,
            sector: st.sector,
            count: 1,
            to_fighters: true,
        }),
        window(Action::SetLeader {
            leader: first.leaders()[0],
            custody: LeaderCustody::Tanks,
        }),
        window(Action::FormAlliance { a: first, b: other }),
        window(Action::BreakAlliance { faction: first }),
        window(Action::SetHandLimit {
            faction: first,
            limit: 5,
        }),
        window(Action::DealNexus { faction: first }),
        window(Action::DiscardNexus { faction: first }),
        window(Action::DukeUsedInBattle {}),
        window(Action::DukeKilled {}),
        window(Action::DukeCaptured { by: other }),
        window(Action::DukeRevived {}),
        window(Action::DukeToMoritani {}),
        window(Action::DestroyTerritory {
            territory: Territory::Carthag,
            cause: ecaz::Destruction::AtomicsTerror,
        }),
        turn(Action::EndPhase { phase: g.phase() }),
        turn(Action::MoveStorm { sectors: 1 }),
        turn(Action::DestroyShieldWall {}),
        turn(Action::MoveHms {
            territory: Territory::HaggaBasin,
            sector: 12,
        }),
        // Under any frame: a reconcile (here of the identical table).
        (true, sync(g)),
    ]
}

/// D-101, every pairing of an open frame kind (the saved fixtures
/// hold one state per frame kind) with every host report kind: inside the
/// host-reactions window every table report is taken (accepted, or refused
/// for its own content — never `rule/decision_pending`) and the window stays
/// open; the turn structure waits (`rule/decision_pending`). Under any
/// other frame every report waits, but a linked arrival and a reconcile.
#[test]
fn issue13_2_which_reports_are_accepted_under_which_frame() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format/v1");
    let mut kinds = std::collections::BTreeSet::new();
    let mut accepted_in_window = 0;
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if !path.to_string_lossy().ends_with(".state.json") {
            continue;
        }
        let g = ecaz::game_from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let Some(open) = g.open_frame().cloned() else {
            continue;
        };
        kinds.insert(open.decision.name());
        let in_window = matches!(open.decision, Decision::HostReactions { .. });
        for (window_kind, cmd) in every_report(&g) {
            let ctx = format!(
                "{} under {}: {}",
                path.display(),
                open.decision.name(),
                cmd.action.name()
            );
            let is_sync = matches!(cmd.action, Action::SyncTable { .. });
            let taken = (in_window && window_kind) || is_sync;
            match apply(&g, &cmd) {
                Ok((next, _)) => {
                    assert!(taken, "{ctx}: accepted");
                    assert_eq!(
                        next.open_frame().map(|f| f.id),
                        Some(open.id),
                        "{ctx}: the frame stays open"
                    );
                    accepted_in_window += usize::from(in_window && !is_sync);
                }
                Err(e) => {
                    assert_eq!(e.code() == "rule/decision_pending", !taken, "{ctx}: {} {e}", e.code());
                    assert_rejected(&g, &cmd, e.code());
                }
            }
        }
    }
    assert_eq!(kinds.len(), 15, "every frame kind is paired: {kinds:?}");
    assert!(accepted_in_window >= 10, "{accepted_in_window}");
}

/// D-101: a window report that would change a fact a frame below
/// the window depends on is refused, naming that frame.
#[test]
fn issue13_2_a_window_report_never_pulls_a_fact_from_under_a_frame() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/format/v1/game1-step59-hostReactions.state.json"),
    )
    .unwrap();
    let g = ecaz::game_from_json(&text).unwrap();
    // The window's own arrival: every table report about anyone is taken.
    let (next, _) = ok(
        &g,
        &host(Action::GainSpice {
            faction: g.seats()[0],
            amount: 2,
        }),
    );
    assert_eq!(next.pending(), g.pending());
}

// ---------------------------------------------------------------------------
// Item 3: revealed Face Dancers, cards from outside, extra leaders
// ---------------------------------------------------------------------------

fn tleilaxu_into_carthag() -> Command {
    host(Action::Arrive {
        entrant: Tleilaxu,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory: Territory::Carthag,
        sector: 11,
        normal: 1,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

/// R-EFF-HAR as corrected (D-166; seed `001`, "Account for cards already
/// revealed but still held"): the Harkonnen effect draws among every Face
/// Dancer the Tleilaxu hold, revealed or not; the revealed ones stay public
/// in every view. With all three revealed the effect is still available.
#[test]
fn r_eff_har_d_166_draws_among_every_held_face_dancer_revealed_or_not() {
    let mut s = table();
    s.factions.get_mut(&Tleilaxu).unwrap().revealed_face_dancers = vec![
        TraitorCard::Leader(Leader::ThufirHawat),
        TraitorCard::Leader(Leader::FeydRautha),
    ];
    let a = s.ambassadors.as_mut().unwrap();
    a.zones.insert(
        Ambassador::Harkonnen,
        Zone::Placed {
            territory: Territory::Carthag,
        },
    );
    a.cohort[0] = Ambassador::Harkonnen;
    a.zones.remove(&Ambassador::Emperor);
    let held = [Leader::ThufirHawat, Leader::FeydRautha, Leader::SanyaEcaz];
    let draw = |s: &Setup| {
        let g = build_setup(s);
        let (g, _) = ok(&g, &tleilaxu_into_carthag());
        let (_, events) = ok(
            &g,
            &ecaz(Action::Trigger {
                frame: open_id(&g),
                beneficiary: Ecaz,
            }),
        );
        let seen: Vec<TraitorCard> = events
            .iter()
            .filter_map(|e| match e.event {
                EventKind::TraitorSeen { leader, .. } => Some(leader),
                _ => None,
            })
            .collect();
        seen
    };
    let mut drawn = std::collections::BTreeSet::new();
    for seed in 0..12 {
        s.seed = Some(seed);
        let g = build_setup(&s);
        let spectator = view(&g, Viewer::Spectator);
        let tl = spectator.factions.iter().find(|x| x.faction == Tleilaxu).unwrap();
        assert_eq!(tl.revealed_face_dancers, [Leader::ThufirHawat, Leader::FeydRautha]);
        assert_eq!(tl.face_dancers, None);
        let seen = draw(&s);
        assert_eq!(seen.len(), 1, "seed {seed}");
        assert!(held.iter().any(|l| seen[0] == *l), "seed {seed}: {seen:?}");
        drawn.extend(seen);
    }
    assert!(
        drawn.contains(&TraitorCard::Leader(Leader::ThufirHawat))
            || drawn.contains(&TraitorCard::Leader(Leader::FeydRautha)),
        "a revealed Face Dancer is never drawn: {drawn:?}"
    );
    // All revealed (finding R7): the offer opens and the draw is among them.
    s.factions.get_mut(&Tleilaxu).unwrap().revealed_face_dancers = held.map(TraitorCard::Leader).to_vec();
    for seed in 0..4 {
        s.seed = Some(seed);
        let seen = draw(&s);
        assert_eq!(seen.len(), 1);
        assert!(held.iter().any(|l| seen[0] == *l));
    }
    // A returned card is no longer held: never drawn.
    s.factions.get_mut(&Tleilaxu).unwrap().face_dancers = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    s.factions.get_mut(&Tleilaxu).unwrap().revealed_face_dancers = vec![TraitorCard::Leader(Leader::SanyaEcaz)];
    assert_eq!(draw(&s), [Leader::SanyaEcaz]);
}

/// D-102: `revealFaceDancer` turns a held Face Dancer face up (a public
/// event); revealing one not held or already revealed is refused; a new set
/// of Face Dancers keeps the revealed ones still held.
#[test]
fn issue13_3_reveal_face_dancer_report() {
    let g = build_setup(&table());
    let (g, events) = ok(
        &g,
        &host(Action::RevealFaceDancer {
            leader: TraitorCard::Leader(Leader::FeydRautha),
        }),
    );
    assert_eq!(
        kinds(&events),
        [&EventKind::FaceDancerRevealed {
            leader: TraitorCard::Leader(Leader::FeydRautha)
        }]
    );
    assert_eq!(events[0].audience, Audience::Public);
    for leader in [Leader::FeydRautha, Leader::Stilgar] {
        assert_rejected(
            &g,
            &host(Action::RevealFaceDancer {
                leader: TraitorCard::Leader(leader),
            }),
            "rule/traitor_unavailable",
        );
    }
    let (g, _) = ok(
        &g,
        &host(Action::SetFaceDancers {
            face_dancers: vec![
                TraitorCard::Leader(Leader::FeydRautha),
                TraitorCard::Leader(Leader::DuncanIdaho),
            ],
        }),
    );
    let tl = g.faction(Tleilaxu).unwrap();
    assert_eq!(tl.revealed_face_dancers, [Leader::FeydRautha]);
    assert_eq!(tl.hidden_face_dancers().collect::<Vec<_>>(), [Leader::DuncanIdaho]);
    assert_round_trip(&g);
}

/// P-NEX-SEC-FD `yes`, D-102: Secret Ally counts the Tleilaxu's face-down
/// Face Dancers only (a revealed one is spent and public).
#[test]
fn issue13_3_p_nex_sec_fd_counts_only_face_down_face_dancers() {
    for (revealed, answer) in [(vec![], true), (vec![Leader::ThufirHawat], false)] {
        let mut s = Setup::for_seats(&[Atreides, Harkonnen, Tleilaxu], 3);
        s.options.nexus = true;
        s.policies.secret_ally_face_dancers = SecretAllyFaceDancers::Yes;
        s.factions.insert(
            Atreides,
            FactionSetup {
                nexus: Some(Ecaz),
                ..FactionSetup::default()
            },
        );
        s.factions.insert(
            Tleilaxu,
            FactionSetup {
                face_dancers: vec![
                    TraitorCard::Leader(Leader::ThufirHawat),
                    TraitorCard::Leader(Leader::FeydRautha),
                ],
                revealed_face_dancers: revealed.iter().copied().map(TraitorCard::Leader).collect(),
                ..FactionSetup::default()
            },
        );
        let g = build_setup(&s);
        let (_, events) = ok(
            &g,
            &Command::faction(Atreides, Action::PlaySecretAlly { target: Tleilaxu }),
        );
        let got = events
            .iter()
            .find_map(|e| match e.event {
                EventKind::SecretAllyAnswered { answer, .. } => Some(answer),
                _ => None,
            })
            .unwrap();
        assert_eq!(got, answer, "revealed {revealed:?}");
    }
}

/// D-103: a card from outside deck and discard (Richese's cache) goes into
/// a hand; conservation counts the outside zone; refusals change nothing.
#[test]
fn issue13_3_a_cache_card_goes_into_a_hand() {
    let mut s = table();
    s.extra_cards = vec!["ornithopter".into()];
    s.outside = vec![CardId(33)];
    let g = build_setup(&s);
    assert_eq!(
        g.treachery().deck.len(),
        31,
        "the cache card is not shuffled into the deck"
    );
    assert_eq!(view(&g, Viewer::Spectator).treachery.outside, [CardId(33)]);
    let take = host(Action::TakeOutsideCard {
        faction: Harkonnen,
        card: CardId(33),
    });
    let (next, events) = ok(&g, &take);
    assert_eq!(
        kinds(&events),
        [&EventKind::OutsideCardTaken {
            faction: Harkonnen,
            card: CardId(33)
        }]
    );
    assert_eq!(next.faction(Harkonnen).unwrap().hand, [CardId(33)]);
    assert!(next.treachery().outside.is_empty());
    assert_rejected(&next, &take, "rule/card_not_outside");
    let not_outside = host(Action::TakeOutsideCard {
        faction: Harkonnen,
        card: CardId(3),
    });
    assert_rejected(&g, &not_outside, "rule/card_not_outside");
    // A card both outside and in the deck is in two places.
    let mut bad = s.clone();
    bad.deck = Some((0..34).map(CardId).collect());
    bad.factions.get_mut(&Atreides).unwrap().hand.clear();
    let e = bad.build().unwrap_err();
    assert!(
        e.problems()
            .iter()
            .any(|p| p.message.contains("card 33 is in two places")),
        "{:?}",
        e.problems()
    );
}

/// D-104: extra leaders a setup declares (the Kwisatz Haderach for the
/// Atreides, CHOAM's Auditor) have custody like any leader, cross exports
/// and reconciles, and show on no Traitor card.
#[test]
fn issue13_3_extra_leaders_declared_by_a_setup() {
    let mut s = Setup::for_seats(&[Ecaz, Atreides, Faction::Choam, Harkonnen], 2);
    s.factions.insert(
        Atreides,
        FactionSetup {
            extra_leaders: vec![Leader::KwisatzHaderach],
            leaders: vec![LeaderState {
                leader: Leader::KwisatzHaderach,
                custody: LeaderCustody::Tanks,
            }],
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Choam,
        FactionSetup {
            extra_leaders: vec![Leader::ChoamAuditor],
            ..FactionSetup::default()
        },
    );
    let g = build_setup(&s);
    let at = view(&g, Viewer::Spectator);
    let atreides = at.factions.iter().find(|x| x.faction == Atreides).unwrap();
    assert_eq!(atreides.leaders.len(), 6);
    assert_eq!(atreides.leaders[5].custody, LeaderCustody::Tanks);
    let (g2, events) = ok(
        &g,
        &host(Action::SetLeader {
            leader: Leader::ChoamAuditor,
            custody: LeaderCustody::Captured { by: Harkonnen },
        }),
    );
    assert_eq!(events.len(), 1);
    assert_round_trip(&g2);
    assert_rejected(
        &g,
        &host(Action::SetTraitors {
            faction: Harkonnen,
            traitors: vec![TraitorCard::Leader(Leader::KwisatzHaderach)],
        }),
        "rule/traitor_unavailable",
    );
    // Undeclared, or declared for another faction: refused, every problem listed.
    let mut bad = Setup::for_seats(&[Atreides, Harkonnen], 1);
    bad.factions.insert(
        Harkonnen,
        FactionSetup {
            extra_leaders: vec![Leader::KwisatzHaderach],
            leaders: vec![LeaderState {
                leader: Leader::ChoamAuditor,
                custody: LeaderCustody::Tanks,
            }],
            ..FactionSetup::default()
        },
    );
    let e = bad.build().unwrap_err();
    let paths: Vec<&str> = e.problems().iter().map(|p| p.path.as_str()).collect();
    assert!(paths.contains(&"factions.harkonnen.extraLeaders"), "{paths:?}");
    assert!(paths.contains(&"factions.harkonnen.leaders"), "{paths:?}");
    // The extra leaders cross an export and a reconcile unchanged.
    let back = Setup::export(&g2).unwrap().build().unwrap();
    assert_eq!(json(&back), json(&g2));
    let (synced, events) = ok(&g2, &sync(&g2));
    assert!(matches!(&events[0].event, EventKind::TableSynced { differences } if differences.is_empty()));
    let mut g2_next = json_value(&g2);
    advance_revision(&mut g2_next, 1);
    assert_eq!(json_value(&synced), g2_next);
}

// ---------------------------------------------------------------------------
// Item 4: export at a quiet moment
// ---------------------------------------------------------------------------

/// D-105: a quiet moment holding everything a Setup used to lose —
/// private knowledge, the Duke's tenure, the alliance's start turn, the
/// open placement window, id counters, the RNG — exports and imports back
/// equal; a moment that is not quiet is refused.
#[test]
fn issue13_4_export_keeps_what_an_import_used_to_lose() {
    let mut s = table();
    s.phase = Some(Phase::Revival);
    s.turn = Some(3);
    s.factions.get_mut(&Atreides).unwrap().ally = Some(Ecaz);
    s.factions.get_mut(&Atreides).unwrap().ally_since = Some(2);
    s.factions.insert(
        Ecaz,
        FactionSetup {
            ally: Some(Atreides),
            ally_since: Some(2),
            ..FactionSetup::default()
        },
    );
    s.duke = Some(ecaz::DukeCustody::Controlled {
        by: Ecaz,
        source: ecaz::DukeSource::EcazAmbassador,
    });
    s.duke_since = Some(2);
    s.duke_battle_turn = Some(2);
    s.knowledge = vec![ecaz::Knowledge {
        viewer: Harkonnen,
        about: Atreides,
        turn: 2,
        info: ecaz::Insight::Hand { cards: vec![CardId(0)] },
    }];
    let g = build_setup(&s);
    let (g, _) = walk_to_revival_end(&g);
    assert!(placement_open(&g));
    let exported = Setup::export(&g).unwrap();
    let text = serde_json::to_string(&exported).unwrap();
    let back = ecaz::setup_from_json(&text).unwrap().build().unwrap();
    assert_eq!(json(&back), json(&g));
    assert_eq!(ecaz::export_setup_json(&json(&g)).unwrap(), text);
    let (busy, _) = announce(&g, Ambassador::Ecaz, Territory::Carthag);
    assert_eq!(Setup::export(&busy).unwrap_err().code(), "state/not_quiet");
}

// ---------------------------------------------------------------------------
// Item 5: why, not only what
// ---------------------------------------------------------------------------

/// D-106: a trigger offer previews, per beneficiary, what the token
/// would do — for the Ecaz token the branches (take the Duke, form the
/// alliance, or both for Ecaz to pick after the trigger).
#[test]
fn issue13_5_a_trigger_offer_previews_each_beneficiary() {
    let mut s = table();
    let a = s.ambassadors.as_mut().unwrap();
    a.zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    a.zones.remove(&Ambassador::Emperor);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &atreides_into_arrakeen());
    let o = options(&g, Actor::Faction(Ecaz));
    assert_eq!(o.previews.len(), 1);
    let p = &o.previews[0];
    assert_eq!((p.beneficiary, p.effect, p.possible), (Ecaz, Ambassador::Ecaz, true));
    assert_eq!(p.branches, [EcazBranch::Duke, EcazBranch::Alliance]);
    // Allied with Harkonnen: two beneficiaries, and no alliance branch.
    s.factions.insert(
        Harkonnen,
        FactionSetup {
            ally: Some(Ecaz),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Ecaz,
        FactionSetup {
            ally: Some(Harkonnen),
            ..FactionSetup::default()
        },
    );
    let g = build_setup(&s);
    let (g, _) = ok(&g, &atreides_into_arrakeen());
    let o = options(&g, Actor::Faction(Ecaz));
    let got: Vec<(Faction, Vec<EcazBranch>)> = o.previews.iter().map(|p| (p.beneficiary, p.branches.clone())).collect();
    assert_eq!(
        got,
        [(Ecaz, vec![EcazBranch::Duke]), (Harkonnen, vec![EcazBranch::Duke])]
    );
}

/// D-106: placement lists its blocked choices with reason codes —
/// a stronghold in the storm, a token not in supply, a stronghold holding a
/// token — each refused by `apply` with exactly that code.
#[test]
fn issue13_5_blocked_placements_say_why() {
    let mut s = table();
    s.storm = Some(11);
    s.shield_wall_standing = Some(false);
    s.phase = Some(Phase::Revival);
    s.placement_open = true;
    let g = build_setup(&s);
    let o = options(&g, Actor::Faction(Ecaz));
    let frame = open_id(&g);
    let reason = |token, territory| {
        o.blocked
            .iter()
            .find(|b| {
                b.command.action
                    == Action::Place {
                        frame,
                        token,
                        territory,
                    }
            })
            .map(|b| b.code)
    };
    assert_eq!(
        reason(Ambassador::Ecaz, Territory::Carthag).as_deref(),
        Some("rule/stronghold_in_storm")
    );
    assert_eq!(
        reason(Ambassador::Atreides, Territory::TueksSietch).as_deref(),
        Some("rule/token_not_in_supply")
    );
    assert_eq!(
        reason(Ambassador::Ecaz, Territory::Arrakeen).as_deref(),
        Some("rule/stronghold_has_ambassador")
    );
    assert_eq!(
        reason(Ambassador::Ecaz, Territory::TueksSietch),
        None,
        "legal: listed, not blocked"
    );
    for b in &o.blocked {
        assert_eq!(apply(&g, &b.command).unwrap_err().code(), b.code);
        assert!(!o.commands.contains(&b.command));
    }
}

/// What `viewer` cannot know, changed: other factions' spice and hand
/// identities (a card swapped with the deck), the deck order, the RNG.
fn other_world(g: &Game, viewer: Faction) -> Game {
    let mut v = json_value(g);
    for (i, f) in g.seats().iter().enumerate() {
        if *f == viewer {
            continue;
        }
        let spice = v["factions"][i]["spice"].as_u64().unwrap();
        v["factions"][i]["spice"] = Value::from(spice + 7);
        let top = v["treachery"]["deck"][0].clone();
        if !top.is_null() && !v["factions"][i]["hand"].as_array().unwrap().is_empty() {
            let mine = v["factions"][i]["hand"][0].clone();
            v["factions"][i]["hand"][0] = top;
            v["treachery"]["deck"][0] = mine;
        }
    }
    v["treachery"]["deck"].as_array_mut().unwrap().reverse();
    v["rng"]["state"] = Value::from("0x0123456789abcdef");
    ecaz::game_from_json(&v.to_string()).unwrap()
}

/// D-106: no blocked reason and no preview differs between worlds
/// that differ only in facts hidden from the actor (every saved fixture,
/// every seated actor).
#[test]
fn issue13_5_blocked_reasons_never_depend_on_hidden_facts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format/v1");
    let mut games: Vec<(String, Game)> = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if path.to_string_lossy().ends_with(".state.json") {
            let g = ecaz::game_from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            games.push((path.display().to_string(), g));
        }
    }
    // Placement with blocked strongholds; an offer to Ecaz and its ally, the
    // ally with an empty hand (the Ixian token is unavailable to it).
    let mut s = table();
    s.storm = Some(11);
    s.shield_wall_standing = Some(false);
    s.phase = Some(Phase::Revival);
    s.placement_open = true;
    games.push(("placement".into(), build_setup(&s)));
    for token in [Ambassador::Ixians, Ambassador::Ecaz, Ambassador::Choam] {
        let mut s = table();
        let a = s.ambassadors.as_mut().unwrap();
        a.zones.remove(&Ambassador::Emperor);
        a.zones.insert(
            token,
            Zone::Placed {
                territory: Territory::Arrakeen,
            },
        );
        s.factions.insert(
            Harkonnen,
            FactionSetup {
                ally: Some(Ecaz),
                ..FactionSetup::default()
            },
        );
        s.factions.insert(
            Ecaz,
            FactionSetup {
                ally: Some(Harkonnen),
                hand: vec![CardId(7)],
                ..FactionSetup::default()
            },
        );
        let g = build_setup(&s);
        let (g, _) = ok(&g, &atreides_into_arrakeen());
        games.push((format!("offer {token}"), g));
    }
    let mut compared = 0;
    let mut with_reasons = 0;
    for (path, g) in games {
        for &actor in g.seats() {
            let other = other_world(&g, actor);
            let (a, b) = (
                options(&g, Actor::Faction(actor)),
                options(&other, Actor::Faction(actor)),
            );
            assert_eq!(a.blocked, b.blocked, "{path} {actor}");
            assert_eq!(a.previews, b.previews, "{path} {actor}");
            compared += 1;
            with_reasons += usize::from(!a.blocked.is_empty());
        }
    }
    assert!(compared > 50 && with_reasons >= 3, "{compared} {with_reasons}");
}
