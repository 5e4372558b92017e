//! Duke Vidal and the Ecaz Ambassador effect : RULES §6 (R-DUKE-1..4),
//! R-EFF-ECAZ (a) take the Duke / (b) the alliance, P-ECAZ-ALLY,
//! P-DUKE-LOAN, P-DUKE-REVIVED, P-UNAVAILABLE, R-TRG-6, and the host's Duke
//! reports. Every rejection goes through `assert_rejected` (code + the state
//! byte-identical + `validate` agreeing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::{
    game_from_json, Action, Actor, Ambassador, AmbassadorsSetup, Cause, Command, Decision, DukeCustody, DukeReason,
    DukeRevived, DukeSource, EcazBranch, Event, EventKind, Faction, FactionSetup, Game, GameOptions, Leader, Origin,
    Phase, Setup, Territory, Unavailable, Viewer, Zone,
};

const COHORT: [Ambassador; 5] = [
    Ambassador::Atreides,
    Ambassador::BeneGesserit,
    Ambassador::Choam,
    Ambassador::Emperor,
    Ambassador::Fremen,
];

/// Ecaz, Atreides, Harkonnen, Moritani at Shipment & Movement of turn 1, the
/// Ecaz token placed in Arrakeen, a fixed cohort; nobody allied, the Duke set aside.
fn table() -> Setup {
    table_with(&[
        Faction::Ecaz,
        Faction::Atreides,
        Faction::Harkonnen,
        Faction::Moritani,
        Faction::Tleilaxu,
    ])
}

fn table_with(seats: &[Faction]) -> Setup {
    let mut s = setup(seats, 4);
    s.phase = Some(Phase::ShipmentMovement);
    let mut zones = BTreeMap::new();
    if seats.contains(&Faction::Ecaz) {
        zones.insert(
            Ambassador::Ecaz,
            Zone::Placed {
                territory: Territory::Arrakeen,
            },
        );
        s.ambassadors = Some(AmbassadorsSetup {
            cohort: COHORT.to_vec(),
            zones,
            ..AmbassadorsSetup::default()
        });
    }
    s
}

fn with_duke(mut s: Setup, custody: DukeCustody) -> Setup {
    s.duke = Some(custody);
    s
}

fn allied(mut s: Setup, a: Faction, b: Faction) -> Setup {
    s.factions.entry(a).or_default().ally = Some(b);
    s.factions.entry(b).or_default().ally = Some(a);
    s
}

fn controlled(by: Faction, source: DukeSource) -> DukeCustody {
    DukeCustody::Controlled { by, source }
}

fn ecaz_holds() -> DukeCustody {
    controlled(Faction::Ecaz, DukeSource::EcazAmbassador)
}

/// The host reports `entrant` shipping one force from reserves into Arrakeen (10).
fn enter_cmd(entrant: Faction) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory: Territory::Arrakeen,
        sector: 10,
        normal: 1,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

fn enter(g: &Game, entrant: Faction) -> (Game, Vec<Event>) {
    ok(g, &enter_cmd(entrant))
}

fn decision(g: &Game) -> Decision {
    g.open_frame().expect("a frame is open").decision.clone()
}

fn frame_actor(g: &Game) -> Actor {
    g.open_frame().expect("a frame is open").actor
}

fn trigger_cmd(g: &Game, beneficiary: Faction) -> Command {
    ecaz(Action::Trigger {
        frame: open_id(g),
        beneficiary,
    })
}

fn trigger(g: &Game, beneficiary: Faction) -> (Game, Vec<Event>) {
    ok(g, &trigger_cmd(g, beneficiary))
}

fn branch_cmd(g: &Game, branch: EcazBranch) -> Command {
    ecaz(Action::ChooseBranch {
        frame: open_id(g),
        branch,
    })
}

fn answer_cmd(g: &Game, by: Faction, accept: bool) -> Command {
    Command::faction(
        by,
        Action::AnswerAlliance {
            frame: open_id(g),
            accept,
        },
    )
}

fn lend_cmd(g: &Game, lend: bool) -> Command {
    ecaz(Action::LendDuke {
        frame: open_id(g),
        lend,
    })
}

fn duke(g: &Game) -> DukeCustody {
    g.duke().custody
}

fn ally_of(g: &Game, f: Faction) -> Option<Faction> {
    g.faction(f).expect("seated").ally
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

fn resumes(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.event, EventKind::Resume { .. }))
        .count()
}

/// Every viewer (each seat, a spectator, the host) sees the Duke's custody.
fn assert_everyone_sees_duke(g: &Game) {
    let mut viewers: Vec<Viewer> = g.seats().iter().map(|&f| Viewer::Faction(f)).collect();
    viewers.push(Viewer::Spectator);
    viewers.push(Viewer::Host);
    for v in viewers {
        assert_eq!(view(g, v).duke, g.duke().custody, "{v} sees another Duke custody");
    }
}

/// A state edit (a host importing a game mid-decision); the edited state must load.
fn edited(g: &Game, edit: impl FnOnce(&mut serde_json::Value)) -> Game {
    let mut v = json_value(g);
    edit(&mut v);
    match game_from_json(&v.to_string()) {
        Ok(g) => g,
        Err(e) => panic!("edited state rejected: {} {:?}", e.code(), e.problems()),
    }
}

fn with_duke_custody(g: &Game, custody: DukeCustody) -> Game {
    edited(g, |v| v["duke"]["custody"] = serde_json::to_value(custody).unwrap())
}

/// Harkonnen enters Arrakeen, Ecaz triggers its own token for itself: both
/// branches are possible, so the branch frame opens.
fn at_branch_frame() -> Game {
    let (g, _) = enter(&build_setup(&table()), Faction::Harkonnen);
    let (g, _) = trigger(&g, Faction::Ecaz);
    assert!(matches!(decision(&g), Decision::EcazBranch { .. }));
    g
}

fn at_alliance_offer() -> Game {
    let g = at_branch_frame();
    let (g, _) = ok(&g, &branch_cmd(&g, EcazBranch::Alliance));
    assert!(matches!(decision(&g), Decision::AllianceOffer { .. }));
    g
}

