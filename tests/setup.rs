//! Setup and the Ambassador inventory (RULES §2 R-INV-1..4, board.md defaults).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    faction_info, Ambassador, AmbassadorsSetup, CardId, Faction, FactionSetup, Forces, Game, HmsPointer, Leader, Setup,
    Territory, Zone, MAX_SEED,
};

fn cohort(g: &Game) -> BTreeSet<Ambassador> {
    g.ambassadors().cohort.iter().copied().collect()
}

fn rng_json(g: &Game) -> serde_json::Value {
    json_value(g)["rng"].clone()
}

fn problems(s: &Setup) -> Vec<ecaz::Problem> {
    let err = s.build().expect_err("setup should be rejected");
    assert_eq!(err.code(), "setup/invalid", "{err}");
    err.problems().to_vec()
}

fn has_problem(ps: &[ecaz::Problem], path_prefix: &str) -> bool {
    ps.iter().any(|p| p.path.starts_with(path_prefix))
}

// ---- defaults (board.md) ----

#[test]
fn setup_defaults_ecaz_printed_values() {
    let g = basic(1);
    let e = g.faction(Faction::Ecaz).unwrap();
    assert_eq!(e.spice, 12);
    assert_eq!(e.hand_limit, 4);
    assert_eq!(e.free_revival, 2);
    assert_eq!(e.reserves, Forces { normal: 14, elite: 0 });
    assert_eq!(e.tanks, Forces::default());
    assert_eq!(e.board.len(), 1);
    assert!(e.board.iter().all(|s| s.territory == Territory::ImperialBasin));
    assert_eq!(e.board.iter().map(|s| s.total()).sum::<u32>(), 6);
    assert!(e.board.iter().all(|s| s.elite == 0 && s.advisors == 0));
    assert!(e.hand.is_empty() && e.traitors.is_empty());
    assert_eq!(e.total_forces(), 20);
    assert_eq!(g.turn(), 1);
    assert_eq!(g.phase(), ecaz::Phase::Storm);
    assert!(g.shield_wall_standing());
    assert!(g.pending().is_empty());
}

#[test]
fn setup_defaults_every_faction_printed_spice_limits_and_revival() {
    // board.md §Factions: (spice, free revival, hand limit).
    let printed: [(Faction, u32, u8, u8); 12] = [
        (Faction::Atreides, 10, 2, 4),
        (Faction::Harkonnen, 10, 2, 8),
        (Faction::Emperor, 10, 1, 4),
        (Faction::Fremen, 3, 3, 4),
        (Faction::Guild, 5, 1, 4),
        (Faction::BeneGesserit, 5, 1, 4),
        (Faction::Ixians, 10, 1, 4),
        (Faction::Tleilaxu, 5, 2, 4),
        // D-162: CHOAM's hand limit is 5 (board.md, corrected).
        (Faction::Choam, 2, 0, 5),
        (Faction::Richese, 5, 2, 4),
        (Faction::Ecaz, 12, 2, 4),
        (Faction::Moritani, 12, 2, 4),
    ];
    let first: Vec<Faction> = printed[..6].iter().map(|p| p.0).collect();
    let second: Vec<Faction> = printed[6..].iter().map(|p| p.0).collect();
    let games = [build(&first, 3), build(&second, 3)];
    for (f, sp, rev, limit) in printed {
        let g = games.iter().find(|g| g.is_seated(f)).unwrap();
        let s = g.faction(f).unwrap();
        assert_eq!(s.spice, sp, "{f} spice");
        assert_eq!(s.free_revival, rev, "{f} free revival");
        assert_eq!(s.hand_limit, limit, "{f} hand limit");
        assert_eq!(s.total_forces(), 20, "{f} forces");
        assert_eq!(faction_info(f).spice, sp, "{f} board table");
        assert_eq!(s.leaders.len(), 5);
        // D-56: the printed start where the rules fix it; the common
        // helper puts the player-chosen ones (Fremen, Moritani, Ixians
        // without the HMS) in reserves. tests/fidelity.rs has the detail.
        let start = ecaz::printed_start(f, false, false).unwrap_or_default();
        assert_eq!(s.board, start, "{f} starts at its printed position");
    }
    let emperor = games[0].faction(Faction::Emperor).unwrap();
    assert_eq!(emperor.reserves, Forces { normal: 15, elite: 5 });
    // D-163: the Ixians' 13 Suboids and 7 Cyborgs, all in reserve when the
    // HMS is not in play (their board given empty by the helper).
    let ixians = games[1].faction(Faction::Ixians).unwrap();
    assert_eq!(ixians.reserves, Forces { normal: 13, elite: 7 });
}

