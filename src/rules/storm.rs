//! Storm, the Shield Wall, HMS moves and destruction (RULES §4 R-TRG-9, §8).
//!
//! A placed token destroyed by the storm or by a Lasgun/Shield explosion (or
//! any other host-reported destruction of a stronghold's contents) goes back
//! to Ecaz's supply; it is not a trigger and it stays in its cohort. The storm
//! reaches a stronghold only when it is exposed: Arrakeen and Carthag after the
//! Shield Wall is destroyed; the sietches and the HMS never.

use crate::base::board;
use crate::base::ids::Faction;
use crate::base::ids::{Ambassador, Phase, Sector, Territory};
use crate::model::command::Destruction;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind, LossCause, ReturnCause};
use crate::model::game::{Game, HmsPointer, Stack, Zone};
use crate::rules::table;

/// The largest storm move a host may report (two dials of 0–10, or the setup move).
pub const MAX_STORM_MOVE: u32 = 20;

fn need_phase(g: &Game, action: &'static str, expected: Phase) -> Result<(), ApplyError> {
    if g.phase != expected {
        return Err(ApplyError::WrongPhase {
            action,
            expected,
            actual: g.phase,
        });
    }
    Ok(())
}

/// R-TRG-9: the one token-return operation every destruction path uses.
pub(crate) fn return_to_supply(
    g: &mut Game,
    token: Ambassador,
    territory: Territory,
    cause: ReturnCause,
    events: &mut Vec<Event>,
) {
    g.ambassadors.set_zone(token, Zone::Supply);
    events.push(Event::public(EventKind::AmbassadorReturned {
        token,
        territory,
        cause,
    }));
}

/// Validate `moveStorm` (Storm phase, 0..=20 sectors).
pub(crate) fn check_move_storm(g: &Game, sectors: u32) -> Result<u8, ApplyError> {
    need_phase(g, "moveStorm", Phase::Storm)?;
    match u8::try_from(sectors) {
        Ok(n) if sectors <= MAX_STORM_MOVE => Ok(n),
        _ => Err(ApplyError::StormAmount {
            amount: sectors,
            max: MAX_STORM_MOVE,
        }),
    }
}

/// Move the storm; tokens in exposed strongholds on its path return (R-TRG-9).
pub(crate) fn commit_move_storm(g: &mut Game, sectors: u8, events: &mut Vec<Event>) {
    let from = g.storm;
    let to = board::storm_advance(from, sectors);
    g.storm = to;
    events.push(Event::public(EventKind::StormMoved {
        from,
        to,
        sectors: u32::from(sectors),
    }));
    let path: Vec<Sector> = board::storm_path(from, sectors).collect();
    let hit: Vec<(Ambassador, Territory)> = g
        .ambassadors
        .tokens
        .iter()
        .filter_map(|t| match t.zone {
            Zone::Placed { territory } => Some((t.token, territory)),
            _ => None,
        })
        .filter(|&(_, territory)| {
            board::exposed_to_storm(territory, g.shield_wall_standing)
                && board::info(territory)
                    .sectors
                    .iter()
                    .any(|s| *s != 0 && path.contains(s))
        })
        .collect();
    for (token, territory) in hit {
        return_to_supply(g, token, territory, ReturnCause::Storm, events);
    }
    if g.options.storm_losses {
        storm_losses(g, &path, events);
    }
}

