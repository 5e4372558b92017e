//! The board effects (D-31–D-35): the Fremen relocation (R-EFF-FRE,
//! P-FRE-ROUTE), the Guild shipment (R-EFF-GLD), the Tleilaxu revival
//! (R-EFF-TLX, P-TLX), the occupancy, storm and HMS rules they obey (RULES §8),
//! the entries they cause and their nesting (R-TRG-3, R-TRG-4, R-TRG-8, P-NEST),
//! and the `options` choice descriptors for them. Every rejection goes
//! through `assert_rejected` (code + state byte-identical + `validate`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::{
    elite_total, Action, Actor, Ambassador, AmbassadorsSetup, ArrivalId, Cause, Command, Decision, DukeCustody,
    DukeReason, DukeRevived, DukeSource, EcazBranch, Event, EventKind, Faction, FactionSetup, Forces, Game, HmsPointer,
    Leader, LeaderCustody, LeaderState, Origin, Phase, Sector, Setup, Stack, Territory, Zone,
};
use serde_json::{json, Value};

const COHORT: [Ambassador; 5] = [
    Ambassador::Fremen,
    Ambassador::Guild,
    Ambassador::Tleilaxu,
    Ambassador::Atreides,
    Ambassador::Choam,
];

// ---- builders ----

fn st(territory: Territory, sector: Sector, normal: u32, elite: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal,
        elite,
        advisors: 0,
    }
}

fn advisors(territory: Territory, sector: Sector, n: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal: 0,
        elite: 0,
        advisors: n,
    }
}

fn on_board(s: &mut Setup, f: Faction, stacks: Vec<Stack>) {
    s.factions.entry(f).or_default().board = Some(stacks);
}

fn allied(s: &mut Setup, a: Faction, b: Faction) {
    s.factions.entry(a).or_default().ally = Some(b);
    s.factions.entry(b).or_default().ally = Some(a);
}

/// Shipment & Movement of turn 1, a fixed cohort, `placed` tokens in their strongholds.
fn table(seats: &[Faction], storm: Sector, placed: &[(Ambassador, Territory)]) -> Setup {
    let mut s = setup(seats, 8);
    s.phase = Some(Phase::ShipmentMovement);
    s.storm = Some(storm);
    let zones: BTreeMap<Ambassador, Zone> = placed
        .iter()
        .map(|&(token, territory)| (token, Zone::Placed { territory }))
        .collect();
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: COHORT.to_vec(),
        zones,
        ..AmbassadorsSetup::default()
    });
    s
}

fn arrive(entrant: Faction, territory: Territory, sector: Sector, normal: u32, parent: Option<ArrivalId>) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal,
        elite: 0,
        advisors: false,
        parent,
        reactions_first: false,
    })
}

fn decision(g: &Game) -> Decision {
    g.open_frame().expect("a frame is open").decision.clone()
}

/// `entrant` ships one force into `territory`, Ecaz triggers its token there for `beneficiary`.
fn triggered(s: &Setup, entrant: Faction, territory: Territory, beneficiary: Faction) -> Game {
    let sector = ecaz::territory_info(territory).sectors[0];
    let (g, _) = ok(&build_setup(s), &arrive(entrant, territory, sector, 1, None));
    assert!(matches!(decision(&g), Decision::TriggerOffer { .. }), "an offer");
    ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary,
        }),
    )
    .0
}

/// One sector's part of a Fremen-effect group: (sector, normal, elite).
type Part = (Sector, u32, u32);

/// A `relocate` command, built through its wire form.
fn relocate_cmd(
    frame: ecaz::FrameId,
    by: Faction,
    from: Territory,
    group: &[Part],
    adv: bool,
    to: Territory,
    sector: Sector,
) -> Command {
    let group: Vec<Value> = group
        .iter()
        .map(|&(sector, normal, elite)| json!({ "sector": sector, "normal": normal, "elite": elite }))
        .collect();
    serde_json::from_value(json!({
        "actor": by,
        "action": {
            "kind": "relocate",
            "frame": frame,
            "from": from,
            "group": group,
            "advisors": adv,
            "to": to,
            "sector": sector,
        }
    }))
    .unwrap()
}

fn relocate(g: &Game, by: Faction, from: Territory, group: &[Part], to: Territory, sector: Sector) -> Command {
    relocate_cmd(open_id(g), by, from, group, false, to, sector)
}

fn relocate_advisors(g: &Game, by: Faction, from: Territory, group: &[Part], to: Territory, sector: Sector) -> Command {
    relocate_cmd(open_id(g), by, from, group, true, to, sector)
}

fn ship(g: &Game, by: Faction, territory: Territory, sector: Sector, normal: u32, elite: u32) -> Command {
    Command::faction(
        by,
        Action::Ship {
            frame: open_id(g),
            territory,
            sector,
            normal,
            elite,
        },
    )
}

fn reactions_done(g: &Game) -> (Game, Vec<Event>) {
    ok(g, &host(Action::ReactionsDone { frame: open_id(g) }))
}

fn stack_at(g: &Game, f: Faction, territory: Territory, sector: Sector) -> Option<Stack> {
    g.faction(f)
        .unwrap()
        .board
        .iter()
        .find(|x| x.territory == territory && x.sector == sector)
        .copied()
}

fn resumes(events: &[Event]) -> Vec<ArrivalId> {
    events
        .iter()
        .filter_map(|e| match e.event {
            EventKind::Resume { arrival } => Some(arrival),
            _ => None,
        })
        .collect()
}

fn arrivals(events: &[Event]) -> Vec<&EventKind> {
    events
        .iter()
        .map(|e| &e.event)
        .filter(|e| matches!(e, EventKind::Arrived { .. }))
        .collect()
}

/// Forces per faction are conserved: 20 in all, the elite total unchanged.
fn assert_conserved(g: &Game) {
    for s in g.seats() {
        let f = g.faction(*s).unwrap();
        assert_eq!(f.total_forces(), 20, "{s}: 20 forces");
        let elite = f
            .board
            .iter()
            .map(|x| x.elite)
            .sum::<u32>()
            .saturating_add(f.reserves.elite)
            .saturating_add(f.tanks.elite);
        assert_eq!(elite, elite_total(*s), "{s}: elite forces conserved");
    }
}

/// The first choice descriptor of `actor`, as JSON (its wire form is the
/// contract hosts rely on).
fn descriptor(g: &Game, actor: Faction) -> Value {
    let o = options(g, Actor::Faction(actor));
    assert_eq!(o.choices.len(), 1, "one descriptor: {o:?}");
    serde_json::to_value(&o.choices[0]).unwrap()
}

fn territory_of(v: &Value) -> Territory {
    serde_json::from_value(v.clone()).unwrap()
}

fn positions(v: &Value) -> Vec<(Territory, Sector)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                territory_of(&p["territory"]),
                u8::try_from(p["sector"].as_u64().unwrap()).unwrap(),
            )
        })
        .collect()
}

/// Every position of the board (the HMS interior included).
fn all_positions() -> Vec<(Territory, Sector)> {
    Territory::ALL
        .into_iter()
        .flat_map(|t| ecaz::territory_info(t).sectors.iter().map(move |&s| (t, s)))
        .collect()
}

// =====================================================================
// R-EFF-FRE, P-FRE-ROUTE: the Fremen relocation
// =====================================================================

/// Six seats, the HMS pointing at The Great Flat (15), Ecaz allied with the
/// Fremen, the Fremen token in Carthag.
///
/// - Fremen: False Wall West 16 (2 + 1 Fedaykin), 17 (1 + 1), 18 (1); The Great Flat 15 (2).
/// - Arrakeen holds Atreides and Harkonnen (full); Habbanya Ridge Sietch holds
///   Harkonnen and BG fighters (full); Sietch Tabr holds Atreides and BG
///   advisors only (one faction counts); Tuek's Sietch is empty.
fn fremen_table(storm: Sector) -> Setup {
    let mut s = table(
        &[
            Faction::Ecaz,
            Faction::Fremen,
            Faction::Harkonnen,
            Faction::Atreides,
            Faction::BeneGesserit,
            Faction::Ixians,
        ],
        storm,
        &[(Ambassador::Fremen, Territory::Carthag)],
    );
    s.hms = Some(HmsPointer {
        territory: Territory::TheGreatFlat,
        sector: 15,
    });
    allied(&mut s, Faction::Ecaz, Faction::Fremen);
    on_board(
        &mut s,
        Faction::Fremen,
        vec![
            st(Territory::FalseWallWest, 16, 2, 1),
            st(Territory::FalseWallWest, 17, 1, 1),
            st(Territory::FalseWallWest, 18, 1, 0),
            st(Territory::TheGreatFlat, 15, 2, 0),
        ],
    );
    on_board(
        &mut s,
        Faction::Atreides,
        vec![st(Territory::Arrakeen, 10, 3, 0), st(Territory::SietchTabr, 14, 2, 0)],
    );
    on_board(
        &mut s,
        Faction::Harkonnen,
        vec![
            st(Territory::Arrakeen, 10, 2, 0),
            st(Territory::HabbanyaRidgeSietch, 17, 1, 0),
        ],
    );
    on_board(
        &mut s,
        Faction::BeneGesserit,
        vec![
            advisors(Territory::SietchTabr, 14, 2),
            st(Territory::HabbanyaRidgeSietch, 17, 1, 0),
        ],
    );
    s
}

/// Harkonnen enters Carthag; Ecaz triggers the Fremen token for its ally.
fn at_relocation(s: &Setup) -> Game {
    let g = triggered(s, Faction::Harkonnen, Territory::Carthag, Faction::Fremen);
    assert!(matches!(
        decision(&g),
        Decision::FremenRelocation {
            beneficiary: Faction::Fremen,
            ..
        }
    ));
    assert_eq!(g.open_frame().unwrap().actor, Actor::Faction(Faction::Fremen));
    g
}

