//! The Ambassador effects (RULES §5), one file per identity.
//!
//! An effect is *prepared* when Ecaz triggers (validation against the
//! unchanged game, P-UNAVAILABLE), *started* when the trigger commits (fixed
//! effects resolve at once; choice effects open a frame for the beneficiary,
//! R-TRG-5), and *resolved* when its last choice commits.

mod atreides;
mod bg;
mod choam;
mod ecaz;
mod emperor;
mod fremen;
mod guild;
mod harkonnen;
mod ixian;
mod richese;
mod tleilaxu;

use crate::base::ids::{Ambassador, ArrivalId, Faction};
use crate::base::policy::Unavailable;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Actor, Decision, Game};
use crate::rules::frames;

pub(crate) use bg::{check_copy, commit_copy, Copy};
pub(crate) use choam::{check_discard_for_spice, commit_discard_for_spice, DiscardForSpice};
pub(crate) use ecaz::{
    check_answer, check_branch, check_loan, commit_answer, commit_branch, commit_loan, Answer, Branch, Loan,
};
pub(crate) use fremen::{check_relocate, commit_relocate, Relocation};
pub(crate) use guild::{check_ship, commit_ship, Shipment};
pub(crate) use ixian::{check_swap, commit_swap, Swap};
pub(crate) use richese::{check_buy, commit_buy, Buy};
pub(crate) use tleilaxu::{
    check_duke as check_revive_duke, check_forces as check_revive_forces, check_leader as check_revive_leader,
    commit_revive, Revival,
};

/// Descriptors for the board effects' options.
pub(crate) mod describe {
    pub(crate) use super::bg::candidates as copy_candidates;
    pub(crate) use super::fremen::check_destination;
    pub(crate) use super::guild::MAX as GUILD_MAX;
    pub(crate) use super::tleilaxu::{dead_leaders, duke_revivable, elite_left, MAX as TLEILAXU_MAX};
}

/// P-UNAVAILABLE: may `effect` be triggered for `beneficiary` against `entrant`?
/// Decided from public information only (hand sizes, Traitor card counts),
/// so the answer never leaks a secret.
pub(crate) fn triggerable(g: &Game, effect: Ambassador, entrant: Faction, beneficiary: Faction) -> bool {
    if g.policies.unavailable == Unavailable::AlwaysTriggerable {
        return true;
    }
    match effect {
        Ambassador::Ixians => ixian::can_act(g, beneficiary),
        Ambassador::Harkonnen => harkonnen::can_act(g, entrant),
        Ambassador::Ecaz => ecaz::can_act(g, entrant, beneficiary),
        Ambassador::BeneGesserit => !bg::candidates(g, entrant, beneficiary).is_empty(),
        _ => true,
    }
}

/// A prepared effect, ready to start at the trigger's commit.
#[derive(Debug, Clone)]
pub(crate) struct Start {
    arrival: ArrivalId,
    effect: Ambassador,
    entrant: Faction,
    beneficiary: Faction,
    /// BG only: the copyable identities, frozen now (R-EFF-BG).
    candidates: Vec<Ambassador>,
}

/// Validate that `effect` may run for `beneficiary` and freeze its inputs.
pub(crate) fn prepare(
    g: &Game,
    arrival: ArrivalId,
    effect: Ambassador,
    entrant: Faction,
    beneficiary: Faction,
) -> Result<Start, ApplyError> {
    if !triggerable(g, effect, entrant, beneficiary) {
        return Err(ApplyError::EffectUnavailable { effect, beneficiary });
    }
    let candidates = if effect == Ambassador::BeneGesserit {
        bg::candidates(g, entrant, beneficiary)
    } else {
        Vec::new()
    };
    Ok(Start {
        arrival,
        effect,
        entrant,
        beneficiary,
        candidates,
    })
}

/// An effect chosen from frozen choices (the BG copy): no availability
/// re-check; `start` handles an effect that can no longer do anything.
pub(crate) fn frozen(arrival: ArrivalId, effect: Ambassador, entrant: Faction, beneficiary: Faction) -> Start {
    Start {
        arrival,
        effect,
        entrant,
        beneficiary,
        candidates: Vec::new(),
    }
}

/// Start a prepared effect (inside a commit).
pub(crate) fn start(g: &mut Game, s: Start, events: &mut Vec<Event>) {
    let (arrival, b, e) = (s.arrival, s.beneficiary, s.entrant);
    match s.effect {
        Ambassador::Emperor => emperor::resolve(g, b, events),
        Ambassador::Atreides => atreides::resolve(g, b, e, events),
        Ambassador::Harkonnen => harkonnen::resolve(g, b, e, events),
        Ambassador::Ecaz => return ecaz::start(g, arrival, e, b, events),
        Ambassador::Choam if choam::has_cards(g, b) => {
            return open(
                g,
                b,
                Decision::ChoamDiscard {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::Ixians if ixian::can_act(g, b) => {
            return open(
                g,
                b,
                Decision::IxianSwap {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::Fremen if fremen::has_forces(g, b) => {
            return open(
                g,
                b,
                Decision::FremenRelocation {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::Guild if g.faction(b).is_some_and(|s| s.reserves.total() > 0) => {
            return open(
                g,
                b,
                Decision::GuildShipment {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::Tleilaxu if tleilaxu::anything(g, b) => {
            return open(
                g,
                b,
                Decision::TleilaxuRevival {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::Richese if richese::has_room(g, b) => {
            return open(
                g,
                b,
                Decision::RicheseBuy {
                    arrival,
                    beneficiary: b,
                },
                events,
            );
        }
        Ambassador::BeneGesserit if !s.candidates.is_empty() => {
            let copy = Decision::CopyEffect {
                arrival,
                entrant: e,
                beneficiary: b,
                candidates: s.candidates,
            };
            return frames::open_frame(g, Actor::Faction(Faction::Ecaz), copy, events);
        }
        // Nothing the effect can do (P-UNAVAILABLE `alwaysTriggerable`, an
        // empty CHOAM hand, a full Richese hand, no forces to move, ship or
        // revive): it resolves doing nothing.
        _ => {}
    }
    resolved(arrival, s.effect, b, events);
}

fn open(g: &mut Game, beneficiary: Faction, decision: Decision, events: &mut Vec<Event>) {
    frames::open_frame(g, Actor::Faction(beneficiary), decision, events);
}

/// A beneficiary using nothing of an effect it may use in part (`pass`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pass {
    arrival: ArrivalId,
    effect: Ambassador,
    beneficiary: Faction,
}

impl Pass {
    pub(crate) fn new(arrival: ArrivalId, effect: Ambassador, beneficiary: Faction) -> Self {
        Pass {
            arrival,
            effect,
            beneficiary,
        }
    }
}

pub(crate) fn commit_pass(g: &mut Game, p: Pass, events: &mut Vec<Event>) {
    g.pending.pop();
    resolved(p.arrival, p.effect, p.beneficiary, events);
    frames::settle(g, events);
}

/// Announce that an effect finished.
pub(crate) fn resolved(arrival: ArrivalId, effect: Ambassador, beneficiary: Faction, events: &mut Vec<Event>) {
    events.push(Event::public(EventKind::EffectResolved {
        arrival,
        effect,
        beneficiary,
    }));
}