fn at_loan_frame(s: &Setup) -> Game {
    let (g, _) = enter(&build_setup(s), Faction::Harkonnen);
    let (mut g, _) = trigger(&g, Faction::Ecaz);
    if matches!(decision(&g), Decision::EcazBranch { .. }) {
        g = ok(&g, &branch_cmd(&g, EcazBranch::Alliance)).0;
    }
    let (g, _) = ok(&g, &answer_cmd(&g, Faction::Harkonnen, true));
    assert!(
        matches!(
            decision(&g),
            Decision::DukeLoan {
                ally: Faction::Harkonnen,
                ..
            }
        ),
        "{:?}",
        g.open_frame()
    );
    g
}

// ---- R-DUKE-1 ----

#[test]
fn r_duke_1_starts_set_aside_with_no_controller() {
    for seats in [
        vec![Faction::Ecaz, Faction::Atreides],
        vec![Faction::Atreides, Faction::Harkonnen],
        vec![Faction::Moritani, Faction::Ecaz, Faction::Tleilaxu],
    ] {
        let g = build(&seats, 1);
        assert_eq!(duke(&g), DukeCustody::SetAside);
        assert_eq!(g.duke().controller(), None);
        assert_eq!(g.duke().before_loan, None);
        assert!(g.duke().available());
        assert_everyone_sees_duke(&g);
    }
}

#[test]
fn r_duke_1_not_a_leader_no_roster_no_traitor_card() {
    // The wire schema's Leader enum (which Traitor cards, Face Dancers and
    // rosters use) has the 60 faction leaders, the 2 extra leaders a setup
    // may declare (D-104: CHOAM's Auditor, the Kwisatz Haderach) and no
    // Duke Vidal.
    let mut checked = 0;
    for (name, schema) in ecaz::schema::all() {
        let v = serde_json::to_value(&schema).unwrap();
        let Some(leader) = v.get("$defs").and_then(|d| d.get("Leader")) else {
            continue;
        };
        let values: Vec<String> = leader["oneOf"]
            .as_array()
            .expect("Leader is a oneOf of consts")
            .iter()
            .map(|x| x["const"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(values.len(), 62, "{name}: 60 leaders and 2 extra ones");
        assert!(
            values.iter().all(|l| !l.contains("vidal")),
            "{name}: the Leader enum names Duke Vidal: {values:?}"
        );
        checked += 1;
    }
    assert!(checked >= 2, "the setup and game schemas define Leader");
    assert_eq!(Leader::ALL.len(), 60);
    assert!(serde_json::from_str::<Leader>("\"duke_vidal\"").is_err());
    assert!(serde_json::from_str::<Leader>("\"vidal\"").is_err());
    // No roster holds him: each faction has its own five, all native.
    let g = build(&[Faction::Ecaz, Faction::Moritani, Faction::Harkonnen], 2);
    for s in g.seats() {
        let f = g.faction(*s).unwrap();
        assert_eq!(f.leaders.len(), 5);
        assert!(f.leaders.iter().all(|l| l.leader.faction() == *s));
    }
    // A Traitor card naming him cannot even be written down.
    let text = r#"{"seats":["ecaz","harkonnen"],"factions":{"harkonnen":{"traitors":["duke_vidal"]}}}"#;
    let err = ecaz::setup_from_json(text).expect_err("no Duke Vidal Traitor card");
    assert_eq!(err.code(), "decode/invalid_setup");
    assert_eq!(ecaz::DUKE_VIDAL_STRENGTH, 6);
}

// ---- R-EFF-ECAZ (a): take the Duke ----

#[test]
fn r_eff_ecaz_a_take_set_aside_duke_when_only_branch() {
    // The entrant is allied elsewhere: only branch (a) — it runs at once.
    let s = allied(table(), Faction::Harkonnen, Faction::Atreides);
    let (g, events) = enter(&build_setup(&s), Faction::Harkonnen);
    assert!(matches!(decision(&g), Decision::TriggerOffer { .. }));
    assert_eq!(resumes(&events), 0);
    let (g, events) = trigger(&g, Faction::Ecaz);
    assert!(g.open_frame().is_none(), "no branch frame with one branch");
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(duke_moves(&events), vec![(ecaz_holds(), DukeReason::Ambassador)]);
    assert_eq!(
        kind_names(&events),
        vec!["ambassadorTriggered", "dukeMoved", "effectResolved", "resume"]
    );
    // R-TRG-6: the Ecaz token goes back to supply; nothing else changed.
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    assert!(events.iter().any(|e| matches!(
        e.event,
        EventKind::AmbassadorTriggered {
            token: Ambassador::Ecaz,
            disposal: Zone::Supply,
            ..
        }
    )));
    assert_eq!(ally_of(&g, Faction::Ecaz), None);
    assert!(events.iter().all(|e| e.visible_to(Viewer::Spectator)));
    assert_everyone_sees_duke(&g);
    assert_round_trip(&g);
}

#[test]
fn r_eff_ecaz_a_branch_frame_choose_duke_exactly_one_branch() {
    let g = at_branch_frame();
    assert_eq!(frame_actor(&g), Actor::Faction(Faction::Ecaz));
    let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    let id = open_id(&g);
    assert_eq!(
        listed,
        vec![
            Action::ChooseBranch {
                frame: id,
                branch: EcazBranch::Duke
            },
            Action::ChooseBranch {
                frame: id,
                branch: EcazBranch::Alliance
            },
        ]
    );
    // The token already went back to supply at the trigger (R-TRG-6).
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    let (g, events) = ok(&g, &branch_cmd(&g, EcazBranch::Duke));
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(kind_names(&events), vec!["dukeMoved", "effectResolved", "resume"]);
    // Exactly one branch: no alliance offer, no alliance.
    assert!(g.open_frame().is_none());
    assert_eq!(ally_of(&g, Faction::Ecaz), None);
    assert_eq!(ally_of(&g, Faction::Harkonnen), None);
    assert!(g.open_arrivals().is_empty());
}

#[test]
fn r_eff_ecaz_a_take_from_another_controller_moritani() {
    let s = allied(
        with_duke(table(), controlled(Faction::Moritani, DukeSource::Moritani)),
        Faction::Harkonnen,
        Faction::Atreides,
    );
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let (g, events) = trigger(&g, Faction::Ecaz);
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(duke_moves(&events), vec![(ecaz_holds(), DukeReason::Ambassador)]);
    // Ambassador tenure: until used in a battle, so the turn end keeps him with Ecaz.
    let g = walk_to_next_turn(&g);
    assert_eq!(duke(&g), ecaz_holds());
    assert_everyone_sees_duke(&g);
}

#[test]
fn r_eff_ecaz_a_unavailable_duke_goes_straight_to_the_alliance_offer() {
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Atreides },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
        ecaz_holds(),
    ] {
        let (g, _) = enter(&build_setup(&with_duke(table(), custody)), Faction::Harkonnen);
        let (g, events) = trigger(&g, Faction::Ecaz);
        assert_eq!(
            decision(&g),
            Decision::AllianceOffer {
                arrival: ecaz::ArrivalId(1),
                entrant: Faction::Harkonnen
            },
            "{custody:?}: no branch frame when (a) is unavailable"
        );
        assert!(duke_moves(&events).is_empty());
        assert_eq!(duke(&g), custody);
        // Ecaz cannot pick the Duke branch on the entrant's frame.
        assert_rejected(
            &g,
            &ecaz(Action::ChooseBranch {
                frame: open_id(&g),
                branch: EcazBranch::Duke,
            }),
            "rule/not_your_decision",
        );
        assert_rejected(
            &g,
            &Command::faction(
                Faction::Harkonnen,
                Action::ChooseBranch {
                    frame: open_id(&g),
                    branch: EcazBranch::Duke,
                },
            ),
            "rule/wrong_decision",
        );
    }
}