#[test]
fn r_eff_fre_ally_relocates_a_two_sector_mixed_group_across_the_map() {
    let g = at_relocation(&fremen_table(3));
    assert_conserved(&g);
    let cmd = relocate(
        &g,
        Faction::Fremen,
        Territory::FalseWallWest,
        &[(16, 2, 1), (17, 1, 1)],
        Territory::TueksSietch,
        5,
    );
    let (g, events) = ok(&g, &cmd);
    assert_eq!(kind_names(&events), vec!["effectResolved", "arrived", "decisionOpened"]);
    assert_eq!(
        serde_json::to_value(arrivals(&events)[0]).unwrap(),
        json!({
            "kind": "arrived",
            "arrival": 2,
            "entrant": "fremen",
            "cause": "ambassadorFremen",
            "from": {
                "kind": "group",
                "territory": "false_wall_west",
                "sectors": [
                    { "sector": 16, "normal": 2, "elite": 1 },
                    { "sector": 17, "normal": 1, "elite": 1 }
                ]
            },
            "territory": "tueks_sietch",
            "sector": 5,
            "normal": 3,
            "elite": 2,
            "advisors": false,
            "entry": true,
            "parent": 1
        })
    );
    // The host runs its own entry reactions to the engine's arrival (P-NEST).
    assert_eq!(
        decision(&g),
        Decision::HostReactions {
            arrival: ArrivalId(2),
            offer_after: false,
        }
    );
    assert_eq!(g.open_frame().unwrap().actor, Actor::Host);
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::TueksSietch, 5),
        Some(st(Territory::TueksSietch, 5, 3, 2))
    );
    assert_eq!(stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 16), None);
    assert_eq!(stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 17), None);
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 18),
        Some(st(Territory::FalseWallWest, 18, 1, 0))
    );
    assert_eq!(
        g.faction(Faction::Fremen).unwrap().reserves,
        Forces { normal: 11, elite: 1 }
    );
    assert_conserved(&g);
    let (g, events) = reactions_done(&g);
    assert_eq!(resumes(&events), vec![ArrivalId(2), ArrivalId(1)]);
    assert!(g.open_frame().is_none());
    assert!(g.open_arrivals().is_empty());
    assert_eq!(zone(&g, Ambassador::Fremen), Zone::Used);
    assert_conserved(&g);
    assert_round_trip(&g);
}

#[test]
fn r_eff_fre_to_any_territory_no_path_needed() {
    // Polar Sink, a far sand territory, a rock: all reachable in one relocation.
    for (to, sector) in [
        (Territory::PolarSink, 0),
        (Territory::CielagoEast, 4),
        (Territory::PastyMesa, 7),
        (Territory::Carthag, 11),
    ] {
        let g = at_relocation(&fremen_table(3));
        let (g, _) = ok(
            &g,
            &relocate(&g, Faction::Fremen, Territory::FalseWallWest, &[(18, 1, 0)], to, sector),
        );
        assert_eq!(stack_at(&g, Faction::Fremen, to, sector), Some(st(to, sector, 1, 0)));
        assert_conserved(&g);
    }
}

#[test]
fn r_eff_fre_storm_source_sector_refused() {
    let g = at_relocation(&fremen_table(17));
    let err = assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0), (17, 1, 0)],
            Territory::TueksSietch,
            5,
        ),
        "rule/in_storm",
    );
    assert!(err.to_string().contains("17"), "{err}");
    // The same territory's other sectors may still leave.
    let (g, _) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 2, 1), (18, 1, 0)],
            Territory::TueksSietch,
            5,
        ),
    );
    assert_conserved(&g);
}

#[test]
fn r_eff_fre_storm_destination_refused() {
    let g = at_relocation(&fremen_table(5));
    assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::TueksSietch,
            5,
        ),
        "rule/in_storm",
    );
    // A sector of a storm-proof rock under the storm is still "in the storm".
    assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::FalseWallEast,
            5,
        ),
        "rule/in_storm",
    );
    // Another sector of the same territory is fine.
    ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::FalseWallEast,
            6,
        ),
    );
}

#[test]
fn occupancy_stronghold_with_two_other_factions_refused_advisors_do_not_count() {
    let g = at_relocation(&fremen_table(3));
    for (t, s) in [(Territory::Arrakeen, 10), (Territory::HabbanyaRidgeSietch, 17)] {
        let err = assert_rejected(
            &g,
            &relocate(&g, Faction::Fremen, Territory::FalseWallWest, &[(16, 1, 0)], t, s),
            "rule/stronghold_full",
        );
        assert_eq!(err.rule(), Some("R-EFF-FRE"));
    }
    // Sietch Tabr: Atreides + BG advisors only — the advisors do not count.
    let (g, _) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 2, 1)],
            Territory::SietchTabr,
            14,
        ),
    );
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::SietchTabr, 14),
        Some(st(Territory::SietchTabr, 14, 2, 1))
    );
}

#[test]
fn occupancy_reinforcing_a_full_stronghold_one_is_already_in() {
    let mut s = fremen_table(3);
    // The Fremen already stand in Arrakeen with Atreides and Harkonnen.
    s.factions
        .get_mut(&Faction::Fremen)
        .unwrap()
        .board
        .as_mut()
        .unwrap()
        .push(st(Territory::Arrakeen, 10, 1, 0));
    let mut s2 = s.clone();
    s2.factions.get_mut(&Faction::Atreides).unwrap().board = Some(vec![st(Territory::SietchTabr, 14, 2, 0)]);
    let g = at_relocation(&s2);
    ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::Arrakeen,
            10,
        ),
    );
}

#[test]
fn occupancy_ecaz_ally_may_join_ecaz_ecaz_occupy() {
    // Allies may not share a territory, except Ecaz and its ally (E3 p.8).
    let g = at_relocation(&fremen_table(3));
    let (g, _) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 2, 1)],
            Territory::ImperialBasin,
            10,
        ),
    );
    assert!(stack_at(&g, Faction::Ecaz, Territory::ImperialBasin, 10).is_some());
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::ImperialBasin, 10),
        Some(st(Territory::ImperialBasin, 10, 2, 1))
    );
}

#[test]
fn occupancy_ecaz_and_ally_count_as_one_side() {
    // RULES §8 + Ecaz Occupy (E3 p.8): Ecaz and its ally, who may share a
    // territory, count as one side for the two-faction stronghold cap. With
    // Ecaz and Harkonnen in Carthag, Ecaz's ally may join them.
    let mut s = fremen_table(3);
    on_board(
        &mut s,
        Faction::Ecaz,
        vec![st(Territory::ImperialBasin, 10, 5, 0), st(Territory::Carthag, 11, 1, 0)],
    );
    let g = at_relocation(&s);
    assert!(stack_at(&g, Faction::Harkonnen, Territory::Carthag, 11).is_some());
    let d = descriptor(&g, Faction::Fremen);
    let fww = d["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| territory_of(&x["territory"]) == Territory::FalseWallWest)
        .unwrap()
        .clone();
    assert!(
        positions(&fww["destinations"]).contains(&(Territory::Carthag, 11)),
        "Carthag is offered: {fww}"
    );
    let (g, events) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::Carthag,
            11,
        ),
    );
    assert!(matches!(arrivals(&events)[0], EventKind::Arrived { entry: true, .. }));
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::Carthag, 11),
        Some(st(Territory::Carthag, 11, 1, 0))
    );
    assert_eq!(
        stack_at(&g, Faction::Ecaz, Territory::Carthag, 11),
        Some(st(Territory::Carthag, 11, 1, 0))
    );
    assert_conserved(&g);
}

#[test]
fn occupancy_ecaz_ally_cannot_join_two_other_factions() {
    // With Harkonnen and Atreides in Carthag (neither is Ecaz's side), the
    // stronghold is full for Ecaz's ally.
    let mut s = fremen_table(3);
    on_board(
        &mut s,
        Faction::Atreides,
        vec![
            st(Territory::Arrakeen, 10, 3, 0),
            st(Territory::SietchTabr, 14, 2, 0),
            st(Territory::Carthag, 11, 1, 0),
        ],
    );
    let g = at_relocation(&s);
    assert!(stack_at(&g, Faction::Harkonnen, Territory::Carthag, 11).is_some());
    assert!(g
        .faction(Faction::Ecaz)
        .unwrap()
        .board
        .iter()
        .all(|x| x.territory != Territory::Carthag));
    let d = descriptor(&g, Faction::Fremen);
    for src in d["sources"].as_array().unwrap() {
        assert!(
            !positions(&src["destinations"]).contains(&(Territory::Carthag, 11)),
            "Carthag is not offered: {src}"
        );
    }
    let err = assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::Carthag,
            11,
        ),
        "rule/stronghold_full",
    );
    assert_eq!(err.rule(), Some("R-EFF-FRE"));
}

#[test]
fn p_fre_route_hms_only_from_the_territory_it_points_at() {
    let g = at_relocation(&fremen_table(3));
    let hms = Territory::HiddenMobileStronghold;
    let err = assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, Territory::FalseWallWest, &[(16, 1, 0)], hms, 0),
        "rule/hms_entry",
    );
    assert_eq!(err.rule(), Some("P-FRE-ROUTE"));
    let (g, events) = ok(
        &g,
        &relocate(&g, Faction::Fremen, Territory::TheGreatFlat, &[(15, 2, 0)], hms, 0),
    );
    assert_eq!(stack_at(&g, Faction::Fremen, hms, 0), Some(st(hms, 0, 2, 0)));
    assert!(matches!(arrivals(&events)[0], EventKind::Arrived { entry: true, .. }));
}

