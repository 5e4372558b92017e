//! R-EFF-ECAZ: either (a) the beneficiary takes Duke Vidal (not from the
//! Tanks, capture or a ghola; kept until used in a battle; P-ECAZ-ALLY lets
//! an ally beneficiary take him), or (b) when neither Ecaz nor the entrant is
//! allied, the entrant is offered an alliance, which only it answers; on
//! acceptance Ecaz may lend the Duke to its new ally for this turn
//! (P-DUKE-LOAN). Exactly one branch per trigger; the token returns to supply.

use crate::base::ids::{Ambassador, ArrivalId, Faction};
use crate::model::command::EcazBranch;
use crate::model::error::ApplyError;
use crate::model::event::{DukeReason, Event, EventKind};
use crate::model::game::{Actor, Decision, DukeCustody, DukeSource, Game};
use crate::rules::{alliance, duke, effects, frames};

/// Branch (a) possible for this beneficiary?
pub(crate) fn duke_branch(g: &Game, beneficiary: Faction) -> bool {
    duke::can_take(g, beneficiary)
}

/// Branch (b) possible? Ecaz's own branch (P-ECAZ-ALLY), both unallied.
pub(crate) fn alliance_branch(g: &Game, entrant: Faction, beneficiary: Faction) -> bool {
    beneficiary == Faction::Ecaz && alliance::both_unallied(g, Faction::Ecaz, entrant)
}

/// P-UNAVAILABLE: at least one branch is possible (public information).
pub(crate) fn can_act(g: &Game, entrant: Faction, beneficiary: Faction) -> bool {
    duke_branch(g, beneficiary) || alliance_branch(g, entrant, beneficiary)
}

/// Start: with both branches open, Ecaz picks; with one, it runs.
pub(crate) fn start(g: &mut Game, arrival: ArrivalId, entrant: Faction, beneficiary: Faction, events: &mut Vec<Event>) {
    match (duke_branch(g, beneficiary), alliance_branch(g, entrant, beneficiary)) {
        (true, true) => {
            let d = Decision::EcazBranch {
                arrival,
                entrant,
                beneficiary,
            };
            frames::open_frame(g, Actor::Faction(Faction::Ecaz), d, events);
        }
        (true, false) => take(g, arrival, beneficiary, events),
        (false, true) => offer(g, arrival, entrant, events),
        (false, false) => effects::resolved(arrival, Ambassador::Ecaz, beneficiary, events),
    }
}

fn take(g: &mut Game, arrival: ArrivalId, beneficiary: Faction, events: &mut Vec<Event>) {
    let custody = DukeCustody::Controlled {
        by: beneficiary,
        source: DukeSource::EcazAmbassador,
    };
    duke::set(g, custody, DukeReason::Ambassador, events);
    effects::resolved(arrival, Ambassador::Ecaz, beneficiary, events);
}

fn offer(g: &mut Game, arrival: ArrivalId, entrant: Faction, events: &mut Vec<Event>) {
    let d = Decision::AllianceOffer { arrival, entrant };
    frames::open_frame(g, Actor::Faction(entrant), d, events);
}

/// A validated branch choice.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Branch {
    arrival: ArrivalId,
    entrant: Faction,
    beneficiary: Faction,
    branch: EcazBranch,
}

pub(crate) fn check_branch(
    g: &Game,
    arrival: ArrivalId,
    entrant: Faction,
    beneficiary: Faction,
    branch: EcazBranch,
) -> Result<Branch, ApplyError> {
    let possible = match branch {
        EcazBranch::Duke => duke_branch(g, beneficiary),
        EcazBranch::Alliance => alliance_branch(g, entrant, beneficiary),
    };
    if !possible {
        return Err(ApplyError::BranchUnavailable(branch));
    }
    Ok(Branch {
        arrival,
        entrant,
        beneficiary,
        branch,
    })
}

pub(crate) fn commit_branch(g: &mut Game, b: Branch, events: &mut Vec<Event>) {
    g.pending.pop();
    match b.branch {
        EcazBranch::Duke => take(g, b.arrival, b.beneficiary, events),
        EcazBranch::Alliance => offer(g, b.arrival, b.entrant, events),
    }
    frames::settle(g, events);
}

/// A validated alliance answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Answer {
    arrival: ArrivalId,
    entrant: Faction,
    accept: bool,
}

pub(crate) fn check_answer(g: &Game, arrival: ArrivalId, entrant: Faction, accept: bool) -> Result<Answer, ApplyError> {
    if accept && !alliance::both_unallied(g, Faction::Ecaz, entrant) {
        return Err(ApplyError::BranchUnavailable(EcazBranch::Alliance));
    }
    Ok(Answer {
        arrival,
        entrant,
        accept,
    })
}

/// Acceptance forms the alliance, then Ecaz may lend the Duke; refusal ends the effect.
pub(crate) fn commit_answer(g: &mut Game, a: Answer, events: &mut Vec<Event>) {
    g.pending.pop();
    if a.accept {
        alliance::form(g, Faction::Ecaz, a.entrant, events);
        if duke::can_lend(g) {
            let d = Decision::DukeLoan {
                arrival: a.arrival,
                ally: a.entrant,
            };
            frames::open_frame(g, Actor::Faction(Faction::Ecaz), d, events);
        } else {
            effects::resolved(a.arrival, Ambassador::Ecaz, Faction::Ecaz, events);
        }
    } else {
        events.push(Event::public(EventKind::AllianceRefused { entrant: a.entrant }));
        effects::resolved(a.arrival, Ambassador::Ecaz, Faction::Ecaz, events);
    }
    frames::settle(g, events);
}

/// A validated loan answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Loan {
    arrival: ArrivalId,
    ally: Faction,
    lend: bool,
}

pub(crate) fn check_loan(g: &Game, arrival: ArrivalId, ally: Faction, lend: bool) -> Result<Loan, ApplyError> {
    if lend && !duke::can_lend(g) {
        return Err(ApplyError::DukeUnavailable);
    }
    Ok(Loan { arrival, ally, lend })
}

pub(crate) fn commit_loan(g: &mut Game, l: Loan, events: &mut Vec<Event>) {
    g.pending.pop();
    if l.lend {
        duke::lend(g, l.ally, events);
    }
    effects::resolved(l.arrival, Ambassador::Ecaz, Faction::Ecaz, events);
    frames::settle(g, events);
}
