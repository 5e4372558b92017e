//! Seeded random play over `options` plus random host reports (ARCHITECTURE
//! §7 property tests): everything listed is accepted, every accepted decision
//! was listed, rejections change nothing, and after every step the 11 tokens,
//! the forces and the cards are conserved, placement only ever costs Ecaz
//! spice, the state round-trips through JSON, and a replay is byte-identical.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::*;
use ecaz::{
    apply, options, validate, Action, Actor, Ambassador, CardId, Command, Decision, Destruction, Faction, FactionSetup,
    FrameId, Game, HmsPointer, Phase, Setup, SupplyVisibility, Territory, Zone, STRONGHOLDS,
};

type Rng = TestRng;

fn hms_pointers() -> Vec<(Territory, u8)> {
    Territory::ALL
        .into_iter()
        .filter(|&t| !ecaz::is_stronghold(t))
        .flat_map(|t| ecaz::territory_info(t).sectors.iter().map(move |&s| (t, s)))
        .filter(|&(_, s)| s != 0) // the HMS points at a ring sector, never the Polar Sink
        .collect()
}

fn random_setup(r: &mut Rng, seed: u64) -> Setup {
    let n = 2 + r.below(5);
    let mut pool: Vec<Faction> = Faction::ALL.to_vec();
    let mut seats = Vec::new();
    if r.chance(17, 20) {
        seats.push(Faction::Ecaz);
        pool.retain(|&f| f != Faction::Ecaz);
    }
    while seats.len() < n {
        let i = r.below(pool.len());
        seats.push(pool.remove(i));
    }
    // Random seating order.
    for i in (1..seats.len()).rev() {
        let j = r.below(i + 1);
        seats.swap(i, j);
    }
    let mut s = setup(&seats, seed);
    s.storm = Some(u8::try_from(1 + r.below(18)).unwrap());
    if r.chance(1, 5) {
        s.shield_wall_standing = Some(false);
    }
    if r.chance(1, 3) {
        s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    }
    if seats.contains(&Faction::Ixians) && r.chance(2, 3) {
        let (territory, sector) = r.pick(&hms_pointers());
        s.hms = Some(HmsPointer { territory, sector });
    }
    if seats.contains(&Faction::Ecaz) {
        s.factions.insert(
            Faction::Ecaz,
            FactionSetup {
                spice: Some(u32::try_from(r.below(16)).unwrap()),
                ..FactionSetup::default()
            },
        );
    }
    // Hand out the Karamas (and a few other cards) at random.
    let mut give = karamas();
    give.extend([card("lasgun"), card("shield"), card("baliset")]);
    for c in give {
        if r.chance(2, 3) {
            let f = r.pick(&seats);
            s.factions.entry(f).or_default().hand.push(c);
        }
    }
    s
}

fn random_report(r: &mut Rng, g: &Game) -> Option<Command> {
    let a = match r.below(8) {
        0 | 1 if g.phase() == Phase::Storm => Action::MoveStorm {
            sectors: u32::try_from(r.below(21)).unwrap(),
        },
        2 if g.phase() == Phase::Storm || r.chance(1, 4) => Action::DestroyShieldWall {},
        3 | 4 => Action::DestroyTerritory {
            territory: r.pick(&STRONGHOLDS),
            cause: r.pick(&[
                Destruction::LasgunShield,
                Destruction::AtomicsTerror,
                Destruction::Other,
            ]),
        },
        5 if g.hms().is_some() || r.chance(1, 4) => {
            let (territory, sector) = r.pick(&hms_pointers());
            Action::MoveHms { territory, sector }
        }
        6 => Action::MoveStorm {
            sectors: u32::try_from(r.below(25)).unwrap(),
        },
        _ => return None,
    };
    Some(Command::host(a))
}

/// A random decision command, legal or not, for the completeness check.
fn random_decision(r: &mut Rng, g: &Game) -> Command {
    let frame = match (g.open_frame(), r.below(4)) {
        (Some(f), 0..=2) => f.id,
        _ => FrameId(u32::try_from(r.below(8)).unwrap()),
    };
    let actor = if r.chance(1, 3) {
        Actor::Host
    } else {
        Actor::Faction(r.pick(&Faction::ALL))
    };
    let action = match r.below(4) {
        0 => Action::Place {
            frame,
            token: r.pick(&Ambassador::ALL),
            territory: if r.chance(3, 4) {
                r.pick(&STRONGHOLDS)
            } else {
                r.pick(&Territory::ALL)
            },
        },
        1 => Action::FinishPlacement { frame },
        2 => Action::AllowPlacement { frame },
        _ => Action::CancelPlacement {
            frame,
            faction: r.pick(&Faction::ALL),
            card: CardId(u16::try_from(r.below(36)).unwrap()),
        },
    };
    Command { actor, action }
}