#[test]
fn p_fre_route_ixians_enter_the_hms_from_anywhere() {
    let mut s = fremen_table(3);
    s.factions.get_mut(&Faction::Fremen).unwrap().ally = None;
    s.factions.get_mut(&Faction::Ecaz).unwrap().ally = None;
    allied(&mut s, Faction::Ecaz, Faction::Ixians);
    on_board(
        &mut s,
        Faction::Ixians,
        vec![
            st(Territory::CielagoNorth, 2, 2, 1),
            st(Territory::CielagoNorth, 1, 1, 0),
        ],
    );
    let g = triggered(&s, Faction::Harkonnen, Territory::Carthag, Faction::Ixians);
    let (g, _) = ok(
        &g,
        &relocate(
            &g,
            Faction::Ixians,
            Territory::CielagoNorth,
            &[(1, 1, 0), (2, 2, 1)],
            Territory::HiddenMobileStronghold,
            0,
        ),
    );
    assert_eq!(
        stack_at(&g, Faction::Ixians, Territory::HiddenMobileStronghold, 0),
        Some(st(Territory::HiddenMobileStronghold, 0, 3, 1))
    );
    assert_conserved(&g);
}

#[test]
fn r_trg_3_same_territory_redistribution_is_not_an_entry() {
    let g = at_relocation(&fremen_table(3));
    let (g, events) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 2, 1), (17, 1, 0)],
            Territory::FalseWallWest,
            18,
        ),
    );
    assert_eq!(
        kind_names(&events),
        vec!["effectResolved", "arrived", "resume", "resume"],
        "no host frame for a move that is not an entry"
    );
    assert!(matches!(
        arrivals(&events)[0],
        EventKind::Arrived {
            entry: false,
            cause: Cause::AmbassadorFremen,
            ..
        }
    ));
    assert_eq!(resumes(&events), vec![ArrivalId(2), ArrivalId(1)]);
    assert!(g.open_frame().is_none());
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 18),
        Some(st(Territory::FalseWallWest, 18, 4, 1))
    );
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 17),
        Some(st(Territory::FalseWallWest, 17, 0, 1))
    );
    assert_conserved(&g);
}

#[test]
fn r_eff_fre_group_rejections() {
    let g = at_relocation(&fremen_table(3));
    let fww = Territory::FalseWallWest;
    let ts = Territory::TueksSietch;
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 1, 0), (16, 1, 0)], ts, 5),
        "rule/duplicate_sector",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 3, 0)], ts, 5),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(18, 0, 1)], ts, 5),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 1, 0), (15, 1, 0)], ts, 5),
        "rule/invalid_position",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, Territory::PastyMesa, &[(6, 1, 0)], ts, 5),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 1, 0)], ts, 6),
        "rule/invalid_position",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 0, 0)], ts, 5),
        "rule/empty_arrival",
    );
    assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, fww, &[(16, 1, 0)], fww, 16),
        "rule/no_movement",
    );
    // Advisors are BG's only.
    assert_rejected(
        &g,
        &relocate_advisors(&g, Faction::Fremen, fww, &[(16, 1, 0)], ts, 5),
        "rule/no_advisors",
    );
    // Only the beneficiary answers; the entrant's and Ecaz's answers are refused.
    for by in [Faction::Ecaz, Faction::Harkonnen] {
        assert_rejected(
            &g,
            &relocate(&g, by, fww, &[(16, 1, 0)], ts, 5),
            "rule/not_your_decision",
        );
    }
    assert_rejected(&g, &ship(&g, Faction::Fremen, ts, 5, 1, 0), "rule/wrong_decision");
}

#[test]
fn r_eff_fre_empty_group_and_pass_move_nothing() {
    let g = at_relocation(&fremen_table(3));
    let (a, events) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[],
            Territory::TueksSietch,
            5,
        ),
    );
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    let (b, events2) = ok(
        &g,
        &Command::faction(Faction::Fremen, Action::Pass { frame: open_id(&g) }),
    );
    assert_eq!(kind_names(&events2), vec!["effectResolved", "resume"]);
    for after in [a, b] {
        assert_eq!(
            after.faction(Faction::Fremen).unwrap().board,
            g.faction(Faction::Fremen).unwrap().board
        );
        assert_eq!(zone(&after, Ambassador::Fremen), Zone::Used);
    }
}

#[test]
fn r_eff_fre_no_forces_on_the_board_resolves_doing_nothing() {
    let mut s = fremen_table(3);
    on_board(&mut s, Faction::Fremen, Vec::new());
    let (g, _) = ok(
        &build_setup(&s),
        &arrive(Faction::Harkonnen, Territory::Carthag, 11, 1, None),
    );
    let (g, events) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Fremen,
        }),
    );
    assert_eq!(
        kind_names(&events),
        vec!["ambassadorTriggered", "effectResolved", "resume"]
    );
    assert!(g.open_frame().is_none());
}

#[test]
fn occupancy_advisor_group_may_enter_a_full_stronghold() {
    // RULES §8: "a stronghold may not hold forces of more than two factions
    // … BG advisors do not count." Advisors arriving add no counted faction.
    let mut s = table(
        &[
            Faction::Ecaz,
            Faction::BeneGesserit,
            Faction::Harkonnen,
            Faction::Atreides,
        ],
        3,
        &[(Ambassador::Fremen, Territory::Carthag)],
    );
    allied(&mut s, Faction::Ecaz, Faction::BeneGesserit);
    on_board(
        &mut s,
        Faction::BeneGesserit,
        vec![advisors(Territory::FalseWallWest, 16, 2)],
    );
    on_board(&mut s, Faction::Atreides, vec![st(Territory::Arrakeen, 10, 3, 0)]);
    on_board(&mut s, Faction::Harkonnen, vec![st(Territory::Arrakeen, 10, 2, 0)]);
    let g = triggered(&s, Faction::Harkonnen, Territory::Carthag, Faction::BeneGesserit);
    let cmd = relocate_advisors(
        &g,
        Faction::BeneGesserit,
        Territory::FalseWallWest,
        &[(16, 2, 0)],
        Territory::Arrakeen,
        10,
    );
    let (g, _) = ok(&g, &cmd);
    assert_eq!(
        stack_at(&g, Faction::BeneGesserit, Territory::Arrakeen, 10).map(|x| x.advisors),
        Some(2)
    );
}

#[test]
fn occupancy_bg_fighters_do_not_join_on_the_strength_of_their_advisors() {
    let mut s = table(
        &[
            Faction::Ecaz,
            Faction::BeneGesserit,
            Faction::Harkonnen,
            Faction::Atreides,
        ],
        3,
        &[(Ambassador::Fremen, Territory::Carthag)],
    );
    allied(&mut s, Faction::Ecaz, Faction::BeneGesserit);
    on_board(
        &mut s,
        Faction::BeneGesserit,
        vec![
            st(Territory::FalseWallWest, 16, 2, 0),
            advisors(Territory::Arrakeen, 10, 1),
        ],
    );
    on_board(&mut s, Faction::Atreides, vec![st(Territory::Arrakeen, 10, 3, 0)]);
    on_board(&mut s, Faction::Harkonnen, vec![st(Territory::Arrakeen, 10, 2, 0)]);
    let g = triggered(&s, Faction::Harkonnen, Territory::Carthag, Faction::BeneGesserit);
    assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::BeneGesserit,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::Arrakeen,
            10,
        ),
        "rule/stronghold_full",
    );
}

// =====================================================================
// R-EFF-GLD: the Guild shipment
// =====================================================================

/// Six seats, the HMS at The Great Flat (15), Ecaz allied with the Emperor,
/// the Guild token in Carthag; Arrakeen full (Atreides + Harkonnen), Sietch
/// Tabr holding Atreides and BG advisors only.
fn guild_table(storm: Sector, ally: Faction) -> Setup {
    let mut s = table(
        &[
            Faction::Ecaz,
            Faction::Emperor,
            Faction::Harkonnen,
            Faction::Atreides,
            Faction::Ixians,
            Faction::BeneGesserit,
        ],
        storm,
        &[(Ambassador::Guild, Territory::Carthag)],
    );
    s.hms = Some(HmsPointer {
        territory: Territory::TheGreatFlat,
        sector: 15,
    });
    allied(&mut s, Faction::Ecaz, ally);
    on_board(
        &mut s,
        Faction::Atreides,
        vec![st(Territory::Arrakeen, 10, 3, 0), st(Territory::SietchTabr, 14, 2, 0)],
    );
    on_board(&mut s, Faction::Harkonnen, vec![st(Territory::Arrakeen, 10, 2, 0)]);
    on_board(
        &mut s,
        Faction::BeneGesserit,
        vec![advisors(Territory::SietchTabr, 14, 2)],
    );
    s
}

fn at_shipment(s: &Setup, beneficiary: Faction) -> Game {
    let g = triggered(s, Faction::Harkonnen, Territory::Carthag, beneficiary);
    assert_eq!(
        g.open_frame().map(|f| f.decision.name()),
        Some("guildShipment"),
        "{:?}",
        g.open_frame()
    );
    assert_eq!(g.open_frame().unwrap().actor, Actor::Faction(beneficiary));
    g
}