// ---- R-INV-1 / R-INV-2 / R-INV-3 ----

#[test]
fn r_inv_1_supply_is_ecaz_plus_five_cohort_rest_in_pool() {
    for seed in 0..50 {
        let g = basic(seed);
        let a = g.ambassadors();
        assert_eq!(a.tokens.len(), 11);
        let ids: Vec<Ambassador> = a.tokens.iter().map(|t| t.token).collect();
        assert_eq!(ids, Ambassador::ALL.to_vec(), "all eleven, once each");
        assert_eq!(a.cohort.len(), 5);
        let c = cohort(&g);
        assert_eq!(c.len(), 5, "distinct");
        assert!(!c.contains(&Ambassador::Ecaz), "R-INV-3");
        assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
        for t in Ambassador::NON_ECAZ {
            let expected = if c.contains(&t) { Zone::Supply } else { Zone::Pool };
            assert_eq!(zone(&g, t), expected, "{t} (seed {seed})");
        }
        assert_eq!(supply(&g).len(), 6);
        assert_eq!(a.in_zone(Zone::Pool).count(), 5);
        assert_eq!(a.cycle, 0);
        assert_eq!(a.placement.placed, 0);
        assert!(!a.placement.closed);
    }
}

#[test]
fn r_inv_1_all_ten_eligible_whatever_seats_frequencies_near_half() {
    let tables: [&[Faction]; 4] = [
        &[Faction::Ecaz, Faction::Moritani],
        &[Faction::Ecaz, Faction::Atreides],
        &[Faction::Richese, Faction::Ecaz, Faction::Choam],
        &[
            Faction::Ecaz,
            Faction::Atreides,
            Faction::Harkonnen,
            Faction::Emperor,
            Faction::Fremen,
            Faction::Guild,
        ],
    ];
    const SEEDS: u64 = 2_000;
    let mut by_table: Vec<BTreeMap<Ambassador, u32>> = vec![BTreeMap::new(); tables.len()];
    let mut overall: BTreeMap<Ambassador, u32> = BTreeMap::new();
    for seed in 0..SEEDS {
        let i = usize::try_from(seed % 4).unwrap();
        let g = build(tables[i], seed);
        for t in cohort(&g) {
            assert_ne!(t, Ambassador::Ecaz, "R-INV-3");
            *overall.entry(t).or_default() += 1;
            *by_table[i].entry(t).or_default() += 1;
        }
    }
    for t in Ambassador::NON_ECAZ {
        let n = overall.get(&t).copied().unwrap_or(0);
        let freq = f64::from(n) / SEEDS as f64;
        assert!((0.4..=0.6).contains(&freq), "{t}: frequency {freq} over {SEEDS} seeds");
        // Even at tables where that faction is absent (e.g. Ecaz + Moritani), every identity is drawn.
        for (i, counts) in by_table.iter().enumerate() {
            let n = counts.get(&t).copied().unwrap_or(0);
            let freq = f64::from(n) / (SEEDS / 4) as f64;
            assert!((0.35..=0.65).contains(&freq), "{t} at table {i}: frequency {freq}");
        }
    }
    assert!(!overall.contains_key(&Ambassador::Ecaz));
}

#[test]
fn r_inv_3_ecaz_token_never_in_cohort_any_seed() {
    for seed in 0..500 {
        let g = build(&[Faction::Ecaz, Faction::Fremen], seed);
        assert!(!g.ambassadors().cohort.contains(&Ambassador::Ecaz));
        assert_eq!(zone(&g, Ambassador::Ecaz), Zone::Supply);
    }
}

#[test]
fn r_inv_4_same_seed_byte_identical_game_json() {
    for seed in [0, 1, 42, 123_456_789, MAX_SEED] {
        let a = basic(seed);
        let b = basic(seed);
        assert_eq!(json(&a), json(&b), "seed {seed}");
        assert_eq!(a, b);
    }
}

#[test]
fn r_inv_1_different_seeds_usually_different_cohorts() {
    let distinct: BTreeSet<Vec<Ambassador>> = (0..100)
        .map(|seed| cohort(&basic(seed)).into_iter().collect())
        .collect();
    // 252 possible cohorts; 100 uniform draws give ~84 distinct on average.
    assert!(
        distinct.len() >= 50,
        "only {} distinct cohorts in 100 seeds",
        distinct.len()
    );
    assert_ne!(json(&basic(1)), json(&basic(2)));
}