fn is_placement_command(c: &Command) -> bool {
    matches!(
        c.action,
        Action::Place { .. }
            | Action::FinishPlacement { .. }
            | Action::AllowPlacement { .. }
            | Action::CancelPlacement { .. }
    )
}

/// The serialized RNG: the `"rng"` member of the state JSON.
fn rng_words(state_json: &str) -> &str {
    let at = state_json.rfind("\"rng\":").expect("the state carries its RNG");
    &state_json[at..]
}

/// Every invariant of one state.
fn check_state(g: &Game, ctx: &str) {
    let a = g.ambassadors();
    // R-INV-2: 11 tokens, each exactly once (hence in exactly one zone).
    let ids: Vec<Ambassador> = a.tokens.iter().map(|t| t.token).collect();
    assert_eq!(ids, Ambassador::ALL.to_vec(), "{ctx}");
    let mut strongholds = BTreeSet::new();
    for t in &a.tokens {
        if let Zone::Placed { territory } = t.zone {
            assert!(ecaz::is_stronghold(territory), "{ctx}: {t:?}");
            assert!(strongholds.insert(territory), "{ctx}: two tokens in {territory}");
            if territory == Territory::HiddenMobileStronghold {
                assert!(g.hms().is_some(), "{ctx}");
            }
        }
    }
    if g.is_seated(Faction::Ecaz) {
        let cohort: BTreeSet<Ambassador> = a.cohort.iter().copied().collect();
        assert_eq!(cohort.len(), 5, "{ctx}");
        assert!(!cohort.contains(&Ambassador::Ecaz), "{ctx}: R-INV-3");
        assert!(
            !matches!(a.zone(Ambassador::Ecaz), Zone::Pool | Zone::Used | Zone::Removed),
            "{ctx}: R-INV-3"
        );
    } else {
        assert!(a.tokens.iter().all(|t| t.zone == Zone::Pool), "{ctx}");
    }
    // Forces: 20 per faction.
    for s in g.seats() {
        assert_eq!(g.faction(*s).unwrap().total_forces(), 20, "{ctx}: {s}");
    }
    // Cards: each catalog card in exactly one place.
    let t = g.treachery();
    let mut all: Vec<CardId> = t.deck.iter().chain(t.discard.iter()).copied().collect();
    for s in g.seats() {
        all.extend(g.faction(*s).unwrap().hand.iter().copied());
    }
    all.sort_unstable();
    let expected: Vec<CardId> = (0..t.catalog.len())
        .map(|i| CardId(u16::try_from(i).unwrap()))
        .collect();
    assert_eq!(all, expected, "{ctx}: cards");
    // R-PLC-1: placement frames only at the end of Revival, while open.
    for f in g.pending() {
        if matches!(f.decision, Decision::Placement | Decision::PlacementResponse { .. }) {
            assert_eq!(g.phase(), Phase::Revival, "{ctx}");
            assert!(!a.placement.closed, "{ctx}");
            assert!(g.is_seated(Faction::Ecaz), "{ctx}");
        }
    }
}

/// JSON round trip is the identity (given the state's JSON text).
fn check_round_trip(g: &Game, text: &str, ctx: &str) {
    let back = match ecaz::game_from_json(text) {
        Ok(b) => b,
        Err(e) => panic!("{ctx}: round trip failed: {} {e} {:?}", e.code(), e.problems()),
    };
    assert_eq!(&back, g, "{ctx}: decoded state differs");
}

struct Played {
    setup: Setup,
    commands: Vec<Command>,
    /// The state after each step.
    states: Vec<Game>,
    /// The events (JSON) or error code of each step.
    events: Vec<String>,
    /// The final state's JSON.
    last: String,
}