#[test]
fn r_eff_ecaz_a_duke_branch_refused_when_unavailable() {
    // A game imported with the branch frame open and the Duke since gone to
    // the Tanks, captured or made a ghola (or already Ecaz's).
    let g = at_branch_frame();
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Atreides },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
        ecaz_holds(),
    ] {
        let g = with_duke_custody(&g, custody);
        let err = assert_rejected(&g, &branch_cmd(&g, EcazBranch::Duke), "rule/branch_unavailable");
        assert_eq!(err.rule(), Some("R-EFF-ECAZ"));
        let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
            .commands
            .into_iter()
            .map(|c| c.action)
            .collect();
        assert_eq!(
            listed,
            vec![Action::ChooseBranch {
                frame: open_id(&g),
                branch: EcazBranch::Alliance
            }],
            "{custody:?}"
        );
        let (after, _) = ok(&g, &branch_cmd(&g, EcazBranch::Alliance));
        assert!(matches!(decision(&after), Decision::AllianceOffer { .. }));
    }
}

#[test]
fn p_unavailable_no_offer_when_neither_branch_is_possible() {
    // Duke unavailable and the entrant allied elsewhere: the Ecaz token cannot
    // be triggered, so no offer opens and the arrival resumes at once.
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Atreides },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
        ecaz_holds(),
    ] {
        let s = allied(with_duke(table(), custody), Faction::Harkonnen, Faction::Atreides);
        let g = build_setup(&s);
        let (after, events) = enter(&g, Faction::Harkonnen);
        assert!(after.open_frame().is_none(), "{custody:?}: no offer");
        assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
        assert_eq!(zone(&after, Ambassador::Ecaz), placed(Territory::Arrakeen));
        assert_eq!(duke(&after), custody);
        assert_rejected(
            &after,
            &ecaz(Action::Trigger {
                frame: ecaz::FrameId(1),
                beneficiary: Faction::Ecaz,
            }),
            "rule/stale_frame",
        );
    }
    // Same when Ecaz is the allied one (no alliance branch) and the Duke is in the Tanks.
    let s = allied(with_duke(table(), DukeCustody::Tanks), Faction::Ecaz, Faction::Atreides);
    let (after, events) = enter(&build_setup(&s), Faction::Harkonnen);
    assert!(after.open_frame().is_none());
    assert_eq!(kind_names(&events), vec!["arrived", "resume"]);
}

#[test]
fn p_unavailable_always_triggerable_resolves_doing_nothing() {
    let mut s = allied(
        with_duke(table(), DukeCustody::Tanks),
        Faction::Harkonnen,
        Faction::Atreides,
    );
    s.policies.unavailable = Unavailable::AlwaysTriggerable;
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    assert!(matches!(decision(&g), Decision::TriggerOffer { .. }));
    let (g, events) = trigger(&g, Faction::Ecaz);
    assert_eq!(
        kind_names(&events),
        vec!["ambassadorTriggered", "effectResolved", "resume"]
    );
    assert_eq!(duke(&g), DukeCustody::Tanks);
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
}

#[test]
fn r_trg_1_decline_still_works_with_an_unavailable_duke() {
    for custody in [DukeCustody::Tanks, DukeCustody::Captured { by: Faction::Atreides }] {
        let g = build_setup(&with_duke(table(), custody));
        let (g, _) = enter(&g, Faction::Harkonnen);
        let Decision::TriggerOffer { beneficiaries, .. } = decision(&g) else {
            panic!("an offer (the alliance branch is possible)");
        };
        assert_eq!(beneficiaries, vec![Faction::Ecaz]);
        let (g, events) = ok(&g, &ecaz(Action::Decline { frame: open_id(&g) }));
        assert_eq!(kind_names(&events), vec!["triggerDeclined", "resume"]);
        assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::Arrakeen));
        assert_eq!(duke(&g), custody);
        assert_eq!(ally_of(&g, Faction::Ecaz), None);
    }
}

#[test]
fn r_eff_ecaz_a_beneficiary_already_controls_him() {
    // Ecaz's ally holds the Duke: only Ecaz may benefit; naming the ally is refused.
    let s = allied(
        with_duke(table(), controlled(Faction::Atreides, DukeSource::EcazAmbassador)),
        Faction::Ecaz,
        Faction::Atreides,
    );
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let Decision::TriggerOffer { beneficiaries, .. } = decision(&g) else {
        panic!("an offer");
    };
    assert_eq!(beneficiaries, vec![Faction::Ecaz]);
    let err = assert_rejected(&g, &trigger_cmd(&g, Faction::Atreides), "rule/effect_unavailable");
    assert_eq!(err.rule(), Some("P-UNAVAILABLE"));
    let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    assert_eq!(listed.len(), 2, "decline + trigger for Ecaz: {listed:?}");
    // Ecaz takes him from its ally.
    let (g, _) = trigger(&g, Faction::Ecaz);
    assert_eq!(duke(&g), ecaz_holds());
    // Now Ecaz holds him: an Ecaz-only offer is impossible, the ally's is fine.
    let (g, _) = ok(
        &g,
        &host(Action::Arrive {
            entrant: Faction::Moritani,
            cause: Cause::Shipment,
            from: Origin::Reserves,
            territory: Territory::Arrakeen,
            sector: 10,
            normal: 1,
            elite: 0,
            advisors: false,
            parent: None,
            reactions_first: false,
        }),
    );
    assert!(g.open_frame().is_none(), "the token is in supply: no offer");
}