#[test]
fn r_inv_4_no_rng_for_cohort_when_ecaz_unseated() {
    let seed = 77;
    let without = build(&[Faction::Atreides, Faction::Harkonnen], seed);
    let a = without.ambassadors();
    assert!(a.tokens.iter().all(|t| t.zone == Zone::Pool), "every token in pool");
    assert!(a.cohort.is_empty());
    assert_eq!(a.in_zone(Zone::Supply).count(), 0);
    // An Ecaz game with an explicit inventory draws no cohort either: both
    // games consumed exactly the deck shuffle, so deck and RNG agree.
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], seed);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        ..AmbassadorsSetup::default()
    });
    let explicit = build_setup(&s);
    assert_eq!(explicit.treachery().deck, without.treachery().deck);
    assert_eq!(rng_json(&explicit), rng_json(&without));
    // A default Ecaz game does draw: its RNG is further along.
    let drawn = build(&[Faction::Ecaz, Faction::Atreides], seed);
    assert_ne!(rng_json(&drawn), rng_json(&without));
}

// ---- explicit inventory ----

fn five(list: [Ambassador; 5]) -> Vec<Ambassador> {
    list.to_vec()
}

#[test]
fn r_inv_2_explicit_inventory_honoured() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides, Faction::BeneGesserit], 5);
    let c = five([
        Ambassador::Harkonnen,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Guild,
        Ambassador::BeneGesserit,
    ]);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Ecaz, placed(Territory::Arrakeen));
    zones.insert(Ambassador::Harkonnen, placed(Territory::SietchTabr));
    zones.insert(Ambassador::Ixians, Zone::Used);
    zones.insert(Ambassador::BeneGesserit, Zone::Removed);
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: c.clone(),
        cycle: 3,
        placement: ecaz::PlacementTurn {
            placed: 2,
            closed: false,
            prevented_by: None,
        },
    });
    let g = build_setup(&s);
    let a = g.ambassadors();
    assert_eq!(a.cohort, c);
    assert_eq!(a.cycle, 3);
    assert_eq!(a.placement.placed, 2);
    assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::Arrakeen));
    assert_eq!(zone(&g, Ambassador::Harkonnen), placed(Territory::SietchTabr));
    assert_eq!(zone(&g, Ambassador::Ixians), Zone::Used);
    assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
    assert_eq!(zone(&g, Ambassador::Richese), Zone::Supply, "unlisted cohort → supply");
    assert_eq!(zone(&g, Ambassador::Guild), Zone::Supply);
    for t in [
        Ambassador::Atreides,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
        Ambassador::Tleilaxu,
    ] {
        assert_eq!(zone(&g, t), Zone::Pool, "unlisted non-cohort → pool");
    }
    assert_round_trip(&g);
}

#[test]
fn r_inv_1_explicit_cohort_with_ecaz_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: five([
            Ambassador::Ecaz,
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ]),
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors.cohort"));
}

#[test]
fn r_inv_1_explicit_cohort_of_four_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors.cohort"));
}

#[test]
fn r_inv_1_explicit_cohort_with_duplicate_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Atreides,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors.cohort"));
}

#[test]
fn r_inv_2_two_tokens_in_one_stronghold_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Ecaz, placed(Territory::Carthag));
    zones.insert(Ambassador::Atreides, placed(Territory::Carthag));
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    let ps = problems(&s);
    assert!(
        ps.iter()
            .any(|p| p.path.starts_with("ambassadors.zones") && p.message.contains("two")),
        "{ps:?}"
    );
}

#[test]
fn r_inv_2_used_non_cohort_token_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Tleilaxu, Zone::Used);
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors.zones.tleilaxu"));
}

#[test]
fn r_inv_2_placed_non_cohort_and_token_outside_stronghold_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Tleilaxu, placed(Territory::TueksSietch));
    zones.insert(Ambassador::Atreides, placed(Territory::ImperialBasin));
    zones.insert(Ambassador::Choam, placed(Territory::HiddenMobileStronghold));
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    let ps = problems(&s);
    assert!(has_problem(&ps, "ambassadors.zones.tleilaxu"), "{ps:?}");
    assert!(has_problem(&ps, "ambassadors.zones.atreides"), "{ps:?}");
    assert!(has_problem(&ps, "ambassadors.zones.choam"), "HMS not in play: {ps:?}");
}