fn play(game_index: u64, steps: usize) -> Played {
    let mut r = Rng::new(game_index + 1);
    let s = random_setup(&mut r, game_index);
    let mut g = build_setup(&s);
    check_state(&g, "setup");
    let mut text = json(&g);
    check_round_trip(&g, &text, "setup");
    let mut played = Played {
        setup: s,
        commands: Vec::new(),
        states: Vec::new(),
        events: Vec::new(),
        last: String::new(),
    };
    let mut closed_in_turn: Option<u32> = None;
    let mut actors = vec![Actor::Host];
    actors.extend(g.seats().iter().map(|&f| Actor::Faction(f)));
    let unseated: Vec<Faction> = Faction::ALL.into_iter().filter(|f| !g.is_seated(*f)).collect();
    for step in 0..steps {
        let ctx = format!("game {game_index} step {step}");
        // Options of every actor; an unseated faction has none.
        let mut listed: Vec<Command> = Vec::new();
        for &a in &actors {
            let o = options(&g, a);
            for c in &o.commands {
                assert_eq!(c.actor, a, "{ctx}");
            }
            listed.extend(o.commands);
        }
        for &f in &unseated {
            assert!(options(&g, Actor::Faction(f)).commands.is_empty(), "{ctx}");
        }
        // Completeness: a random decision is accepted only if it is listed.
        let probe = random_decision(&mut r, &g);
        match validate(&g, &probe) {
            Ok(()) => assert!(listed.contains(&probe), "{ctx}: {probe:?} accepted but not listed"),
            Err(e) => {
                assert!(!listed.contains(&probe), "{ctx}: listed {probe:?} rejected: {e}");
                if step % 5 == 0 {
                    assert_rejected(&g, &probe, e.code());
                } else {
                    assert_eq!(apply(&g, &probe).unwrap_err(), e, "{ctx}");
                }
            }
        }
        let n_listed = listed.len();
        let mut candidates = listed;
        for _ in 0..2 {
            if let Some(c) = random_report(&mut r, &g) {
                candidates.push(c);
            }
        }
        if candidates.is_empty() {
            break;
        }
        let i = r.below(candidates.len());
        let cmd = candidates[i].clone();
        let from_options = i < n_listed;

        let before = g.clone();
        let ecaz_before = g.faction(Faction::Ecaz).map(|s| s.spice);
        let placed_before = g.ambassadors().placement.placed;
        let response_cost = match before.open_frame().map(|f| &f.decision) {
            Some(Decision::PlacementResponse { cost, .. }) => Some(*cost),
            _ => None,
        };
        let events = match apply(&g, &cmd) {
            Ok((next, events)) => {
                g = next;
                events
            }
            Err(e) => {
                assert!(!from_options, "{ctx}: listed {cmd:?} rejected: {} {e}", e.code());
                assert_rejected(&before, &cmd, e.code());
                played.commands.push(cmd);
                played.states.push(g.clone());
                played.events.push(format!("error {}", e.code()));
                continue;
            }
        };
        let before_text = std::mem::replace(&mut text, json(&g));
        // No command of this slice is an RNG commit point (R-INV-4).
        assert_eq!(
            rng_words(&text),
            rng_words(&before_text),
            "{ctx}: {cmd:?} drew from the RNG"
        );
        // R-PLC-2 / R-TRG-9: Ecaz spice only ever drops, by the cost, on a committed placement.
        let ecaz_after = g.faction(Faction::Ecaz).map(|s| s.spice);
        if let (Some(b), Some(a)) = (ecaz_before, ecaz_after) {
            assert!(a <= b, "{ctx}: Ecaz spice rose from {b} to {a} on {cmd:?}");
            match cmd.action {
                Action::AllowPlacement { .. } => {
                    let cost = response_cost.unwrap();
                    assert_eq!(cost, u32::from(placed_before) + 1, "{ctx}: k-th token costs k");
                    assert_eq!(a, b - cost, "{ctx}");
                    assert_eq!(g.ambassadors().placement.placed, placed_before + 1, "{ctx}");
                }
                _ => assert_eq!(a, b, "{ctx}: only a committed placement costs spice"),
            }
        }
        if !matches!(cmd.action, Action::AllowPlacement { .. }) {
            let turn_changed = g.turn() != before.turn();
            if !turn_changed {
                assert_eq!(g.ambassadors().placement.placed, placed_before, "{ctx}");
            }
        }
        // Others' spice never moves in this slice.
        for f in g.seats() {
            if *f != Faction::Ecaz {
                assert_eq!(spice(&g, *f), spice(&before, *f), "{ctx}: {f} spice");
            }
        }
        // Placement never reopens in a turn where it closed (R-PLC-1).
        if g.ambassadors().placement.closed {
            closed_in_turn = Some(g.turn());
        }
        if closed_in_turn == Some(g.turn()) {
            assert!(!placement_open(&g), "{ctx}: placement reopened");
        }
        // Placement and destruction never trigger anything (R-PLC-6): the only
        // frames are placement frames.
        for f in g.pending() {
            assert!(
                matches!(f.decision, Decision::Placement | Decision::PlacementResponse { .. }),
                "{ctx}: unexpected frame {f:?}"
            );
        }
        if is_placement_command(&cmd) {
            assert!(g.pending().len() <= 1, "{ctx}");
        }
        check_state(&g, &ctx);
        check_round_trip(&g, &text, &ctx);
        if step % 10 == 0 {
            // Byte identity of the re-encoding (the decoded value is equal above).
            assert_eq!(json(&ecaz::game_from_json(&text).unwrap()), text, "{ctx}");
        }
        played.commands.push(cmd);
        played.states.push(g.clone());
        played.events.push(serde_json::to_string(&events).unwrap());
    }
    played.last = text;
    played
}

