//! End-of-Revival Ambassador placement (RULES §3, R-PLC-1..6).
//!
//! Flow: ending Revival opens a `placement` frame for Ecaz (R-PLC-1). Ecaz
//! announces one placement (`place`), which opens a `placementResponse` frame
//! answered by the host (R-PLC-5): `allowPlacement` commits it (Ecaz pays the
//! rising cost, R-PLC-2, and a fresh placement frame opens) and
//! `cancelPlacement` records another faction's Karama (nothing paid, token
//! stays in supply, no more placement this turn). `finishPlacement` closes the
//! opportunity. Placement is not an entry and triggers nothing (R-PLC-6).

use crate::base::board;
use crate::base::ids::{Ambassador, CardId, Faction, Territory};
use crate::base::policy::SupplyVisibility;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind, PlacementEnd};
use crate::model::game::{Actor, Decision, Game, Zone};
use crate::rules::{clock, karama};

/// R-PLC-2: the k-th token placed this turn costs k spice.
pub(crate) fn next_cost(g: &Game) -> u32 {
    u32::from(g.ambassadors.placement.placed).saturating_add(1)
}

/// R-PLC-3 / R-PLC-4: may `token` go into `territory` now? (Spice is checked apart.)
pub(crate) fn check_destination(g: &Game, token: Ambassador, territory: Territory) -> Result<(), ApplyError> {
    if g.ambassadors.zone(token) != Zone::Supply {
        return Err(ApplyError::TokenNotInSupply(token));
    }
    if !board::is_stronghold(territory) {
        return Err(ApplyError::NotAStronghold(territory));
    }
    if territory == Territory::HiddenMobileStronghold && g.hms.is_none() {
        return Err(ApplyError::HmsNotInPlay);
    }
    // R-PLC-4: the HMS interior is sector 0, never in storm, whatever its pointer.
    let sector = board::info(territory).sectors.first().copied().unwrap_or(0);
    if board::in_storm(territory, sector, g.storm) {
        return Err(ApplyError::StrongholdInStorm { territory, sector });
    }
    if let Some(there) = g.ambassadors.placed_in(territory) {
        return Err(ApplyError::StrongholdHasAmbassador {
            territory,
            token: there,
        });
    }
    Ok(())
}

/// R-PLC-2: can Ecaz pay `cost`?
pub(crate) fn check_funds(g: &Game, cost: u32) -> Result<(), ApplyError> {
    let has = g.faction(Faction::Ecaz).map_or(0, |s| s.spice);
    if has < cost {
        return Err(ApplyError::InsufficientSpice {
            faction: Faction::Ecaz,
            has,
            needs: cost,
        });
    }
    Ok(())
}

/// A validated placement announcement.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Announce {
    token: Ambassador,
    territory: Territory,
    cost: u32,
}

/// Validate `place` (R-PLC-2, R-PLC-3, R-PLC-4).
pub(crate) fn check_place(g: &Game, token: Ambassador, territory: Territory) -> Result<Announce, ApplyError> {
    check_destination(g, token, territory)?;
    let cost = next_cost(g);
    check_funds(g, cost)?;
    Ok(Announce { token, territory, cost })
}

/// Announce: the placement frame gives way to the host's response window (R-PLC-5).
pub(crate) fn commit_place(g: &mut Game, a: Announce, events: &mut Vec<Event>) {
    g.pending.pop();
    let frame = g.push_frame(
        Actor::Host,
        Decision::PlacementResponse {
            token: a.token,
            territory: a.territory,
            cost: a.cost,
        },
    );
    supply_event(
        g,
        a.token,
        |token| EventKind::PlacementAnnounced {
            frame,
            token,
            territory: a.territory,
            cost: a.cost,
        },
        events,
    );
}

/// An event naming a token that is (still) in Ecaz's supply: public, or —
/// under P-SUPPLY-VIS `ownerOnly` — public without the token plus a copy
/// with it for Ecaz (and the host).
fn supply_event(g: &Game, token: Ambassador, make: impl Fn(Option<Ambassador>) -> EventKind, events: &mut Vec<Event>) {
    match g.policies.supply_visibility {
        SupplyVisibility::Public => events.push(Event::public(make(Some(token)))),
        SupplyVisibility::OwnerOnly => {
            events.push(Event::public(make(None)));
            events.push(Event::only(vec![Faction::Ecaz], make(Some(token))));
        }
    }
}