// ---- P-ECAZ-ALLY ----

#[test]
fn p_ecaz_ally_ally_beneficiary_takes_the_duke_until_battle_use() {
    let s = allied(table(), Faction::Ecaz, Faction::Atreides);
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let Decision::TriggerOffer { beneficiaries, .. } = decision(&g) else {
        panic!("an offer");
    };
    assert_eq!(beneficiaries, vec![Faction::Ecaz, Faction::Atreides]);
    let (g, events) = trigger(&g, Faction::Atreides);
    // The alliance branch is Ecaz's own (and Ecaz is allied): the Duke is taken at once.
    assert!(g.open_frame().is_none());
    let held = controlled(Faction::Atreides, DukeSource::EcazAmbassador);
    assert_eq!(duke(&g), held);
    assert_eq!(duke_moves(&events), vec![(held, DukeReason::Ambassador)]);
    assert!(events.iter().any(|e| matches!(
        e.event,
        EventKind::EffectResolved {
            effect: Ambassador::Ecaz,
            beneficiary: Faction::Atreides,
            ..
        }
    )));
    assert_eq!(ally_of(&g, Faction::Harkonnen), None);
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    // Kept through the turn end …
    let g = walk_to_next_turn(&g);
    assert_eq!(duke(&g), held);
    // … until used in a battle.
    let (g, events) = ok(&g, &host(Action::DukeUsedInBattle {}));
    assert_eq!(duke(&g), DukeCustody::SetAside);
    assert_eq!(
        duke_moves(&events),
        vec![(DukeCustody::SetAside, DukeReason::BattleUse)]
    );
}

#[test]
fn p_ecaz_ally_alliance_branch_is_never_the_allys() {
    // A branch frame whose beneficiary is Ecaz's ally (an import; a
    // beneficiary neither Ecaz nor its ally never loads, D-75):
    // the alliance branch is refused, the Duke branch goes to that beneficiary.
    let g = at_branch_frame();
    let g = edited(&g, |v| {
        let last = v["pending"].as_array_mut().unwrap().last_mut().unwrap();
        last["decision"]["beneficiary"] = serde_json::json!("atreides");
        v["factions"][0]["ally"] = serde_json::json!("atreides");
        v["factions"][1]["ally"] = serde_json::json!("ecaz");
    });
    assert_rejected(&g, &branch_cmd(&g, EcazBranch::Alliance), "rule/branch_unavailable");
    let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    assert_eq!(
        listed,
        vec![Action::ChooseBranch {
            frame: open_id(&g),
            branch: EcazBranch::Duke
        }]
    );
    let (g, _) = ok(&g, &branch_cmd(&g, EcazBranch::Duke));
    assert_eq!(duke(&g), controlled(Faction::Atreides, DukeSource::EcazAmbassador));
}

// ---- R-EFF-ECAZ (b): the alliance ----

#[test]
fn r_eff_ecaz_b_only_the_entrant_answers() {
    let g = at_alliance_offer();
    assert_eq!(frame_actor(&g), Actor::Faction(Faction::Harkonnen));
    for by in [Faction::Ecaz, Faction::Atreides, Faction::Moritani] {
        for accept in [true, false] {
            assert_rejected(&g, &answer_cmd(&g, by, accept), "rule/not_your_decision");
        }
    }
    assert_rejected(
        &g,
        &host(Action::AnswerAlliance {
            frame: open_id(&g),
            accept: true,
        }),
        "rule/not_your_decision",
    );
    assert_rejected(&g, &answer_cmd(&g, Faction::Fremen, true), "rule/not_seated");
    // Ecaz has nothing to do; the entrant may accept or refuse.
    assert!(options(&g, Actor::Faction(Faction::Ecaz)).commands.is_empty());
    let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Harkonnen))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    assert_eq!(
        listed,
        vec![
            Action::AnswerAlliance {
                frame: open_id(&g),
                accept: false
            },
            Action::AnswerAlliance {
                frame: open_id(&g),
                accept: true
            },
        ]
    );
}

#[test]
fn r_eff_ecaz_b_refusal_forms_nothing_and_token_is_back_in_supply() {
    let g = at_alliance_offer();
    let (g, events) = ok(&g, &answer_cmd(&g, Faction::Harkonnen, false));
    assert_eq!(kind_names(&events), vec!["allianceRefused", "effectResolved", "resume"]);
    assert!(events.iter().any(|e| e.event
        == EventKind::AllianceRefused {
            entrant: Faction::Harkonnen
        }));
    assert_eq!(ally_of(&g, Faction::Ecaz), None);
    assert_eq!(ally_of(&g, Faction::Harkonnen), None);
    assert_eq!(duke(&g), DukeCustody::SetAside, "exactly one branch: no Duke either");
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    assert!(g.open_frame().is_none());
    assert!(g.open_arrivals().is_empty());
}

