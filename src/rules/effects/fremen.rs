//! R-EFF-FRE, P-FRE-ROUTE: the beneficiary moves one group of its forces
//! already on the board — from one territory, any of its sectors, normal and
//! elite mixed — to any territory. No path is needed; the source sectors and
//! the destination sector must be outside the storm; occupancy applies; the
//! HMS is entered only from the territory it points at (Ixians from anywhere).
//! Not ordinary movement: no allowance is used. The arrival is an entry
//! (P-NEST); a move within one territory is allowed but is not an entry.

use crate::base::board;
use crate::base::ids::{Ambassador, ArrivalId, Faction, Sector, Territory};
use crate::model::command::{Cause, Origin, SectorForces};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::Game;
use crate::rules::{effects, entry, frames, occupancy};

/// Does the beneficiary have forces on the board? (public)
pub(crate) fn has_forces(g: &Game, beneficiary: Faction) -> bool {
    g.faction(beneficiary).is_some_and(|s| !s.board.is_empty())
}

/// A validated relocation (`None` report = the beneficiary moves nothing).
#[derive(Debug, Clone)]
pub(crate) struct Relocation {
    arrival: ArrivalId,
    beneficiary: Faction,
    report: Option<entry::Report>,
}

/// Validate `relocate`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_relocate(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    from: Territory,
    group: &[SectorForces],
    advisors: bool,
    to: Territory,
    sector: Sector,
) -> Result<Relocation, ApplyError> {
    if group.is_empty() {
        entry::check_position(g, to, sector)?;
        return Ok(Relocation {
            arrival,
            beneficiary,
            report: None,
        });
    }
    let normal = group.iter().map(|x| x.normal).fold(0u32, u32::saturating_add);
    let elite = group.iter().map(|x| x.elite).fold(0u32, u32::saturating_add);
    let report = entry::Report {
        entrant: beneficiary,
        cause: Cause::AmbassadorFremen,
        from: Origin::Group {
            territory: from,
            sectors: group.to_vec(),
        },
        territory: to,
        sector,
        normal,
        elite,
        advisors,
        parent: Some(arrival),
    };
    entry::check_forces(g, &report)?;
    check_destination(g, beneficiary, Some(from), to, sector, advisors)?;
    for x in group {
        if board::in_storm(from, x.sector, g.storm) {
            return Err(ApplyError::InStorm {
                territory: from,
                sector: x.sector,
            });
        }
    }
    Ok(Relocation {
        arrival,
        beneficiary,
        report: Some(report),
    })
}

/// The destination rules shared with the Guild effect: on the board, outside
/// the storm, occupancy, and the HMS entry rule (`from` = None for reserves).
pub(crate) fn check_destination(
    g: &Game,
    beneficiary: Faction,
    from: Option<Territory>,
    to: Territory,
    sector: Sector,
    advisors: bool,
) -> Result<(), ApplyError> {
    entry::check_position(g, to, sector)?;
    if board::in_storm(to, sector, g.storm) {
        return Err(ApplyError::InStorm { territory: to, sector });
    }
    if from != Some(to) {
        occupancy::check_enter(g, beneficiary, to, advisors)?;
        if to == Territory::HiddenMobileStronghold {
            occupancy::check_hms_entry(g, beneficiary, from)?;
        }
    }
    Ok(())
}

/// Move the group; its arrival is published (an entry when it changes territory).
pub(crate) fn commit_relocate(g: &mut Game, r: Relocation, events: &mut Vec<Event>) {
    g.pending.pop();
    effects::resolved(r.arrival, Ambassador::Fremen, r.beneficiary, events);
    if let Some(report) = r.report {
        entry::engine_arrival(g, report, events);
    }
    frames::settle(g, events);
}
