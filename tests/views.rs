//! Hidden information in views (ARCHITECTURE §4) and P-SUPPLY-VIS.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    Actor, Ambassador, AmbassadorsSetup, CardId, Faction, FactionSetup, Game, GameOptions, Leader, Setup,
    SupplyVisibility, Territory, Viewer, Zone,
};

const SEATS: [Faction; 6] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Tleilaxu,
    Faction::BeneGesserit,
    Faction::Emperor,
];

/// What differs between two otherwise identical tables: Atreides' secrets.
#[derive(Clone, Copy)]
struct AtreidesSecrets {
    hand: [u16; 2],
    traitor: Leader,
    spice: u32,
    nexus: Faction,
}

const SECRETS_A: AtreidesSecrets = AtreidesSecrets {
    hand: [27, 8],
    traitor: Leader::FeydRautha,
    spice: 10,
    nexus: Faction::Moritani,
};

const SECRETS_B: AtreidesSecrets = AtreidesSecrets {
    hand: [0, 17],
    traitor: Leader::Caid,
    spice: 0,
    nexus: Faction::Fremen,
};

/// Every faction holds cards, traitors (Tleilaxu: Face Dancers), spice and,
/// for some, a Nexus card.
fn secrets_setup(atreides: AtreidesSecrets, seed: u64) -> Setup {
    let mut s = setup(&SEATS, seed);
    s.options = GameOptions {
        nexus: true,
        ..GameOptions::default()
    };
    let fs = |spice, hand: &[u16], traitors: &[Leader], nexus: Option<Faction>| FactionSetup {
        spice: Some(spice),
        hand: hand.iter().map(|&c| CardId(c)).collect(),
        traitors: traitors.iter().copied().map(TraitorCard::Leader).collect(),
        nexus,
        ..FactionSetup::default()
    };
    s.factions.insert(
        Faction::Atreides,
        fs(
            atreides.spice,
            &atreides.hand,
            &[atreides.traitor],
            Some(atreides.nexus),
        ),
    );
    s.factions
        .insert(Faction::Ecaz, fs(9, &[28, 9], &[Leader::Alia], Some(Faction::Ecaz)));
    s.factions.insert(
        Faction::Harkonnen,
        fs(
            7,
            &[10, 11, 12],
            &[
                Leader::HasimirFenring,
                Leader::SanyaEcaz,
                Leader::Wykk,
                Leader::ThufirHawat,
            ],
            None,
        ),
    );
    let mut tlx = fs(4, &[13], &[], Some(Faction::Guild));
    tlx.face_dancers = vec![
        TraitorCard::Leader(Leader::LadyJessica),
        TraitorCard::Leader(Leader::WannaMarcus),
        TraitorCard::Leader(Leader::Burseg),
    ];
    s.factions.insert(Faction::Tleilaxu, tlx);
    s.factions
        .insert(Faction::BeneGesserit, fs(6, &[14, 15], &[Leader::IlesaEcaz], None));
    s.factions
        .insert(Faction::Emperor, fs(11, &[], &[Leader::BeastRabban], None));
    s
}

fn view_json_of(g: &Game, v: Viewer) -> String {
    serde_json::to_string(&view(g, v)).unwrap()
}

fn view_value(g: &Game, v: Viewer) -> serde_json::Value {
    serde_json::to_value(view(g, v)).unwrap()
}

const SECRET_FIELDS: [&str; 5] = ["spice", "hand", "traitors", "faceDancers", "nexus"];

#[test]
fn view_secret_fields_null_for_others_present_for_self() {
    let g = build_setup(&secrets_setup(SECRETS_A, 5));
    for &viewer in &SEATS {
        let v = view_value(&g, Viewer::Faction(viewer));
        for fv in v["factions"].as_array().unwrap() {
            let who = fv["faction"].as_str().unwrap();
            let mine = who == viewer.id();
            for field in SECRET_FIELDS {
                let present = !fv[field].is_null();
                if mine {
                    // A faction without a Nexus card sees `null` for its own card.
                    if field != "nexus" || g.faction(viewer).unwrap().nexus.is_some() {
                        assert!(present, "{viewer} should see its own {field}");
                    }
                } else {
                    assert!(!present, "{viewer} sees {who}'s {field}: {}", fv[field]);
                }
            }
            // Public counts stay public.
            assert!(fv["handCount"].is_u64());
            assert!(fv["holdsNexus"].is_boolean());
        }
    }
}

