//! D-71, D-72, D-75: the counters' one ceiling (shared by `apply` and
//! the loader), and every field of every frame kind and open arrival checked
//! against the rest of the state, so that a loaded state can neither stall
//! nor let a command through that the engine itself would never have
//! offered. Checked on every built setup and loaded state, with the rest of
//! the invariants.

use std::collections::BTreeSet;

use crate::base::board;
use crate::base::bounds::{COUNTER_LIMIT, PER_COMMAND};
use crate::base::ids::{Ambassador, Faction};
use crate::base::order::set_of;
use crate::base::policy::BgPool;
use crate::model::error::Problem;
use crate::model::game::{Decision, DukeCustody, DukeSource, Frame, Game, OpenArrival, Zone};
use crate::rules::{nexus, placement, trigger};

/// The most tokens Ecaz can place in one turn: its supply never holds more
/// than its own token and the five of the cohort (R-INV-1, R-PLC-1).
const MAX_PLACED_PER_TURN: u8 = 6;

/// The most free revivals a faction can have per turn (never more than its 20 forces).
const MAX_FREE_REVIVAL: u8 = 20;

/// The game's counters, named by their state path.
fn counters(g: &Game) -> [(&'static str, u32); 5] {
    [
        ("revision", g.revision),
        ("nextFrame", g.next_frame),
        ("nextArrival", g.next_arrival),
        ("turn", g.turn),
        ("ambassadors.cycle", g.ambassadors.cycle),
    ]
}

/// Has a counter reached the margin below its ceiling? (`state/ids_exhausted`)
pub(crate) fn exhausted(g: &Game) -> bool {
    counters(g).iter().any(|&(_, c)| c > COUNTER_LIMIT - PER_COMMAND)
}

/// A card kind: 1–64 characters of a–z, 0–9 and `_` (setups and states alike).
fn card_kind_ok(kind: &str) -> bool {
    !kind.is_empty()
        && kind.len() <= 64
        && kind
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Every problem of the counters, table fields, open arrivals and frames.
pub(super) fn problems(g: &Game, p: &mut Vec<Problem>) {
    for (path, c) in counters(g) {
        if c > COUNTER_LIMIT {
            p.push(Problem::new(path, format!("counters stay at most {COUNTER_LIMIT}")));
        }
    }
    if g.ambassadors.placement.placed > MAX_PLACED_PER_TURN {
        p.push(Problem::new(
            "ambassadors.placement.placed",
            format!("at most {MAX_PLACED_PER_TURN} tokens are placed in a turn"),
        ));
    }
    for s in &g.factions {
        if s.free_revival > MAX_FREE_REVIVAL {
            p.push(Problem::new(
                format!("factions.{}.freeRevival", s.faction),
                format!("at most {MAX_FREE_REVIVAL} free revivals"),
            ));
        }
    }
    for (i, kind) in g.treachery.catalog.iter().enumerate() {
        if !card_kind_ok(kind) {
            p.push(Problem::new(
                format!("treachery.catalog[{i}]"),
                "a card kind is 1–64 characters of a–z, 0–9 and _",
            ));
        }
    }
    karama_kinds(g, p);
    if g.knowledge.iter().any(|k| k.turn > g.turn) {
        p.push(Problem::new(
            "knowledge",
            "knowledge is learned in a past or the current turn",
        ));
    }
    duke(g, p);
    arrivals(g, p);
    stack(g, p);
    for f in &g.pending {
        frame(g, f, p);
    }
}

/// P-KARAMA-HOST (D-250): each listed kind is a kind of this game's catalog
/// other than `karama` (which always counts), listed once.
fn karama_kinds(g: &Game, p: &mut Vec<Problem>) {
    if g.policies.karama_kinds.is_empty() {
        return;
    }
    let catalog: BTreeSet<&str> = set_of(g.treachery.catalog.iter().map(String::as_str));
    let mut seen = BTreeSet::new();
    for (i, kind) in g.policies.karama_kinds.iter().enumerate() {
        let why = if kind == board::KARAMA {
            "a Karama always counts as one: list only the other kinds (P-KARAMA-HOST)"
        } else if !catalog.contains(kind.as_str()) {
            "not a card kind of this game's Treachery catalog (P-KARAMA-HOST)"
        } else if !seen.insert(kind.as_str()) {
            "listed twice (P-KARAMA-HOST)"
        } else {
            continue;
        };
        p.push(Problem::new(format!("policies.karamaKinds[{i}]"), why));
    }
}

fn duke(g: &Game, p: &mut Vec<Problem>) {
    if g.duke.battle_turn.is_some_and(|t| t > g.turn) {
        p.push(Problem::new(
            "duke.battleTurn",
            "his last battle is in a past or the current turn",
        ));
    }
    match g.duke.custody {
        DukeCustody::Captured { by: Faction::Ecaz } => {
            p.push(Problem::new("duke", "Ecaz does not capture its own Duke (R-DUKE-1)"));
        }
        // Only Ecaz plays Cunning. The spent card may be dealt again in the
        // same turn once the Nexus discard is reshuffled (D-53), so
        // who holds it now says nothing about the control (self-play game 1140).
        DukeCustody::Controlled {
            by,
            source: DukeSource::NexusCunning,
        } if by != Faction::Ecaz => {
            p.push(Problem::new("duke", "Cunning control is Ecaz's (R-NEX-CUN)"));
        }
        DukeCustody::Controlled {
            by,
            source: DukeSource::Moritani,
        } if by != Faction::Moritani => {
            p.push(Problem::new("duke", "Moritani control is Moritani's (R-DUKE-2)"));
        }
        _ => {}
    }
}

fn arrivals(g: &Game, p: &mut Vec<Problem>) {
    for a in &g.arrivals {
        if !g.is_seated(a.entrant) {
            p.push(Problem::new(
                "arrivals",
                format!("arrival {} is made by unseated {}", a.id, a.entrant),
            ));
        }
        let busy = g.pending.iter().any(|f| f.decision.arrival() == Some(a.id))
            || g.arrivals.iter().any(|c| c.parent == Some(a.id));
        if !busy {
            p.push(Problem::new(
                "arrivals",
                format!("arrival {} is open with nothing left to settle (R-TRG-4)", a.id),
            ));
        }
    }
}

/// P-NEST: reaction frames stack child-first, in the order of their
/// arrivals; placement and Betrayal windows stand alone.
fn stack(g: &Game, p: &mut Vec<Problem>) {
    let mut last = 0usize;
    for f in &g.pending {
        match f.decision.arrival() {
            Some(id) => {
                let at = g.arrivals.iter().position(|a| a.id == id).unwrap_or(0);
                if at < last {
                    p.push(Problem::new(
                        "pending",
                        format!("frame {} sits above a frame of a later arrival (P-NEST)", f.id),
                    ));
                }
                last = at;
            }
            None if g.pending.len() > 1 || !g.arrivals.is_empty() => p.push(Problem::new(
                "pending",
                format!("frame {} ({}) stands alone", f.id, f.decision.name()),
            )),
            None => {}
        }
    }
}

/// Ecaz, or Ecaz's ally: the only possible beneficiaries (R-TRG-5).
fn beneficiary_ok(g: &Game, b: Faction) -> bool {
    b == Faction::Ecaz || g.faction(Faction::Ecaz).and_then(|s| s.ally) == Some(b)
}

fn frame(g: &Game, f: &Frame, p: &mut Vec<Problem>) {
    let mut bad = |why: &str| {
        p.push(Problem::new(
            "pending",
            format!("frame {} ({}): {why}", f.id, f.decision.name()),
        ))
    };
    let arrival: Option<&OpenArrival> = f
        .decision
        .arrival()
        .and_then(|id| g.arrivals.iter().find(|a| a.id == id));
    let entrant = arrival.map(|a| a.entrant);
    if let Some((_, b)) = f.decision.effect() {
        if !beneficiary_ok(g, b) {
            bad("the beneficiary is Ecaz or its ally (R-TRG-5)");
        }
    }
    match &f.decision {
        Decision::PlacementResponse { token, territory, cost }
            if placement::check_allow(g, *token, *territory, *cost).is_err() =>
        {
            bad("the announced placement is legal (R-PLC-3, R-PLC-4, R-PLC-2)");
        }
        Decision::TriggerOffer {
            token,
            territory,
            entrant: e,
            beneficiaries,
            ..
        } => {
            if Some(*e) != entrant || arrival.map(|a| a.territory) != Some(*territory) {
                bad("the offer names its arrival's entrant and stronghold");
            }
            if !board::is_stronghold(*territory) {
                bad("the offer is for a stronghold");
            }
            // R-TRG-7: the token is still there, or a nested reaction has
            // triggered it since (then the offer can only be declined).
            let there = g.ambassadors.placed_in(*territory) == Some(*token);
            if !there && g.ambassadors.zone(*token) != trigger::disposal(*token) {
                bad("the token is in that stronghold (R-TRG-1)");
            }
            if *e == Faction::Ecaz || *e == token.faction() {
                bad("neither Ecaz nor the token's own faction triggers it (R-TRG-2)");
            }
            let distinct: BTreeSet<Faction> = set_of(beneficiaries.iter().copied());
            if beneficiaries.is_empty()
                || distinct.len() != beneficiaries.len()
                || !beneficiaries.iter().all(|&b| beneficiary_ok(g, b))
            {
                bad("the beneficiaries are Ecaz and/or its ally, once each (R-TRG-5)");
            }
        }
        Decision::CopyEffect {
            entrant: e, candidates, ..
        } => {
            if Some(*e) != entrant {
                bad("the copy names its arrival's entrant");
            }
            if g.ambassadors.zone(Ambassador::BeneGesserit) != Zone::Removed {
                bad("the Bene Gesserit token was triggered (R-TRG-6)");
            }
            let distinct: BTreeSet<Ambassador> = set_of(candidates.iter().copied());
            let copyable = |t: Ambassador| {
                t != Ambassador::Ecaz
                    && t != Ambassador::BeneGesserit
                    && match g.policies.bg_pool {
                        BgPool::OutsideOriginalSupply => !g.ambassadors.cohort.contains(&t),
                        BgPool::NotInSupplyNow => g.ambassadors.zone(t) != Zone::Supply,
                    }
            };
            if candidates.is_empty() || distinct.len() != candidates.len() || !candidates.iter().all(|&t| copyable(t)) {
                bad("the candidates are copyable identities, once each, at least one (R-EFF-BG, P-BG-POOL)");
            }
        }
        Decision::EcazBranch { entrant: e, .. } | Decision::AllianceOffer { entrant: e, .. } => {
            if Some(*e) != entrant || *e == Faction::Ecaz {
                bad("the Ecaz effect names its arrival's entrant");
            }
            if g.ambassadors.zone(Ambassador::Ecaz) != Zone::Supply {
                bad("the triggered Ecaz token is back in supply (R-TRG-6)");
            }
            let unallied = |x: Faction| g.faction(x).is_some_and(|s| s.ally.is_none());
            if matches!(f.decision, Decision::AllianceOffer { .. }) && !(unallied(Faction::Ecaz) && unallied(*e)) {
                bad("an alliance is offered only while Ecaz and the entrant are unallied (R-EFF-ECAZ)");
            }
        }
        // D-87: the partners' boards are frozen while the window is open
        // (D-101), so the quoted group is always the ally's whole group
        // there; a state where it is not would leave the host only a Karama
        // nobody may be holding.
        Decision::BetrayalResponse {
            territory, ally, group, ..
        } if nexus::check_allow_betrayal(g, *territory, *ally, group).is_err() => {
            bad("the quoted group is exactly the ally's forces there, unchanged since the play (R-NEX-BET, D-38, D-101)");
        }
        // D-252: the offer of an arrival whose reactions come first opens
        // only when its window closes.
        Decision::HostReactions {
            arrival: id,
            offer_after: true,
        } if g
            .pending
            .iter()
            .any(|o| matches!(o.decision, Decision::TriggerOffer { arrival, .. } if arrival == *id)) =>
        {
            bad("the offer opens only when the host's reactions window before it closes (P-REACT-ORDER, D-252)");
        }
        Decision::DukeLoan { ally, .. } => {
            let ecaz_ally = g.faction(Faction::Ecaz).and_then(|s| s.ally);
            if Some(*ally) != entrant || ecaz_ally != Some(*ally) {
                bad("the loan goes to the entrant that just became Ecaz's ally (P-DUKE-LOAN)");
            }
        }
        _ => {}
    }
}