#[test]
fn r_eff_ecaz_b_acceptance_allies_both_and_discards_their_nexus_cards() {
    let mut s = table();
    s.options = GameOptions {
        advanced: false,
        nexus: true,
        ..GameOptions::default()
    };
    s.factions.entry(Faction::Ecaz).or_default().nexus = Some(Faction::Richese);
    s.factions.entry(Faction::Harkonnen).or_default().nexus = Some(Faction::Atreides);
    s.factions.entry(Faction::Atreides).or_default().nexus = Some(Faction::Ixians);
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let (g, _) = trigger(&g, Faction::Ecaz);
    let (g, _) = ok(&g, &branch_cmd(&g, EcazBranch::Alliance));
    let discard_before = g.nexus().discard.len();
    let (g, events) = ok(&g, &answer_cmd(&g, Faction::Harkonnen, true));
    assert_eq!(
        kind_names(&events),
        vec!["nexusDiscarded", "nexusDiscarded", "allianceFormed", "decisionOpened"]
    );
    assert!(events.iter().any(|e| e.event
        == EventKind::AllianceFormed {
            a: Faction::Ecaz,
            b: Faction::Harkonnen
        }));
    assert_eq!(ally_of(&g, Faction::Ecaz), Some(Faction::Harkonnen));
    assert_eq!(ally_of(&g, Faction::Harkonnen), Some(Faction::Ecaz));
    assert_eq!(g.faction(Faction::Ecaz).unwrap().nexus, None);
    assert_eq!(g.faction(Faction::Harkonnen).unwrap().nexus, None);
    assert_eq!(
        g.faction(Faction::Atreides).unwrap().nexus,
        Some(Faction::Ixians),
        "a third party keeps its card"
    );
    assert_eq!(g.nexus().discard.len(), discard_before + 2);
    assert!(g.nexus().discard.contains(&Faction::Richese));
    assert!(g.nexus().discard.contains(&Faction::Atreides));
    // Views: the alliance is public, the discards too.
    for v in [Viewer::Spectator, Viewer::Faction(Faction::Moritani)] {
        let seen = view(&g, v);
        let ecaz_view = seen.factions.iter().find(|f| f.faction == Faction::Ecaz).unwrap();
        assert_eq!(ecaz_view.ally, Some(Faction::Harkonnen));
        assert!(!ecaz_view.holds_nexus);
        assert!(seen.nexus.discard.contains(&Faction::Richese));
    }
    // Then the loan frame (the Duke is set aside, so he can be lent).
    assert!(matches!(
        decision(&g),
        Decision::DukeLoan {
            ally: Faction::Harkonnen,
            ..
        }
    ));
    assert_eq!(frame_actor(&g), Actor::Faction(Faction::Ecaz));
    assert_round_trip(&g);
}

#[test]
fn r_eff_ecaz_b_acceptance_without_nexus_module() {
    let g = at_alliance_offer();
    let (g, events) = ok(&g, &answer_cmd(&g, Faction::Harkonnen, true));
    assert_eq!(kind_names(&events), vec!["allianceFormed", "decisionOpened"]);
    assert_eq!(ally_of(&g, Faction::Ecaz), Some(Faction::Harkonnen));
    assert!(g.nexus().discard.is_empty());
}

#[test]
fn r_eff_ecaz_b_already_allied_parties_get_no_alliance_branch() {
    // Ecaz allied: the Duke branch runs at once (for Ecaz), never an offer.
    let s = allied(table(), Faction::Ecaz, Faction::Atreides);
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let (g, _) = trigger(&g, Faction::Ecaz);
    assert!(g.open_frame().is_none());
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(ally_of(&g, Faction::Harkonnen), None);
    // The entrant allied elsewhere: same.
    let s = allied(table(), Faction::Harkonnen, Faction::Moritani);
    let (g, _) = enter(&build_setup(&s), Faction::Harkonnen);
    let (g, _) = trigger(&g, Faction::Ecaz);
    assert!(g.open_frame().is_none());
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(ally_of(&g, Faction::Harkonnen), Some(Faction::Moritani));
}

// ---- P-DUKE-LOAN ----

#[test]
fn p_duke_loan_options_and_keep() {
    let g = at_loan_frame(&table());
    let listed: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    assert_eq!(
        listed,
        vec![
            Action::LendDuke {
                frame: open_id(&g),
                lend: false
            },
            Action::LendDuke {
                frame: open_id(&g),
                lend: true
            },
        ]
    );
    let (g, events) = ok(&g, &lend_cmd(&g, false));
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    assert_eq!(duke(&g), DukeCustody::SetAside);
    assert_eq!(ally_of(&g, Faction::Ecaz), Some(Faction::Harkonnen));
}

#[test]
fn p_duke_loan_set_aside_duke_lent_then_set_aside_again_at_turn_end() {
    let g = at_loan_frame(&table());
    let (g, events) = ok(&g, &lend_cmd(&g, true));
    let lent = controlled(Faction::Harkonnen, DukeSource::AllianceLoan);
    assert_eq!(duke(&g), lent);
    assert_eq!(g.duke().before_loan, Some(DukeCustody::SetAside));
    assert_eq!(duke_moves(&events), vec![(lent, DukeReason::Loan)]);
    assert_eq!(kind_names(&events), vec!["dukeMoved", "effectResolved", "resume"]);
    assert_everyone_sees_duke(&g);
    assert_round_trip(&g);
    // Still lent through the rest of the turn …
    let g = walk_to_phase(&g, Phase::Mentat);
    assert_eq!(duke(&g), lent);
    // … and the turn end (host endPhase through mentat) sends him back.
    let (g, events) = end_phase(&g);
    assert_eq!(g.turn(), 2);
    assert_eq!(duke(&g), DukeCustody::SetAside);
    assert_eq!(g.duke().before_loan, None);
    assert_eq!(
        duke_moves(&events),
        vec![(DukeCustody::SetAside, DukeReason::LoanEnded)]
    );
    assert_everyone_sees_duke(&g);
    // The alliance itself lasts.
    assert_eq!(ally_of(&g, Faction::Ecaz), Some(Faction::Harkonnen));
}

#[test]
fn p_duke_loan_ecaz_held_duke_returns_to_ecaz_at_turn_end() {
    let s = with_duke(table(), ecaz_holds());
    let g = at_loan_frame(&s);
    let (g, _) = ok(&g, &lend_cmd(&g, true));
    assert_eq!(duke(&g), controlled(Faction::Harkonnen, DukeSource::AllianceLoan));
    assert_eq!(g.duke().before_loan, Some(ecaz_holds()));
    let g = walk_to_next_turn(&g);
    assert_eq!(duke(&g), ecaz_holds(), "back with Ecaz, ambassador tenure intact");
    assert_eq!(g.duke().before_loan, None);
}

