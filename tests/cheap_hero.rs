//! D-170: the Cheap Hero/Heroine Traitor card (`TraitorCard::CheapHero`,
//! wire `cheap_hero`), dealt under the game option `cheapHeroTraitor`. It is
//! one physical card, never a leader: the Harkonnen effect's pool holds it
//! (R-EFF-HAR), Secret Ally never answers with it (R-NEX-SEC,
//! P-NEX-SEC-SCOPE), the Tleilaxu may hold it as a Face Dancer. Without the
//! option every report, setup and saved state naming it is refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::*;
use ecaz::{
    game_from_json, Action, Command, Event, EventKind, Faction, FactionSetup, Game, Insight, Leader, Phase,
    SecretAllyFaceDancers, SecretAllyScope, Setup, TraitorCard, Viewer,
};

const CHEAP: TraitorCard = TraitorCard::CheapHero;

fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

fn with_option(mut s: Setup) -> Setup {
    s.options.cheap_hero_traitor = true;
    s
}

fn cmd(doc: serde_json::Value) -> Command {
    serde_json::from_value(doc).unwrap()
}

/// `setTraitors`, as a host sends it.
fn deal(faction: &str, traitors: serde_json::Value) -> Command {
    cmd(
        serde_json::json!({"actor": "host", "action": {"kind": "setTraitors", "faction": faction, "traitors": traitors}}),
    )
}

fn deal_face_dancers(face_dancers: serde_json::Value) -> Command {
    cmd(serde_json::json!({"actor": "host", "action": {"kind": "setFaceDancers", "faceDancers": face_dancers}}))
}

fn reveal(card: &str) -> Command {
    cmd(serde_json::json!({"actor": "host", "action": {"kind": "revealFaceDancer", "leader": card}}))
}

/// Ecaz, Atreides, Tleilaxu, Harkonnen in the Shipment and Movement phase,
/// the Harkonnen Ambassador in Carthag.
fn harkonnen_table(seed: u64) -> Setup {
    let mut s = setup(
        &[Faction::Ecaz, Faction::Atreides, Faction::Tleilaxu, Faction::Harkonnen],
        seed,
    );
    harkonnen_token_in_carthag(&mut s);
    s
}

/// `entrant` ships into Carthag; Ecaz triggers the Harkonnen Ambassador for
/// itself. Returns the card seen and whether it was a Face Dancer.
fn harkonnen_draw(g: &Game, entrant: Faction) -> (Game, Option<(TraitorCard, bool)>) {
    let (g, _) = ok(g, &shipment(entrant, ecaz::Territory::Carthag, 11, None));
    let (g, events) = ok(
        &g,
        &ecaz(Action::Trigger {
            frame: open_id(&g),
            beneficiary: Faction::Ecaz,
        }),
    );
    let seen = events.iter().find_map(|e| match e.event {
        EventKind::TraitorSeen {
            leader, face_dancer, ..
        } => Some((leader, face_dancer)),
        _ => None,
    });
    (g, seen)
}