#[test]
fn view_spectator_sees_no_secrets_host_sees_all() {
    let g = build_setup(&secrets_setup(SECRETS_A, 5));
    let spectator = view_value(&g, Viewer::Spectator);
    for fv in spectator["factions"].as_array().unwrap() {
        for field in SECRET_FIELDS {
            assert!(fv[field].is_null(), "spectator sees {}'s {field}", fv["faction"]);
        }
    }
    let hv = view(&g, Viewer::Host);
    for fv in &hv.factions {
        let real = g.faction(fv.faction).unwrap();
        assert_eq!(fv.spice, Some(real.spice));
        assert_eq!(fv.hand.as_ref(), Some(&real.hand));
        assert_eq!(fv.traitors.as_ref(), Some(&real.traitors));
        assert_eq!(fv.face_dancers.as_ref(), Some(&real.face_dancers));
        assert_eq!(fv.nexus, real.nexus);
        assert_eq!(fv.hand_count, real.hand.len());
    }
    assert_eq!(hv.treachery.deck_count, g.treachery().deck.len());
}

#[test]
fn view_never_contains_rng() {
    let g = build_setup(&secrets_setup(SECRETS_A, 5));
    let state = json_value(&g);
    let words = [
        state["rng"]["state"].as_str().unwrap().to_string(),
        state["rng"]["increment"].as_str().unwrap().to_string(),
    ];
    let mut viewers = vec![Viewer::Spectator, Viewer::Host];
    viewers.extend(SEATS.iter().map(|&f| Viewer::Faction(f)));
    for v in viewers {
        let text = view_json_of(&g, v);
        assert!(!text.contains("\"rng\""), "{v} view carries the RNG");
        for w in &words {
            assert!(!text.contains(w.as_str()), "{v} view carries RNG words");
        }
        // Deck order is shown to the host only; others get its size.
        let deck = view(&g, v).treachery.deck;
        assert_eq!(deck.is_some(), v == Viewer::Host, "{v} view and the deck order");
    }
}

/// The no-leak test: tables differing only in Atreides' hand, traitor,
/// spice, Nexus card and (hence) deck order give every other viewer the
/// identical view.
#[test]
fn view_no_leak_other_faction_secrets_indistinguishable() {
    let a = build_setup(&secrets_setup(SECRETS_A, 5));
    let b = build_setup(&secrets_setup(SECRETS_B, 5));
    assert_ne!(json(&a), json(&b));
    assert_ne!(a.treachery().deck, b.treachery().deck, "deck order differs too");
    for v in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Ecaz),
        Viewer::Faction(Faction::Harkonnen),
        Viewer::Faction(Faction::Tleilaxu),
        Viewer::Faction(Faction::BeneGesserit),
        Viewer::Faction(Faction::Emperor),
    ] {
        assert_eq!(
            view_json_of(&a, v),
            view_json_of(&b, v),
            "{v} can tell the tables apart"
        );
    }
    assert_ne!(
        view_json_of(&a, Viewer::Faction(Faction::Atreides)),
        view_json_of(&b, Viewer::Faction(Faction::Atreides))
    );
    assert_ne!(view_json_of(&a, Viewer::Host), view_json_of(&b, Viewer::Host));
}

#[test]
fn view_no_leak_deck_order_and_rng() {
    let base = secrets_setup(SECRETS_A, 5);
    let g = build_setup(&base);
    let mut reversed = base.clone();
    let mut deck = g.treachery().deck.clone();
    deck.reverse();
    reversed.deck = Some(deck);
    let r = build_setup(&reversed);
    // A different seed: different RNG state (and Nexus deck order).
    let mut other_seed = base.clone();
    other_seed.seed = Some(6);
    other_seed.deck = Some(g.treachery().deck.clone());
    let mut with_cohort = other_seed.clone();
    with_cohort.ambassadors = Some(AmbassadorsSetup {
        cohort: g.ambassadors().cohort.clone(),
        ..AmbassadorsSetup::default()
    });
    let o = build_setup(&with_cohort);
    for v in SEATS
        .iter()
        .map(|&f| Viewer::Faction(f))
        .chain([Viewer::Spectator, Viewer::Host])
    {
        if v != Viewer::Host {
            assert_eq!(view_json_of(&g, v), view_json_of(&r, v), "{v} sees deck order");
        }
        assert_eq!(
            view_json_of(&g, v),
            view_json_of(&o, v),
            "{v} sees the RNG or Nexus deck order"
        );
    }
}

