//! The protocol (ARCHITECTURE §4, §5): actor binding, decision frames, the
//! JSON door, state versioning and error codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::*;
use ecaz::{
    command_from_json, game_from_json, setup_from_json, Action, Ambassador, ApplyError, Command, Faction, FrameId,
    Game, Phase, Problem, Territory,
};

fn at_placement() -> Game {
    let (g, _) = walk_to_revival_end(&basic(21));
    assert!(placement_open(&g));
    g
}

fn some_supply_token(g: &Game) -> Ambassador {
    supply(g).into_iter().find(|&t| t != Ambassador::Ecaz).unwrap()
}

/// A game whose open frame is the host's placement response window.
fn at_response() -> Game {
    let g = at_placement();
    announce(&g, Ambassador::Ecaz, Territory::Arrakeen).0
}

// ---- actor binding ----

#[test]
fn protocol_wrong_actor_faction_sends_host_report() {
    let g = basic(1);
    let reports = [
        Action::EndPhase { phase: Phase::Storm },
        Action::MoveStorm { sectors: 3 },
        Action::DestroyShieldWall {},
        Action::DestroyTerritory {
            territory: Territory::Carthag,
            cause: ecaz::Destruction::Other,
        },
    ];
    for action in reports {
        for f in [Faction::Ecaz, Faction::Atreides] {
            assert_rejected(&g, &Command::faction(f, action.clone()), "rule/wrong_actor");
        }
    }
    // Also while a decision is open: the actor check comes first.
    let g = at_placement();
    assert_rejected(
        &g,
        &ecaz(Action::EndPhase { phase: Phase::Revival }),
        "rule/wrong_actor",
    );
}

#[test]
fn protocol_not_your_decision_forged_faction_on_ecaz_frame() {
    let g = at_placement();
    let id = open_id(&g);
    for f in [Faction::Atreides, Faction::Harkonnen] {
        assert_rejected(
            &g,
            &Command::faction(
                f,
                Action::Place {
                    frame: id,
                    token: Ambassador::Ecaz,
                    territory: Territory::Arrakeen,
                },
            ),
            "rule/not_your_decision",
        );
        assert_rejected(
            &g,
            &Command::faction(f, Action::FinishPlacement { frame: id }),
            "rule/not_your_decision",
        );
    }
}