/// D-170: off by default, and then left out of the saved state (so existing
/// states and the default game are byte for byte as before); on, it is
/// written and read back.
#[test]
fn d_170_the_option_is_off_by_default_and_saved_only_when_on() {
    let g = build(&[Faction::Ecaz, Faction::Atreides], 1);
    assert!(!g.options().cheap_hero_traitor);
    assert!(!json(&g).contains("cheapHeroTraitor"));
    let on = build_setup(&with_option(setup(&[Faction::Ecaz, Faction::Atreides], 1)));
    assert!(on.options().cheap_hero_traitor);
    assert!(json(&on).contains(r#""cheapHeroTraitor":true"#));
    assert_round_trip(&on);
    // The card's wire id; there is one card, not one per printed name.
    assert_eq!(serde_json::to_value(CHEAP).unwrap(), serde_json::json!("cheap_hero"));
    assert!(serde_json::from_value::<TraitorCard>(serde_json::json!("cheap_heroine")).is_err());
    assert!(Leader::ALL
        .iter()
        .chain(Leader::EXTRA.iter())
        .all(|l| l.id() != "cheap_hero"));
}

/// R-EFF-HAR, D-170: the pool is every held Traitor card, the Cheap Hero
/// card included: alone it makes the effect available and is the card seen
/// (kept as private knowledge); beside a leader's card, either can be drawn.
#[test]
fn r_eff_har_d_170_the_pool_includes_the_cheap_hero_card() {
    let mut s = with_option(harkonnen_table(3));
    fs(&mut s, Faction::Atreides).traitors = vec![CHEAP];
    let g = build_setup(&s);
    let (after, seen) = harkonnen_draw(&g, Faction::Atreides);
    assert_eq!(seen, Some((CHEAP, false)), "the only held card is seen");
    assert!(after.knowledge().iter().any(|k| k.viewer == Faction::Ecaz
        && k.about == Faction::Atreides
        && k.info == Insight::Traitor { leader: CHEAP }));
    assert_round_trip(&after);
    // Beside a leader's card: both are drawn across seeds.
    let mut drawn = BTreeSet::new();
    for seed in 0..16 {
        let mut s = with_option(harkonnen_table(seed));
        fs(&mut s, Faction::Atreides).traitors = vec![TraitorCard::Leader(Leader::FeydRautha), CHEAP];
        let (_, seen) = harkonnen_draw(&build_setup(&s), Faction::Atreides);
        drawn.insert(seen.expect("a card is seen").0);
    }
    assert_eq!(drawn, BTreeSet::from([TraitorCard::Leader(Leader::FeydRautha), CHEAP]));
}

/// R-EFF-HAR, D-170, D-166: the Tleilaxu may hold the Cheap Hero card as a
/// Face Dancer (their Face Dancers are Traitor cards); revealed and still
/// held, it is still drawn.
#[test]
fn r_eff_har_d_170_the_cheap_hero_card_as_a_face_dancer() {
    let g = build_setup(&with_option(harkonnen_table(5)));
    let (g, events) = ok(&g, &deal_face_dancers(serde_json::json!(["cheap_hero"])));
    assert!(events.iter().any(|e| e.event
        == EventKind::TraitorsHeld {
            faction: Faction::Tleilaxu,
            traitors: vec![],
            face_dancers: vec![CHEAP],
        }));
    let (_, seen) = harkonnen_draw(&g, Faction::Tleilaxu);
    assert_eq!(seen, Some((CHEAP, true)));
    let (g, events) = ok(&g, &reveal("cheap_hero"));
    assert!(kinds(&events).contains(&&EventKind::FaceDancerRevealed { leader: CHEAP }));
    assert_eq!(g.faction(Faction::Tleilaxu).unwrap().revealed_face_dancers, [CHEAP]);
    // Revealed twice: it is no longer face down.
    assert_rejected(&g, &reveal("cheap_hero"), "rule/traitor_unavailable");
    let (after, seen) = harkonnen_draw(&g, Faction::Tleilaxu);
    assert_eq!(seen, Some((CHEAP, true)), "D-166: a revealed card still held is drawn");
    assert!(after
        .knowledge()
        .iter()
        .any(|k| k.info == Insight::FaceDancer { leader: CHEAP }));
}

/// R-NEX-SEC, P-NEX-SEC-SCOPE, P-NEX-SEC-FD, D-170: the Cheap Hero card is
/// no one's leader, so Secret Ally never answers yes for it — under either
/// scope, as a Traitor or as a face-down Face Dancer.
#[test]
fn r_nex_sec_d_170_secret_ally_never_answers_with_the_cheap_hero_card() {
    let seats = [
        Faction::Atreides,
        Faction::Harkonnen,
        Faction::Emperor,
        Faction::Tleilaxu,
    ];
    let table = |scope, target_holds: Vec<TraitorCard>, target: Faction| {
        let mut s = with_option(setup(&seats, 21));
        s.options.nexus = true;
        s.phase = Some(Phase::Storm);
        s.policies.secret_ally_scope = scope;
        s.policies.secret_ally_face_dancers = SecretAllyFaceDancers::Yes;
        fs(&mut s, Faction::Atreides).nexus = Some(Faction::Ecaz);
        if target == Faction::Tleilaxu {
            fs(&mut s, target).face_dancers = target_holds;
        } else {
            fs(&mut s, target).traitors = target_holds;
        }
        s
    };
    let ask = |s: &Setup, target: Faction| {
        let g = build_setup(s);
        let (_, events): (Game, Vec<Event>) = ok(
            &g,
            &Command::faction(Faction::Atreides, Action::PlaySecretAlly { target }),
        );
        events
            .iter()
            .find_map(|e| match e.event {
                EventKind::SecretAllyAnswered { answer, .. } => Some(answer),
                _ => None,
            })
            .expect("an answer")
    };
    for scope in [SecretAllyScope::Native, SecretAllyScope::Controlled] {
        for target in [Faction::Harkonnen, Faction::Tleilaxu] {
            assert!(!ask(&table(scope, vec![CHEAP], target), target), "{scope:?} {target}");
            // The same table with one of Atreides' leaders answers yes.
            let both = vec![CHEAP, TraitorCard::Leader(Leader::DuncanIdaho)];
            assert!(ask(&table(scope, both, target), target), "{scope:?} {target}");
        }
    }
}

/// D-170: without the option, every report naming the card is refused
/// (`rule/traitor_unavailable`; a reconcile `sync/invalid_table`), the
/// state unchanged byte for byte, the RNG untouched (`assert_rejected`).
#[test]
fn d_170_without_the_option_reports_naming_the_card_are_refused() {
    let g = build_setup(&harkonnen_table(2));
    assert_rejected(
        &g,
        &deal("atreides", serde_json::json!(["cheap_hero"])),
        "rule/traitor_unavailable",
    );
    assert_rejected(
        &g,
        &deal("harkonnen", serde_json::json!(["feyd_rautha", "cheap_hero"])),
        "rule/traitor_unavailable",
    );
    assert_rejected(
        &g,
        &deal_face_dancers(serde_json::json!(["cheap_hero"])),
        "rule/traitor_unavailable",
    );
    assert_rejected(&g, &reveal("cheap_hero"), "rule/traitor_unavailable");
    let mut table = table_from_view(&view(&g, Viewer::Host));
    table.factions.get_mut(&Faction::Atreides).unwrap().traitors = vec![CHEAP];
    assert_rejected(
        &g,
        &host(Action::SyncTable { table: Box::new(table) }),
        "sync/invalid_table",
    );
    // The same reports with the option on are taken.
    let on = build_setup(&with_option(harkonnen_table(2)));
    let (after, _) = ok(&on, &deal("atreides", serde_json::json!(["cheap_hero"])));
    assert_eq!(after.faction(Faction::Atreides).unwrap().traitors, [CHEAP]);
}

/// D-170: with the option there is still one card: named twice, held by
/// another faction (as a Traitor or a Face Dancer), it is refused.
#[test]
fn d_170_one_cheap_hero_card_across_all_factions() {
    let g = build_setup(&with_option(harkonnen_table(2)));
    assert_rejected(
        &g,
        &deal("atreides", serde_json::json!(["cheap_hero", "cheap_hero"])),
        "rule/traitor_unavailable",
    );
    let (g, _) = ok(&g, &deal("atreides", serde_json::json!(["cheap_hero"])));
    assert_rejected(
        &g,
        &deal("harkonnen", serde_json::json!(["cheap_hero"])),
        "rule/traitor_unavailable",
    );
    assert_rejected(
        &g,
        &deal_face_dancers(serde_json::json!(["cheap_hero"])),
        "rule/traitor_unavailable",
    );
    // The holder may keep it in a new report; once returned, another may hold it.
    let (g, _) = ok(&g, &deal("atreides", serde_json::json!(["cheap_hero", "feyd_rautha"])));
    let (g, _) = ok(&g, &deal("atreides", serde_json::json!([])));
    ok(&g, &deal("harkonnen", serde_json::json!(["cheap_hero"])));
}

/// D-170: a setup gives the card only with the option, and to one faction.
#[test]
fn setup_d_170_refusals() {
    let mut s = harkonnen_table(4);
    fs(&mut s, Faction::Atreides).traitors = vec![CHEAP];
    let err = s.build().unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
    assert!(
        err.to_string().contains("cheapHeroTraitor") || format!("{:?}", err.problems()).contains("cheapHeroTraitor")
    );
    let mut twice = with_option(s.clone());
    fs(&mut twice, Faction::Tleilaxu).face_dancers = vec![CHEAP];
    assert_eq!(twice.build().unwrap_err().code(), "setup/invalid");
    let g = build_setup(&with_option(s));
    assert_eq!(g.faction(Faction::Atreides).unwrap().traitors, [CHEAP]);
}

/// D-170: a loaded state holding the card without the option, or holding
/// it twice, is refused (`state/inconsistent`).
#[test]
fn state_d_170_loaded_state_integrity() {
    let mut s = with_option(harkonnen_table(4));
    fs(&mut s, Faction::Atreides).traitors = vec![CHEAP];
    let g = build_setup(&s);
    let good = json_value(&g);
    game_from_json(&good.to_string()).unwrap();
    let atreides = |v: &mut serde_json::Value| -> usize {
        v["factions"]
            .as_array()
            .unwrap()
            .iter()
            .position(|f| f["faction"] == "atreides")
            .unwrap()
    };
    let mut off = good.clone();
    off["options"].as_object_mut().unwrap().remove("cheapHeroTraitor");
    let err = game_from_json(&off.to_string()).unwrap_err();
    assert_eq!(err.code(), "state/inconsistent");
    let mut twice = good.clone();
    let harkonnen = twice["factions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["faction"] == "harkonnen")
        .unwrap();
    twice["factions"][harkonnen]["traitors"] = serde_json::json!(["cheap_hero"]);
    assert_eq!(
        game_from_json(&twice.to_string()).unwrap_err().code(),
        "state/inconsistent"
    );
    let mut same_hand = good;
    let a = atreides(&mut same_hand);
    same_hand["factions"][a]["traitors"] = serde_json::json!(["cheap_hero", "cheap_hero"]);
    assert_eq!(
        game_from_json(&same_hand.to_string()).unwrap_err().code(),
        "state/inconsistent"
    );
}

/// D-170: views show the card only to its holder (and the host); others see
/// a count. The private events go to the holder alone.
#[test]
fn view_d_170_the_card_is_shown_only_to_its_holder() {
    let g = build_setup(&with_option(harkonnen_table(6)));
    let (g, events) = ok(&g, &deal("harkonnen", serde_json::json!(["cheap_hero"])));
    for viewer in [
        Viewer::Host,
        Viewer::Spectator,
        Viewer::Faction(Faction::Ecaz),
        Viewer::Faction(Faction::Atreides),
        Viewer::Faction(Faction::Tleilaxu),
        Viewer::Faction(Faction::Harkonnen),
    ] {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Faction::Harkonnen));
        let v = view(&g, viewer);
        let h = v.factions.iter().find(|x| x.faction == Faction::Harkonnen).unwrap();
        assert_eq!(h.traitor_count, 1, "{viewer}");
        assert_eq!(h.traitors.clone(), knows.then(|| vec![CHEAP]), "{viewer}");
        let shown: Vec<&Event> = events.iter().filter(|e| e.visible_to(viewer)).collect();
        assert_eq!(
            serde_json::to_string(&shown).unwrap().contains("cheap_hero"),
            knows,
            "{viewer}"
        );
        assert_eq!(
            // (the Treachery catalog names the Cheap Hero Treachery cards:
            // only the factions' parts of the view are searched).
            serde_json::to_string(&v.factions).unwrap().contains("cheap_hero"),
            knows,
            "{viewer}"
        );
    }
    // Narration names the card for its holder.
    let told: Vec<String> = events
        .iter()
        .filter_map(|e| ecaz::narrate::event(&g, e, Viewer::Faction(Faction::Harkonnen)))
        .collect();
    assert!(told.iter().any(|t| t.contains("Cheap Hero/Heroine")), "{told:?}");
}

/// D-170: the simulator's worlds (self-play, the invariants walk) enable the
/// option in about a quarter of its setups and deal the card there, to a
/// Traitor hand or as a Face Dancer; every such setup builds.
#[test]
fn sim_d_170_some_simulated_worlds_deal_the_cheap_hero_card() {
    let (mut on, mut dealt) = (0, 0);
    for seed in 0..200 {
        let mut r = ecaz::bots::BotRng::new(seed);
        let s = ecaz::sim::random_setup(&mut r, seed, None);
        let g = build_setup(&s);
        if g.options().cheap_hero_traitor {
            on += 1;
        }
        let held = g
            .seats()
            .iter()
            .filter_map(|f| g.faction(*f))
            .filter(|x| x.traitors.contains(&CHEAP) || x.face_dancers.contains(&CHEAP))
            .count();
        assert!(held <= 1, "seed {seed}: one card");
        assert!(held == 0 || g.options().cheap_hero_traitor, "seed {seed}");
        dealt += held;
    }
    assert!((30..=70).contains(&on), "{on} of 200 worlds have the option");
    assert!(dealt >= 5, "the card is dealt in {dealt} worlds");
}