/// Base rules: forces in exposed sectors the storm enters are destroyed; the
/// Fremen lose only half of each stack, rounded up (ordinary forces first —
/// the engine's choice, see docs/RULES.md §10). Only with `stormLosses`.
fn storm_losses(g: &mut Game, path: &[Sector], events: &mut Vec<Event>) {
    let standing = g.shield_wall_standing;
    let losses: Vec<(Faction, Vec<Stack>)> = g
        .factions
        .iter()
        .map(|s| {
            let lost = s
                .board
                .iter()
                .filter(|x| x.sector != 0 && path.contains(&x.sector))
                .filter(|x| board::exposed_to_storm(x.territory, standing))
                .map(|x| {
                    if s.faction != Faction::Fremen {
                        return *x;
                    }
                    let half = x.total().div_ceil(2);
                    let normal = x.normal.min(half);
                    Stack {
                        elite: half.saturating_sub(normal).min(x.elite),
                        normal,
                        advisors: 0,
                        ..*x
                    }
                })
                .filter(|x| x.total() > 0)
                .collect::<Vec<Stack>>();
            (s.faction, lost)
        })
        .filter(|(_, lost)| !lost.is_empty())
        .collect();
    for (faction, lost) in losses {
        table::lose(g, faction, lost, LossCause::Storm, events);
    }
}

/// Validate `destroyShieldWall` (Family Atomics, Storm phase).
pub(crate) fn check_destroy_shield_wall(g: &Game) -> Result<(), ApplyError> {
    need_phase(g, "destroyShieldWall", Phase::Storm)?;
    if !g.shield_wall_standing {
        return Err(ApplyError::ShieldWallGone);
    }
    Ok(())
}

/// The Shield Wall falls: Arrakeen, Carthag and Imperial Basin are exposed from
/// now on. Nothing already under the storm is destroyed by the fall itself;
/// the storm destroys when it moves.
pub(crate) fn commit_destroy_shield_wall(g: &mut Game, events: &mut Vec<Event>) {
    g.shield_wall_standing = false;
    events.push(Event::public(EventKind::ShieldWallDestroyed));
}

/// Validate `destroyTerritory`: Atomics Terror never reaches the HMS (E3 p.5).
pub(crate) fn check_destroy_territory(territory: Territory, cause: Destruction) -> Result<(), ApplyError> {
    if cause == Destruction::AtomicsTerror && territory == Territory::HiddenMobileStronghold {
        return Err(ApplyError::TerrorExcludedFromHms);
    }
    Ok(())
}

/// Validate `moveHms`: the HMS is in play and points at a sector of a non-stronghold territory.
pub(crate) fn check_move_hms(g: &Game, territory: Territory, sector: Sector) -> Result<HmsPointer, ApplyError> {
    if g.hms.is_none() {
        return Err(ApplyError::HmsNotInPlay);
    }
    check_hms_pointer(territory, sector)?;
    Ok(HmsPointer { territory, sector })
}

/// The HMS points only at a sector of a territory that is not a stronghold.
pub(crate) fn check_hms_pointer(territory: Territory, sector: Sector) -> Result<(), ApplyError> {
    if board::is_stronghold(territory) {
        return Err(ApplyError::InvalidHmsPointer {
            territory,
            sector,
            why: "it must point at a territory that is not a stronghold",
        });
    }
    if sector == 0 {
        return Err(ApplyError::InvalidHmsPointer {
            territory,
            sector,
            why: "it must point at a sector of the ring (1–18), not the Polar Sink",
        });
    }
    if !board::has_sector(territory, sector) {
        return Err(ApplyError::InvalidHmsPointer {
            territory,
            sector,
            why: "that sector is not part of the territory",
        });
    }
    Ok(())
}

/// R-PLC-4: the HMS moves; a token inside stays attached, is not re-placed and costs nothing.
pub(crate) fn commit_move_hms(g: &mut Game, to: HmsPointer, events: &mut Vec<Event>) {
    g.hms = Some(to);
    events.push(Event::public(EventKind::HmsMoved {
        territory: to.territory,
        sector: to.sector,
    }));
}

/// R-TRG-9: a territory's contents were destroyed; a token there returns.
pub(crate) fn commit_destroy_territory(
    g: &mut Game,
    territory: Territory,
    cause: ReturnCause,
    events: &mut Vec<Event>,
) {
    if let Some(token) = g.ambassadors.placed_in(territory) {
        return_to_supply(g, token, territory, cause, events);
    }
}
