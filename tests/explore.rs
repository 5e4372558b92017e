#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
//! Exhaustive exploration at small depth, beside the
//! random walk of `tests/invariants.rs`.
//!
//! From every scenario file's states at each open decision, and from a few
//! nesting-heavy positions (tokens in every stronghold, an ally, linked
//! reaction arrivals), every command sequence is enumerated to a fixed depth:
//! decisions from `options` (every listed command, and one command built
//! from each choice descriptor), and host reports from a small fixed menu —
//! an arrival into each stronghold, a linked arrival into each stronghold
//! while an arrival is open, the phase end, a storm move, a spice report and
//! a card draw. States are de-duplicated by a hash of their JSON (a state
//! reached again with no more depth left to explore is not expanded again).
//!
//! After every accepted step: [`ecaz::audit::check`] (liveness: the open
//! frame's actor has a listed, accepted command, a quiet game can move on;
//! reload: the JSON round trip gives the same game, so every load-time
//! invariant holds — token, force, card and Nexus conservation included),
//! exactly one `resume` per arrival (an arrival resumes only while open
//! and only once; what stays open is exactly what the state says), and no
//! counter advancing by `PER_COMMAND` or more in one command (D-72).
//!
//! `EXPLORE_DEPTH` sets the depth (default 1 in a debug build, for `cargo test`; `scripts/explore`
//! runs the release build at depth 3 in CI, and `scripts/explore 5` for the
//! figures in docs/PERFORMANCE.md).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::path::Path;

use common::*;
use ecaz::{
    apply, audit, options, Action, Actor, ArrivalId, Choice, Command, EventKind, Faction, Game, SectorForces,
    Territory, STRONGHOLDS,
};
use serde_json::json;

#[derive(Default, Debug)]
struct Stats {
    /// Distinct states reached (start states included).
    states: usize,
    /// Commands tried.
    tried: usize,
    /// Commands accepted (each checked).
    accepted: usize,
    /// Deepest level reached.
    depth: usize,
}

struct Explorer {
    /// State hash → the most depth left it was expanded with.
    seen: HashMap<u64, usize>,
    stats: Stats,
}