#[test]
fn p_duke_loan_r_duke_3_battle_use_ends_the_loan_and_sets_him_aside() {
    // D-51 (shared RULES P-DUKE-LOAN, R-DUKE-3): whoever held him before
    // the loan does not get him back after the ally's battle.
    for s in [table(), with_duke(table(), ecaz_holds())] {
        let g = at_loan_frame(&s);
        let (g, _) = ok(&g, &lend_cmd(&g, true));
        let g = walk_to_phase(&g, Phase::Battle);
        let (g, events) = ok(&g, &host(Action::DukeUsedInBattle {}));
        assert_eq!(duke(&g), DukeCustody::SetAside);
        assert_eq!(
            duke_moves(&events),
            vec![(DukeCustody::SetAside, DukeReason::BattleUse)]
        );
        assert_eq!(g.duke().before_loan, None);
        // Nothing more happens at the turn end.
        let (g2, events) = end_phase(&walk_to_phase(&g, Phase::Mentat));
        assert_eq!(duke(&g2), DukeCustody::SetAside);
        assert!(duke_moves(&events).is_empty());
    }
}

#[test]
fn p_duke_loan_no_loan_frame_when_he_cannot_be_lent() {
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Atreides },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
        controlled(Faction::Moritani, DukeSource::Moritani),
        controlled(Faction::Atreides, DukeSource::EcazAmbassador),
    ] {
        let (g, _) = enter(&build_setup(&with_duke(table(), custody)), Faction::Harkonnen);
        let (mut g, _) = trigger(&g, Faction::Ecaz);
        if matches!(decision(&g), Decision::EcazBranch { .. }) {
            g = ok(&g, &branch_cmd(&g, EcazBranch::Alliance)).0;
        }
        let (g, events) = ok(&g, &answer_cmd(&g, Faction::Harkonnen, true));
        assert!(g.open_frame().is_none(), "{custody:?}: no loan frame");
        assert_eq!(
            kind_names(&events),
            vec!["allianceFormed", "effectResolved", "resume"],
            "{custody:?}"
        );
        assert_eq!(duke(&g), custody);
        assert_eq!(ally_of(&g, Faction::Harkonnen), Some(Faction::Ecaz));
    }
}

#[test]
fn p_duke_loan_lend_refused_when_he_became_unavailable() {
    let g = at_loan_frame(&table());
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Atreides },
        controlled(Faction::Moritani, DukeSource::Moritani),
    ] {
        let g = with_duke_custody(&g, custody);
        let err = assert_rejected(&g, &lend_cmd(&g, true), "rule/duke_unavailable");
        assert_eq!(err.rule(), Some("R-DUKE-2"));
        assert_eq!(options(&g, Actor::Faction(Faction::Ecaz)).commands.len(), 1);
        let (after, _) = ok(&g, &lend_cmd(&g, false));
        assert_eq!(duke(&after), custody);
    }
}

// ---- Host reports (R-DUKE-2..4) ----

fn game_with_duke(custody: DukeCustody) -> Game {
    build_setup(&with_duke(table(), custody))
}

#[test]
fn r_duke_3_battle_use_ends_ambassador_tenure() {
    for by in [Faction::Ecaz, Faction::Atreides] {
        let g = game_with_duke(controlled(by, DukeSource::EcazAmbassador));
        let (g, events) = ok(&g, &host(Action::DukeUsedInBattle {}));
        assert_eq!(duke(&g), DukeCustody::SetAside);
        assert_eq!(
            duke_moves(&events),
            vec![(DukeCustody::SetAside, DukeReason::BattleUse)]
        );
        assert!(events.iter().all(|e| e.visible_to(Viewer::Spectator)));
        assert_rejected(&g, &host(Action::DukeUsedInBattle {}), "rule/duke_not_in_play");
    }
}

#[test]
fn r_duke_3_killed_goes_to_the_tanks() {
    let g = game_with_duke(ecaz_holds());
    let (g, events) = ok(&g, &host(Action::DukeKilled {}));
    assert_eq!(duke(&g), DukeCustody::Tanks);
    assert_eq!(duke_moves(&events), vec![(DukeCustody::Tanks, DukeReason::Killed)]);
    assert_everyone_sees_duke(&g);
    // In the Tanks he is not in play.
    for report in [
        Action::DukeKilled {},
        Action::DukeUsedInBattle {},
        Action::DukeCaptured { by: Faction::Harkonnen },
    ] {
        let err = assert_rejected(&g, &host(report), "rule/duke_not_in_play");
        assert_eq!(err.rule(), Some("R-DUKE-3"));
    }
    assert_rejected(&g, &host(Action::DukeToMoritani {}), "rule/duke_unavailable");
}

#[test]
fn r_duke_reports_need_him_in_play() {
    // A captured Duke or a ghola is in play too (D-52, tests/fidelity.rs).
    for custody in [DukeCustody::SetAside, DukeCustody::Tanks] {
        let g = game_with_duke(custody);
        for report in [
            Action::DukeKilled {},
            Action::DukeUsedInBattle {},
            Action::DukeCaptured { by: Faction::Atreides },
        ] {
            assert_rejected(&g, &host(report), "rule/duke_not_in_play");
        }
    }
}

#[test]
fn r_duke_2_captured() {
    let g = game_with_duke(ecaz_holds());
    assert_rejected(
        &g,
        &host(Action::DukeCaptured { by: Faction::Ecaz }),
        "rule/duke_already_controlled",
    );
    assert_rejected(
        &g,
        &host(Action::DukeCaptured { by: Faction::Fremen }),
        "rule/not_seated",
    );
    let (g, events) = ok(&g, &host(Action::DukeCaptured { by: Faction::Harkonnen }));
    let captured = DukeCustody::Captured { by: Faction::Harkonnen };
    assert_eq!(duke(&g), captured);
    assert_eq!(duke_moves(&events), vec![(captured, DukeReason::Captured)]);
    assert!(!g.duke().available());
    assert_everyone_sees_duke(&g);
    // Captured: not revivable, not Moritani's.
    assert_rejected(&g, &host(Action::DukeRevived {}), "rule/duke_not_in_tanks");
    assert_rejected(&g, &host(Action::DukeToMoritani {}), "rule/duke_unavailable");
}

#[test]
fn r_duke_4_revived_pays_five_and_is_set_aside() {
    let g = game_with_duke(DukeCustody::Tanks);
    let before = spice(&g, Faction::Ecaz);
    let (g, events) = ok(&g, &host(Action::DukeRevived {}));
    assert_eq!(spice(&g, Faction::Ecaz), before - 5);
    assert_eq!(duke(&g), DukeCustody::SetAside, "P-DUKE-REVIVED default: set aside");
    assert_eq!(kind_names(&events), vec!["spicePaid", "dukeMoved"]);
    assert!(events.iter().any(|e| e.event
        == EventKind::SpicePaid {
            faction: Faction::Ecaz,
            amount: 5,
            to: None
        }));
    assert_eq!(duke_moves(&events), vec![(DukeCustody::SetAside, DukeReason::Revived)]);
    let err = assert_rejected(&g, &host(Action::DukeRevived {}), "rule/duke_not_in_tanks");
    assert_eq!(err.rule(), Some("R-DUKE-4"));
}

