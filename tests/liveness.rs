#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
//! Never stuck, never poisoned (docs/RULES.md §10): the Ixian-swap deadlock
//! and its class (D-70), one ceiling per quantity (D-71, D-72), the
//! saved-state edits the loader refuses (D-73–D-75, one test per case), and
//! the cases mutation testing showed untested. Rejections are asserted as error
//! code + state unchanged byte for byte (RNG included).

mod common;

use common::*;
use ecaz::audit;
use ecaz::{
    game_from_json, Action, Actor, Ambassador, ArrivalId, Command, Decision, EcazBranch, Event, EventKind, Faction,
    Game, Phase, Setup, Territory, MAX_SPICE,
};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------

fn setup_of(v: Value) -> Setup {
    ecaz::setup_from_json(&v.to_string()).unwrap_or_else(|e| panic!("{} {e}", e.code()))
}

/// Ecaz, Harkonnen, Atreides; `placed` tokens in their strongholds, the rest of
/// the cohort in supply.
fn table(placed: &[(&str, &str)], cohort: [&str; 5], extra: Value) -> Game {
    let mut zones = serde_json::Map::new();
    for (token, territory) in placed {
        zones.insert((*token).into(), json!({"kind": "placed", "territory": territory}));
    }
    let mut s = json!({
        "seats": ["ecaz", "harkonnen", "atreides"],
        "seed": 5,
        "ambassadors": {"cohort": cohort, "zones": zones},
    });
    if let (Some(o), Some(e)) = (s.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    build_setup(&setup_of(s))
}

fn trigger(g: &Game, beneficiary: Faction) -> Command {
    ecaz(Action::Trigger {
        frame: open_id(g),
        beneficiary,
    })
}

/// Apply and run both audits on the result.
fn step(g: &Game, cmd: &Command) -> (Game, Vec<Event>) {
    let (next, events) = ok(g, cmd);
    audit::check(&next).unwrap_or_else(|e| panic!("after {cmd:?}: {e}"));
    (next, events)
}

/// A trigger offer for the Ixians token in Sietch Tabr (Harkonnen entered).
fn at_offer() -> Game {
    let g = table(
        &[("ixians", "sietch_tabr"), ("choam", "carthag")],
        ["ixians", "choam", "fremen", "guild", "richese"],
        json!({"factions": {"ecaz": {"hand": [3]}}}),
    );
    step(&g, &shipment(Faction::Harkonnen, Territory::SietchTabr, 14, None)).0
}

/// A BG copy frame (Harkonnen entered Arrakeen, which holds the BG token).
fn at_copy() -> Game {
    let g = table(
        &[("beneGesserit", "arrakeen")],
        ["beneGesserit", "choam", "fremen", "guild", "richese"],
        json!({}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Arrakeen, 10, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    assert!(matches!(g.open_frame().unwrap().decision, Decision::CopyEffect { .. }));
    g
}

/// Ecaz's alliance offer to Harkonnen (the Ecaz token in Carthag).
fn at_alliance_offer() -> Game {
    let g = table(
        &[("ecaz", "carthag")],
        ["atreides", "choam", "fremen", "guild", "richese"],
        json!({}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let frame = open_id(&g);
    let g = step(
        &g,
        &ecaz(Action::ChooseBranch {
            frame,
            branch: EcazBranch::Alliance,
        }),
    )
    .0;
    assert!(matches!(
        g.open_frame().unwrap().decision,
        Decision::AllianceOffer { .. }
    ));
    g
}

/// Ecaz's placement response window (Ixians announced for Tuek's Sietch).
fn at_placement_response() -> Game {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let (g, _) = walk_to_revival_end(&g);
    let g = announce(&g, Ambassador::Ixians, Territory::TueksSietch).0;
    audit::check(&g).unwrap();
    g
}

/// Edit a state's JSON and load it: the loader must refuse it as inconsistent.
fn assert_refused(g: &Game, what: &str, edit: impl FnOnce(&mut Value)) {
    let mut v = json_value(g);
    edit(&mut v);
    match game_from_json(&v.to_string()) {
        Ok(_) => panic!("{what}: the edited state loads"),
        Err(e) => assert_eq!(e.code(), "state/inconsistent", "{what}: {e}"),
    }
}

fn top(v: &mut Value) -> &mut Value {
    let pending = v["pending"].as_array_mut().unwrap();
    &mut pending.last_mut().unwrap()["decision"]
}

// ---------------------------------------------------------------------------
// Item 1: the deadlock and its class (D-70)
// ---------------------------------------------------------------------------

#[test]
fn issue_11_1_deadlock_scenario_plays_on() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/deadlock_ixian_swap_empty_hand.json");
    let scenario: ecaz::scenario::Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let replay = ecaz::scenario::run(&scenario).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(replay.all_as_expected(), "{:#?}", replay.reports);
    assert_eq!(replay.reports.len(), scenario.steps.len());
    // Every state along the way is live and reloads.
    let mut g = scenario.setup.build().unwrap();
    for s in &scenario.steps {
        if let Ok((next, _)) = apply(&g, &s.command) {
            g = next;
        }
        audit::check(&g).unwrap();
    }
}

#[test]
fn issue_11_1_ixian_swap_resurfacing_with_an_empty_hand_has_lapsed() {
    let g = at_offer();
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let swap = open_id(&g);
    let g = step(
        &g,
        &shipment(Faction::Atreides, Territory::Carthag, 11, Some(ArrivalId(1))),
    )
    .0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    // Before the child settles, the swap frame is not passable.
    let frame = open_id(&g);
    let (g, _) = step(
        &g,
        &Command::faction(
            Faction::Ecaz,
            Action::DiscardForSpice {
                frame,
                cards: vec![ecaz::CardId(3)],
            },
        ),
    );
    assert_eq!(open_id(&g), swap, "the swap frame resurfaced");
    assert!(g.faction(Faction::Ecaz).unwrap().hand.is_empty());
    // D-70: options list exactly `pass`, which is accepted and resolves the
    // Ixian effect doing nothing; the arrival resumes.
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    let pass = ecaz(Action::Pass { frame: swap });
    assert_eq!(o.commands, vec![pass.clone()]);
    assert!(o.choices.is_empty());
    assert_rejected(
        &g,
        &host(Action::EndPhase { phase: g.phase() }),
        "rule/decision_pending",
    );
    let (g, events) = step(&g, &pass);
    assert_eq!(
        kinds(&events),
        vec![
            &EventKind::EffectResolved {
                arrival: ArrivalId(1),
                effect: Ambassador::Ixians,
                beneficiary: Faction::Ecaz
            },
            &EventKind::Resume { arrival: ArrivalId(1) },
        ]
    );
    assert!(g.pending().is_empty() && g.open_arrivals().is_empty());
}

#[test]
fn issue_11_1_pass_is_refused_while_the_swap_frame_still_has_an_answer() {
    let g = at_offer();
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    assert!(matches!(g.open_frame().unwrap().decision, Decision::IxianSwap { .. }));
    assert_rejected(&g, &ecaz(Action::Pass { frame: open_id(&g) }), "rule/wrong_decision");
}

#[test]
fn issue_11_1_a_loaded_bg_copy_with_no_candidates_is_refused() {
    let g = at_copy();
    assert_refused(&g, "no candidates", |v| top(v)["candidates"] = json!([]));
}

#[test]
fn issue_11_1_a_lapsed_ecaz_branch_accepts_pass() {
    // The Ecaz branch frame with neither branch left (Ecaz already allied and
    // the Duke in the Tanks): only `pass`, naming the Ecaz effect.
    let g = table(
        &[("ecaz", "carthag")],
        ["atreides", "choam", "fremen", "guild", "richese"],
        json!({}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    assert!(matches!(g.open_frame().unwrap().decision, Decision::EcazBranch { .. }));
    let mut v = json_value(&g);
    v["duke"]["custody"] = json!({"kind": "tanks"});
    let g = game_from_json(&v.to_string()).unwrap();
    let frame = open_id(&g);
    // One branch left: it is listed, `pass` is not.
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(
        o.commands,
        vec![ecaz(Action::ChooseBranch {
            frame,
            branch: EcazBranch::Alliance
        })]
    );
    assert_rejected(&g, &ecaz(Action::Pass { frame }), "rule/wrong_decision");
    v["factions"][0]["ally"] = json!("atreides");
    v["factions"][2]["ally"] = json!("ecaz");
    let g = game_from_json(&v.to_string()).unwrap();
    audit::liveness(&g).unwrap();
    let o = options(&g, Actor::Faction(Faction::Ecaz));
    assert_eq!(o.commands, vec![ecaz(Action::Pass { frame })]);
    let (_, events) = step(&g, &ecaz(Action::Pass { frame }));
    assert!(kinds(&events).contains(&&EventKind::EffectResolved {
        arrival: ArrivalId(1),
        effect: Ambassador::Ecaz,
        beneficiary: Faction::Ecaz
    }));
}

#[test]
fn issue_11_1_a_pass_names_the_effect_of_its_frame() {
    // Mutation survivors (apply.rs check_decision): each board effect's pass
    // resolves that effect, not another.
    for (token, territory, sector) in [
        ("fremen", Territory::Arrakeen, 10),
        ("guild", Territory::Carthag, 11),
        ("tleilaxu", Territory::SietchTabr, 14),
    ] {
        let g = table(
            &[(token, &territory.to_string())],
            ["fremen", "guild", "tleilaxu", "choam", "richese"],
            json!({"factions": {"ecaz": {"tanks": {"normal": 2}}}}),
        );
        let g = step(&g, &shipment(Faction::Harkonnen, territory, sector, None)).0;
        let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
        let frame = open_id(&g);
        let (_, events) = step(&g, &ecaz(Action::Pass { frame }));
        let effect: Ambassador = serde_json::from_value(json!(token)).unwrap();
        assert_eq!(
            kinds(&events)[0],
            &EventKind::EffectResolved {
                arrival: ArrivalId(1),
                effect,
                beneficiary: Faction::Ecaz
            },
            "{token}"
        );
    }
}

// ---------------------------------------------------------------------------
// Item 2: one ceiling per quantity (D-71, D-72)
// ---------------------------------------------------------------------------

#[test]
fn issue_11_2_emperor_grant_stops_at_the_spice_ceiling() {
    let g = table(
        &[("emperor", "carthag")],
        ["emperor", "choam", "fremen", "guild", "richese"],
        json!({"factions": {"ecaz": {"spice": MAX_SPICE - 2}}}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let (g, events) = step(&g, &trigger(&g, Faction::Ecaz));
    assert_eq!(spice(&g, Faction::Ecaz), MAX_SPICE);
    assert!(kinds(&events).contains(&&EventKind::SpiceGained {
        faction: Faction::Ecaz,
        amount: 2
    }));
}

#[test]
fn issue_11_2_choam_payment_stops_at_the_spice_ceiling() {
    let g = table(
        &[("choam", "carthag")],
        ["emperor", "choam", "fremen", "guild", "richese"],
        json!({"factions": {"ecaz": {"spice": MAX_SPICE - 1, "hand": [3, 4]}}}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let frame = open_id(&g);
    let cards = vec![ecaz::CardId(3), ecaz::CardId(4)];
    let (g, events) = step(&g, &ecaz(Action::DiscardForSpice { frame, cards }));
    assert_eq!(spice(&g, Faction::Ecaz), MAX_SPICE);
    assert!(kinds(&events).contains(&&EventKind::SpiceGained {
        faction: Faction::Ecaz,
        amount: 1
    }));
}

#[test]
fn issue_11_2_richese_price_goes_to_the_bank_when_the_emperor_is_at_the_ceiling() {
    let s = json!({
        "seats": ["ecaz", "harkonnen", "emperor"],
        "seed": 5,
        "policies": {"richesePay": "purchase"},
        "factions": {"emperor": {"spice": MAX_SPICE - 2}},
        "ambassadors": {"cohort": ["richese", "choam", "fremen", "guild", "ixians"],
                        "zones": {"richese": {"kind": "placed", "territory": "carthag"}}},
    });
    let g = build_setup(&setup_of(s));
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let frame = open_id(&g);
    let (g, events) = step(&g, &ecaz(Action::BuyCard { frame, buy: true }));
    assert_eq!(spice(&g, Faction::Emperor), MAX_SPICE - 2);
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Ecaz,
        amount: 3,
        to: None
    }));
}

/// A state with one counter set (by its JSON key path).
fn with_counter(g: &Game, path: &[&str], value: u32) -> Result<Game, ecaz::ApplyError> {
    let mut v = json_value(g);
    let mut at = &mut v;
    for k in path {
        at = &mut at[*k];
    }
    *at = json!(value);
    game_from_json(&v.to_string())
}

#[test]
fn issue_11_2_counters_share_one_ceiling_with_the_loader() {
    let limit = audit::COUNTER_LIMIT;
    let margin = audit::PER_COMMAND;
    let g = table(
        &[("ixians", "sietch_tabr")],
        ["ixians", "choam", "fremen", "guild", "richese"],
        json!({}),
    );
    let entry = shipment(Faction::Harkonnen, Territory::SietchTabr, 14, None);
    for path in [
        &["nextFrame"][..],
        &["nextArrival"],
        &["turn"],
        &["ambassadors", "cycle"],
    ] {
        // The loader takes the ceiling itself, not one more.
        assert!(with_counter(&g, path, limit).is_ok(), "{path:?}");
        assert_eq!(
            with_counter(&g, path, limit + 1).unwrap_err().code(),
            "state/inconsistent"
        );
        // At the margin every command still runs and its output reloads …
        let edge = with_counter(&g, path, limit - margin).unwrap();
        step(&edge, &entry);
        let quiet = ok(&edge, &host(Action::EndPhase { phase: edge.phase() })).0;
        audit::check(&quiet).unwrap();
        // … one past it, every command is refused, changing nothing.
        let spent = with_counter(&g, path, limit - margin + 1).unwrap();
        assert_rejected(&spent, &entry, "state/ids_exhausted");
        assert_rejected(
            &spent,
            &host(Action::EndPhase { phase: spent.phase() }),
            "state/ids_exhausted",
        );
        audit::liveness(&spent).unwrap();
    }
}

/// Found by `scripts/fuzz-ci` (seed 20261201): a saved state with an open
/// placement response and `nextFrame` at the ceiling loaded, and the audit
/// called it a deadlock. An exhausted game is over (D-85): every command the
/// frame would take is refused with `state/ids_exhausted`, changing nothing,
/// options list nothing for anyone, and the liveness audit accepts it as the
/// one terminal state; just below the margin the same frame plays on.
#[test]
fn issue_11_5_an_exhausted_game_with_an_open_frame_is_over_d_85() {
    let g = at_placement_response();
    let owner = g.open_frame().unwrap().actor;
    let listed = options(&g, owner).commands;
    assert!(!listed.is_empty());
    let limit = audit::COUNTER_LIMIT;
    let margin = audit::PER_COMMAND;
    for path in [
        &["nextFrame"][..],
        &["nextArrival"],
        &["turn"],
        &["ambassadors", "cycle"],
    ] {
        let edge = with_counter(&g, path, limit - margin).unwrap();
        assert_eq!(options(&edge, owner).commands, listed, "{path:?}");
        for cmd in &listed {
            audit::check(&step(&edge, cmd).0).unwrap();
        }
        for value in [limit - margin + 1, limit] {
            let spent = with_counter(&g, path, value).unwrap();
            for cmd in &listed {
                assert_rejected(&spent, cmd, "state/ids_exhausted");
            }
            for actor in spent.seats().iter().copied().map(Actor::Faction).chain([Actor::Host]) {
                let o = options(&spent, actor);
                assert!(o.commands.is_empty() && o.choices.is_empty(), "{path:?} {actor}");
            }
            audit::check(&spent).unwrap();
        }
    }
}

#[test]
fn issue_11_2_the_last_turn_ends_into_a_loadable_state() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let last = with_counter(&g, &["turn"], audit::COUNTER_LIMIT - audit::PER_COMMAND).unwrap();
    let mut g = walk_to_phase(&last, Phase::Mentat);
    g = step(&g, &host(Action::EndPhase { phase: Phase::Mentat })).0;
    assert_eq!(g.turn(), audit::COUNTER_LIMIT - audit::PER_COMMAND + 1);
}

#[test]
fn issue_11_2_an_unseated_entrant_never_loads() {
    let g = at_offer();
    assert_refused(&g, "row 72: open arrival by unseated", |v| {
        v["arrivals"][0]["entrant"] = json!("moritani")
    });
    assert_refused(&g, "row 70: offer to unseated entrant", |v| {
        v["arrivals"][0]["entrant"] = json!("moritani");
        top(v)["entrant"] = json!("moritani");
    });
}

// ---------------------------------------------------------------------------
// Item 3: the saved-state edits of the findings, row by row
// ---------------------------------------------------------------------------

#[test]
fn issue_11_3_table_and_inventory_rows() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    assert!(game_from_json(&json(&g)).is_ok());
    assert_refused(&g, "row 15: placement counter 255", |v| {
        v["ambassadors"]["placement"]["placed"] = json!(255);
        v["ambassadors"]["placement"]["closed"] = json!(true);
    });
    assert_refused(&g, "row 17: cycle u32::MAX", |v| {
        v["ambassadors"]["cycle"] = json!(u32::MAX)
    });
    assert_refused(&g, "row 31: a catalog kind out of format", |v| {
        v["treachery"]["catalog"][27] = json!("Lasgun!")
    });
    assert_refused(&g, "row 43: free revival 255", |v| {
        v["factions"][0]["freeRevival"] = json!(255)
    });
    assert_refused(&g, "row 60: Duke captured by Ecaz", |v| {
        v["duke"]["custody"] = json!({"kind": "captured", "by": "ecaz"})
    });
    assert_refused(&g, "row 61: Duke's battle turn in the future", |v| {
        v["duke"]["battleTurn"] = json!(99)
    });
    assert_refused(&g, "row 88: turn u32::MAX", |v| v["turn"] = json!(u32::MAX));
    assert_refused(&g, "knowledge from the future", |v| {
        v["knowledge"] = json!([{"viewer": "ecaz", "about": "harkonnen", "turn": 5,
                                 "info": {"kind": "hand", "cards": []}}])
    });
}

/// R-DUKE tenure (D-108): Duke Vidal's tenure turns (`since`, the turn of
/// his custody; `battleTurn`, the turn he last fought) name a turn already
/// begun: turn 0 and a turn after the current one are refused on load, the
/// current turn loads.
#[test]
fn r_duke_a_loaded_tenure_names_a_turn_already_begun() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let turn = json_value(&g)["turn"].as_u64().unwrap();
    for field in ["since", "battleTurn"] {
        assert_refused(&g, &format!("Duke {field} turn 0"), |v| v["duke"][field] = json!(0));
        assert_refused(&g, &format!("Duke {field} after the current turn"), |v| {
            v["duke"][field] = json!(turn + 1)
        });
        let mut v = json_value(&g);
        v["duke"][field] = json!(turn);
        let loaded = game_from_json(&v.to_string()).unwrap_or_else(|e| panic!("Duke {field} this turn: {e}"));
        assert_eq!(json_value(&loaded)["duke"][field], json!(turn));
    }
}

/// D-168: a captured Duke remembers only a lasting custody he was taken
/// from (Ecaz Ambassador control or a Tleilaxu ghola) of another, seated
/// faction than his captor; anything else is refused on load.
#[test]
fn d_168_a_loaded_captive_returns_only_to_another_seated_holder() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let captive = |v: &mut Value, holder: &str| {
        v["duke"]["custody"] = json!({"kind": "captured", "by": "harkonnen"});
        v["duke"]["beforeCapture"] = json!({"kind": "controlled", "by": holder, "source": "ecazAmbassador"});
    };
    let mut v = json_value(&g);
    captive(&mut v, "atreides");
    let loaded = game_from_json(&v.to_string()).unwrap_or_else(|e| panic!("taken from the Atreides: {e}"));
    assert_eq!(json_value(&loaded)["duke"]["beforeCapture"]["by"], json!("atreides"));
    assert_refused(&g, "taken from his captor itself", |v| captive(v, "harkonnen"));
    assert_refused(&g, "taken from an unseated faction", |v| captive(v, "fremen"));
}

/// R-INV-1, R-INV-3: a cohort token is in the supply, placed or used, never
/// back in the pool; a loaded state that puts one there is refused, and the
/// same state with that token in the supply loads.
#[test]
fn r_inv_3_a_loaded_cohort_token_is_never_in_the_pool() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let zone_of = |v: &mut Value, kind: &str| {
        let tokens = v["ambassadors"]["tokens"].as_array_mut().unwrap();
        let ixians = tokens.iter_mut().find(|t| t["token"] == json!("ixians")).unwrap();
        ixians["zone"] = json!({"kind": kind});
    };
    let mut v = json_value(&g);
    zone_of(&mut v, "supply");
    game_from_json(&v.to_string()).unwrap_or_else(|e| panic!("a cohort token in the supply: {e}"));
    assert_refused(&g, "a cohort token in the pool", |v| zone_of(v, "pool"));
}

/// Row 59 (R-NEX-CUN, D-53): Cunning control while another faction
/// holds the Ecaz Nexus card is a state the engine itself reaches — Ecaz plays
/// Cunning, the Nexus deck is empty, the host deals a card and the reshuffled
/// discard hands the spent Ecaz card to the Guild (self-play game 1140). It
/// must reload and stay live; a Cunning control that is not Ecaz's is refused.
#[test]
fn issue_11_3_row_59_cunning_control_survives_the_ecaz_card_dealt_again() {
    let s = json!({
        "seats": ["ecaz", "harkonnen", "guild"],
        "seed": 5,
        "phase": "battle",
        "options": {"nexus": true},
        "nexusDeck": [],
        "nexusDiscard": ["atreides", "harkonnen", "emperor", "fremen", "guild", "beneGesserit",
                         "ixians", "tleilaxu", "choam", "richese", "moritani"],
        "factions": {"ecaz": {"nexus": "ecaz"}},
    });
    let g = build_setup(&setup_of(s));
    let cunning = Command {
        if_revision: None,
        actor: Actor::Faction(Faction::Ecaz),
        action: Action::PlayCunning {},
    };
    let (mut g, _) = step(&g, &cunning);
    // Deal to the Guild from the reshuffled discard until the spent Ecaz card
    // comes up (each other card is discarded again; at most 12 deals).
    for _ in 0..12 {
        (g, _) = step(
            &g,
            &host(Action::DealNexus {
                faction: Faction::Guild,
            }),
        );
        if g.faction(Faction::Guild).and_then(|f| f.nexus) == Some(Faction::Ecaz) {
            break;
        }
        (g, _) = step(
            &g,
            &host(Action::DiscardNexus {
                faction: Faction::Guild,
            }),
        );
    }
    let v = serde_json::to_value(&g).unwrap();
    assert_eq!(v["duke"]["custody"]["source"], "nexusCunning");
    let guild = v["factions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["faction"] == "guild")
        .unwrap();
    assert_eq!(guild["nexus"], "ecaz", "the reshuffled discard dealt the spent card");
    ecaz::audit::check(&g).unwrap();
    assert_refused(&g, "row 59: Cunning control that is not Ecaz's", |v| {
        v["duke"]["custody"] = json!({"kind": "controlled", "by": "harkonnen", "source": "nexusCunning"})
    });
}

#[test]
fn issue_11_3_row_60_ecaz_never_captures_its_duke() {
    let g = table(
        &[("ecaz", "carthag")],
        ["atreides", "choam", "fremen", "guild", "richese"],
        json!({"duke": {"kind": "controlled", "by": "harkonnen", "source": "ecazAmbassador"}}),
    );
    assert_rejected(
        &g,
        &host(Action::DukeCaptured { by: Faction::Ecaz }),
        "rule/same_faction",
    );
}

#[test]
fn issue_11_3_trigger_offer_rows() {
    let g = at_offer();
    assert_refused(&g, "row 63: open arrival without its frame", |v| {
        v["pending"] = json!([])
    });
    assert_refused(&g, "row 67: token not in that stronghold", |v| {
        top(v)["token"] = json!("choam")
    });
    assert_refused(&g, "row 68: token in the pool", |v| top(v)["token"] = json!("atreides"));
    assert_refused(&g, "row 69: non-ally beneficiary", |v| {
        top(v)["beneficiaries"] = json!(["ecaz", "atreides"])
    });
    assert_refused(&g, "row 71: not a stronghold", |v| {
        top(v)["territory"] = json!("basin");
        v["arrivals"][0]["territory"] = json!("basin");
    });
    assert_refused(&g, "the offer's entrant differs from its arrival's", |v| {
        top(v)["entrant"] = json!("atreides")
    });
    assert_refused(&g, "no beneficiary", |v| top(v)["beneficiaries"] = json!([]));
}

#[test]
fn issue_11_3_placement_response_rows() {
    let g = at_placement_response();
    assert_refused(&g, "row 77: token not in supply", |v| {
        top(v)["token"] = json!("atreides")
    });
    assert_refused(&g, "row 78: not a stronghold", |v| top(v)["territory"] = json!("basin"));
    let mut v = json_value(&g);
    v["ambassadors"]["tokens"][0]["zone"] = json!({"kind": "placed", "territory": "tueks_sietch"});
    let err = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(
        err.code(),
        "state/inconsistent",
        "row 79: the stronghold already holds a token"
    );
}

#[test]
fn issue_11_3_bg_copy_rows() {
    let g = at_copy();
    assert_refused(&g, "row 80: candidate ecaz", |v| top(v)["candidates"] = json!(["ecaz"]));
    assert_refused(&g, "row 81: candidate beneGesserit", |v| {
        top(v)["candidates"] = json!(["beneGesserit"])
    });
    assert_refused(&g, "row 82: no candidates", |v| top(v)["candidates"] = json!([]));
    assert_refused(&g, "a cohort token under P-BG-POOL", |v| {
        top(v)["candidates"] = json!(["choam"])
    });
    assert_refused(&g, "a candidate twice", |v| {
        top(v)["candidates"] = json!(["atreides", "atreides"])
    });
}

#[test]
fn issue_11_3_row_83_alliance_offer_to_an_allied_faction() {
    let g = at_alliance_offer();
    assert_refused(&g, "row 83", |v| {
        v["factions"][1]["ally"] = json!("atreides");
        v["factions"][2]["ally"] = json!("harkonnen");
    });
}

// ---------------------------------------------------------------------------
// Mutation survivors (test-gaps findings)
// ---------------------------------------------------------------------------

#[test]
fn mutants_an_inconsistent_state_names_its_first_problem() {
    let g = table(&[], ["ixians", "choam", "fremen", "guild", "richese"], json!({}));
    let mut v = json_value(&g);
    v["turn"] = json!(0);
    let err = game_from_json(&v.to_string()).unwrap_err();
    let first = &err.problems()[0];
    assert!(err.to_string().contains(&first.message), "{err}");
    assert!(err.to_string().contains(&first.path), "{err}");
}

#[test]
fn mutants_rule_ids_of_spice_and_hand_errors() {
    // R-EFF-RIC: a full hand cannot buy; spice shortage is not a rule of its own.
    let g = table(
        &[("richese", "carthag")],
        ["richese", "choam", "fremen", "guild", "ixians"],
        json!({"factions": {"ecaz": {"spice": 2}}}),
    );
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let buy = ecaz(Action::BuyCard {
        frame: open_id(&g),
        buy: true,
    });
    let e = assert_rejected(&g, &buy, "rule/insufficient_spice");
    assert_eq!(e.rule(), None);
    let mut v = json_value(&g);
    v["factions"][0]["spice"] = json!(10);
    v["factions"][0]["handLimit"] = json!(1);
    let deck = v["treachery"]["deck"].as_array_mut().unwrap().remove(0);
    v["factions"][0]["hand"] = json!([deck]);
    let full = game_from_json(&v.to_string()).unwrap();
    let e = assert_rejected(&full, &buy, "rule/hand_full");
    assert_eq!(e.rule(), Some("R-EFF-RIC"));
}

#[test]
fn mutants_game_reports_its_options_and_policies() {
    let s = json!({
        "seats": ["ecaz", "harkonnen"],
        "seed": 5,
        "options": {"nexus": true, "advanced": true},
        "policies": {"richesePay": "purchase"},
    });
    let g = build_setup(&setup_of(s));
    assert!(g.options().nexus && g.options().advanced);
    assert_eq!(g.policies().richese_pay, ecaz::RichesePay::Purchase);
}

#[test]
fn mutants_newer_knowledge_of_the_same_kind_replaces_older_d_25() {
    // The Atreides token shows Ecaz Harkonnen's hand: an older hand record
    // about Harkonnen is replaced; a record of another kind stays.
    let g = table(
        &[("atreides", "carthag")],
        ["atreides", "choam", "fremen", "guild", "richese"],
        json!({"factions": {"harkonnen": {"hand": [7]}}}),
    );
    let mut v = json_value(&g);
    v["knowledge"] = json!([
        {"viewer": "ecaz", "about": "harkonnen", "turn": 1, "info": {"kind": "hand", "cards": []}},
        {"viewer": "ecaz", "about": "harkonnen", "turn": 1, "info": {"kind": "traitor", "leader": "piter_de_vries"}},
    ]);
    let g = game_from_json(&v.to_string()).unwrap();
    let g = step(&g, &shipment(Faction::Harkonnen, Territory::Carthag, 11, None)).0;
    let g = step(&g, &trigger(&g, Faction::Ecaz)).0;
    let records: Vec<&ecaz::Knowledge> = g.knowledge().iter().filter(|k| k.about == Faction::Harkonnen).collect();
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(records.iter().any(|k| k.info
        == ecaz::Insight::Hand {
            cards: vec![ecaz::CardId(7)]
        }));
    assert!(records.iter().any(|k| matches!(k.info, ecaz::Insight::Traitor { .. })));
}

/// Found by the offline self-play run (`ecaz selfplay --games 10000 --seed
/// 100000 --check`, game 101681): an arrival (Atreides into Arrakeen) whose
/// CHOAM offer was withdrawn when a nested reaction below it triggered the
/// same token (R-TRG-7) stayed open after that reaction resumed, because
/// its sibling reported later was still open above it in the list; the
/// state was refused on reload ("arrival 9 is open with nothing left to
/// settle"). It now resumes as soon as its last child does (R-TRG-4). The
/// whole game is checked after every command: liveness, invariants, reload.
#[test]
fn issue_11_6_a_withdrawn_offer_s_arrival_resumes_after_its_last_child_r_trg_4() {
    use ecaz::sim::{check, CheckLevel, Table, TableConfig};
    let mut table = Table::random(101681, None, TableConfig::default()).unwrap();
    let mut resumed = std::collections::BTreeMap::new();
    let mut commands = 0;
    while !table.finished() {
        let step = table.step();
        commands += 1;
        if let Ok(events) = &step.outcome {
            for e in events {
                if let EventKind::Resume { arrival } = e.event {
                    *resumed.entry(arrival).or_insert(0u32) += 1;
                }
            }
        }
        let problems = check(table.game(), CheckLevel::Full);
        assert!(problems.is_empty(), "command {commands}: {problems:?}");
    }
    assert!(commands > 34, "the game reaches the reported command");
    assert!(
        resumed.values().all(|&n| n == 1),
        "exactly one resume per arrival: {resumed:?}"
    );
    assert_eq!(resumed.get(&ArrivalId(9)), Some(&1));
}