#[test]
fn protocol_not_your_decision_host_on_ecaz_frame() {
    let g = at_placement();
    let id = open_id(&g);
    assert_rejected(
        &g,
        &host(Action::Place {
            frame: id,
            token: Ambassador::Ecaz,
            territory: Territory::Arrakeen,
        }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &host(Action::FinishPlacement { frame: id }),
        "rule/not_your_decision",
    );
}

#[test]
fn protocol_not_your_decision_ecaz_on_host_response_frame() {
    let g = at_response();
    let id = open_id(&g);
    assert_rejected(
        &g,
        &ecaz(Action::AllowPlacement { frame: id }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &ecaz(Action::CancelPlacement {
            frame: id,
            faction: Faction::Atreides,
            card: karamas()[0],
            host_vouched_karama: false,
        }),
        "rule/not_your_decision",
    );
    assert_rejected(
        &g,
        &Command::faction(Faction::Atreides, Action::AllowPlacement { frame: id }),
        "rule/not_your_decision",
    );
}

#[test]
fn protocol_wrong_decision_kind_for_frame() {
    let g = at_placement();
    assert_rejected(
        &g,
        &ecaz(Action::AllowPlacement { frame: open_id(&g) }),
        "rule/wrong_decision",
    );
    let g = at_response();
    assert_rejected(
        &g,
        &host(Action::FinishPlacement { frame: open_id(&g) }),
        "rule/wrong_decision",
    );
}

#[test]
fn protocol_not_seated_actor() {
    let g = at_placement();
    let id = open_id(&g);
    assert_rejected(
        &g,
        &Command::faction(Faction::Moritani, Action::FinishPlacement { frame: id }),
        "rule/not_seated",
    );
    assert_rejected(
        &g,
        &Command::faction(Faction::Fremen, Action::EndPhase { phase: Phase::Revival }),
        "rule/not_seated",
    );
    // Ecaz itself when not seated.
    let g = build(&[Faction::Atreides, Faction::Harkonnen], 1);
    assert_rejected(
        &g,
        &ecaz(Action::FinishPlacement { frame: FrameId(1) }),
        "rule/not_seated",
    );
}

// ---- frames ----

#[test]
fn protocol_stale_frame_unknown_id() {
    let g = at_placement();
    for bogus in [0, 2, 999, u32::MAX] {
        let err = assert_rejected(
            &g,
            &place_cmd(&g, Ambassador::Ecaz, Territory::Arrakeen).clone_with_frame(FrameId(bogus)),
            "rule/stale_frame",
        );
        assert_eq!(
            err,
            ApplyError::StaleFrame {
                named: FrameId(bogus),
                open: Some(open_id(&g))
            }
        );
    }
    // No frame open at all.
    let g = basic(1);
    assert_rejected(
        &g,
        &ecaz(Action::FinishPlacement { frame: FrameId(1) }),
        "rule/stale_frame",
    );
    assert_rejected(
        &g,
        &host(Action::AllowPlacement { frame: FrameId(1) }),
        "rule/stale_frame",
    );
}

trait WithFrame {
    fn clone_with_frame(&self, frame: FrameId) -> Command;
}

impl WithFrame for Command {
    fn clone_with_frame(&self, id: FrameId) -> Command {
        let mut c = self.clone();
        match &mut c.action {
            Action::Place { frame, .. }
            | Action::FinishPlacement { frame }
            | Action::AllowPlacement { frame }
            | Action::CancelPlacement { frame, .. } => *frame = id,
            _ => {}
        }
        c
    }
}

#[test]
fn protocol_stale_frame_answered_id_replayed() {
    let g0 = at_placement();
    let first = place_cmd(&g0, Ambassador::Ecaz, Territory::Arrakeen);
    let (g1, _) = ok(&g0, &first);
    // Replaying the answered announcement while the response window is open.
    assert_rejected(&g1, &first, "rule/stale_frame");
    let allow_cmd = host(Action::AllowPlacement { frame: open_id(&g1) });
    let (g2, _) = ok(&g1, &allow_cmd);
    // Replaying both after the placement committed: a new frame is open.
    assert!(placement_open(&g2));
    let token = some_supply_token(&g2);
    let replay = first.clone_with_frame(FrameId(open_id(&g0).0));
    assert_rejected(&g2, &replay, "rule/stale_frame");
    assert_rejected(&g2, &allow_cmd, "rule/stale_frame");
    // The fresh frame has a fresh id.
    assert!(open_id(&g2) > open_id(&g1) && open_id(&g1) > open_id(&g0));
    let (g3, _) = place(&g2, token, Territory::Carthag);
    let (g4, _) = finish(&g3);
    // After the opportunity closed, every old id is stale.
    for id in [open_id(&g0), open_id(&g1), open_id(&g2), open_id(&g3)] {
        assert_rejected(&g4, &ecaz(Action::FinishPlacement { frame: id }), "rule/stale_frame");
    }
}

#[test]
fn protocol_stale_frame_lower_in_stack() {
    // P-NEST: a trigger offer under a nested arrival's offer (Harkonnen
    // enters Sietch Tabr, then a linked arrival of Atreides into Carthag):
    // the lower offer cannot be answered until the child settles.
    let mut s = setup(&[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides], 5);
    let setup_json = serde_json::json!({
        "cohort": ["emperor", "choam", "fremen", "guild", "richese"],
        "zones": {"emperor": {"kind": "placed", "territory": "sietch_tabr"},
                  "choam": {"kind": "placed", "territory": "carthag"}},
    });
    s.ambassadors = Some(serde_json::from_value(setup_json).unwrap());
    let g = build_setup(&s);
    let (g, _) = ok(&g, &shipment(Faction::Harkonnen, Territory::SietchTabr, 14, None));
    let lower = open_id(&g);
    let (g, _) = ok(
        &g,
        &shipment(Faction::Atreides, Territory::Carthag, 11, Some(ecaz::ArrivalId(1))),
    );
    assert_eq!(g.pending().len(), 2);
    assert_ne!(open_id(&g), lower);
    assert_rejected(&g, &ecaz(Action::Decline { frame: lower }), "rule/stale_frame");
    assert_rejected(
        &g,
        &ecaz(Action::Trigger {
            frame: lower,
            beneficiary: Faction::Ecaz,
        }),
        "rule/stale_frame",
    );
}

#[test]
fn protocol_decision_pending_blocks_host_reports() {
    let g = at_placement();
    for action in [
        Action::EndPhase { phase: Phase::Revival },
        Action::MoveStorm { sectors: 1 },
        Action::DestroyShieldWall {},
        Action::DestroyTerritory {
            territory: Territory::Arrakeen,
            cause: ecaz::Destruction::LasgunShield,
        },
        Action::MoveHms {
            territory: Territory::HaggaBasin,
            sector: 12,
        },
    ] {
        let err = assert_rejected(&g, &host(action), "rule/decision_pending");
        assert_eq!(err, ApplyError::DecisionPending(open_id(&g)));
    }
    let g = at_response();
    assert_rejected(
        &g,
        &host(Action::EndPhase { phase: Phase::Revival }),
        "rule/decision_pending",
    );
}

#[test]
fn protocol_wrong_phase_for_host_reports() {
    let g = basic(2);
    assert_eq!(g.phase(), Phase::Storm);
    for wrong in [Phase::Revival, Phase::Mentat, Phase::SpiceBlow] {
        assert_rejected(&g, &host(Action::EndPhase { phase: wrong }), "rule/wrong_phase");
    }
    let g = end_phase(&g).0;
    assert_eq!(g.phase(), Phase::SpiceBlow);
    assert_rejected(&g, &host(Action::MoveStorm { sectors: 2 }), "rule/wrong_phase");
    assert_rejected(&g, &host(Action::DestroyShieldWall {}), "rule/wrong_phase");
    let g = walk_to_phase(&g, Phase::Battle);
    assert_rejected(&g, &host(Action::MoveStorm { sectors: 0 }), "rule/wrong_phase");
    assert_rejected(&g, &host(Action::DestroyShieldWall {}), "rule/wrong_phase");
}

#[test]
fn protocol_storm_amount_and_shield_wall_once() {
    let g = basic(2);
    assert_rejected(&g, &host(Action::MoveStorm { sectors: 21 }), "rule/storm_amount");
    assert_rejected(&g, &host(Action::MoveStorm { sectors: u32::MAX }), "rule/storm_amount");
    let (g2, _) = ok(&g, &host(Action::MoveStorm { sectors: 20 }));
    assert_eq!(g2.storm(), 3);
    let (g3, _) = ok(&g, &host(Action::DestroyShieldWall {}));
    assert!(!g3.shield_wall_standing());
    assert_rejected(&g3, &host(Action::DestroyShieldWall {}), "rule/shield_wall_destroyed");
}

// ---- the JSON door ----

fn state(g: &Game) -> String {
    json(g)
}

#[test]
fn json_apply_matches_typed_apply() {
    let g = at_placement();
    let cmd = place_cmd(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let out = apply_json(&state(&g), &serde_json::to_string(&cmd).unwrap()).unwrap();
    let (next, events) = ok(&g, &cmd);
    assert_eq!(out.state, json(&next));
    assert_eq!(out.events, serde_json::to_string(&events).unwrap());
    let doc: serde_json::Value = serde_json::from_str(&out.to_document()).unwrap();
    assert!(doc["state"].is_object() && doc["events"].is_array());
    // The wire shape the front end expects.
    let text = r#"{"actor":"host","action":{"kind":"allowPlacement","frame":2}}"#;
    assert_eq!(
        command_from_json(text).unwrap(),
        host(Action::AllowPlacement { frame: FrameId(2) })
    );
}

#[test]
fn json_invalid_json_command() {
    let s = state(&basic(1));
    for bad in [
        "not json",
        "{",
        "{\"actor\":",
        "",
        "   ",
        "{\"actor\":\"host\",}",
        "\u{0}",
    ] {
        let err = apply_json(&s, bad).unwrap_err();
        assert_eq!(err.code(), "decode/invalid_json", "{bad:?}: {err}");
    }
}

#[test]
fn json_invalid_command_shapes() {
    let g = at_placement();
    let s = state(&g);
    let id = open_id(&g).0;
    let bad = [
        format!(r#"{{"actor":"ecaz","action":{{"kind":"place","frame":{id},"token":"ecaz","territory":"atlantis"}}}}"#),
        format!(
            r#"{{"actor":"ecaz","action":{{"kind":"place","frame":{id},"token":"moritani","territory":"arrakeen"}}}}"#
        ),
        r#"{"actor":"host","action":{"kind":"moveStorm","sectors":-1}}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"moveStorm","sectors":1.5}}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"moveStorm","sectors":"3"}}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"teleport"}}"#.to_string(),
        r#"{"actor":"host","action":{}}"#.to_string(),
        r#"{"actor":"host"}"#.to_string(),
        r#"{"actor":"sardaukar","action":{"kind":"endPhase","phase":"revival"}}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"revival","extra":1}}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"revival"},"extra":1}"#.to_string(),
        r#"{"actor":"host","action":{"kind":"endPhase","phase":"siesta"}}"#.to_string(),
        format!(r#"{{"actor":"ecaz","action":{{"kind":"finishPlacement","frame":-{id}}}}}"#),
        r#"[]"#.to_string(),
        r#"42"#.to_string(),
        r#"null"#.to_string(),
    ];
    for text in bad {
        let err = apply_json(&s, &text).unwrap_err();
        assert_eq!(err.code(), "decode/invalid_command", "{text}: {err}");
    }
}

#[test]
fn json_extra_field_on_unit_action_rejected() {
    // `destroyShieldWall` carries no data; an extra field is still an invalid command.
    let g = basic(1);
    let text = r#"{"actor":"host","action":{"kind":"destroyShieldWall","extra":1}}"#;
    let err = apply_json(&state(&g), text).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_command", "{err}");
}

#[test]
fn state_unsupported_version() {
    let g = basic(1);
    let mut v = json_value(&g);
    let next = serde_json::json!(ecaz::FORMAT_VERSION + 1);
    for version in [serde_json::json!(999), serde_json::json!(0), next] {
        v["version"] = version.clone();
        let err = game_from_json(&v.to_string()).unwrap_err();
        assert_eq!(err.code(), "state/unsupported_version", "{version}: {err}");
        let err = apply_json(
            &v.to_string(),
            r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#,
        )
        .unwrap_err();
        assert_eq!(err.code(), "state/unsupported_version");
    }
    // A future version with a different shape still says "version", not "shape".
    let mut future = json_value(&g);
    future["version"] = serde_json::json!(999);
    future["brandNewField"] = serde_json::json!({"x": 1});
    future.as_object_mut().unwrap().remove("ambassadors");
    let err = game_from_json(&future.to_string()).unwrap_err();
    assert_eq!(err.code(), "state/unsupported_version");
    // Missing version.
    let mut v = json_value(&g);
    v.as_object_mut().unwrap().remove("version");
    let err = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), "state/unsupported_version");
    assert!(err.to_string().contains("none"), "{err}");
}

#[test]
fn state_shape_error_with_current_version() {
    let g = basic(1);
    let mut v = json_value(&g);
    v["storm"] = serde_json::json!("north");
    let err = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_state", "{err}");
    let mut v = json_value(&g);
    v["rng"]["state"] = serde_json::json!("12");
    let err = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_state", "{err}");
}

fn corrupt(g: &Game, edit: impl FnOnce(&mut serde_json::Value)) -> Vec<Problem> {
    let mut v = json_value(g);
    edit(&mut v);
    let err = game_from_json(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), "state/inconsistent", "{err}");
    assert!(!err.problems().is_empty());
    err.problems().to_vec()
}

#[test]
fn state_inconsistent_token_removed_or_forces_wrong() {
    let g = basic(3);
    let ps = corrupt(&g, |v| {
        v["ambassadors"]["tokens"].as_array_mut().unwrap().remove(3);
    });
    assert!(ps.iter().any(|p| p.path.starts_with("ambassadors")), "{ps:?}");
    let ps = corrupt(&g, |v| {
        let n = v["factions"][0]["reserves"]["normal"].as_u64().unwrap();
        v["factions"][0]["reserves"]["normal"] = serde_json::json!(n + 1);
    });
    assert!(ps.iter().any(|p| p.path.ends_with(".forces")), "{ps:?}");
    let ps = corrupt(&g, |v| {
        v["storm"] = serde_json::json!(0);
    });
    assert!(ps.iter().any(|p| p.path == "storm"), "{ps:?}");
    // The Ecaz token moved to the pool.
    corrupt(&g, |v| {
        v["ambassadors"]["tokens"][0]["zone"] = serde_json::json!({"kind": "pool"});
    });
    // A card lost from the deck.
    corrupt(&g, |v| {
        v["treachery"]["deck"].as_array_mut().unwrap().pop();
    });
    // Two tokens in one stronghold.
    corrupt(&g, |v| {
        let cohort0 = v["ambassadors"]["cohort"][0].as_str().unwrap().to_string();
        for t in v["ambassadors"]["tokens"].as_array_mut().unwrap() {
            if t["token"] == "ecaz" || t["token"] == cohort0.as_str() {
                t["zone"] = serde_json::json!({"kind": "placed", "territory": "carthag"});
            }
        }
    });
    // A frame answered by an unseated faction / a reused frame id.
    corrupt(&g, |v| {
        v["pending"] = serde_json::json!([{"id": 1, "actor": "moritani", "decision": {"kind": "placement"}}]);
        v["nextFrame"] = serde_json::json!(2);
    });
    corrupt(&g, |v| {
        v["pending"] = serde_json::json!([{"id": 5, "actor": "ecaz", "decision": {"kind": "placement"}}]);
        v["nextFrame"] = serde_json::json!(5);
    });
}

#[test]
fn state_inconsistent_hms_without_ixians() {
    let g = basic(3);
    corrupt(&g, |v| {
        v["hms"] = serde_json::json!({"territory": "hagga_basin", "sector": 12});
    });
}

#[test]
fn state_inconsistent_hms_pointer() {
    let g = build(&[Faction::Ecaz, Faction::Ixians], 3);
    corrupt(&g, |v| {
        v["hms"] = serde_json::json!({"territory": "arrakeen", "sector": 10});
    });
    corrupt(&g, |v| {
        v["hms"] = serde_json::json!({"territory": "hagga_basin", "sector": 3});
    });
}

#[test]
fn protocol_frame_ids_never_reused_near_u32_max() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 4);
    s.phase = Some(Phase::Revival);
    let g = build_setup(&s);
    let mut v = json_value(&g);
    v["nextFrame"] = serde_json::json!(u32::MAX - 1);
    // Either the library refuses such a state up front …
    let Ok(g) = game_from_json(&v.to_string()) else {
        return;
    };
    // … or every reachable state stays loadable and no id is ever reused.
    let (g, _) = end_phase(&g);
    assert_round_trip(&g);
    let first = open_id(&g);
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    assert_round_trip(&g);
    let response = open_id(&g);
    assert_ne!(first, response);
    let (g, _) = allow(&g);
    assert_round_trip(&g);
    assert_ne!(open_id(&g), response, "a fresh frame reuses an answered id");
    assert_rejected(
        &g,
        &host(Action::AllowPlacement { frame: response }),
        "rule/stale_frame",
    );
}