#[test]
fn r_eff_gld_ships_reserves_free_with_an_elite_choice() {
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Emperor);
    let before = g.faction(Faction::Emperor).unwrap().clone();
    assert_eq!(before.reserves, Forces { normal: 15, elite: 5 });
    let (g, events) = ok(&g, &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, 2, 2));
    assert_eq!(kind_names(&events), vec!["effectResolved", "arrived", "decisionOpened"]);
    assert_eq!(
        arrivals(&events),
        vec![&EventKind::Arrived {
            arrival: ArrivalId(2),
            entrant: Faction::Emperor,
            cause: Cause::AmbassadorGuild,
            from: Origin::Reserves,
            territory: Territory::TueksSietch,
            sector: 5,
            normal: 2,
            elite: 2,
            advisors: false,
            entry: true,
            parent: Some(ArrivalId(1)),
        }]
    );
    let after = g.faction(Faction::Emperor).unwrap();
    assert_eq!(after.reserves, Forces { normal: 13, elite: 3 });
    assert_eq!(after.spice, before.spice, "free");
    assert_eq!(
        stack_at(&g, Faction::Emperor, Territory::TueksSietch, 5),
        Some(st(Territory::TueksSietch, 5, 2, 2))
    );
    assert_conserved(&g);
    assert_eq!(
        decision(&g),
        Decision::HostReactions {
            arrival: ArrivalId(2),
            offer_after: false,
        }
    );
    let (g, events) = reactions_done(&g);
    assert_eq!(resumes(&events), vec![ArrivalId(2), ArrivalId(1)]);
    assert_eq!(zone(&g, Ambassador::Guild), Zone::Used);
}

#[test]
fn r_eff_gld_zero_to_four() {
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Emperor);
    let (after, events) = ok(&g, &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, 0, 0));
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    assert_eq!(
        after.faction(Faction::Emperor).unwrap().reserves,
        Forces { normal: 15, elite: 5 }
    );
    for (n, e) in [(4, 0), (0, 4), (1, 3)] {
        let (after, _) = ok(&g, &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, n, e));
        assert_conserved(&after);
    }
    for (n, e) in [(5, 0), (3, 2), (0, 5), (u32::MAX, 1)] {
        let err = assert_rejected(
            &g,
            &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, n, e),
            "rule/too_many_forces",
        );
        assert_eq!(err.rule(), Some("R-EFF-GLD"));
    }
}

#[test]
fn r_eff_gld_reserves_and_elite_limits() {
    let mut s = guild_table(3, Faction::Emperor);
    s.factions.entry(Faction::Emperor).or_default().tanks = Some(Forces { normal: 14, elite: 4 });
    let g = at_shipment(&s, Faction::Emperor);
    assert_eq!(
        g.faction(Faction::Emperor).unwrap().reserves,
        Forces { normal: 1, elite: 1 }
    );
    assert_rejected(
        &g,
        &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, 0, 2),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, 2, 0),
        "rule/not_enough_forces",
    );
    ok(&g, &ship(&g, Faction::Emperor, Territory::TueksSietch, 5, 1, 1));
    // A beneficiary without elite forces cannot ship any.
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Ecaz);
    assert_rejected(
        &g,
        &ship(&g, Faction::Ecaz, Territory::TueksSietch, 5, 1, 1),
        "rule/no_elite_forces",
    );
    let (g, _) = ok(&g, &ship(&g, Faction::Ecaz, Territory::TueksSietch, 5, 4, 0));
    assert_eq!(g.faction(Faction::Ecaz).unwrap().reserves.normal, 10);
}

#[test]
fn r_eff_gld_not_into_the_storm_and_occupancy() {
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Emperor);
    assert_rejected(
        &g,
        &ship(&g, Faction::Emperor, Territory::CielagoNorth, 3, 1, 0),
        "rule/in_storm",
    );
    ok(&g, &ship(&g, Faction::Emperor, Territory::CielagoNorth, 2, 1, 0));
    assert_rejected(
        &g,
        &ship(&g, Faction::Emperor, Territory::Arrakeen, 10, 1, 0),
        "rule/stronghold_full",
    );
    ok(&g, &ship(&g, Faction::Emperor, Territory::SietchTabr, 14, 1, 0));
    assert_rejected(
        &g,
        &ship(&g, Faction::Emperor, Territory::Arrakeen, 11, 1, 0),
        "rule/invalid_position",
    );
    // Next to Ecaz (its ally) is fine.
    ok(&g, &ship(&g, Faction::Emperor, Territory::ImperialBasin, 10, 1, 0));
}

#[test]
fn r_eff_gld_hms_only_for_an_ixian_beneficiary() {
    let hms = Territory::HiddenMobileStronghold;
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Emperor);
    assert_rejected(&g, &ship(&g, Faction::Emperor, hms, 0, 1, 0), "rule/hms_entry");
    let g = at_shipment(&guild_table(3, Faction::Emperor), Faction::Ecaz);
    assert_rejected(&g, &ship(&g, Faction::Ecaz, hms, 0, 1, 0), "rule/hms_entry");
    let g = at_shipment(&guild_table(15, Faction::Ixians), Faction::Ixians);
    let (g, _) = ok(&g, &ship(&g, Faction::Ixians, hms, 0, 2, 2));
    assert_eq!(stack_at(&g, Faction::Ixians, hms, 0), Some(st(hms, 0, 2, 2)));
    assert_conserved(&g);
}

#[test]
fn r_eff_gld_no_reserves_resolves_doing_nothing() {
    let mut s = guild_table(3, Faction::Emperor);
    s.factions.entry(Faction::Emperor).or_default().tanks = Some(Forces { normal: 15, elite: 5 });
    let (g, _) = ok(
        &build_setup(&s),
        &arrive(Faction::Harkonnen, Territory::Carthag, 11, 1, None),
    );
    let (g, events) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Emperor,
        }),
    );
    assert_eq!(
        kind_names(&events),
        vec!["ambassadorTriggered", "effectResolved", "resume"]
    );
    assert!(g.open_frame().is_none());
}

// =====================================================================
// R-EFF-TLX, P-TLX: the Tleilaxu revival
// =====================================================================

/// Ecaz allied with the Emperor; the Tleilaxu token in Carthag. Emperor:
/// 5 + 2 Sardaukar in the Tanks, Caid in the Tanks, Burseg captured by the
/// Harkonnen, Bashar a Harkonnen ghola. Harkonnen: Rabban in the Tanks,
/// Feyd-Rautha an Emperor ghola.
fn tleilaxu_table() -> Setup {
    let mut s = table(
        &[Faction::Ecaz, Faction::Emperor, Faction::Harkonnen, Faction::Atreides],
        3,
        &[(Ambassador::Tleilaxu, Territory::Carthag)],
    );
    allied(&mut s, Faction::Ecaz, Faction::Emperor);
    let emperor = s.factions.entry(Faction::Emperor).or_default();
    emperor.tanks = Some(Forces { normal: 5, elite: 2 });
    emperor.leaders = vec![
        LeaderState {
            leader: Leader::Caid,
            custody: LeaderCustody::Tanks,
        },
        LeaderState {
            leader: Leader::Burseg,
            custody: LeaderCustody::Captured { by: Faction::Harkonnen },
        },
        LeaderState {
            leader: Leader::Bashar,
            custody: LeaderCustody::Captured { by: Faction::Harkonnen },
        },
    ];
    s.factions.entry(Faction::Harkonnen).or_default().leaders = vec![
        LeaderState {
            leader: Leader::BeastRabban,
            custody: LeaderCustody::Tanks,
        },
        LeaderState {
            leader: Leader::FeydRautha,
            custody: LeaderCustody::Captured { by: Faction::Emperor },
        },
    ];
    s
}

fn at_revival(s: &Setup, beneficiary: Faction) -> Game {
    let g = triggered(s, Faction::Harkonnen, Territory::Carthag, beneficiary);
    assert_eq!(
        g.open_frame().map(|f| f.decision.name()),
        Some("tleilaxuRevival"),
        "{:?}",
        g.open_frame()
    );
    g
}

fn revive_forces(g: &Game, by: Faction, normal: u32, elite: u32) -> Command {
    Command::faction(
        by,
        Action::ReviveForces {
            frame: open_id(g),
            normal,
            elite,
        },
    )
}

fn revive_leader(g: &Game, by: Faction, leader: Leader) -> Command {
    Command::faction(
        by,
        Action::ReviveLeader {
            frame: open_id(g),
            leader,
        },
    )
}

fn leader_custody(g: &Game, leader: Leader) -> LeaderCustody {
    g.faction(leader.faction())
        .unwrap()
        .leaders
        .iter()
        .find(|l| l.leader == leader)
        .unwrap()
        .custody
}

#[test]
fn r_eff_tlx_own_leader_from_the_tanks() {
    let g = at_revival(&tleilaxu_table(), Faction::Emperor);
    let before = g.faction(Faction::Emperor).unwrap().clone();
    let (g, events) = ok(&g, &revive_leader(&g, Faction::Emperor, Leader::Caid));
    assert_eq!(kind_names(&events), vec!["leaderRevived", "effectResolved", "resume"]);
    assert_eq!(leader_custody(&g, Leader::Caid), LeaderCustody::Available);
    let after = g.faction(Faction::Emperor).unwrap();
    assert_eq!(after.spice, before.spice, "free");
    assert_eq!(after.tanks, before.tanks, "a leader or forces, not both");
    assert_eq!(after.free_revival, before.free_revival);
    assert_eq!(zone(&g, Ambassador::Tleilaxu), Zone::Used);
}