/// A counter of the state JSON (`"nextFrame":12`).
fn counter(text: &str, key: &str) -> u64 {
    let at = text.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    let digits: String = text[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// D-72: no command advances a counter by `PER_COMMAND` or more.
fn check_counters(before: &str, after: &str, ctx: &str) {
    for key in ["nextFrame", "nextArrival", "turn", "cycle"] {
        let (b, a) = (counter(before, key), counter(after, key));
        assert!(
            a >= b && a - b < u64::from(audit::PER_COMMAND),
            "{ctx}: {key} {b} → {a}"
        );
    }
}

fn hash_of(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// One command built inside each choice descriptor (the smallest move).
fn built(actor: Actor, choice: &Choice) -> Option<Command> {
    let action = match choice {
        Choice::Relocate { frame, sources } => {
            let s = sources.iter().find(|s| !s.destinations.is_empty())?;
            let x = s.sectors.first()?;
            let (normal, elite) = if x.normal > 0 { (1, 0) } else { (0, 1) };
            let to = s
                .destinations
                .iter()
                .find(|d| d.territory != s.territory || d.sector != x.sector)?;
            Action::Relocate {
                frame: *frame,
                from: s.territory,
                group: vec![SectorForces {
                    sector: x.sector,
                    normal,
                    elite,
                }],
                advisors: s.advisors,
                to: to.territory,
                sector: to.sector,
            }
        }
        Choice::Ship {
            frame,
            reserves,
            destinations,
            ..
        } => {
            let to = destinations.first()?;
            let (normal, elite) = if reserves.normal > 0 { (1, 0) } else { (0, 1) };
            Action::Ship {
                frame: *frame,
                territory: to.territory,
                sector: to.sector,
                normal,
                elite,
            }
        }
        // D-83: the smallest discard beyond the two listed ones: the first card.
        Choice::Discard { frame, cards } => Action::DiscardForSpice {
            frame: *frame,
            cards: vec![*cards.first()?],
        },
        Choice::Revive {
            frame,
            leaders,
            duke,
            tanks,
            elite_left,
            ..
        } => {
            if let Some(&leader) = leaders.first() {
                Action::ReviveLeader { frame: *frame, leader }
            } else if *duke {
                Action::ReviveDuke { frame: *frame }
            } else if tanks.normal > 0 {
                Action::ReviveForces {
                    frame: *frame,
                    normal: 1,
                    elite: 0,
                }
            } else if tanks.elite > 0 && *elite_left > 0 {
                Action::ReviveForces {
                    frame: *frame,
                    normal: 0,
                    elite: 1,
                }
            } else {
                return None;
            }
        }
    };
    Some(Command::new(actor, action))
}

fn arrival(entrant: Faction, territory: Territory, parent: Option<ArrivalId>) -> Command {
    let sector = ecaz::territory_info(territory).sectors.first().copied().unwrap_or(0);
    shipment(entrant, territory, sector, parent)
}

/// Every move from a state: listed decisions (and one built per
/// descriptor), or the host's fixed menu; linked arrivals while an arrival is open.
fn moves(g: &Game) -> (Vec<Command>, Vec<Command>) {
    let mut listed = Vec::new();
    let mut menu = Vec::new();
    let entrants: Vec<Faction> = g.seats().iter().copied().filter(|&f| f != Faction::Ecaz).collect();
    let strongholds: Vec<Territory> = STRONGHOLDS
        .into_iter()
        .filter(|&t| t != Territory::HiddenMobileStronghold || g.hms().is_some())
        .collect();
    let entrant = |i: usize| entrants[i % entrants.len()];
    match g.open_frame() {
        Some(f) => {
            let o = options(g, f.actor);
            listed.extend(o.commands);
            listed.extend(o.choices.iter().filter_map(|c| built(f.actor, c)));
            if let Some(parent) = g.open_arrivals().last().map(|a| a.id) {
                for (i, &t) in strongholds.iter().enumerate() {
                    if g.ambassadors().placed_in(t).is_some() {
                        menu.push(arrival(entrant(i), t, Some(parent)));
                    }
                }
            }
        }
        None => {
            listed.extend(options(g, Actor::Host).commands);
            for &f in g.seats() {
                listed.extend(options(g, Actor::Faction(f)).commands);
            }
            for (i, &t) in strongholds.iter().enumerate() {
                menu.push(arrival(entrant(i), t, None));
            }
            menu.push(host(Action::MoveStorm { sectors: 1 }));
            menu.push(host(Action::GainSpice {
                faction: Faction::Ecaz,
                amount: 2,
            }));
            menu.push(host(Action::DrawCard { faction: Faction::Ecaz }));
        }
    }
    (listed, menu)
}

/// Exactly one `resume` per arrival: only an open arrival resumes, once;
/// afterwards the open arrivals are exactly those opened and not resumed.
fn check_resumes(before: &Game, after: &Game, events: &[ecaz::Event], ctx: &str) {
    let mut open: BTreeSet<ArrivalId> = before.open_arrivals().iter().map(|a| a.id).collect();
    for e in events {
        match e.event {
            EventKind::Arrived { arrival, .. } => assert!(open.insert(arrival), "{ctx}: arrival {arrival} twice"),
            EventKind::Resume { arrival } => assert!(open.remove(&arrival), "{ctx}: resume {arrival} not open"),
            _ => {}
        }
    }
    let now: BTreeSet<ArrivalId> = after.open_arrivals().iter().map(|a| a.id).collect();
    assert_eq!(open, now, "{ctx}: open arrivals differ from the events");
}

impl Explorer {
    fn new() -> Self {
        Explorer {
            seen: HashMap::new(),
            stats: Stats::default(),
        }
    }

    /// Explore from `g` with `left` more steps; `level` is its depth.
    fn visit(&mut self, g: &Game, left: usize, level: usize, ctx: &str) {
        if left == 0 {
            return;
        }
        let (listed, menu) = moves(g);
        let n = listed.len();
        let text = json(g);
        for (i, cmd) in listed.into_iter().chain(menu).enumerate() {
            self.stats.tried += 1;
            let (next, events) = match apply(g, &cmd) {
                Ok(r) => r,
                Err(e) => {
                    assert!(i >= n, "{ctx}: listed {cmd:?} refused: {} {e}", e.code());
                    continue;
                }
            };
            self.stats.accepted += 1;
            let here = format!("{ctx} > {}", serde_json::to_string(&cmd).unwrap());
            audit::check(&next).unwrap_or_else(|e| panic!("{here}: {e}"));
            check_resumes(g, &next, &events, &here);
            let next_text = json(&next);
            check_counters(&text, &next_text, &here);
            let h = hash_of(&next_text);
            let rest = left - 1;
            match self.seen.get(&h) {
                Some(&had) if had >= rest => continue,
                None => self.stats.states += 1,
                Some(_) => {}
            }
            self.seen.insert(h, rest);
            self.stats.depth = self.stats.depth.max(level + 1);
            self.visit(&next, rest, level + 1, &here);
        }
    }

    fn start(&mut self, g: &Game, depth: usize, ctx: &str) {
        audit::check(g).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let h = hash_of(&json(g));
        match self.seen.get(&h) {
            Some(&had) if had >= depth => return,
            None => self.stats.states += 1,
            Some(_) => {}
        }
        self.seen.insert(h, depth);
        self.visit(g, depth, 0, ctx);
    }
}

/// Every scenario file's states at an open decision.
fn scenario_states() -> Vec<(String, Game)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let scenario: ecaz::scenario::Scenario =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut g = scenario.setup.build().unwrap();
        for (i, s) in scenario.steps.iter().enumerate() {
            if g.open_frame().is_some() {
                out.push((format!("{name} before step {}", i + 1), g.clone()));
            }
            if let Ok((next, _)) = apply(&g, &s.command) {
                g = next;
            }
        }
        if g.open_frame().is_some() {
            out.push((format!("{name} at the end"), g));
        }
    }
    out
}

/// Nesting-heavy positions: a token in every stronghold, Ecaz allied, cards
/// and Tanks to act on, Shipment & Movement; with and without an entry
/// already open.
fn nesting_positions() -> Vec<(String, Game)> {
    let tables = [
        (
            "six seats, five tokens placed, Ecaz allied to Atreides",
            json!({
                "seats": ["ecaz", "atreides", "harkonnen", "emperor", "beneGesserit", "fremen"],
                "seed": 11,
                "phase": "shipmentMovement",
                "factions": {
                    "ecaz": {"hand": [3, 4], "ally": "atreides", "tanks": {"normal": 2}},
                    "atreides": {"hand": [5], "ally": "ecaz"},
                    "harkonnen": {"hand": [6, 7]},
                    // The Fremen choose their start (D-56): all in reserves here.
                    "fremen": {"board": []},
                },
                "ambassadors": {
                    "cohort": ["ixians", "choam", "fremen", "guild", "beneGesserit"],
                    "zones": {
                        "ixians": {"kind": "placed", "territory": "arrakeen"},
                        "choam": {"kind": "placed", "territory": "carthag"},
                        "fremen": {"kind": "placed", "territory": "sietch_tabr"},
                        "beneGesserit": {"kind": "placed", "territory": "tueks_sietch"},
                        "ecaz": {"kind": "placed", "territory": "habbanya_ridge_sietch"},
                    },
                },
            }),
        ),
        (
            "four seats, Ecaz unallied, Ecaz/Richese/Tleilaxu/Emperor/Atreides tokens",
            json!({
                "seats": ["ecaz", "harkonnen", "atreides", "emperor"],
                "seed": 12,
                "phase": "shipmentMovement",
                "factions": {
                    "ecaz": {"hand": [3], "tanks": {"normal": 3}},
                    "harkonnen": {"hand": [6]},
                },
                "ambassadors": {
                    "cohort": ["richese", "tleilaxu", "emperor", "atreides", "guild"],
                    "zones": {
                        "richese": {"kind": "placed", "territory": "arrakeen"},
                        "tleilaxu": {"kind": "placed", "territory": "carthag"},
                        "emperor": {"kind": "placed", "territory": "sietch_tabr"},
                        "guild": {"kind": "placed", "territory": "tueks_sietch"},
                        "ecaz": {"kind": "placed", "territory": "habbanya_ridge_sietch"},
                    },
                },
            }),
        ),
    ];
    let mut out = Vec::new();
    for (name, s) in tables {
        let g = build_setup(&ecaz::setup_from_json(&s.to_string()).unwrap());
        out.push((name.to_string(), g.clone()));
        // With an entry already open (its offer pending), so that depth goes to nesting.
        if let Ok((next, _)) = apply(&g, &arrival(Faction::Harkonnen, Territory::Arrakeen, None)) {
            out.push((format!("{name}, Harkonnen entering Arrakeen"), next));
        }
    }
    out
}

fn depth() -> usize {
    let default = if cfg!(debug_assertions) { 1 } else { 3 };
    std::env::var("EXPLORE_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(default)
}

#[test]
fn issue_11_11_exhaustive_exploration() {
    let depth = depth();
    let started = std::time::Instant::now();
    let mut x = Explorer::new();
    let mut starts = 0;
    for (name, g) in nesting_positions() {
        starts += 1;
        x.start(&g, depth, &name);
    }
    for (name, g) in scenario_states() {
        starts += 1;
        x.start(&g, depth, &name);
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "explore: depth {depth}, {starts} start states, {} distinct states, {} commands tried, {} accepted and checked, deepest level {}, {secs:.1} s",
        x.stats.states, x.stats.tried, x.stats.accepted, x.stats.depth
    );
    assert!(x.stats.depth >= depth.min(1), "nothing was explored");
}