#[test]
fn state_inconsistent_placement_frame_not_answered_by_ecaz() {
    let g = at_placement();
    corrupt(&g, |v| {
        v["pending"][0]["actor"] = serde_json::json!("atreides");
    });
    corrupt(&g, |v| {
        v["pending"][0]["actor"] = serde_json::json!("host");
    });
    let r = at_response();
    corrupt(&r, |v| {
        v["pending"][0]["actor"] = serde_json::json!("ecaz");
    });
}

#[test]
fn state_inconsistent_placement_response_cost() {
    let g = at_response();
    corrupt(&g, |v| {
        v["pending"][0]["decision"]["cost"] = serde_json::json!(0);
    });
    corrupt(&g, |v| {
        v["pending"][0]["decision"]["cost"] = serde_json::json!(5);
    });
}

#[test]
fn state_inconsistent_placement_frame_outside_revival() {
    let g = at_placement();
    corrupt(&g, |v| {
        v["phase"] = serde_json::json!("battle");
    });
    corrupt(&g, |v| {
        v["ambassadors"]["placement"]["closed"] = serde_json::json!(true);
    });
}

#[test]
fn state_huge_force_counts_are_inconsistent_not_a_panic() {
    let g = build(&[Faction::Ecaz, Faction::Emperor], 1);
    let ps = corrupt(&g, |v| {
        v["factions"][1]["reserves"] = serde_json::json!({"normal": 0, "elite": 0});
        v["factions"][1]["board"] = serde_json::json!([
            {"territory": "imperial_basin", "sector": 9, "normal": 0, "elite": u32::MAX, "advisors": 0},
            {"territory": "imperial_basin", "sector": 10, "normal": 0, "elite": 1, "advisors": 0}
        ]);
    });
    assert!(ps.iter().any(|p| p.path.starts_with("factions.emperor")), "{ps:?}");
}

