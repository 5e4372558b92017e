//! Arrivals and entries (R-TRG-1..4, P-NEST).
//!
//! The host reports every committed arrival of forces (`arrive`). The engine
//! moves the forces on its table (conserving them), decides whether it is an
//! entry (R-TRG-3: a move within one territory is not; reinforcing a
//! stronghold one already occupies is), and when an entry reaches a
//! stronghold holding a placed token that may trigger (R-TRG-2, P-UNAVAILABLE)
//! it opens a trigger offer for Ecaz. Every arrival gets exactly one `resume`
//! event, once all its reactions — nested arrivals included — have settled
//! (R-TRG-4). Arrivals the engine makes itself (Fremen and Guild effects) go
//! through the same path.

use crate::base::board;
use crate::base::ids::{Ambassador, ArrivalId, Faction, Sector, Territory};
use crate::base::policy::ReactionOrder;
use crate::model::command::{Cause, Origin, SectorForces};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Actor, Decision, Game, OpenArrival, Stack};
use crate::rules::{effects, frames};

/// An arrival: who, how, from where, to where, how many.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    pub entrant: Faction,
    pub cause: Cause,
    pub from: Origin,
    pub territory: Territory,
    pub sector: Sector,
    pub normal: u32,
    pub elite: u32,
    pub advisors: bool,
    pub parent: Option<ArrivalId>,
}

impl Report {
    /// R-TRG-3: an entry comes from reserves or from another territory.
    pub(crate) fn is_entry(&self) -> bool {
        self.from.territory() != Some(self.territory)
    }
}

/// A validated host-reported arrival.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    report: Report,
    offer: Option<Offer>,
    /// P-REACT-ORDER (D-252): the host's reactions window comes before the offer.
    reactions_first: bool,
}

/// A trigger offer to open.
#[derive(Debug, Clone)]
struct Offer {
    token: Ambassador,
    beneficiaries: Vec<Faction>,
}

/// A position on the board (the HMS only while in play).
pub(crate) fn check_position(g: &Game, territory: Territory, sector: Sector) -> Result<(), ApplyError> {
    let hms_missing = territory == Territory::HiddenMobileStronghold && g.hms.is_none();
    if hms_missing || !board::has_sector(territory, sector) {
        return Err(ApplyError::InvalidPosition { territory, sector });
    }
    Ok(())
}

/// The sectors an origin on the board takes forces from.
fn sources(from: &Origin, normal: u32, elite: u32) -> Vec<SectorForces> {
    match from {
        Origin::Reserves => Vec::new(),
        Origin::Board { sector, .. } => vec![SectorForces {
            sector: *sector,
            normal,
            elite,
        }],
        Origin::Group { sectors, .. } => sectors.clone(),
    }
}

/// Conservation: the forces are where the report says (R-TRG-3; D-54).
pub(crate) fn check_forces(g: &Game, r: &Report) -> Result<(), ApplyError> {
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
    let not_enough = |have: u32, need: u32| ApplyError::NotEnoughForces {
        faction: r.entrant,
        have,
        need,
    };
    let Some(from) = r.from.territory() else {
        if s.reserves.normal < r.normal {
            return Err(not_enough(s.reserves.normal, r.normal));
        }
        if s.reserves.elite < r.elite {
            return Err(not_enough(s.reserves.elite, r.elite));
        }
        return Ok(());
    };
    let taken = sources(&r.from, r.normal, r.elite);
    let (mut normal, mut elite) = (0u32, 0u32);
    for (i, x) in taken.iter().enumerate() {
        if taken.iter().take(i).any(|y| y.sector == x.sector) {
            return Err(ApplyError::DuplicateSector(x.sector));
        }
        check_position(g, from, x.sector)?;
        let stack = s.board.iter().find(|st| st.territory == from && st.sector == x.sector);
        let have = stack.map_or(0, |st| if r.advisors { st.advisors } else { st.normal });
        if have < x.normal {
            return Err(not_enough(have, x.normal));
        }
        let have_elite = stack.map_or(0, |st| st.elite);
        if have_elite < x.elite {
            return Err(not_enough(have_elite, x.elite));
        }
        normal = normal.saturating_add(x.normal);
        elite = elite.saturating_add(x.elite);
    }
    if normal != r.normal || elite != r.elite {
        return Err(ApplyError::GroupMismatch);
    }
    if !r.is_entry() && taken.iter().all(|x| x.sector == r.sector) {
        return Err(ApplyError::NoMovement);
    }
    Ok(())
}

