//! R-EFF-TLX, P-TLX: the beneficiary revives, free, one of its own leaders
//! or up to 4 of its forces (Tanks → reserves), independent of its ordinary
//! revival; in the Advanced game at most one Sardaukar or Fedaykin per
//! turn, shared with ordinary revival (the Ixians' Cyborgs are exempt, and
//! the Basic game has no such limit: D-165); fewer than 4 allowed. Duke Vidal only when the beneficiary is Ecaz
//! (custody per P-DUKE-REVIVED). Captives and foreign gholas are not the
//! beneficiary's to revive.

use crate::base::ids::{Ambassador, ArrivalId, Faction, Leader};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{DukeCustody, Game, LeaderCustody};
use crate::rules::{duke, effects, frames};

/// At most this many forces (E3 p.8).
pub(crate) const MAX: u32 = 4;

/// What is revived.
#[derive(Debug, Clone, Copy)]
enum What {
    Leader(Leader),
    Duke,
    Forces { normal: u32, elite: u32 },
}

/// A validated revival.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Revival {
    arrival: ArrivalId,
    beneficiary: Faction,
    what: What,
}

/// Own leaders in the Tanks.
pub(crate) fn dead_leaders(g: &Game, beneficiary: Faction) -> Vec<Leader> {
    g.faction(beneficiary)
        .map(|s| {
            s.leaders
                .iter()
                .filter(|l| l.custody == LeaderCustody::Tanks && l.leader.faction() == beneficiary)
                .map(|l| l.leader)
                .collect()
        })
        .unwrap_or_default()
}

/// Can Ecaz revive Duke Vidal through this effect?
pub(crate) fn duke_revivable(g: &Game, beneficiary: Faction) -> bool {
    beneficiary == Faction::Ecaz && g.duke.custody == DukeCustody::Tanks
}

/// Is `f`'s elite revival limited to one a turn? Only the Advanced game's
/// Sardaukar and Fedaykin are (P-TLX as printed; D-165).
pub(crate) fn elite_limited(g: &Game, f: Faction) -> bool {
    g.options.advanced && matches!(f, Faction::Emperor | Faction::Fremen)
}

/// Elite forces the beneficiary may still revive this turn (P-TLX, D-165):
/// one a turn for a limited faction, else as many as the effect revives.
pub(crate) fn elite_left(g: &Game, beneficiary: Faction) -> u32 {
    if !elite_limited(g, beneficiary) {
        return MAX;
    }
    let used = g.faction(beneficiary).map_or(0, |s| s.elite_revived);
    u32::from(used == 0)
}

/// Is there anything to revive? (Tanks and leader custody are public.)
pub(crate) fn anything(g: &Game, beneficiary: Faction) -> bool {
    let tanks = g.faction(beneficiary).map(|s| s.tanks.total()).unwrap_or_default();
    tanks > 0 || !dead_leaders(g, beneficiary).is_empty() || duke_revivable(g, beneficiary)
}

pub(crate) fn check_leader(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    leader: Leader,
) -> Result<Revival, ApplyError> {
    if !dead_leaders(g, beneficiary).contains(&leader) {
        return Err(ApplyError::LeaderNotInTanks(leader));
    }
    Ok(Revival {
        arrival,
        beneficiary,
        what: What::Leader(leader),
    })
}

pub(crate) fn check_duke(g: &Game, arrival: ArrivalId, beneficiary: Faction) -> Result<Revival, ApplyError> {
    if beneficiary != Faction::Ecaz {
        return Err(ApplyError::DukeRevivalEcazOnly);
    }
    if g.duke.custody != DukeCustody::Tanks {
        return Err(ApplyError::DukeNotInTanks);
    }
    Ok(Revival {
        arrival,
        beneficiary,
        what: What::Duke,
    })
}

pub(crate) fn check_forces(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    normal: u32,
    elite: u32,
) -> Result<Revival, ApplyError> {
    let total = normal.saturating_add(elite);
    if total > MAX {
        return Err(ApplyError::TooManyForces { max: MAX, asked: total });
    }
    if elite > 0 && !beneficiary.has_elite() {
        return Err(ApplyError::NoEliteForces(beneficiary));
    }
    let left = elite_left(g, beneficiary);
    if elite > left {
        return Err(ApplyError::EliteRevivalUsed {
            faction: beneficiary,
            left,
            asked: elite,
        });
    }
    let tanks = g.faction(beneficiary).map(|s| s.tanks).unwrap_or_default();
    for (have, need) in [(tanks.normal, normal), (tanks.elite, elite)] {
        if have < need {
            return Err(ApplyError::NotEnoughForces {
                faction: beneficiary,
                have,
                need,
            });
        }
    }
    Ok(Revival {
        arrival,
        beneficiary,
        what: What::Forces { normal, elite },
    })
}

pub(crate) fn commit_revive(g: &mut Game, r: Revival, events: &mut Vec<Event>) {
    g.pending.pop();
    let b = r.beneficiary;
    match r.what {
        What::Leader(leader) => {
            if let Some(l) = g
                .faction_mut(b)
                .and_then(|s| s.leaders.iter_mut().find(|l| l.leader == leader))
            {
                l.custody = LeaderCustody::Available;
            }
            events.push(Event::public(EventKind::LeaderRevived { faction: b, leader }));
        }
        What::Duke => duke::revive(g, events),
        What::Forces { normal, elite } => {
            if let Some(s) = g.faction_mut(b) {
                s.tanks.normal = s.tanks.normal.saturating_sub(normal);
                s.tanks.elite = s.tanks.elite.saturating_sub(elite);
                s.reserves.normal = s.reserves.normal.saturating_add(normal);
                s.reserves.elite = s.reserves.elite.saturating_add(elite);
                s.elite_revived = s.elite_revived.saturating_add(u8::try_from(elite).unwrap_or(u8::MAX));
            }
            if normal.saturating_add(elite) > 0 {
                events.push(Event::public(EventKind::ForcesRevived {
                    faction: b,
                    normal,
                    elite,
                }));
            }
        }
    }
    effects::resolved(r.arrival, Ambassador::Tleilaxu, b, events);
    frames::settle(g, events);
}