/// Validate `allowPlacement`: everything is checked again before spice moves.
pub(crate) fn check_allow(
    g: &Game,
    token: Ambassador,
    territory: Territory,
    cost: u32,
) -> Result<Announce, ApplyError> {
    check_destination(g, token, territory)?;
    check_funds(g, cost)?;
    Ok(Announce { token, territory, cost })
}

/// Commit the announced placement: pay the bank, place face up, count it,
/// and reopen the placement for the next token.
pub(crate) fn commit_allow(g: &mut Game, a: Announce, events: &mut Vec<Event>) {
    g.pending.pop();
    if let Some(ecaz) = g.faction_mut(Faction::Ecaz) {
        ecaz.spice = ecaz.spice.saturating_sub(a.cost);
    }
    g.ambassadors.set_zone(a.token, Zone::Placed { territory: a.territory });
    g.ambassadors.placement.placed = g.ambassadors.placement.placed.saturating_add(1);
    events.push(Event::public(EventKind::AmbassadorPlaced {
        token: a.token,
        territory: a.territory,
        cost: a.cost,
    }));
    let frame = g.push_frame(Actor::Faction(Faction::Ecaz), Decision::Placement);
    events.push(Event::public(EventKind::PlacementOpened {
        frame,
        next_cost: next_cost(g),
    }));
}

/// A validated Karama cancellation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cancel {
    token: Ambassador,
    territory: Territory,
    by: Faction,
    card: CardId,
}

/// Validate `cancelPlacement` (R-PLC-5): another seated faction plays a
/// Karama it holds (P-KARAMA-HOST; `vouched`: D-251).
pub(crate) fn check_cancel(
    g: &Game,
    token: Ambassador,
    territory: Territory,
    by: Faction,
    card: CardId,
    vouched: bool,
) -> Result<Cancel, ApplyError> {
    karama::check(g, by, card, Faction::Ecaz, vouched)?;
    Ok(Cancel {
        token,
        territory,
        by,
        card,
    })
}

/// R-PLC-5: the Karama is discarded, nothing is paid, the token stays in
/// supply, the counter is unchanged and placement is over for this turn.
pub(crate) fn commit_cancel(g: &mut Game, c: Cancel, events: &mut Vec<Event>) {
    g.pending.pop();
    karama::play(g, c.by, c.card, events);
    supply_event(
        g,
        c.token,
        |token| EventKind::PlacementCancelled {
            token,
            territory: c.territory,
            by: c.by,
        },
        events,
    );
    g.ambassadors.placement.prevented_by = Some(c.by);
    close(g, PlacementEnd::Prevented, events);
}

/// R-PLC-1: Ecaz finishes placing.
pub(crate) fn commit_finish(g: &mut Game, events: &mut Vec<Event>) {
    g.pending.pop();
    close(g, PlacementEnd::Finished, events);
}

/// Close the opportunity for the turn (it never reopens) and end Revival.
fn close(g: &mut Game, reason: PlacementEnd, events: &mut Vec<Event>) {
    g.ambassadors.placement.closed = true;
    events.push(Event::public(EventKind::PlacementClosed {
        placed: g.ambassadors.placement.placed,
        reason,
    }));
    clock::advance(g, events);
}

/// Every legal `(token, stronghold)` pair for the next placement, in a stable
/// order (tokens in [`Ambassador::ALL`] order, strongholds in [`board::STRONGHOLDS`] order).
pub(crate) fn legal_placements(g: &Game) -> Vec<(Ambassador, Territory)> {
    if check_funds(g, next_cost(g)).is_err() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for token in g.ambassadors.in_zone(Zone::Supply) {
        for territory in board::STRONGHOLDS {
            if check_destination(g, token, territory).is_ok() {
                out.push((token, territory));
            }
        }
    }
    out
}
