//! D-242: a trigger offer's previews give the reason of everything refused:
//! each beneficiary that may not benefit carries a `refusal` (the error code
//! `apply` gives for that trigger, its rule, a short message), and each Ecaz
//! token branch closed to a beneficiary is listed in `closedBranches` with
//! its refusal (the code `apply` gives for choosing it). The codes are the
//! `ErrorCode` enum of the schemas.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use arrivals::*;
use common::*;
use ecaz::{
    Action, Actor, Ambassador, ApplyError, DukeCustody, DukeSource, EcazBranch, ErrorCode, Faction, Game, Territory,
    TriggerPreview,
};

/// The Ecaz token in Arrakeen; Ecaz allied with Atreides, who holds Duke
/// Vidal: Harkonnen's entry offers the token. For Ecaz the Duke branch is
/// open and the alliance branch closed (Ecaz is allied); for Atreides both
/// are closed (it already holds him; the alliance branch is Ecaz's own), so
/// it may not benefit at all.
fn ecaz_offer() -> Game {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen],
        &COHORT,
        &[(Ambassador::Ecaz, Territory::Arrakeen)],
    );
    ally(&mut s, Faction::Atreides);
    s.duke = Some(DukeCustody::Controlled {
        by: Faction::Atreides,
        source: DukeSource::EcazAmbassador,
    });
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    g
}

fn preview(g: &Game, beneficiary: Faction) -> TriggerPreview {
    options(g, Actor::Faction(Faction::Ecaz))
        .previews
        .into_iter()
        .find(|p| p.beneficiary == beneficiary)
        .unwrap()
}

/// The code `apply` gives for `action` (answered by Ecaz), state unchanged.
fn refused_with(g: &Game, action: Action) -> ApplyError {
    let before = json(g);
    let e = apply(g, &ecaz(action)).unwrap_err();
    assert_eq!(json(g), before);
    e
}

#[test]
fn d242_each_closed_branch_and_refused_beneficiary_has_its_code() {
    let g = ecaz_offer();
    let id = open_id(&g);
    let ours = preview(&g, Faction::Ecaz);
    assert!(ours.possible && ours.refusal.is_none(), "{ours:?}");
    assert_eq!(ours.branches, vec![EcazBranch::Duke]);
    assert_eq!(ours.closed_branches.len(), 1, "{ours:?}");
    let closed = &ours.closed_branches[0];
    assert_eq!(closed.branch, EcazBranch::Alliance);
    assert_eq!(closed.refusal.code, "rule/branch_unavailable");
    assert_eq!(closed.refusal.rule.as_deref(), Some("R-EFF-ECAZ"));
    assert!(!closed.refusal.message.is_empty());

    let theirs = preview(&g, Faction::Atreides);
    assert!(!theirs.possible && theirs.branches.is_empty(), "{theirs:?}");
    let refusal = theirs.refusal.as_ref().expect("a refused beneficiary says why");
    // The same code (and rule) `apply` gives for that trigger.
    let e = refused_with(
        &g,
        Action::Trigger {
            frame: id,
            beneficiary: Faction::Atreides,
        },
    );
    assert_eq!(refusal.code, e.code());
    assert_eq!(refusal.code, "rule/effect_unavailable");
    assert_eq!(refusal.rule.as_deref(), e.rule());
    assert_eq!(
        theirs.closed_branches.iter().map(|c| c.branch).collect::<Vec<_>>(),
        vec![EcazBranch::Duke, EcazBranch::Alliance]
    );
    assert!(theirs
        .closed_branches
        .iter()
        .all(|c| c.refusal.code == "rule/branch_unavailable"));

    // The refused trigger is in `blocked` with the same code.
    let blocked = options(&g, Actor::Faction(Faction::Ecaz)).blocked;
    assert!(blocked.iter().any(|b| b.code == refusal.code), "{blocked:?}");
}

/// D-242: a preview has a refusal exactly when it is not possible; every
/// code is one of the stable codes; only the Ecaz token has branches.
#[test]
fn d242_every_beneficiary_without_a_refusal_is_possible_and_every_refusal_is_a_known_code() {
    let g = ecaz_offer();
    for p in options(&g, Actor::Faction(Faction::Ecaz)).previews {
        assert_eq!(p.possible, p.refusal.is_none(), "{p:?}");
        for r in p.refusal.iter().chain(p.closed_branches.iter().map(|c| &c.refusal)) {
            assert!(ApplyError::CODES.contains(&r.code.as_str()), "{r:?}");
            assert_eq!(ErrorCode::from_text(r.code.as_str()), Some(r.code));
        }
        // Tokens other than Ecaz's have no branches.
        assert!(p.effect == Ambassador::Ecaz || p.closed_branches.is_empty());
    }
    // Another token: no branches, a refusal for the beneficiary the effect
    // can do nothing for (P-UNAVAILABLE: the Ixian swap with an empty hand).
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen],
        &[
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Ixians,
        ],
        &[(Ambassador::Ixians, Territory::Arrakeen)],
    );
    ally(&mut s, Faction::Atreides);
    give_hand(&mut s, Faction::Ecaz, &[3]);
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let p = preview(&g, Faction::Atreides);
    assert!(!p.possible && p.closed_branches.is_empty(), "{p:?}");
    assert_eq!(p.refusal.unwrap().code, "rule/effect_unavailable");
    let p = preview(&g, Faction::Ecaz);
    assert!(p.possible && p.refusal.is_none(), "{p:?}");
}

/// D-242: `ErrorCode` is an enum of every stable code in the schemas, and
/// `Blocked.code` and a refusal's `code` are typed by it.
#[test]
fn d242_error_code_is_an_enum_of_every_code_in_the_schemas() {
    let schema = ecaz::schema::all()
        .into_iter()
        .find(|(name, _)| *name == "options")
        .unwrap()
        .1;
    let defs = &schema.as_value()["$defs"];
    let codes: Vec<&str> = defs["ErrorCode"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(codes, ApplyError::CODES);
    let is_code = |node: &serde_json::Value| node.to_string().contains("#/$defs/ErrorCode");
    assert!(is_code(&defs["Blocked"]["properties"]["code"]));
    assert!(is_code(&defs["Refusal"]["properties"]["code"]));
    // An unknown code is refused when read back.
    assert!(serde_json::from_str::<ErrorCode>("\"rule/no_such_code\"").is_err());
    assert_eq!(
        serde_json::from_str::<ErrorCode>("\"rule/stale_frame\"").unwrap(),
        "rule/stale_frame"
    );
}