#[test]
fn r_duke_4_cost_is_five_however_many_leaders_are_dead() {
    let mut s = with_duke(table(), DukeCustody::Tanks);
    let dead = FactionSetup {
        spice: Some(5),
        leaders: Faction::Ecaz
            .leaders()
            .into_iter()
            .map(|leader| ecaz::LeaderState {
                leader,
                custody: ecaz::LeaderCustody::Tanks,
            })
            .collect(),
        ..FactionSetup::default()
    };
    s.factions.insert(Faction::Ecaz, dead);
    let (g, _) = ok(&build_setup(&s), &host(Action::DukeRevived {}));
    assert_eq!(spice(&g, Faction::Ecaz), 0);
}

#[test]
fn p_duke_revived_ecaz_alternative() {
    let mut s = with_duke(table(), DukeCustody::Tanks);
    s.policies.duke_revived = DukeRevived::Ecaz;
    let (g, events) = ok(&build_setup(&s), &host(Action::DukeRevived {}));
    assert_eq!(duke(&g), ecaz_holds());
    assert_eq!(duke_moves(&events), vec![(ecaz_holds(), DukeReason::Revived)]);
}

#[test]
fn r_duke_4_revival_rejections() {
    let mut s = with_duke(table(), DukeCustody::Tanks);
    s.factions.entry(Faction::Ecaz).or_default().spice = Some(4);
    let g = build_setup(&s);
    let err = assert_rejected(&g, &host(Action::DukeRevived {}), "rule/insufficient_spice");
    assert!(err.to_string().contains('5'), "{err}");
    for custody in [
        DukeCustody::SetAside,
        ecaz_holds(),
        DukeCustody::Captured { by: Faction::Harkonnen },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
    ] {
        assert_rejected(
            &game_with_duke(custody),
            &host(Action::DukeRevived {}),
            "rule/duke_not_in_tanks",
        );
    }
    // Only Ecaz revives him: with Ecaz not seated the report is refused.
    let g = build_setup(&with_duke(
        table_with(&[Faction::Moritani, Faction::Harkonnen]),
        DukeCustody::Tanks,
    ));
    assert_rejected(&g, &host(Action::DukeRevived {}), "rule/not_seated");
    // A faction cannot report it (no actor forgery).
    let g = game_with_duke(DukeCustody::Tanks);
    assert_rejected(&g, &ecaz(Action::DukeRevived {}), "rule/wrong_actor");
}

#[test]
fn r_duke_2_moritani_for_one_battle_then_set_aside_at_turn_end() {
    for start in [DukeCustody::SetAside, ecaz_holds()] {
        let g = game_with_duke(start);
        let (g, events) = ok(&g, &host(Action::DukeToMoritani {}));
        let moritani = controlled(Faction::Moritani, DukeSource::Moritani);
        assert_eq!(duke(&g), moritani);
        assert_eq!(duke_moves(&events), vec![(moritani, DukeReason::Moritani)]);
        assert_rejected(&g, &host(Action::DukeToMoritani {}), "rule/duke_already_controlled");
        assert_everyone_sees_duke(&g);
        let g = walk_to_phase(&g, Phase::Mentat);
        let (g, events) = end_phase(&g);
        assert_eq!(duke(&g), DukeCustody::SetAside);
        assert_eq!(duke_moves(&events), vec![(DukeCustody::SetAside, DukeReason::TurnEnd)]);
    }
    // Battle use ends it too.
    let (g, _) = ok(&game_with_duke(DukeCustody::SetAside), &host(Action::DukeToMoritani {}));
    let (g, _) = ok(&g, &host(Action::DukeUsedInBattle {}));
    assert_eq!(duke(&g), DukeCustody::SetAside);
}

#[test]
fn r_duke_2_moritani_rejections() {
    for custody in [
        DukeCustody::Tanks,
        DukeCustody::Captured { by: Faction::Harkonnen },
        DukeCustody::Ghola { by: Faction::Tleilaxu },
    ] {
        let err = assert_rejected(
            &game_with_duke(custody),
            &host(Action::DukeToMoritani {}),
            "rule/duke_unavailable",
        );
        assert_eq!(err.rule(), Some("R-DUKE-2"));
    }
    let g = build_setup(&table_with(&[Faction::Ecaz, Faction::Harkonnen]));
    assert_rejected(&g, &host(Action::DukeToMoritani {}), "rule/not_seated");
    let g = build(&[Faction::Ecaz, Faction::Moritani], 3);
    assert_rejected(
        &g,
        &Command::faction(Faction::Moritani, Action::DukeToMoritani {}),
        "rule/wrong_actor",
    );
}

#[test]
fn r_duke_2_nexus_cunning_tenure_ends_at_turn_end() {
    let g = game_with_duke(controlled(Faction::Ecaz, DukeSource::NexusCunning));
    let (g, events) = end_phase(&walk_to_phase(&g, Phase::Mentat));
    assert_eq!(duke(&g), DukeCustody::SetAside);
    assert_eq!(duke_moves(&events), vec![(DukeCustody::SetAside, DukeReason::TurnEnd)]);
}

#[test]
fn p_duke_loan_cunning_duke_lent_is_set_aside_at_turn_end() {
    // R-NEX-CUN: "At the end of that turn he is set aside, whatever his
    // custody was before." P-DUKE-LOAN sends a lent Duke back to his holder
    // before the loan — but that holder's (turn-long) tenure ends at the same
    // turn end, so he must end up set aside, not with Ecaz for another turn.
    let s = with_duke(table(), controlled(Faction::Ecaz, DukeSource::NexusCunning));
    let g = at_loan_frame(&s);
    let (g, _) = ok(&g, &lend_cmd(&g, true));
    assert_ne!(duke(&g), controlled(Faction::Ecaz, DukeSource::NexusCunning), "lent");
    let turn = g.turn();
    let (g, events) = end_phase(&walk_to_phase(&g, Phase::Mentat));
    assert_eq!(
        duke_moves(&events),
        vec![
            (
                controlled(Faction::Ecaz, DukeSource::NexusCunning),
                DukeReason::LoanEnded
            ),
            (DukeCustody::SetAside, DukeReason::TurnEnd),
        ]
    );
    assert!(g.turn() > turn, "the next turn has begun");
    assert_eq!(duke(&g), DukeCustody::SetAside, "not back with Ecaz for the next turn");
}