#[test]
fn view_no_leak_harkonnen_traitors_and_tleilaxu_face_dancers() {
    let a_setup = secrets_setup(SECRETS_A, 5);
    let mut b_setup = a_setup.clone();
    let h = b_setup.factions.get_mut(&Faction::Harkonnen).unwrap();
    h.traitors = vec![
        TraitorCard::Leader(Leader::Bashar),
        TraitorCard::Leader(Leader::BindikkNarvi),
        TraitorCard::Leader(Leader::Blin),
        TraitorCard::Leader(Leader::DuncanIdaho),
    ];
    let t = b_setup.factions.get_mut(&Faction::Tleilaxu).unwrap();
    t.face_dancers = vec![
        TraitorCard::Leader(Leader::Caid),
        TraitorCard::Leader(Leader::PrincessIrulan),
        TraitorCard::Leader(Leader::GurneyHalleck),
    ];
    t.spice = Some(40);
    t.nexus = Some(Faction::Harkonnen);
    let a = build_setup(&a_setup);
    let b = build_setup(&b_setup);
    for v in [
        Faction::Ecaz,
        Faction::Atreides,
        Faction::BeneGesserit,
        Faction::Emperor,
    ] {
        assert_eq!(
            view_json_of(&a, Viewer::Faction(v)),
            view_json_of(&b, Viewer::Faction(v)),
            "{v}"
        );
    }
    assert_eq!(view_json_of(&a, Viewer::Spectator), view_json_of(&b, Viewer::Spectator));
}

// ---- P-SUPPLY-VIS ----

fn owner_only(mut s: Setup) -> Setup {
    s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    s
}

#[test]
fn p_supply_vis_default_public_spectator_sees_supply_and_cohort() {
    let g = basic(8);
    assert_eq!(g.policies().supply_visibility, SupplyVisibility::Public);
    for v in [Viewer::Spectator, Viewer::Faction(Faction::Atreides)] {
        let a = view(&g, v).ambassadors;
        assert_eq!(a.tokens, g.ambassadors().tokens, "{v} sees every zone");
        assert_eq!(a.cohort.as_ref(), Some(&g.ambassadors().cohort));
        assert_eq!(a.supply_count, 6);
        assert_eq!(a.pool_count, 5);
    }
}

#[test]
fn p_supply_vis_owner_only_others_see_placed_used_removed_and_counts() {
    let mut s = owner_only(setup(&[Faction::Ecaz, Faction::Atreides, Faction::BeneGesserit], 8));
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Ecaz, placed(Territory::Arrakeen));
    zones.insert(Ambassador::Fremen, Zone::Used);
    zones.insert(Ambassador::BeneGesserit, Zone::Removed);
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        ..AmbassadorsSetup::default()
    });
    let g = build_setup(&s);
    for v in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Atreides),
        Viewer::Faction(Faction::BeneGesserit),
    ] {
        let a = view(&g, v).ambassadors;
        let seen: Vec<(Ambassador, Zone)> = a.tokens.iter().map(|t| (t.token, t.zone)).collect();
        assert_eq!(
            seen,
            vec![
                (Ambassador::Ecaz, placed(Territory::Arrakeen)),
                (Ambassador::BeneGesserit, Zone::Removed),
                (Ambassador::Fremen, Zone::Used),
            ],
            "{v}"
        );
        assert_eq!(a.cohort, None, "{v} sees the cohort");
        assert_eq!(a.supply_count, 3);
        assert_eq!(a.pool_count, 5);
        let text = view_json_of(&g, v);
        for hidden in ["\"choam\"", "\"emperor\"", "\"tleilaxu\"", "\"supply\"", "\"pool\""] {
            assert!(!text.contains(hidden), "{v} view mentions {hidden}: {text}");
        }
    }
    for v in [Viewer::Faction(Faction::Ecaz), Viewer::Host] {
        let a = view(&g, v).ambassadors;
        assert_eq!(a.tokens, g.ambassadors().tokens, "{v} sees everything");
        assert_eq!(a.cohort.as_ref(), Some(&g.ambassadors().cohort));
    }
}