/// Validate a host-reported arrival; `reactions_first` is its own request
/// for the host's reactions window before the offer (P-REACT-ORDER, D-252).
pub(crate) fn check_arrive(g: &Game, r: Report, reactions_first: bool) -> Result<Plan, ApplyError> {
    if matches!(r.cause, Cause::AmbassadorFremen | Cause::AmbassadorGuild) {
        return Err(ApplyError::EngineCause);
    }
    if let Some(parent) = r.parent {
        if !g.arrivals.iter().any(|a| a.id == parent) {
            return Err(ApplyError::ParentSettled(parent));
        }
    }
    check_forces(g, &r)?;
    let offer = offer_for(g, &r);
    let reactions_first = reactions_first || g.policies.reaction_order == ReactionOrder::HostFirst;
    Ok(Plan {
        report: r,
        offer,
        reactions_first,
    })
}

/// R-TRG-1, R-TRG-2, R-TRG-7, P-UNAVAILABLE: the offer an entry opens, if any.
fn offer_for(g: &Game, r: &Report) -> Option<Offer> {
    if !r.is_entry() || r.advisors {
        return None;
    }
    offer_in(g, r.entrant, r.territory)
}

/// The offer an entry of `entrant`'s forces (not advisors) into `territory`
/// opens, if any (R-TRG-1, R-TRG-2, R-TRG-7, P-UNAVAILABLE).
fn offer_in(g: &Game, entrant: Faction, territory: Territory) -> Option<Offer> {
    let token = g.ambassadors.placed_in(territory)?;
    let ecaz = g.faction(Faction::Ecaz)?;
    if entrant == Faction::Ecaz || ecaz.ally == Some(entrant) || entrant == token.faction() {
        return None;
    }
    let beneficiaries: Vec<Faction> = std::iter::once(Faction::Ecaz)
        .chain(ecaz.ally)
        .filter(|&b| effects::triggerable(g, token, entrant, b))
        .collect();
    if beneficiaries.is_empty() {
        return None;
    }
    Some(Offer { token, beneficiaries })
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

/// Move the reported forces on the table (validated by [`check_forces`]).
pub(crate) fn move_forces(g: &mut Game, r: &Report) {
    let taken = sources(&r.from, r.normal, r.elite);
    let from = r.from.territory();
    let Some(s) = g.faction_mut(r.entrant) else {
        return;
    };
    match from {
        None => {
            s.reserves.normal = s.reserves.normal.saturating_sub(r.normal);
            s.reserves.elite = s.reserves.elite.saturating_sub(r.elite);
        }
        Some(territory) => {
            for x in &taken {
                if let Some(st) = s
                    .board
                    .iter_mut()
                    .find(|st| st.territory == territory && st.sector == x.sector)
                {
                    if r.advisors {
                        st.advisors = st.advisors.saturating_sub(x.normal);
                    } else {
                        st.normal = st.normal.saturating_sub(x.normal);
                    }
                    st.elite = st.elite.saturating_sub(x.elite);
                }
            }
            s.board.retain(|st| st.total() > 0);
        }
    }
    add_to(&mut s.board, r.territory, r.sector, r.normal, r.elite, r.advisors);
}

/// Open a new arrival record (its `resume` comes when it settles).
fn open_arrival(g: &mut Game, entrant: Faction, territory: Territory, parent: Option<ArrivalId>) -> ArrivalId {
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

/// Open the arrival record and publish the `arrived` event.
fn announce(g: &mut Game, r: &Report, events: &mut Vec<Event>) -> ArrivalId {
    let arrival = open_arrival(g, r.entrant, r.territory, r.parent);
    events.push(Event::public(EventKind::Arrived {
        arrival,
        entrant: r.entrant,
        cause: r.cause,
        from: r.from.clone(),
        territory: r.territory,
        sector: r.sector,
        normal: r.normal,
        elite: r.elite,
        advisors: r.advisors,
        entry: r.is_entry(),
        parent: r.parent,
    }));
    arrival
}

fn open_offer(
    g: &mut Game,
    arrival: ArrivalId,
    entrant: Faction,
    territory: Territory,
    offer: Offer,
    events: &mut Vec<Event>,
) {
    let offer = Decision::TriggerOffer {
        arrival,
        token: offer.token,
        territory,
        entrant,
        beneficiaries: offer.beneficiaries,
    };
    frames::open_frame(g, Actor::Faction(Faction::Ecaz), offer, events);
}

/// Commit a host-reported arrival: move the forces, report it, open the
/// offer — or first the host's reactions window (P-REACT-ORDER, D-252) —, settle.
pub(crate) fn commit_arrive(g: &mut Game, plan: Plan, events: &mut Vec<Event>) {
    let r = plan.report;
    move_forces(g, &r);
    if g.phase == crate::base::ids::Phase::ShipmentMovement && matches!(r.cause, Cause::Shipment | Cause::Movement) {
        g.shipment_begun = true; // P-NEX-BET-TIME: Betrayal's window has passed
    }
    let arrival = announce(g, &r, events);
    match plan.offer {
        Some(_) if plan.reactions_first => {
            let window = Decision::HostReactions {
                arrival,
                offer_after: true,
            };
            frames::open_frame(g, Actor::Host, window, events);
        }
        Some(offer) => open_offer(g, arrival, r.entrant, r.territory, offer, events),
        None => {}
    }
    frames::settle(g, events);
}

/// P-NEST: an arrival the engine makes (Fremen or Guild effect), validated by
/// the effect. It is published like any arrival; when it is an entry the host
/// gets a frame to run its own entry reactions (and to link reaction arrivals
/// to it) before it settles. Its entrant is Ecaz or Ecaz's ally, so it never
/// triggers Ecaz's own tokens (R-TRG-2).
pub(crate) fn engine_arrival(g: &mut Game, r: Report, events: &mut Vec<Event>) {
    move_forces(g, &r);
    let offer = offer_for(g, &r);
    let arrival = announce(g, &r, events);
    if r.is_entry() {
        let window = Decision::HostReactions {
            arrival,
            offer_after: false,
        };
        frames::open_frame(g, Actor::Host, window, events);
    }
    if let Some(offer) = offer {
        open_offer(g, arrival, r.entrant, r.territory, offer, events);
    }
}

/// The host has run its own reactions to an arrival. A window opened before
/// the offer (`offerAfter`, P-REACT-ORDER, D-252) now opens it — if the
/// entry still triggers: the entrant still has forces (not only advisors)
/// in the stronghold and the offer's conditions hold on the table as it is
/// now (token still there, entrant neither Ecaz, its ally nor the token's
/// faction, a beneficiary for whom the effect is available). Otherwise no
/// offer opens and the arrival settles.
pub(crate) fn commit_reactions_done(g: &mut Game, events: &mut Vec<Event>) {
    let closed = g.pending.pop().map(|f| f.decision);
    if let Some(Decision::HostReactions {
        arrival,
        offer_after: true,
    }) = closed
    {
        if let Some(a) = g.arrivals.iter().find(|a| a.id == arrival).copied() {
            if let Some(offer) = offer_after_reactions(g, a.entrant, a.territory) {
                open_offer(g, arrival, a.entrant, a.territory, offer, events);
            }
        }
    }
    frames::settle(g, events);
}

/// D-252: the offer a waiting entry opens once the host's reactions are done.
fn offer_after_reactions(g: &Game, entrant: Faction, territory: Territory) -> Option<Offer> {
    let present = g.faction(entrant).is_some_and(|s| {
        s.board
            .iter()
            .any(|st| st.territory == territory && st.normal.saturating_add(st.elite) > 0)
    });
    if present {
        offer_in(g, entrant, territory)
    } else {
        None
    }
}
