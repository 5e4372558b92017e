//! R-EFF-GLD: the beneficiary ships up to 4 of its reserve forces (elite
//! counts chosen; 0 allowed), free, to any territory not in the storm,
//! obeying occupancy; into the HMS only for an Ixian beneficiary. Not its
//! ordinary shipment. The arrival is an entry (P-NEST).

use crate::base::ids::{Ambassador, ArrivalId, Faction, Sector, Territory};
use crate::model::command::{Cause, Origin};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::Game;
use crate::rules::{effects, entry, frames};

/// At most this many forces (E3 p.8).
pub(crate) const MAX: u32 = 4;

/// A validated shipment (`None` = ships nothing).
#[derive(Debug, Clone)]
pub(crate) struct Shipment {
    arrival: ArrivalId,
    beneficiary: Faction,
    report: Option<entry::Report>,
}

pub(crate) fn check_ship(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    territory: Territory,
    sector: Sector,
    normal: u32,
    elite: u32,
) -> Result<Shipment, ApplyError> {
    let total = normal.saturating_add(elite);
    if total == 0 {
        entry::check_position(g, territory, sector)?;
        return Ok(Shipment {
            arrival,
            beneficiary,
            report: None,
        });
    }
    if total > MAX {
        return Err(ApplyError::TooManyForces { max: MAX, asked: total });
    }
    let report = entry::Report {
        entrant: beneficiary,
        cause: Cause::AmbassadorGuild,
        from: Origin::Reserves,
        territory,
        sector,
        normal,
        elite,
        advisors: false,
        parent: Some(arrival),
    };
    entry::check_forces(g, &report)?;
    super::fremen::check_destination(g, beneficiary, None, territory, sector, false)?;
    Ok(Shipment {
        arrival,
        beneficiary,
        report: Some(report),
    })
}

pub(crate) fn commit_ship(g: &mut Game, s: Shipment, events: &mut Vec<Event>) {
    g.pending.pop();
    effects::resolved(s.arrival, Ambassador::Guild, s.beneficiary, events);
    if let Some(report) = s.report {
        entry::engine_arrival(g, report, events);
    }
    frames::settle(g, events);
}
