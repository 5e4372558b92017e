//! Arrivals and entries (R-TRG-1..4).
//!
//! The host reports every committed arrival of forces (`arrive`). The engine
//! moves the forces on its table (conserving them), decides whether it is an
//! entry (R-TRG-3: a move within one territory is not; reinforcing a
//! stronghold one already occupies is), and when an entry reaches a
//! stronghold holding a placed token that may trigger (R-TRG-2, P-UNAVAILABLE)
//! it opens a trigger offer for Ecaz. Every arrival gets exactly one `resume`
//! event, once all its reactions have settled (R-TRG-4).

use crate::board;
use crate::command::{Cause, Origin};
use crate::error::ApplyError;
use crate::event::{Event, EventKind};
use crate::game::{Actor, Decision, Game, OpenArrival, Stack};
use crate::ids::{Ambassador, ArrivalId, Faction, Sector, Territory};
use crate::rules::{effects, trigger};

/// A reported arrival, as the host sent it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Report {
    pub entrant: Faction,
    pub cause: Cause,
    pub from: Origin,
    pub territory: Territory,
    pub sector: Sector,
    pub normal: u32,
    pub elite: u32,
    pub advisors: bool,
}

/// A validated arrival.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    report: Report,
    entry: bool,
    offer: Option<Offer>,
}

/// A trigger offer to open.
#[derive(Debug, Clone)]
struct Offer {
    token: Ambassador,
    beneficiaries: Vec<Faction>,
}

fn check_position(g: &Game, territory: Territory, sector: Sector) -> Result<(), ApplyError> {
    let hms_missing = territory == Territory::HiddenMobileStronghold && g.hms.is_none();
    if hms_missing || !board::has_sector(territory, sector) {
        return Err(ApplyError::InvalidPosition { territory, sector });
    }
    Ok(())
}

/// Validate an arrival report: structure and conservation (the host owns the
/// legality of ordinary shipment and movement; the engine refuses reports
/// that move forces that are not there).
pub(crate) fn check_arrive(g: &Game, r: Report) -> Result<Plan, ApplyError> {
    let s = g.faction(r.entrant).ok_or(ApplyError::NotSeated(r.entrant))?;
    if r.normal.saturating_add(r.elite) == 0 {
        return Err(ApplyError::EmptyArrival);
    }
    if r.elite > 0 && !r.entrant.has_elite() {
        return Err(ApplyError::NoEliteForces(r.entrant));
    }
    if r.advisors && (r.entrant != Faction::BeneGesserit || r.elite > 0) {
        return Err(ApplyError::NoAdvisors(r.entrant));
    }
    check_position(g, r.territory, r.sector)?;
    let (have_normal, have_elite) = match r.from {
        Origin::Reserves => (s.reserves.normal, s.reserves.elite),
        Origin::Board { territory, sector } => {
            check_position(g, territory, sector)?;
            if territory == r.territory && sector == r.sector {
                return Err(ApplyError::NoMovement);
            }
            let stack = s.board.iter().find(|x| x.territory == territory && x.sector == sector);
            let normal = stack.map_or(0, |x| if r.advisors { x.advisors } else { x.normal });
            (normal, stack.map_or(0, |x| x.elite))
        }
    };
    if have_normal < r.normal {
        return Err(ApplyError::NotEnoughForces {
            faction: r.entrant,
            have: have_normal,
            need: r.normal,
        });
    }
    if have_elite < r.elite {
        return Err(ApplyError::NotEnoughForces {
            faction: r.entrant,
            have: have_elite,
            need: r.elite,
        });
    }
    let entry = match r.from {
        Origin::Reserves => true,
        Origin::Board { territory, .. } => territory != r.territory,
    };
    let offer = if entry { offer_for(g, &r) } else { None };
    Ok(Plan {
        report: r,
        entry,
        offer,
    })
}

