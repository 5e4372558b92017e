//! Bots (D-130, D-131): both profiles answer every decision the
//! simulator and the scenario corpus produce, never with an illegal command,
//! and the same seed gives the same choice.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use std::collections::BTreeSet;

use ecaz::bots::{choose, Bot};
use ecaz::sim::{Table, TableConfig};
use ecaz::{apply, validate, Action, Actor, Command, Game, Profile};

/// Every bot answer at `g` (both profiles, a few seeds) is accepted; the
/// owner of an open frame always has one; the same seed answers the same.
/// Returns the decision kind answered, if a frame is open.
fn check_bots(g: &Game, ctx: &str) -> Option<&'static str> {
    let mut actors = vec![Actor::Host];
    actors.extend(g.seats().iter().map(|&f| Actor::Faction(f)));
    for profile in Profile::ALL {
        for seed in 0..3u64 {
            for &a in &actors {
                let pick = choose(g, a, profile, seed);
                assert_eq!(
                    pick,
                    choose(g, a, profile, seed),
                    "{ctx}: {profile} is not deterministic"
                );
                let owner = g.open_frame().map(|f| f.actor);
                match (&pick, owner) {
                    (Some(c), _) => {
                        assert_eq!(c.actor, a, "{ctx}");
                        if let Err(e) = validate(g, c) {
                            panic!("{ctx}: {profile} bot chose {c:?}, refused: {} {e}", e.code());
                        }
                    }
                    (None, Some(o)) if o == a => panic!("{ctx}: {profile} bot left its frame unanswered"),
                    (None, _) => {}
                }
                if owner.is_some_and(|o| o != a) {
                    assert_eq!(pick, None, "{ctx}: {a:?} answered someone else's frame");
                }
                if owner.is_none() {
                    // Initiatives are Nexus plays only; the host takes none.
                    assert!(pick.as_ref().is_none_or(|c| c.action.is_play()), "{ctx}: {pick:?}");
                }
            }
        }
    }
    g.open_frame().map(|f| f.decision.name())
}

#[test]
fn issue_16_bots_answer_every_simulated_decision_legally() {
    let mut kinds = BTreeSet::new();
    let mut initiatives = 0;
    for seed in 0..60 {
        for profile in Profile::ALL {
            let config = TableConfig {
                turns: 4,
                default_profile: profile,
                ..TableConfig::default()
            };
            let mut t = Table::random(seed, None, config).unwrap();
            let mut n = 0;
            while !t.finished() {
                let ctx = format!("seed {seed} {profile} step {n}");
                if let Some(k) = check_bots(t.game(), &ctx) {
                    kinds.insert(k);
                }
                let step = t.step();
                if step.mover == ecaz::sim::Mover::Decision || step.mover == ecaz::sim::Mover::Initiative {
                    assert!(step.outcome.is_ok(), "{ctx}: a bot's {:?} was refused", step.command);
                }
                if step.mover == ecaz::sim::Mover::Initiative {
                    initiatives += 1;
                }
                n += 1;
            }
        }
    }
    eprintln!("decision kinds answered: {kinds:?}; initiatives: {initiatives}");
    for k in [
        "placement",
        "placementResponse",
        "triggerOffer",
        "copyEffect",
        "choamDiscard",
        "ixianSwap",
        "richeseBuy",
        "ecazBranch",
        "allianceOffer",
        "dukeLoan",
        "fremenRelocation",
        "guildShipment",
        "tleilaxuRevival",
        "hostReactions",
    ] {
        assert!(kinds.contains(k), "no {k} frame was met: {kinds:?}");
    }
    assert!(initiatives > 0);
}

#[test]
fn issue_16_bots_answer_every_scenario_state_legally() {
    let mut frames = 0;
    for entry in std::fs::read_dir("tests/scenarios").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let scenario: ecaz::scenario::Scenario =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut g = scenario.setup.build().unwrap();
        for (i, step) in scenario.steps.iter().enumerate() {
            let ctx = format!("{} step {i}", path.display());
            if check_bots(&g, &ctx).is_some() {
                frames += 1;
            }
            if let Ok((next, _)) = apply(&g, &step.command) {
                g = next;
            }
        }
        check_bots(&g, &format!("{} end", path.display()));
    }
    assert!(frames > 20, "{frames}");
}

#[test]
fn issue_16_a_bot_is_deterministic_for_a_seed_and_varies_across_seeds() {
    let t = Table::random(
        7,
        Some(&[ecaz::Faction::Ecaz, ecaz::Faction::Atreides]),
        TableConfig::default(),
    )
    .unwrap();
    let mut t = t;
    // Walk to the placement frame.
    while t.game().open_frame().is_none_or(|f| f.decision.name() != "placement") {
        t.step();
        assert!(!t.finished());
    }
    let g = t.game().clone();
    let ecaz = Actor::Faction(ecaz::Faction::Ecaz);
    let seq = |seed| {
        let mut b = Bot::new(Profile::Random, seed);
        (0..20).map(|_| b.choose(&g, ecaz)).collect::<Vec<Option<Command>>>()
    };
    assert_eq!(seq(1), seq(1));
    let distinct: BTreeSet<String> = seq(1).iter().map(|c| format!("{c:?}")).collect();
    assert!(distinct.len() > 1, "the random bot always chose the same: {distinct:?}");
    // The heuristic never depends on its seed at a placement.
    let h = |seed| choose(&g, ecaz, Profile::Heuristic, seed);
    assert_eq!(h(1), h(2));
    assert!(matches!(
        h(1).map(|c| c.action),
        Some(Action::Place { .. } | Action::FinishPlacement { .. })
    ));
}

/// D-160: the quick listing of a quiet seat's Nexus plays
/// (only the card's holder is checked, Betrayal's window once) lists exactly
/// the plays `validate` accepts: every Cunning, Betrayal (each territory) and
/// Secret Ally (each seat) command, tried one by one, at every quiet moment
/// of simulated games.
#[test]
fn issue_16_quiet_listing_is_exactly_the_accepted_nexus_plays() {
    let mut listed = BTreeSet::new();
    let mut quiet = 0;
    for seed in 0..300 {
        let config = TableConfig {
            turns: 4,
            ..TableConfig::default()
        };
        let mut t = Table::random(seed, None, config).unwrap();
        while !t.finished() {
            let g = t.game();
            if g.open_frame().is_none() {
                quiet += 1;
                for &f in g.seats() {
                    let mut every = vec![Command::faction(f, Action::PlayCunning {})];
                    every.extend(
                        ecaz::Territory::ALL
                            .into_iter()
                            .map(|territory| Command::faction(f, Action::PlayBetrayal { territory })),
                    );
                    every.extend(
                        g.seats()
                            .iter()
                            .map(|&target| Command::faction(f, Action::PlaySecretAlly { target })),
                    );
                    let accepted: Vec<Command> = every.into_iter().filter(|c| validate(g, c).is_ok()).collect();
                    let options = ecaz::options(g, Actor::Faction(f)).commands;
                    assert_eq!(options, accepted, "seed {seed}: {f:?}'s plays");
                    listed.extend(options.iter().map(|c| c.action.name()));
                }
            }
            t.step();
        }
    }
    eprintln!("{quiet} quiet moments; Nexus plays listed: {listed:?}");
    assert!(quiet > 1000, "{quiet} quiet moments");
    for play in ["playCunning", "playBetrayal", "playSecretAlly"] {
        assert!(listed.contains(play), "no {play} was listed: {listed:?}");
    }
}