#[test]
fn json_truncated_and_empty_state() {
    let s = state(&basic(1));
    let cmd = r#"{"actor":"host","action":{"kind":"endPhase","phase":"storm"}}"#;
    for cut in [0, 1, s.len() / 3, s.len() / 2, s.len() - 1] {
        let err = apply_json(&s[..cut], cmd).unwrap_err();
        assert_eq!(err.code(), "decode/invalid_json", "cut at {cut}: {err}");
    }
    assert_eq!(game_from_json("").unwrap_err().code(), "decode/invalid_json");
    assert_eq!(game_from_json("   ").unwrap_err().code(), "decode/invalid_json");
}

#[test]
fn json_not_json_state_is_invalid_json_even_after_a_shape_error() {
    // `{}` fails on a missing field before the trailing garbage is read; the
    // version probe then fails to parse and reports "version none".
    assert_eq!(game_from_json("{} trailing").unwrap_err().code(), "decode/invalid_json");
    // A truncated state whose first field already has the wrong type.
    let err = game_from_json(r#"{"version":1,"seats":5,"options":{"adv"#).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_json", "{err}");
}

#[test]
fn json_huge_nesting_is_an_error_not_a_crash() {
    let depth = 100_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let open_arrays = "[".repeat(depth);
    let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    let version_objects = format!("{{\"version\":{}1{}}}", "{\"a\":".repeat(depth), "}".repeat(depth));
    let s = state(&basic(1));
    for text in [&arrays, &open_arrays, &objects, &version_objects] {
        assert!(game_from_json(text).is_err());
        assert!(apply_json(text, "{}").is_err());
        assert!(apply_json(&s, text).is_err());
        assert!(command_from_json(text).is_err());
        assert!(setup_from_json(text).is_err());
        assert!(view_json(&s, text).is_err());
        assert!(options_json(&s, text).is_err());
        assert!(view_json(text, "\"host\"").is_err());
        assert!(new_game_json(text).is_err());
    }
    let deep_command = format!(
        r#"{{"actor":"host","action":{{"kind":"endPhase","phase":{}"storm"{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert!(apply_json(&s, &deep_command).is_err());
}

#[test]
fn json_view_and_options_door() {
    let g = at_placement();
    let s = state(&g);
    let v: serde_json::Value = serde_json::from_str(&view_json(&s, "\"atreides\"").unwrap()).unwrap();
    assert_eq!(v["viewer"], "atreides");
    let o: serde_json::Value = serde_json::from_str(&options_json(&s, "\"ecaz\"").unwrap()).unwrap();
    assert!(!o["commands"].as_array().unwrap().is_empty());
    for bad in ["\"sardaukar\"", "\"\"", "7"] {
        assert_eq!(view_json(&s, bad).unwrap_err().code(), "decode/invalid_viewer", "{bad}");
    }
    assert_eq!(view_json(&s, "atreides").unwrap_err().code(), "decode/invalid_json");
    assert_eq!(
        options_json(&s, "\"spectator\"").unwrap_err().code(),
        "decode/invalid_viewer"
    );
}

// ---- error reports and codes ----

#[test]
fn error_report_json_has_code_and_message() {
    let g = at_placement();
    let err = assert_rejected(
        &g,
        &place_cmd(&g, Ambassador::Ecaz, Territory::ImperialBasin),
        "rule/not_a_stronghold",
    );
    let report: serde_json::Value = serde_json::to_value(err.report()).unwrap();
    assert_eq!(report["code"], "rule/not_a_stronghold");
    assert!(report["message"].as_str().unwrap().contains("imperial_basin"));
    assert_eq!(report["rule"], "R-PLC-3");
    let setup_err = setup(&[Faction::Ecaz], 1).build().unwrap_err();
    let report: serde_json::Value = serde_json::to_value(setup_err.report()).unwrap();
    assert_eq!(report["code"], "setup/invalid");
    assert!(report["message"].is_string());
    assert!(report["problems"].as_array().is_some_and(|p| !p.is_empty()));
    assert!(report["problems"][0]["path"].is_string());
    let decode = apply_json("{", "{}").unwrap_err();
    let report: serde_json::Value = serde_json::to_value(decode.report()).unwrap();
    assert_eq!(report["code"], "decode/invalid_json");
    assert!(report.get("problems").is_none(), "empty problems are omitted");
}

#[test]
fn error_codes_unique_and_namespaced() {
    let s = String::new;
    let all = vec![
        ApplyError::InvalidJson(s()),
        ApplyError::InvalidCommand(s()),
        ApplyError::InvalidSetupDocument(s()),
        ApplyError::InvalidViewer(s()),
        ApplyError::InvalidState(s()),
        ApplyError::InvalidUtf8,
        ApplyError::NullInput("state"),
        ApplyError::UnsupportedVersion {
            found: s(),
            supported: 1,
        },
        ApplyError::CorruptState(Vec::new().into()),
        ApplyError::StateTooLarge(Vec::new().into()),
        ApplyError::InvalidSetup(Vec::new().into()),
        ApplyError::SetupTooLarge(Vec::new().into()),
        ApplyError::MissingSeed,
        ApplyError::WrongActor {
            actor: s(),
            action: "x",
            why: "y",
        },
        ApplyError::NotSeated(Faction::Moritani),
        ApplyError::StaleFrame {
            named: FrameId(1),
            open: None,
        },
        ApplyError::NotYourDecision {
            frame: FrameId(1),
            owner: s(),
            actor: s(),
        },
        ApplyError::WrongDecision {
            action: "x",
            frame_kind: "y",
        },
        ApplyError::DecisionPending(FrameId(1)),
        ApplyError::WrongPhase {
            action: "x",
            expected: Phase::Storm,
            actual: Phase::Mentat,
        },
        ApplyError::TokenNotInSupply(Ambassador::Ecaz),
        ApplyError::NotAStronghold(Territory::Basin),
        ApplyError::HmsNotInPlay,
        ApplyError::StrongholdInStorm {
            territory: Territory::Arrakeen,
            sector: 10,
        },
        ApplyError::StrongholdHasAmbassador {
            territory: Territory::Arrakeen,
            token: Ambassador::Ecaz,
        },
        ApplyError::InsufficientSpice {
            faction: Faction::Ecaz,
            has: 0,
            needs: 1,
        },
        ApplyError::OwnPlacement(Faction::Ecaz),
        ApplyError::CardNotHeld {
            faction: Faction::Atreides,
            card: ecaz::CardId(1),
        },
        ApplyError::NotKarama {
            card: ecaz::CardId(1),
            kind: s(),
        },
        ApplyError::StormAmount { amount: 21, max: 20 },
        ApplyError::ShieldWallGone,
        ApplyError::InvalidHmsPointer {
            territory: Territory::Arrakeen,
            sector: 10,
            why: "z",
        },
    ];
    let mut codes = BTreeSet::new();
    for e in &all {
        let code = e.code();
        assert!(codes.insert(code), "duplicate code {code}");
        let (ns, name) = code.split_once('/').unwrap();
        assert!(["decode", "state", "setup", "rule"].contains(&ns), "{code}");
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{code}"
        );
        assert!(!e.to_string().is_empty());
        if ns == "rule" && e.rule().is_some() {
            assert!(e.rule().unwrap().starts_with("R-") || e.rule().unwrap().starts_with("P-"));
        }
    }
    assert_eq!(codes.len(), all.len());
}