fn replay(p: &Played) {
    let mut g = build_setup(&p.setup);
    for (i, cmd) in p.commands.iter().enumerate() {
        let outcome = match apply(&g, cmd) {
            Ok((next, events)) => {
                g = next;
                serde_json::to_string(&events).unwrap()
            }
            Err(e) => format!("error {}", e.code()),
        };
        assert_eq!(outcome, p.events[i], "replay step {i}: events differ");
        assert_eq!(g, p.states[i], "replay step {i}: state differs");
    }
    assert_eq!(json(&g), p.last, "replay: final state bytes differ");
}

/// Plays and replays a range of games; returns (steps, placements, cancels, returns).
fn run_games(games: std::ops::Range<u64>) -> [usize; 4] {
    let mut counts = [0usize; 4];
    for game in games {
        let p = play(game, 150);
        counts[0] += p.commands.len();
        for (c, e) in p.commands.iter().zip(&p.events) {
            if matches!(c.action, Action::AllowPlacement { .. }) {
                counts[1] += 1;
            }
            if matches!(c.action, Action::CancelPlacement { .. }) {
                counts[2] += 1;
            }
            if e.contains("ambassadorReturned") {
                counts[3] += 1;
            }
        }
        replay(&p);
    }
    counts
}

fn assert_exercised([steps, placements, cancels, returns]: [usize; 4]) {
    // The walk actually exercised the rules (50 games each).
    assert!(steps > 5_000, "{steps} steps");
    assert!(placements > 50, "{placements} placements");
    assert!(cancels > 5, "{cancels} Karama cancels");
    assert!(returns > 20, "{returns} token returns");
}

// 200 games × up to 150 steps, in four parallel parts.

#[test]
fn r_inv_2_random_play_invariants_and_replay_part_1() {
    assert_exercised(run_games(0..50));
}

#[test]
fn r_inv_2_random_play_invariants_and_replay_part_2() {
    assert_exercised(run_games(50..100));
}

#[test]
fn r_inv_2_random_play_invariants_and_replay_part_3() {
    assert_exercised(run_games(100..150));
}

#[test]
fn r_inv_2_random_play_invariants_and_replay_part_4() {
    assert_exercised(run_games(150..200));
}

#[test]
fn r_inv_4_same_setup_and_commands_same_bytes_across_round_trips() {
    // Replaying through the JSON door (state text in, state text out) gives
    // the same bytes as the typed door.
    for game in 200..210 {
        let p = play(game, 80);
        let mut state = json(&build_setup(&p.setup));
        for (i, cmd) in p.commands.iter().enumerate() {
            let text = serde_json::to_string(cmd).unwrap();
            match ecaz::apply_json(&state, &text) {
                Ok(out) => {
                    state = out.state;
                    assert_eq!(out.events, p.events[i], "game {game} step {i}");
                }
                Err(e) => assert_eq!(format!("error {}", e.code()), p.events[i]),
            }
            assert_eq!(
                ecaz::game_from_json(&state).unwrap(),
                p.states[i],
                "game {game} step {i}"
            );
        }
        assert_eq!(state, p.last, "game {game}: final bytes");
    }
}