#[test]
fn r_eff_tlx_leader_rejections() {
    let g = at_revival(&tleilaxu_table(), Faction::Emperor);
    for leader in [
        Leader::HasimirFenring, // available
        Leader::Burseg,         // captured
        Leader::Bashar,         // a ghola of another faction
        Leader::BeastRabban,    // another faction's leader in the Tanks
        Leader::FeydRautha,     // a foreign ghola the beneficiary holds
    ] {
        let err = assert_rejected(
            &g,
            &revive_leader(&g, Faction::Emperor, leader),
            "rule/leader_not_in_tanks",
        );
        assert_eq!(err.rule(), Some("R-EFF-TLX"));
    }
    assert_rejected(
        &g,
        &revive_leader(&g, Faction::Ecaz, Leader::Caid),
        "rule/not_your_decision",
    );
}

#[test]
fn r_eff_tlx_up_to_four_forces_tanks_to_reserves() {
    let g = at_revival(&tleilaxu_table(), Faction::Emperor);
    let before = g.faction(Faction::Emperor).unwrap().clone();
    let (g, events) = ok(&g, &revive_forces(&g, Faction::Emperor, 3, 1));
    assert_eq!(kind_names(&events), vec!["forcesRevived", "effectResolved", "resume"]);
    assert!(events.iter().any(|e| e.event
        == EventKind::ForcesRevived {
            faction: Faction::Emperor,
            normal: 3,
            elite: 1
        }));
    let after = g.faction(Faction::Emperor).unwrap();
    assert_eq!(after.tanks, Forces { normal: 2, elite: 1 });
    assert_eq!(
        after.reserves,
        Forces {
            normal: before.reserves.normal + 3,
            elite: before.reserves.elite + 1
        }
    );
    assert_eq!(after.board, before.board);
    assert_eq!(after.elite_revived, 1, "P-TLX: the elite counts against the turn's one");
    assert_eq!(after.spice, before.spice);
    assert_eq!(after.free_revival, before.free_revival, "ordinary revival untouched");
    assert_conserved(&g);
}

#[test]
fn r_eff_tlx_force_rejections() {
    // P-TLX in the Advanced game (D-165): one Sardaukar a turn.
    let mut advanced = tleilaxu_table();
    advanced.options.advanced = true;
    let g = at_revival(&advanced, Faction::Emperor);
    for (n, e) in [(5, 0), (4, 1), (3, 2)] {
        assert_rejected(&g, &revive_forces(&g, Faction::Emperor, n, e), "rule/too_many_forces");
    }
    let err = assert_rejected(
        &g,
        &revive_forces(&g, Faction::Emperor, 0, 2),
        "rule/elite_revival_used",
    );
    assert_eq!(err.rule(), Some("P-TLX"));
    // Fewer than 4, none at all: fine.
    let (after, events) = ok(&g, &revive_forces(&g, Faction::Emperor, 0, 0));
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    assert_eq!(
        after.faction(Faction::Emperor).unwrap().tanks,
        Forces { normal: 5, elite: 2 }
    );
    // Not more than the Tanks hold; no elites for a faction without them.
    let mut s = tleilaxu_table();
    s.factions.entry(Faction::Ecaz).or_default().tanks = Some(Forces { normal: 1, elite: 0 });
    let g = at_revival(&s, Faction::Ecaz);
    assert_rejected(&g, &revive_forces(&g, Faction::Ecaz, 2, 0), "rule/not_enough_forces");
    assert_rejected(&g, &revive_forces(&g, Faction::Ecaz, 0, 1), "rule/no_elite_forces");
}

#[test]
fn p_tlx_one_elite_per_turn_shared_with_ordinary_revival_resets_next_turn() {
    let mut s = tleilaxu_table();
    s.options.advanced = true;
    s.factions.entry(Faction::Emperor).or_default().elite_revived = 1;
    let g = at_revival(&s, Faction::Emperor);
    assert_rejected(
        &g,
        &revive_forces(&g, Faction::Emperor, 0, 1),
        "rule/elite_revival_used",
    );
    assert_rejected(
        &g,
        &revive_forces(&g, Faction::Emperor, 3, 1),
        "rule/elite_revival_used",
    );
    ok(&g, &revive_forces(&g, Faction::Emperor, 4, 0));
    // The next turn the counter resets and the elite is allowed again.
    let g = walk_to_next_turn(&build_setup(&s));
    assert_eq!(g.faction(Faction::Emperor).unwrap().elite_revived, 0);
    let g = walk_to_phase(&g, Phase::ShipmentMovement);
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, Territory::Carthag, 11, 1, None));
    let (g, _) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Emperor,
        }),
    );
    let (g, _) = ok(&g, &revive_forces(&g, Faction::Emperor, 3, 1));
    assert_eq!(g.faction(Faction::Emperor).unwrap().elite_revived, 1);
}

#[test]
fn r_eff_tlx_duke_only_for_ecaz() {
    let mut s = tleilaxu_table();
    s.duke = Some(DukeCustody::Tanks);
    let g = at_revival(&s, Faction::Emperor);
    let err = assert_rejected(
        &g,
        &Command::faction(Faction::Emperor, Action::ReviveDuke { frame: open_id(&g) }),
        "rule/duke_revival_ecaz_only",
    );
    assert_eq!(err.rule(), Some("R-EFF-TLX"));
    // Ecaz as beneficiary (nothing else in its Tanks): the frame opens for the Duke.
    let g = at_revival(&s, Faction::Ecaz);
    let before = spice(&g, Faction::Ecaz);
    let (g, events) = ok(&g, &ecaz(Action::ReviveDuke { frame: open_id(&g) }));
    assert_eq!(g.duke().custody, DukeCustody::SetAside, "P-DUKE-REVIVED default");
    assert_eq!(spice(&g, Faction::Ecaz), before, "free through the Ambassador");
    assert!(events.iter().any(|e| e.event
        == EventKind::DukeMoved {
            custody: DukeCustody::SetAside,
            reason: DukeReason::Revived
        }));
    // P-DUKE-REVIVED `ecaz`.
    s.policies.duke_revived = DukeRevived::Ecaz;
    let g = at_revival(&s, Faction::Ecaz);
    let (g, _) = ok(&g, &ecaz(Action::ReviveDuke { frame: open_id(&g) }));
    assert_eq!(
        g.duke().custody,
        DukeCustody::Controlled {
            by: Faction::Ecaz,
            source: DukeSource::EcazAmbassador
        }
    );
}

#[test]
fn r_eff_tlx_duke_not_in_the_tanks() {
    let mut s = tleilaxu_table();
    s.factions.entry(Faction::Ecaz).or_default().tanks = Some(Forces { normal: 1, elite: 0 });
    let g = at_revival(&s, Faction::Ecaz);
    assert_rejected(
        &g,
        &ecaz(Action::ReviveDuke { frame: open_id(&g) }),
        "rule/duke_not_in_tanks",
    );
    let (g, events) = ok(&g, &ecaz(Action::Pass { frame: open_id(&g) }));
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    assert_eq!(g.faction(Faction::Ecaz).unwrap().tanks.normal, 1);
}

#[test]
fn r_eff_tlx_nothing_to_revive_resolves_doing_nothing() {
    let s = table(
        &[Faction::Ecaz, Faction::Emperor, Faction::Harkonnen],
        3,
        &[(Ambassador::Tleilaxu, Territory::Carthag)],
    );
    let (g, _) = ok(
        &build_setup(&s),
        &arrive(Faction::Harkonnen, Territory::Carthag, 11, 1, None),
    );
    let (g, events) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    assert_eq!(
        kind_names(&events),
        vec!["ambassadorTriggered", "effectResolved", "resume"]
    );
    assert!(g.open_frame().is_none());
}

// =====================================================================
// P-NEST, R-TRG-4, R-TRG-8: effect arrivals and linked reaction arrivals
// =====================================================================

/// Ecaz, Harkonnen, BG, Atreides; the Guild token in Carthag, the Atreides token in Arrakeen.
fn nest_table() -> Setup {
    table(
        &[
            Faction::Ecaz,
            Faction::Harkonnen,
            Faction::BeneGesserit,
            Faction::Atreides,
        ],
        3,
        &[
            (Ambassador::Guild, Territory::Carthag),
            (Ambassador::Atreides, Territory::Arrakeen),
        ],
    )
}

/// Everything up to the linked BG-fighter arrival's offer; returns every event so far.
fn nest_to_child_offer() -> (Game, Vec<Event>) {
    let mut all = Vec::new();
    let g = build_setup(&nest_table());
    let (g, ev) = ok(&g, &arrive(Faction::Harkonnen, Territory::Carthag, 11, 2, None));
    all.extend(ev);
    let (g, ev) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    all.extend(ev);
    // The Guild-effect shipment into Arrakeen (which holds the Atreides
    // token): its entrant is Ecaz, so no trigger (R-TRG-2) — only the host's frame.
    let (g, ev) = ok(&g, &ship(&g, Faction::Ecaz, Territory::Arrakeen, 10, 2, 0));
    assert_eq!(kind_names(&ev), vec!["effectResolved", "arrived", "decisionOpened"]);
    assert_eq!(
        decision(&g),
        Decision::HostReactions {
            arrival: ArrivalId(2),
            offer_after: false,
        }
    );
    all.extend(ev);
    // The host reports the BG fighter accompanying that shipment, linked to it.
    let (g, ev) = ok(
        &g,
        &arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 1, Some(ArrivalId(2))),
    );
    assert_eq!(kind_names(&ev), vec!["arrived", "decisionOpened"]);
    assert!(matches!(
        arrivals(&ev)[0],
        EventKind::Arrived {
            arrival: ArrivalId(3),
            parent: Some(ArrivalId(2)),
            entry: true,
            ..
        }
    ));
    assert_eq!(
        decision(&g),
        Decision::TriggerOffer {
            arrival: ArrivalId(3),
            token: Ambassador::Atreides,
            territory: Territory::Arrakeen,
            entrant: Faction::BeneGesserit,
            beneficiaries: vec![Faction::Ecaz],
        }
    );
    all.extend(ev);
    (g, all)
}