/// R-TRG-1, R-TRG-2, R-TRG-7, P-UNAVAILABLE: the offer an entry opens, if any.
fn offer_for(g: &Game, r: &Report) -> Option<Offer> {
    let token = g.ambassadors.placed_in(r.territory)?;
    let ecaz = g.faction(Faction::Ecaz)?;
    if r.advisors || r.entrant == Faction::Ecaz || ecaz.ally == Some(r.entrant) || r.entrant == token.faction() {
        return None;
    }
    let beneficiaries: Vec<Faction> = std::iter::once(Faction::Ecaz)
        .chain(ecaz.ally)
        .filter(|&b| effects::triggerable(g, token, r.entrant, b))
        .collect();
    if beneficiaries.is_empty() {
        return None;
    }
    Some(Offer { token, beneficiaries })
}

fn remove_from(board: &mut Vec<Stack>, territory: Territory, sector: Sector, r: &Report) {
    if let Some(x) = board
        .iter_mut()
        .find(|x| x.territory == territory && x.sector == sector)
    {
        if r.advisors {
            x.advisors = x.advisors.saturating_sub(r.normal);
        } else {
            x.normal = x.normal.saturating_sub(r.normal);
        }
        x.elite = x.elite.saturating_sub(r.elite);
    }
    board.retain(|x| x.total() > 0);
}

/// Add forces to a board position (the stack is created when missing).
pub(crate) fn add_to(
    board: &mut Vec<Stack>,
    territory: Territory,
    sector: Sector,
    normal: u32,
    elite: u32,
    advisors: bool,
) {
    let idx = match board
        .iter()
        .position(|x| x.territory == territory && x.sector == sector)
    {
        Some(i) => i,
        None => {
            board.push(Stack {
                territory,
                sector,
                normal: 0,
                elite: 0,
                advisors: 0,
            });
            board.len() - 1
        }
    };
    if let Some(x) = board.get_mut(idx) {
        if advisors {
            x.advisors = x.advisors.saturating_add(normal);
        } else {
            x.normal = x.normal.saturating_add(normal);
        }
        x.elite = x.elite.saturating_add(elite);
    }
}

/// Open a new arrival record (its `resume` comes when it settles).
pub(crate) fn open_arrival(
    g: &mut Game,
    entrant: Faction,
    territory: Territory,
    parent: Option<ArrivalId>,
) -> ArrivalId {
    let id = ArrivalId(g.next_arrival);
    g.next_arrival = g.next_arrival.saturating_add(1);
    g.arrivals.push(OpenArrival {
        id,
        entrant,
        territory,
        parent,
    });
    id
}

/// Commit the arrival: move the forces, report it, open the offer, settle.
pub(crate) fn commit_arrive(g: &mut Game, plan: Plan, events: &mut Vec<Event>) {
    let r = plan.report;
    if let Some(s) = g.faction_mut(r.entrant) {
        match r.from {
            Origin::Reserves => {
                s.reserves.normal = s.reserves.normal.saturating_sub(r.normal);
                s.reserves.elite = s.reserves.elite.saturating_sub(r.elite);
            }
            Origin::Board { territory, sector } => remove_from(&mut s.board, territory, sector, &r),
        }
        add_to(&mut s.board, r.territory, r.sector, r.normal, r.elite, r.advisors);
    }
    let arrival = open_arrival(g, r.entrant, r.territory, None);
    events.push(Event::public(EventKind::Arrived {
        arrival,
        entrant: r.entrant,
        cause: r.cause,
        from: r.from,
        territory: r.territory,
        sector: r.sector,
        normal: r.normal,
        elite: r.elite,
        advisors: r.advisors,
        entry: plan.entry,
    }));
    if let Some(offer) = plan.offer {
        let offer = Decision::TriggerOffer {
            arrival,
            token: offer.token,
            territory: r.territory,
            entrant: r.entrant,
            beneficiaries: offer.beneficiaries,
        };
        trigger::open_frame(g, Actor::Faction(Faction::Ecaz), offer, events);
    }
    trigger::settle(g, events);
}