#[test]
fn r_inv_3_ecaz_token_in_pool_used_or_removed_rejected() {
    for z in [Zone::Pool, Zone::Used, Zone::Removed] {
        let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
        let mut zones = BTreeMap::new();
        zones.insert(Ambassador::Ecaz, z);
        s.ambassadors = Some(AmbassadorsSetup {
            zones,
            cohort: five([
                Ambassador::Atreides,
                Ambassador::Choam,
                Ambassador::Emperor,
                Ambassador::Fremen,
                Ambassador::Guild,
            ]),
            ..AmbassadorsSetup::default()
        });
        assert!(has_problem(&problems(&s), "ambassadors.zones.ecaz"), "{z:?}");
    }
}

#[test]
fn r_inv_2_only_bg_token_can_be_removed() {
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 5);
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Atreides, Zone::Removed);
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors.zones.atreides"));
}

#[test]
fn r_inv_1_ambassadors_with_ecaz_unseated_rejected() {
    let mut s = setup(&[Faction::Atreides, Faction::Harkonnen], 5);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    assert!(has_problem(&problems(&s), "ambassadors"));
}

// ---- every problem at once ----

#[test]
fn setup_reports_every_problem_at_once() {
    let mut s = setup(
        &[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen, Faction::Tleilaxu],
        MAX_SEED + 1,
    );
    s.storm = Some(0);
    s.hms = Some(HmsPointer {
        territory: Territory::HaggaBasin,
        sector: 12,
    });
    let shared = CardId(0);
    s.factions.insert(
        Faction::Moritani,
        FactionSetup {
            spice: Some(3),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            reserves: Some(Forces { normal: 15, elite: 0 }),
            hand: vec![shared],
            ally: Some(Faction::Harkonnen),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Harkonnen,
        FactionSetup {
            hand: vec![shared],
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Tleilaxu,
        FactionSetup {
            traitors: vec![TraitorCard::Leader(Leader::FeydRautha)],
            ..FactionSetup::default()
        },
    );
    let ps = problems(&s);
    let expected = [
        "seed",
        "storm",
        "hms",
        "factions.moritani",
        "factions.atreides.forces",
        "factions.atreides.ally",
        "factions.tleilaxu.traitors",
    ];
    for path in expected {
        assert!(has_problem(&ps, path), "missing problem at {path}: {ps:?}");
    }
    assert!(
        ps.iter()
            .any(|p| p.path.ends_with(".hand") && p.message.contains(&shared.to_string())),
        "card in two hands: {ps:?}"
    );
    assert!(ps.len() >= 8, "{} problems: {ps:?}", ps.len());
    for p in &ps {
        assert!(!p.path.is_empty() && !p.message.is_empty());
    }
}

#[test]
fn setup_one_seat_and_ambassadors_without_ecaz_both_reported() {
    let mut s = setup(&[Faction::Atreides], 1);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: five([
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
            Ambassador::Guild,
        ]),
        ..AmbassadorsSetup::default()
    });
    s.turn = Some(0);
    let ps = problems(&s);
    assert!(has_problem(&ps, "seats"), "{ps:?}");
    assert!(has_problem(&ps, "ambassadors"), "{ps:?}");
    assert!(has_problem(&ps, "turn"), "{ps:?}");
}

#[test]
fn setup_duplicate_and_too_many_seats_rejected() {
    let ps = problems(&setup(&[Faction::Ecaz, Faction::Ecaz, Faction::Atreides], 1));
    assert!(has_problem(&ps, "seats"), "{ps:?}");
    let seven = [
        Faction::Ecaz,
        Faction::Atreides,
        Faction::Harkonnen,
        Faction::Emperor,
        Faction::Fremen,
        Faction::Guild,
        Faction::Moritani,
    ];
    assert!(has_problem(&problems(&setup(&seven, 1)), "seats"));
    assert!(has_problem(&problems(&setup(&[], 1)), "seats"));
}

#[test]
fn setup_seed_limit_is_two_pow_53_minus_one() {
    assert!(setup(&[Faction::Ecaz, Faction::Atreides], MAX_SEED).build().is_ok());
    assert_eq!(MAX_SEED, (1u64 << 53) - 1);
    let ps = problems(&setup(&[Faction::Ecaz, Faction::Atreides], u64::MAX));
    assert!(has_problem(&ps, "seed"));
}