#[test]
fn p_nest_guild_shipment_linked_bg_fighter_child_first_original_resumes_once() {
    let (g, mut all) = nest_to_child_offer();
    // The child's offer sits on top of the parent's host frame: the parent cannot complete first.
    assert_eq!(g.pending().len(), 2);
    assert_eq!(
        g.pending()[0].decision,
        Decision::HostReactions {
            arrival: ArrivalId(2),
            offer_after: false,
        }
    );
    assert_rejected(
        &g,
        &host(Action::ReactionsDone {
            frame: g.pending()[0].id,
        }),
        "rule/stale_frame",
    );
    assert_eq!(
        g.open_arrivals().iter().map(|a| (a.id, a.parent)).collect::<Vec<_>>(),
        vec![
            (ArrivalId(1), None),
            (ArrivalId(2), Some(ArrivalId(1))),
            (ArrivalId(3), Some(ArrivalId(2)))
        ]
    );
    assert!(resumes(&all).is_empty());
    // The child's offer resolves (Ecaz triggers the Atreides token on BG).
    let (g, ev) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    assert_eq!(resumes(&ev), vec![ArrivalId(3)], "the child settles first");
    assert_eq!(
        decision(&g),
        Decision::HostReactions {
            arrival: ArrivalId(2),
            offer_after: false,
        }
    );
    all.extend(ev);
    // A reaction arrival for the settled child is refused.
    let err = assert_rejected(
        &g,
        &arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 1, Some(ArrivalId(3))),
        "rule/parent_settled",
    );
    assert_eq!(err.rule(), Some("P-NEST"));
    // An unlinked report must wait for the open decision.
    assert_rejected(
        &g,
        &arrive(Faction::Atreides, Territory::Arrakeen, 10, 1, None),
        "rule/decision_pending",
    );
    let (g, ev) = reactions_done(&g);
    assert_eq!(resumes(&ev), vec![ArrivalId(2), ArrivalId(1)]);
    all.extend(ev);
    // Innermost first; the original entrant's resume exactly once, last.
    assert_eq!(resumes(&all), vec![ArrivalId(3), ArrivalId(2), ArrivalId(1)]);
    let last = all
        .iter()
        .rposition(|e| matches!(e.event, EventKind::Resume { .. }))
        .unwrap();
    assert_eq!(last, all.len() - 1);
    assert!(g.open_frame().is_none());
    assert!(g.open_arrivals().is_empty());
    assert_conserved(&g);
    // Linked arrivals for settled parents are refused, whichever.
    for parent in [1, 2, 3, 99] {
        assert_rejected(
            &g,
            &arrive(
                Faction::BeneGesserit,
                Territory::Arrakeen,
                10,
                1,
                Some(ArrivalId(parent)),
            ),
            "rule/parent_settled",
        );
    }
}

#[test]
fn p_nest_child_decline_also_settles_first() {
    let (g, _) = nest_to_child_offer();
    let (g, ev) = ok(&g, &ecaz(Action::Decline { frame: open_id(&g) }));
    assert_eq!(kind_names(&ev), vec!["triggerDeclined", "resume"]);
    assert_eq!(resumes(&ev), vec![ArrivalId(3)]);
    assert_eq!(zone(&g, Ambassador::Atreides), placed(Territory::Arrakeen));
    let (_, ev) = reactions_done(&g);
    assert_eq!(resumes(&ev), vec![ArrivalId(2), ArrivalId(1)]);
}

#[test]
fn p_nest_linked_arrival_checks() {
    let g = build_setup(&nest_table());
    // No arrival is open: any parent is settled.
    assert_rejected(
        &g,
        &arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 1, Some(ArrivalId(1))),
        "rule/parent_settled",
    );
    // Only the host reports arrivals.
    let (g, _) = nest_to_child_offer();
    let mut cmd = arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 1, Some(ArrivalId(2)));
    cmd.actor = Actor::Faction(Faction::BeneGesserit);
    assert_rejected(&g, &cmd, "rule/wrong_actor");
    // A linked arrival still obeys conservation.
    assert_rejected(
        &g,
        &arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 30, Some(ArrivalId(2))),
        "rule/not_enough_forces",
    );
}

/// The cohort's last token is the BG token, copying Guild or Fremen; its
/// effect's arrival has a linked BG-fighter arrival into Arrakeen, which holds
/// the Ecaz token. The recycle waits for all of it (R-TRG-8).
fn bg_fifth_table() -> Setup {
    let mut s = setup(
        &[
            Faction::Ecaz,
            Faction::Harkonnen,
            Faction::BeneGesserit,
            Faction::Atreides,
        ],
        21,
    );
    s.phase = Some(Phase::ShipmentMovement);
    s.storm = Some(3);
    let mut zones = BTreeMap::new();
    zones.insert(
        Ambassador::BeneGesserit,
        Zone::Placed {
            territory: Territory::Carthag,
        },
    );
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    for t in [
        Ambassador::Atreides,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Richese,
    ] {
        zones.insert(t, Zone::Used);
    }
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::BeneGesserit,
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Richese,
        ],
        zones,
        ..AmbassadorsSetup::default()
    });
    s
}

fn bg_fifth(copy: Ambassador) {
    let mut all = Vec::new();
    let g = build_setup(&bg_fifth_table());
    let (g, ev) = ok(&g, &arrive(Faction::Harkonnen, Territory::Carthag, 11, 2, None));
    all.extend(ev);
    let (g, ev) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    all.extend(ev);
    assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
    let (g, ev) = ok(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: copy,
        }),
    );
    all.extend(ev);
    let cmd = if copy == Ambassador::Guild {
        ship(&g, Faction::Ecaz, Territory::Arrakeen, 10, 2, 0)
    } else {
        relocate(
            &g,
            Faction::Ecaz,
            Territory::ImperialBasin,
            &[(10, 2, 0)],
            Territory::Arrakeen,
            10,
        )
    };
    let (g, ev) = ok(&g, &cmd);
    assert!(!kind_names(&ev).contains(&"cohortRecycled".to_string()));
    all.extend(ev);
    let (g, ev) = ok(
        &g,
        &arrive(Faction::BeneGesserit, Territory::Arrakeen, 10, 1, Some(ArrivalId(2))),
    );
    all.extend(ev);
    // The Ecaz token's offer for the BG fighter: Ecaz takes the Duke.
    let (g, ev) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    all.extend(ev);
    let (g, ev) = ok(
        &g,
        &ecaz(Action::ChooseBranch {
            frame: open_id(&g),
            branch: EcazBranch::Duke,
        }),
    );
    assert_eq!(resumes(&ev), vec![ArrivalId(3)]);
    assert!(!kind_names(&ev).contains(&"cohortRecycled".to_string()));
    all.extend(ev);
    let (g, ev) = reactions_done(&g);
    assert_eq!(
        kind_names(&ev),
        vec!["resume", "cohortRecycled", "cohortDrawn", "resume"],
        "the recycle comes after the child and the parent settled, before the original resumes"
    );
    all.extend(ev);
    let names = kind_names(&all);
    let recycled = names.iter().position(|n| n == "cohortRecycled").unwrap();
    assert_eq!(names.iter().filter(|n| *n == "cohortRecycled").count(), 1);
    let resume_at: Vec<(usize, ArrivalId)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.event {
            EventKind::Resume { arrival } => Some((i, arrival)),
            _ => None,
        })
        .collect();
    assert_eq!(
        resume_at.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![ArrivalId(3), ArrivalId(2), ArrivalId(1)]
    );
    assert!(resume_at[0].0 < recycled, "after the child's resume");
    assert!(resume_at[1].0 < recycled, "after the parent's resume");
    assert!(recycled < resume_at[2].0, "before the original's resume");
    assert!(all.iter().any(|e| e.event
        == EventKind::CohortRecycled {
            returned: vec![
                Ambassador::Atreides,
                Ambassador::Choam,
                Ambassador::Emperor,
                Ambassador::Richese
            ],
            cycle: 1
        }));
    assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
    assert_eq!(g.ambassadors().cohort.len(), 5);
    assert!(!g.ambassadors().cohort.contains(&Ambassador::BeneGesserit));
    assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    assert_eq!(
        g.duke().custody,
        DukeCustody::Controlled {
            by: Faction::Ecaz,
            source: DukeSource::EcazAmbassador
        }
    );
    assert_conserved(&g);
    assert_round_trip(&g);
}

#[test]
fn r_trg_8_bg_copy_of_guild_as_fifth_trigger_recycles_after_all_nested_reactions() {
    bg_fifth(Ambassador::Guild);
}

#[test]
fn r_trg_8_bg_copy_of_fremen_as_fifth_trigger_recycles_after_all_nested_reactions() {
    bg_fifth(Ambassador::Fremen);
}

// =====================================================================
// Options: the choice descriptors list exactly the legal choices
// =====================================================================

const RANDOM_SEATS: [Faction; 6] = [
    Faction::Ecaz,
    Faction::Fremen,
    Faction::Harkonnen,
    Faction::Atreides,
    Faction::BeneGesserit,
    Faction::Ixians,
];