#[test]
fn duke_reports_wait_for_open_decisions() {
    let g = at_branch_frame();
    for report in [
        Action::DukeUsedInBattle {},
        Action::DukeKilled {},
        Action::DukeCaptured { by: Faction::Atreides },
        Action::DukeRevived {},
        Action::DukeToMoritani {},
    ] {
        assert_rejected(&g, &host(report), "rule/decision_pending");
    }
}

// ---- Stale, replayed and forged commands ----

#[test]
fn protocol_branch_frame_stale_replayed_forged() {
    let g = at_branch_frame();
    let id = open_id(&g);
    for by in [Faction::Harkonnen, Faction::Atreides, Faction::Moritani] {
        assert_rejected(
            &g,
            &Command::faction(
                by,
                Action::ChooseBranch {
                    frame: id,
                    branch: EcazBranch::Duke,
                },
            ),
            "rule/not_your_decision",
        );
    }
    assert_rejected(
        &g,
        &host(Action::ChooseBranch {
            frame: id,
            branch: EcazBranch::Duke,
        }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &Command::faction(
            Faction::Fremen,
            Action::ChooseBranch {
                frame: id,
                branch: EcazBranch::Duke,
            },
        ),
        "rule/not_seated",
    );
    assert_rejected(
        &g,
        &ecaz(Action::ChooseBranch {
            frame: ecaz::FrameId(id.0 + 7),
            branch: EcazBranch::Duke,
        }),
        "rule/stale_frame",
    );
    assert_rejected(
        &g,
        &ecaz(Action::AnswerAlliance {
            frame: id,
            accept: true,
        }),
        "rule/wrong_decision",
    );
    assert_rejected(
        &g,
        &ecaz(Action::LendDuke { frame: id, lend: true }),
        "rule/wrong_decision",
    );
    // The offer the branch frame replaced can no longer be answered.
    assert_rejected(
        &g,
        &ecaz(Action::Trigger {
            frame: ecaz::FrameId(1),
            beneficiary: Faction::Ecaz,
        }),
        "rule/stale_frame",
    );
    // Answered once; the replay is stale.
    let cmd = branch_cmd(&g, EcazBranch::Duke);
    let (after, _) = ok(&g, &cmd);
    assert_rejected(&after, &cmd, "rule/stale_frame");
    assert_rejected(&after, &branch_cmd(&g, EcazBranch::Alliance), "rule/stale_frame");
}

#[test]
fn protocol_alliance_frame_stale_replayed_forged() {
    let g = at_alliance_offer();
    let id = open_id(&g);
    assert_rejected(
        &g,
        &Command::faction(
            Faction::Harkonnen,
            Action::ChooseBranch {
                frame: id,
                branch: EcazBranch::Alliance,
            },
        ),
        "rule/wrong_decision",
    );
    assert_rejected(
        &g,
        &Command::faction(Faction::Harkonnen, Action::LendDuke { frame: id, lend: true }),
        "rule/wrong_decision",
    );
    assert_rejected(
        &g,
        &Command::faction(
            Faction::Harkonnen,
            Action::AnswerAlliance {
                frame: ecaz::FrameId(id.0 - 1),
                accept: true,
            },
        ),
        "rule/stale_frame",
    );
    let refuse = answer_cmd(&g, Faction::Harkonnen, false);
    let (after, _) = ok(&g, &refuse);
    // A refusal cannot be turned into an acceptance afterwards, nor replayed.
    assert_rejected(&after, &refuse, "rule/stale_frame");
    assert_rejected(&after, &answer_cmd(&g, Faction::Harkonnen, true), "rule/stale_frame");
    assert_eq!(ally_of(&after, Faction::Ecaz), None);
}

#[test]
fn protocol_loan_frame_stale_replayed_forged() {
    let g = at_loan_frame(&table());
    let id = open_id(&g);
    for by in [Faction::Harkonnen, Faction::Atreides] {
        assert_rejected(
            &g,
            &Command::faction(by, Action::LendDuke { frame: id, lend: true }),
            "rule/not_your_decision",
        );
    }
    assert_rejected(
        &g,
        &host(Action::LendDuke { frame: id, lend: true }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &ecaz(Action::ChooseBranch {
            frame: id,
            branch: EcazBranch::Duke,
        }),
        "rule/wrong_decision",
    );
    // The alliance answer that opened this frame cannot be replayed.
    assert_rejected(
        &g,
        &Command::faction(
            Faction::Harkonnen,
            Action::AnswerAlliance {
                frame: ecaz::FrameId(id.0 - 1),
                accept: true,
            },
        ),
        "rule/stale_frame",
    );
    let keep = lend_cmd(&g, false);
    let (after, _) = ok(&g, &keep);
    assert_rejected(&after, &keep, "rule/stale_frame");
    assert_rejected(&after, &lend_cmd(&g, true), "rule/stale_frame");
    assert_eq!(duke(&after), DukeCustody::SetAside);
}

// ---- Views ----

#[test]
fn views_every_viewer_sees_the_dukes_custody_through_the_lifecycle() {
    let mut g = at_loan_frame(&with_duke(table(), ecaz_holds()));
    assert_everyone_sees_duke(&g);
    g = ok(&g, &lend_cmd(&g, true)).0;
    assert_everyone_sees_duke(&g);
    g = walk_to_phase(&g, Phase::Battle);
    for report in [
        Action::DukeUsedInBattle {},
        Action::DukeToMoritani {},
        Action::DukeKilled {},
        Action::DukeRevived {},
        Action::DukeToMoritani {},
        Action::DukeCaptured { by: Faction::Atreides },
    ] {
        let (next, events) = ok(&g, &host(report));
        assert!(events.iter().all(|e| e.visible_to(Viewer::Spectator)));
        g = next;
        assert_everyone_sees_duke(&g);
    }
    assert_eq!(duke(&g), DukeCustody::Captured { by: Faction::Atreides });
}