#[test]
fn setup_hms_with_ixians_accepted_and_bad_pointer_rejected() {
    let mut s = setup(&[Faction::Ecaz, Faction::Ixians], 1);
    s.hms = Some(HmsPointer {
        territory: Territory::HaggaBasin,
        sector: 12,
    });
    assert!(s.build().is_ok());
    s.hms = Some(HmsPointer {
        territory: Territory::Arrakeen,
        sector: 10,
    });
    assert!(has_problem(&problems(&s), "hms"));
    s.hms = Some(HmsPointer {
        territory: Territory::HaggaBasin,
        sector: 3,
    });
    assert!(has_problem(&problems(&s), "hms"));
}

#[test]
fn setup_document_json_builds_same_game() {
    let text = r#"{"seats":["ecaz","atreides"],"seed":9,"policies":{"supplyVisibility":"ownerOnly"}}"#;
    let state = new_game_json(text).unwrap();
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 9);
    s.policies.supply_visibility = ecaz::SupplyVisibility::OwnerOnly;
    assert_eq!(state, json(&build_setup(&s)));
    let err = new_game_json(r#"{"seats":["ecaz"],"bogus":1}"#).unwrap_err();
    assert_eq!(err.code(), "decode/invalid_setup");
    let err = new_game_json(r#"{"seats":["ecaz"],"seed":9}"#).unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
}

// ---- robustness: random setups ----

fn random_forces(r: &mut TestRng) -> Forces {
    let n = |r: &mut TestRng| match r.below(6) {
        0 => u32::MAX,
        1 => 0,
        _ => u32::try_from(r.below(25)).unwrap(),
    };
    Forces {
        normal: n(r),
        elite: n(r),
    }
}

fn random_setup_document(r: &mut TestRng, seed: u64) -> Setup {
    let n = r.below(8);
    let seats: Vec<Faction> = (0..n).map(|_| r.pick(&Faction::ALL)).collect();
    let mut s = setup(&seats, if r.chance(1, 10) { u64::MAX - seed } else { seed });
    s.options.nexus = r.chance(1, 2);
    s.storm = r.chance(1, 2).then(|| u8::try_from(r.below(22)).unwrap());
    s.turn = r.chance(1, 4).then(|| u32::try_from(r.below(3)).unwrap());
    s.phase = r.chance(1, 3).then(|| r.pick(&ecaz::Phase::ALL));
    s.shield_wall_standing = r.chance(1, 3).then(|| r.chance(1, 2));
    if r.chance(1, 3) {
        let t = r.pick(&Territory::ALL);
        s.hms = Some(HmsPointer {
            territory: t,
            sector: u8::try_from(r.below(20)).unwrap(),
        });
    }
    for _ in 0..r.below(4) {
        let f = r.pick(&Faction::ALL);
        let mut fs = FactionSetup::default();
        if r.chance(1, 2) {
            fs.spice = Some(if r.chance(1, 5) {
                u32::MAX
            } else {
                u32::try_from(r.below(30)).unwrap()
            });
        }
        if r.chance(1, 2) {
            fs.reserves = Some(random_forces(r));
        }
        if r.chance(1, 3) {
            fs.tanks = Some(random_forces(r));
        }
        if r.chance(1, 2) {
            fs.board = Some(
                (0..r.below(3))
                    .map(|_| {
                        // Huge stack counts overflow the engine's sums: see
                        // `setup_huge_force_counts_are_problems_not_panics`.
                        let f = Forces {
                            normal: u32::try_from(r.below(25)).unwrap(),
                            elite: u32::try_from(r.below(6)).unwrap(),
                        };
                        ecaz::Stack {
                            territory: r.pick(&Territory::ALL),
                            sector: u8::try_from(r.below(20)).unwrap(),
                            normal: f.normal,
                            elite: f.elite,
                            advisors: u32::try_from(r.below(3)).unwrap(),
                        }
                    })
                    .collect(),
            );
        }
        fs.hand = (0..r.below(4))
            .map(|_| CardId(u16::try_from(r.below(40)).unwrap()))
            .collect();
        fs.traitors = (0..r.below(3))
            .map(|_| TraitorCard::Leader(r.pick(&Leader::ALL)))
            .collect();
        fs.face_dancers = (0..r.below(2))
            .map(|_| TraitorCard::Leader(r.pick(&Leader::ALL)))
            .collect();
        fs.ally = r.chance(1, 4).then(|| r.pick(&Faction::ALL));
        fs.nexus = r.chance(1, 4).then(|| r.pick(&Faction::ALL));
        fs.hand_limit = r.chance(1, 4).then(|| u8::try_from(r.below(256)).unwrap());
        fs.free_revival = r.chance(1, 4).then(|| u8::try_from(r.below(256)).unwrap());
        if r.chance(1, 4) {
            fs.leaders = vec![ecaz::LeaderState {
                leader: r.pick(&Leader::ALL),
                custody: ecaz::LeaderCustody::Captured {
                    by: r.pick(&Faction::ALL),
                },
            }];
        }
        s.factions.insert(f, fs);
    }
    if r.chance(1, 4) {
        s.deck = Some(
            (0..r.below(40))
                .map(|_| CardId(u16::try_from(r.below(40)).unwrap()))
                .collect(),
        );
    }
    if r.chance(1, 4) {
        s.discard = (0..r.below(4))
            .map(|_| CardId(u16::try_from(r.below(40)).unwrap()))
            .collect();
    }
    if r.chance(1, 4) {
        s.nexus_deck = Some((0..r.below(13)).map(|_| r.pick(&Faction::ALL)).collect());
    }
    if r.chance(1, 3) {
        let mut zones = BTreeMap::new();
        for _ in 0..r.below(4) {
            let z = match r.below(5) {
                0 => Zone::Pool,
                1 => Zone::Supply,
                2 => Zone::Used,
                3 => Zone::Removed,
                _ => placed(r.pick(&Territory::ALL)),
            };
            zones.insert(r.pick(&Ambassador::ALL), z);
        }
        s.ambassadors = Some(AmbassadorsSetup {
            zones,
            cohort: (0..r.below(7)).map(|_| r.pick(&Ambassador::ALL)).collect(),
            cycle: u32::try_from(r.below(3)).unwrap(),
            placement: ecaz::PlacementTurn {
                placed: u8::try_from(r.below(256)).unwrap(),
                closed: r.chance(1, 2),
                prevented_by: r.chance(1, 4).then(|| r.pick(&Faction::ALL)),
            },
        });
    }
    if r.chance(1, 4) {
        s.duke = Some(ecaz::DukeCustody::Controlled {
            by: r.pick(&Faction::ALL),
            source: ecaz::DukeSource::AllianceLoan,
        });
    }
    s
}

#[test]
fn setup_random_documents_never_panic_and_valid_ones_round_trip() {
    let mut r = TestRng::new(99);
    let (mut accepted, mut rejected) = (0, 0);
    for seed in 0..3_000 {
        let s = random_setup_document(&mut r, seed);
        match s.build() {
            Ok(g) => {
                accepted += 1;
                assert_round_trip(&g);
                for v in [ecaz::Viewer::Spectator, ecaz::Viewer::Host] {
                    let _ = view(&g, v);
                }
                let _ = options(&g, ecaz::Actor::Host);
                let _ = apply(&g, &host(ecaz::Action::EndPhase { phase: g.phase() }));
            }
            Err(e) => {
                rejected += 1;
                assert_eq!(e.code(), "setup/invalid", "{e}");
                assert!(!e.problems().is_empty());
            }
        }
        // The document form decodes to the same setup.
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(ecaz::setup_from_json(&text).unwrap(), s);
    }
    assert!(rejected > 100, "{rejected} rejected");
    assert!(accepted > 10, "{accepted} accepted");
}

#[test]
fn setup_huge_force_counts_are_problems_not_panics() {
    let huge = |normal, elite| ecaz::Stack {
        territory: Territory::ImperialBasin,
        sector: 9,
        normal,
        elite,
        advisors: 0,
    };
    // Explicit reserves: the integrity check's elite sum overflows.
    let mut s = setup(&[Faction::Ecaz, Faction::Emperor], 1);
    let mut second = huge(0, 1);
    second.sector = 10;
    s.factions.insert(
        Faction::Emperor,
        FactionSetup {
            reserves: Some(Forces::default()),
            board: Some(vec![huge(0, u32::MAX), second]),
            ..FactionSetup::default()
        },
    );
    let ps = problems(&s);
    assert!(has_problem(&ps, "factions.emperor"), "{ps:?}");
    // Default reserves: the setup's own sum overflows.
    let mut s = setup(&[Faction::Ecaz, Faction::Atreides], 1);
    let mut second = huge(1, 0);
    second.sector = 10;
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            board: Some(vec![huge(u32::MAX, 0), second]),
            ..FactionSetup::default()
        },
    );
    let ps = problems(&s);
    assert!(has_problem(&ps, "factions.atreides"), "{ps:?}");
}