/// A random mid-game table where Harkonnen has just entered the stronghold
/// holding `token`, and Ecaz triggered it for a random beneficiary. `None`
/// when the effect has nothing to do (no frame).
fn random_effect(rng: &mut TestRng, token: Ambassador) -> Option<(Game, Faction)> {
    let strongholds = [
        Territory::Arrakeen,
        Territory::Carthag,
        Territory::SietchTabr,
        Territory::HabbanyaRidgeSietch,
        Territory::TueksSietch,
    ];
    let at = rng.pick(&strongholds);
    let storm: Sector = u8::try_from(rng.below(18) + 1).unwrap();
    let mut s = table(&RANDOM_SEATS, storm, &[(token, at)]);
    s.seed = Some(rng.next_u64() % 1000);
    let pointers: Vec<(Territory, Sector)> = all_positions()
        .into_iter()
        .filter(|&(t, sec)| sec != 0 && !ecaz::is_stronghold(t))
        .collect();
    if rng.chance(3, 4) {
        let (territory, sector) = rng.pick(&pointers);
        s.hms = Some(HmsPointer { territory, sector });
    }
    let ally = rng.pick(&[
        Some(Faction::Fremen),
        Some(Faction::BeneGesserit),
        Some(Faction::Ixians),
        None,
    ]);
    if let Some(a) = ally {
        allied(&mut s, Faction::Ecaz, a);
    }
    let places: Vec<(Territory, Sector)> = all_positions()
        .into_iter()
        .filter(|&(t, _)| t != Territory::HiddenMobileStronghold || s.hms.is_some())
        .collect();
    for f in RANDOM_SEATS {
        let mut stacks: Vec<Stack> = Vec::new();
        let mut elite_left = elite_total(f);
        let n = rng.below(6);
        for _ in 0..n {
            let (territory, sector) = rng.pick(&places);
            if stacks.iter().any(|x| x.territory == territory && x.sector == sector) {
                continue;
            }
            let mut x = st(territory, sector, u32::try_from(rng.below(3)).unwrap(), 0);
            if elite_left > 0 && rng.chance(1, 2) {
                x.elite = 1;
                elite_left -= 1;
            }
            if f == Faction::BeneGesserit && rng.chance(1, 2) {
                x.advisors = u32::try_from(rng.below(3)).unwrap() + 1;
            }
            if x.total() == 0 {
                x.normal = 1;
            }
            stacks.push(x);
        }
        if f == Faction::Harkonnen {
            stacks.retain(|x| x.territory != at);
        }
        on_board(&mut s, f, stacks);
    }
    if rng.chance(1, 3) {
        let t = rng.pick(&[Faction::Fremen, Faction::Ixians, Faction::Ecaz, Faction::BeneGesserit]);
        let setup = s.factions.entry(t).or_default();
        setup.tanks = Some(Forces {
            normal: u32::try_from(rng.below(3)).unwrap(),
            elite: u32::from(elite_total(t) > 0 && rng.chance(1, 2)),
        });
    }
    let g = build_setup(&s);
    let sector = ecaz::territory_info(at).sectors[0];
    let (g, _) = ok(&g, &arrive(Faction::Harkonnen, at, sector, 1, None));
    let Some(Decision::TriggerOffer { beneficiaries, .. }) = g.open_frame().map(|f| f.decision.clone()) else {
        panic!("an offer for {token:?}");
    };
    let beneficiary = rng.pick(&beneficiaries);
    let (g, _) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary,
        }),
    );
    let open = g.open_frame()?;
    assert_eq!(open.actor, Actor::Faction(beneficiary));
    Some((g, beneficiary))
}

fn source_sectors(src: &Value) -> Vec<Part> {
    src["sectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                u8::try_from(x["sector"].as_u64().unwrap()).unwrap(),
                u32::try_from(x["normal"].as_u64().unwrap_or(0)).unwrap(),
                u32::try_from(x["elite"].as_u64().unwrap_or(0)).unwrap(),
            )
        })
        .collect()
}

#[test]
fn options_relocate_descriptor_random_picks_accepted_and_other_destinations_refused() {
    let mut rng = TestRng::new(808);
    let mut checked = 0;
    let mut picks = 0;
    for _ in 0..60 {
        let Some((g, b)) = random_effect(&mut rng, Ambassador::Fremen) else {
            continue;
        };
        let d = descriptor(&g, b);
        assert_eq!(d["kind"], json!("relocate"));
        assert_eq!(d["frame"], json!(open_id(&g).0));
        let sources = d["sources"].as_array().unwrap().clone();
        // Sources: every board stack of the beneficiary outside the storm, nothing else.
        let listed: usize = sources.iter().map(|x| source_sectors(x).len()).sum();
        let expected = g
            .faction(b)
            .unwrap()
            .board
            .iter()
            .filter(|x| !ecaz::in_storm(x.territory, x.sector, g.storm()))
            .map(|x| usize::from(x.normal + x.elite > 0) + usize::from(x.advisors > 0))
            .sum::<usize>();
        assert_eq!(listed, expected, "{d}");
        for src in &sources {
            let from = territory_of(&src["territory"]);
            let adv = src["advisors"].as_bool().unwrap();
            let destinations = positions(&src["destinations"]);
            let sectors = source_sectors(src);
            // Random picks within the descriptor are accepted.
            for _ in 0..4 {
                let mut group: Vec<Part> = Vec::new();
                for &(sector, normal, elite) in &sectors {
                    if rng.chance(2, 3) {
                        let n = u32::try_from(rng.below(usize::try_from(normal).unwrap() + 1)).unwrap();
                        let e = u32::try_from(rng.below(usize::try_from(elite).unwrap() + 1)).unwrap();
                        group.push((sector, n, e));
                    }
                }
                group.retain(|x| x.1 + x.2 > 0);
                if group.is_empty() {
                    let (sector, normal, _) = sectors[0];
                    group = vec![(sector, normal.min(1), u32::from(normal == 0))];
                }
                // Any listed destination, except a sector of the source
                // territory that every part of the group already stands in
                // (no movement; documented on `GroupSource::destinations`).
                let mut targets: Vec<(Territory, Sector)> = destinations.clone();
                targets.retain(|&(t, sec)| t != from || group.iter().any(|x| x.0 != sec));
                if targets.is_empty() {
                    continue;
                }
                let to = rng.pick(&targets);
                let cmd = relocate_cmd(open_id(&g), b, from, &group, adv, to.0, to.1);
                let (after, _) = ok(&g, &cmd);
                assert_conserved(&after);
                picks += 1;
            }
            // The source territory's other sectors are listed exactly when
            // outside the storm; the HMS never from another territory than
            // the one it points at (the Ixians excepted).
            for &sec in ecaz::territory_info(from).sectors {
                if sectors.iter().any(|x| x.0 != sec) {
                    assert_eq!(
                        destinations.contains(&(from, sec)),
                        !ecaz::in_storm(from, sec, g.storm()),
                        "{from} {sec}: {d}"
                    );
                }
            }
            if let Some(pointer) = g.hms() {
                let hms = (Territory::HiddenMobileStronghold, 0);
                if from != hms.0 && b != Faction::Ixians && pointer.territory != from {
                    assert!(!destinations.contains(&hms), "{from}: {d}");
                }
            } else {
                assert!(destinations.iter().all(|p| p.0 != Territory::HiddenMobileStronghold));
            }
            // One force from the first listed sector: exactly the listed
            // destinations are accepted (its own sector lists no movement).
            let (first, normal, _) = sectors[0];
            let one = [(first, normal.min(1), u32::from(normal == 0))];
            for p in all_positions() {
                let listed = destinations.contains(&p);
                let moves = p != (from, first);
                let cmd = relocate_cmd(open_id(&g), b, from, &one, adv, p.0, p.1);
                match apply(&g, &cmd) {
                    Ok(_) => assert!(
                        listed && moves,
                        "{p:?} from {from} accepted but not in the descriptor {d}"
                    ),
                    Err(e) if listed && !moves => assert_eq!(e.code(), "rule/no_movement", "{p:?} from {from}"),
                    Err(e) => assert!(!listed, "{p:?} from {from} listed but refused: {} ({e})", e.code()),
                }
                checked += 1;
            }
            // A sector under the storm is never a source.
            for &sec in ecaz::territory_info(from).sectors {
                if ecaz::in_storm(from, sec, g.storm()) {
                    assert!(sectors.iter().all(|y| y.0 != sec));
                }
            }
        }
    }
    assert!(picks > 50, "enough random picks ({picks})");
    assert!(checked > 1000, "enough positions checked ({checked})");
}

#[test]
fn options_ship_descriptor_random_picks_accepted_and_other_destinations_refused() {
    let mut rng = TestRng::new(909);
    let mut picks = 0;
    for _ in 0..40 {
        let Some((g, b)) = random_effect(&mut rng, Ambassador::Guild) else {
            continue;
        };
        let d = descriptor(&g, b);
        assert_eq!(d["kind"], json!("ship"));
        let reserves: Forces = serde_json::from_value(d["reserves"].clone()).unwrap();
        assert_eq!(reserves, g.faction(b).unwrap().reserves);
        let max = u32::try_from(d["max"].as_u64().unwrap()).unwrap();
        assert_eq!(max, 4);
        let destinations = positions(&d["destinations"]);
        assert_eq!(
            destinations.contains(&(Territory::HiddenMobileStronghold, 0)),
            b == Faction::Ixians && g.hms().is_some(),
            "the HMS only for the Ixians"
        );
        for _ in 0..6 {
            let elite = u32::try_from(rng.below(usize::try_from(reserves.elite.min(max)).unwrap() + 1)).unwrap();
            let room = (max - elite).min(reserves.normal);
            let normal = u32::try_from(rng.below(usize::try_from(room).unwrap() + 1)).unwrap();
            if normal + elite == 0 || destinations.is_empty() {
                continue;
            }
            let (t, sec) = rng.pick(&destinations);
            let (after, _) = ok(&g, &ship(&g, b, t, sec, normal, elite));
            assert_conserved(&after);
            picks += 1;
        }
        let (n, e) = if reserves.normal > 0 { (1, 0) } else { (0, 1) };
        for p in all_positions() {
            let legal = destinations.contains(&p);
            match apply(&g, &ship(&g, b, p.0, p.1, n, e)) {
                Ok(_) => assert!(legal, "{p:?} accepted but not listed"),
                Err(err) => assert!(!legal, "{p:?} listed but refused: {}", err.code()),
            }
        }
    }
    assert!(picks > 30, "enough random picks ({picks})");
}

