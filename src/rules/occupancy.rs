//! Occupancy (RULES §8, base rules; E3 p.8 Ecaz Occupy; E1 HMS), as the
//! board-moving effects must obey it.
//!
//! - A stronghold may not hold forces of more than two factions: a faction
//!   cannot enter one that already holds two other factions. BG advisors do
//!   not count, neither as occupants nor as entrants. Ecaz and its ally,
//!   who may share a territory (Ecaz Occupy), count as one faction here (see
//!   docs/RULES.md §10).
//! - Allies may not share a territory, except Ecaz and its ally.
//! - The HMS is entered only by moving from the territory it points at; the
//!   Ixians enter it from anywhere (P-FRE-ROUTE, R-EFF-GLD).

use crate::base::board;
use crate::base::ids::{Faction, Territory};
use crate::model::error::ApplyError;
use crate::model::game::Game;

/// Factions other than `me` with forces that count in `territory`.
fn others_present(g: &Game, me: Faction, territory: Territory) -> impl Iterator<Item = Faction> + '_ {
    g.factions
        .iter()
        .filter(move |s| s.faction != me)
        .filter(move |s| {
            s.board
                .iter()
                .any(|x| x.territory == territory && x.normal.saturating_add(x.elite) > 0)
        })
        .map(|s| s.faction)
}

/// May `me` bring forces (advisors when `advisors`) into `territory`?
pub(crate) fn check_enter(g: &Game, me: Faction, territory: Territory, advisors: bool) -> Result<(), ApplyError> {
    let ally = g.faction(me).and_then(|s| s.ally);
    // Ecaz and its ally form one side for the stronghold cap (Ecaz Occupy).
    let ecaz_pair = ally.is_some() && (me == Faction::Ecaz || ally == Some(Faction::Ecaz));
    let same_side = |f: Faction| f == me || (ecaz_pair && Some(f) == ally);
    let side_there = g.factions.iter().filter(|s| same_side(s.faction)).any(|s| {
        s.board
            .iter()
            .any(|x| x.territory == territory && x.normal.saturating_add(x.elite) > 0)
    });
    let others: Vec<Faction> = others_present(g, me, territory).collect();
    let rivals = others.iter().filter(|&&f| !same_side(f)).count();
    if board::is_stronghold(territory) && !advisors && !side_there && rivals >= 2 {
        return Err(ApplyError::StrongholdFull(territory));
    }
    if let Some(ally) = ally {
        if others.contains(&ally) && !ecaz_pair {
            return Err(ApplyError::AllyPresent { territory, ally });
        }
    }
    Ok(())
}

/// R-PLC-4 / E1: may `me` enter the HMS from `from` (None = from reserves)?
pub(crate) fn check_hms_entry(g: &Game, me: Faction, from: Option<Territory>) -> Result<(), ApplyError> {
    let pointer = g.hms.ok_or(ApplyError::HmsNotInPlay)?;
    if me == Faction::Ixians || from == Some(pointer.territory) {
        return Ok(());
    }
    Err(ApplyError::HmsEntry {
        from,
        pointer: pointer.territory,
    })
}