#[test]
fn p_supply_vis_owner_only_different_cohorts_same_placed_identical_views() {
    let make = |cohort: [Ambassador; 5]| {
        let mut s = owner_only(setup(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], 8));
        let mut zones = BTreeMap::new();
        zones.insert(Ambassador::Ecaz, placed(Territory::Carthag));
        s.ambassadors = Some(AmbassadorsSetup {
            zones,
            cohort: cohort.to_vec(),
            ..AmbassadorsSetup::default()
        });
        build_setup(&s)
    };
    let a = make([
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ]);
    let b = make([
        Ambassador::Harkonnen,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Guild,
        Ambassador::Tleilaxu,
    ]);
    for v in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Atreides),
        Viewer::Faction(Faction::Harkonnen),
    ] {
        assert_eq!(view_json_of(&a, v), view_json_of(&b, v), "{v}");
    }
    assert_ne!(
        view_json_of(&a, Viewer::Faction(Faction::Ecaz)),
        view_json_of(&b, Viewer::Faction(Faction::Ecaz))
    );
}

#[test]
fn p_supply_vis_owner_only_identical_views_after_play_with_drawn_cohorts() {
    // Two seeds with different drawn cohorts; Ecaz places its own token in
    // Tuek's Sietch in both. Non-Ecaz viewers cannot tell the games apart.
    let seats = [Faction::Ecaz, Faction::Atreides, Faction::Harkonnen];
    let play = |seed| {
        let g = build_setup(&owner_only(setup(&seats, seed)));
        let (g, _) = walk_to_revival_end(&g);
        let (g, _) = place(&g, Ambassador::Ecaz, Territory::TueksSietch);
        g
    };
    let first = play(1);
    let other_seed = (2..200)
        .find(|&s| {
            let g = build_setup(&owner_only(setup(&seats, s)));
            g.ambassadors()
                .cohort
                .iter()
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                != first.ambassadors().cohort.iter().copied().collect()
        })
        .unwrap();
    let second = play(other_seed);
    for v in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Atreides),
        Viewer::Faction(Faction::Harkonnen),
    ] {
        assert_eq!(view_json_of(&first, v), view_json_of(&second, v), "{v}");
    }
    let (f2, _) = finish(&first);
    let (s2, _) = finish(&second);
    assert_eq!(
        view_json_of(&f2, Viewer::Spectator),
        view_json_of(&s2, Viewer::Spectator)
    );
}

// ---- purity ----

#[test]
fn view_and_options_never_change_game_or_rng() {
    let g = build_setup(&secrets_setup(SECRETS_A, 5));
    let (g, _) = walk_to_revival_end(&g);
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Arrakeen);
    let before = json(&g);
    let mut viewers = vec![Viewer::Spectator, Viewer::Host];
    viewers.extend(SEATS.iter().map(|&f| Viewer::Faction(f)));
    viewers.push(Viewer::Faction(Faction::Moritani));
    let mut actors = vec![Actor::Host];
    actors.extend(SEATS.iter().map(|&f| Actor::Faction(f)));
    actors.push(Actor::Faction(Faction::Moritani));
    let first_views: Vec<String> = viewers.iter().map(|&v| view_json_of(&g, v)).collect();
    for _ in 0..50 {
        for (i, &v) in viewers.iter().enumerate() {
            assert_eq!(view_json_of(&g, v), first_views[i]);
        }
        for &a in &actors {
            let _ = options(&g, a);
        }
        let _ = ecaz::validate(&g, &host(ecaz::Action::MoveStorm { sectors: 3 }));
    }
    assert_eq!(json(&g), before);
    // The JSON door too.
    for v in ["\"spectator\"", "\"host\"", "\"ecaz\""] {
        let _ = view_json(&before, v).unwrap();
    }
    let _ = options_json(&before, "\"host\"").unwrap();
    // The next real command gives the same result as on a fresh copy.
    let fresh = ecaz::game_from_json(&before).unwrap();
    let (x, ex) = allow(&g);
    let (y, ey) = allow(&fresh);
    assert_eq!(json(&x), json(&y));
    assert_eq!(ex, ey);
}

#[test]
fn view_unseated_faction_sees_only_public() {
    let g = build_setup(&secrets_setup(SECRETS_A, 5));
    let v = view_value(&g, Viewer::Faction(Faction::Moritani));
    for fv in v["factions"].as_array().unwrap() {
        for field in SECRET_FIELDS {
            assert!(fv[field].is_null());
        }
    }
}