#[test]
fn options_revive_descriptor_lists_exactly_the_legal_revivals() {
    let mut rng = TestRng::new(1001);
    let mut seen = 0;
    for round in 0..30 {
        let mut s = tleilaxu_table();
        let b = if round % 3 == 0 {
            Faction::Ecaz
        } else {
            Faction::Emperor
        };
        if rng.chance(1, 2) {
            s.duke = Some(DukeCustody::Tanks);
        }
        s.factions.entry(Faction::Emperor).or_default().elite_revived = u8::from(rng.chance(1, 3));
        s.factions.entry(Faction::Ecaz).or_default().tanks = Some(Forces {
            normal: u32::try_from(rng.below(6)).unwrap(),
            elite: 0,
        });
        let g = triggered(&s, Faction::Harkonnen, Territory::Carthag, b);
        if g.open_frame().is_none() {
            continue;
        }
        let d = descriptor(&g, b);
        assert_eq!(d["kind"], json!("revive"));
        let leaders: Vec<Leader> = serde_json::from_value(d["leaders"].clone()).unwrap();
        let duke = d["duke"].as_bool().unwrap();
        let tanks: Forces = serde_json::from_value(d["tanks"].clone()).unwrap();
        let max = u32::try_from(d["max"].as_u64().unwrap()).unwrap();
        let elite_left = u32::try_from(d["eliteLeft"].as_u64().unwrap()).unwrap();
        assert_eq!(tanks, g.faction(b).unwrap().tanks);
        assert_eq!(duke, b == Faction::Ecaz && g.duke().custody == DukeCustody::Tanks);
        for leader in Leader::ALL {
            let r = apply(&g, &revive_leader(&g, b, leader));
            assert_eq!(r.is_ok(), leaders.contains(&leader), "{leader}");
        }
        let r = apply(&g, &Command::faction(b, Action::ReviveDuke { frame: open_id(&g) }));
        assert_eq!(r.is_ok(), duke);
        for normal in 0..=6 {
            for elite in 0..=3 {
                let legal = normal + elite <= max && normal <= tanks.normal && elite <= tanks.elite.min(elite_left);
                let r = apply(&g, &revive_forces(&g, b, normal, elite));
                assert_eq!(r.is_ok(), legal, "{b} revives {normal}+{elite}: {d}");
                if let Ok((after, _)) = r {
                    assert_conserved(&after);
                }
            }
        }
        seen += 1;
    }
    assert!(seen > 15, "{seen}");
}

#[test]
fn options_relocate_descriptor_same_territory_sector_in_storm() {
    // Options docs: "every command built within a descriptor is legal"; a
    // source's destinations include its own territory's other sectors, but
    // not one under the storm (no force moves into the storm sector, rock or
    // not). False Wall West 16 and 18 hold Fremen; the storm is on 17.
    let mut s = fremen_table(17);
    on_board(
        &mut s,
        Faction::Fremen,
        vec![
            st(Territory::FalseWallWest, 16, 2, 1),
            st(Territory::FalseWallWest, 18, 1, 0),
        ],
    );
    let g = at_relocation(&s);
    let d = descriptor(&g, Faction::Fremen);
    let src = d["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| territory_of(&x["territory"]) == Territory::FalseWallWest)
        .unwrap()
        .clone();
    assert_eq!(source_sectors(&src).len(), 2);
    let destinations = positions(&src["destinations"]);
    assert!(
        !destinations.contains(&(Territory::FalseWallWest, 17)),
        "the storm sector is not offered: {src}"
    );
    assert!(destinations.contains(&(Territory::FalseWallWest, 18)), "{src}");
    assert!(destinations.contains(&(Territory::FalseWallWest, 16)), "{src}");
    let err = assert_rejected(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::FalseWallWest,
            17,
        ),
        "rule/in_storm",
    );
    assert_eq!(err.rule(), Some("R-EFF-FRE"));
    // The listed sector on the other side of the storm is accepted; it is
    // no entry (same territory).
    let (g, events) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(16, 1, 0)],
            Territory::FalseWallWest,
            18,
        ),
    );
    assert!(matches!(arrivals(&events)[0], EventKind::Arrived { entry: false, .. }));
    assert_eq!(
        stack_at(&g, Faction::Fremen, Territory::FalseWallWest, 18),
        Some(st(Territory::FalseWallWest, 18, 2, 0))
    );
    assert_conserved(&g);
}

#[test]
fn options_effect_frames_offer_pass_and_one_descriptor() {
    let g = at_relocation(&fremen_table(3));
    let o = options(&g, Actor::Faction(Faction::Fremen));
    assert_eq!(o.frame, Some(open_id(&g)));
    assert_eq!(
        o.commands,
        vec![Command::faction(Faction::Fremen, Action::Pass { frame: open_id(&g) })]
    );
    assert_eq!(o.choices.len(), 1);
    // Nobody else has anything to do.
    for other in [Faction::Ecaz, Faction::Harkonnen] {
        let o = options(&g, Actor::Faction(other));
        assert!(o.commands.is_empty() && o.choices.is_empty());
    }
    assert!(options(&g, Actor::Host).commands.is_empty());
    // The host's reactions frame: exactly `reactionsDone`.
    let (g, _) = ok(
        &g,
        &relocate(
            &g,
            Faction::Fremen,
            Territory::FalseWallWest,
            &[(18, 1, 0)],
            Territory::TueksSietch,
            5,
        ),
    );
    let o = options(&g, Actor::Host);
    assert_eq!(o.commands, vec![host(Action::ReactionsDone { frame: open_id(&g) })]);
    // Descriptor contents for the fixed table.
    let g = at_relocation(&fremen_table(3));
    let d = descriptor(&g, Faction::Fremen);
    let sources = d["sources"].as_array().unwrap();
    let fww = sources
        .iter()
        .find(|x| territory_of(&x["territory"]) == Territory::FalseWallWest)
        .unwrap();
    let destinations = positions(&fww["destinations"]);
    for full in [
        (Territory::Arrakeen, 10),
        (Territory::HabbanyaRidgeSietch, 17),
        (Territory::CielagoNorth, 3),
    ] {
        assert!(!destinations.contains(&full), "{full:?} is not a destination");
    }
    for open in [
        (Territory::TueksSietch, 5),
        (Territory::SietchTabr, 14),
        (Territory::ImperialBasin, 10),
    ] {
        assert!(destinations.contains(&open), "{open:?} is a destination");
    }
    // The same territory's other sectors are destinations too (storm on 3).
    for own in [(Territory::FalseWallWest, 17), (Territory::FalseWallWest, 18)] {
        assert!(destinations.contains(&own), "{own:?} is a destination");
    }
    // The HMS only from the territory it points at (The Great Flat).
    let to_hms: BTreeMap<String, bool> = sources
        .iter()
        .map(|x| {
            (
                x["territory"].as_str().unwrap().to_string(),
                positions(&x["destinations"]).contains(&(Territory::HiddenMobileStronghold, 0)),
            )
        })
        .collect();
    assert_eq!(
        to_hms,
        BTreeMap::from([
            ("false_wall_west".to_string(), false),
            ("the_great_flat".to_string(), true)
        ])
    );
}

#[test]
fn setup_helpers_are_sound() {
    // The fixed tables build and conserve forces.
    for s in [
        fremen_table(3),
        guild_table(3, Faction::Emperor),
        tleilaxu_table(),
        nest_table(),
        bg_fifth_table(),
    ] {
        assert_conserved(&build_setup(&s));
    }
    let _ = FactionSetup::default();
}

#[test]
fn options_relocate_descriptor_hms_source_is_not_to_hms() {
    // Options docs: "every command built within a descriptor is legal" (a
    // group whose sectors all equal the destination sector excepted: it does
    // not move). A group already in the HMS cannot enter the HMS: the HMS is
    // at most listed as its own territory's sector, which is no movement.
    let mut s = fremen_table(3);
    on_board(
        &mut s,
        Faction::Fremen,
        vec![
            st(Territory::HiddenMobileStronghold, 0, 2, 0),
            st(Territory::FalseWallWest, 16, 1, 0),
        ],
    );
    let g = at_relocation(&s);
    let d = descriptor(&g, Faction::Fremen);
    let src = d["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| territory_of(&x["territory"]) == Territory::HiddenMobileStronghold)
        .unwrap()
        .clone();
    let hms = Territory::HiddenMobileStronghold;
    let destinations = positions(&src["destinations"]);
    let err = assert_rejected(
        &g,
        &relocate(&g, Faction::Fremen, hms, &[(0, 1, 0)], hms, 0),
        "rule/no_movement",
    );
    assert_eq!(err.rule(), Some("R-TRG-3"));
    // Every other listed destination takes a group from the HMS.
    let others: Vec<(Territory, Sector)> = destinations.iter().copied().filter(|p| p.0 != hms).collect();
    assert!(others.contains(&(Territory::TueksSietch, 5)), "{src}");
    for p in others {
        ok(&g, &relocate(&g, Faction::Fremen, hms, &[(0, 1, 0)], p.0, p.1));
    }
}
