//! Trigger offers, disposal, settling and recycling (R-TRG-1, R-TRG-4..8).

use crate::base::ids::{Ambassador, ArrivalId, Faction, Territory};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Decision, Game, Zone};
use crate::rules::{effects, frames};

/// The open trigger offer, as data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OfferData<'a> {
    pub arrival: ArrivalId,
    pub token: Ambassador,
    pub territory: Territory,
    pub entrant: Faction,
    pub beneficiaries: &'a [Faction],
}

/// A validated trigger.
#[derive(Debug, Clone)]
pub(crate) struct Trigger {
    arrival: ArrivalId,
    token: Ambassador,
    territory: Territory,
    entrant: Faction,
    beneficiary: Faction,
    effect: effects::Start,
}

/// A validated decline.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decline {
    arrival: ArrivalId,
    token: Ambassador,
    territory: Territory,
}

/// R-TRG-1: declining is always possible.
pub(crate) fn check_decline(o: OfferData<'_>) -> Decline {
    Decline {
        arrival: o.arrival,
        token: o.token,
        territory: o.territory,
    }
}

/// R-TRG-1: the token stays; nothing else changes.
pub(crate) fn commit_decline(g: &mut Game, d: Decline, events: &mut Vec<Event>) {
    g.pending.pop();
    events.push(Event::public(EventKind::TriggerDeclined {
        arrival: d.arrival,
        token: d.token,
        territory: d.territory,
    }));
    frames::settle(g, events);
}

/// R-TRG-5, P-UNAVAILABLE: validate the trigger and prepare the effect.
pub(crate) fn check_trigger(g: &Game, o: OfferData<'_>, beneficiary: Faction) -> Result<Trigger, ApplyError> {
    if !o.beneficiaries.contains(&beneficiary) {
        let ally = g.faction(Faction::Ecaz).and_then(|s| s.ally);
        if beneficiary != Faction::Ecaz && ally != Some(beneficiary) {
            return Err(ApplyError::NotABeneficiary(beneficiary));
        }
        return Err(ApplyError::EffectUnavailable {
            effect: o.token,
            beneficiary,
        });
    }
    // R-TRG-7: a token disposed of by a nested reaction cannot be triggered again.
    if g.ambassadors.placed_in(o.territory) != Some(o.token) {
        return Err(ApplyError::TokenGone {
            token: o.token,
            territory: o.territory,
        });
    }
    let effect = effects::prepare(g, o.arrival, o.token, o.entrant, beneficiary)?;
    Ok(Trigger {
        arrival: o.arrival,
        token: o.token,
        territory: o.territory,
        entrant: o.entrant,
        beneficiary,
        effect,
    })
}

/// R-TRG-6: where a triggered token goes.
pub(crate) fn disposal(token: Ambassador) -> Zone {
    match token {
        Ambassador::Ecaz => Zone::Supply,
        Ambassador::BeneGesserit => Zone::Removed,
        _ => Zone::Used,
    }
}

/// Commit the trigger: dispose of the token (which therefore cannot trigger
/// again, R-TRG-7), then start its effect; settle.
pub(crate) fn commit_trigger(g: &mut Game, t: Trigger, events: &mut Vec<Event>) {
    g.pending.pop();
    let zone = disposal(t.token);
    g.ambassadors.set_zone(t.token, zone);
    events.push(Event::public(EventKind::AmbassadorTriggered {
        arrival: t.arrival,
        token: t.token,
        territory: t.territory,
        entrant: t.entrant,
        beneficiary: t.beneficiary,
        disposal: zone,
    }));
    withdraw_offers(g, t.token, events);
    effects::start(g, t.effect, events);
    frames::settle(g, events);
}

/// R-TRG-7 (D-55): once a token is disposed of, every other pending offer
/// of that token (a parent arrival's, when a nested reaction triggered it
/// first) can no longer be answered; it is withdrawn by itself, each with its
/// own `triggerOfferWithdrawn` event (never a misleading `triggerDeclined`).
fn withdraw_offers(g: &mut Game, token: Ambassador, events: &mut Vec<Event>) {
    let stale = |d: &Decision| matches!(d, Decision::TriggerOffer { token: t, .. } if *t == token);
    for f in g.pending.iter().filter(|f| stale(&f.decision)) {
        if let Decision::TriggerOffer { arrival, territory, .. } = f.decision {
            events.push(Event::public(EventKind::TriggerOfferWithdrawn {
                frame: f.id,
                arrival,
                token,
                territory,
            }));
        }
    }
    let withdrawn: Vec<ArrivalId> = g
        .pending
        .iter()
        .filter_map(|f| match f.decision {
            Decision::TriggerOffer { arrival, token: t, .. } if t == token => Some(arrival),
            _ => None,
        })
        .collect();
    g.pending.retain(|f| !stale(&f.decision));
    // An arrival left with nothing to settle — no frame of its own, no open
    // child (its offer was withdrawn by a sibling reaction above it) — has
    // settled: it resumes now, not when the arrivals above it do. (A parent
    // of the triggering arrival keeps its open child and settles after it.)
    for arrival in withdrawn {
        let busy = g.pending.iter().any(|f| f.decision.arrival() == Some(arrival))
            || g.arrivals.iter().any(|a| a.parent == Some(arrival));
        if !busy {
            g.arrivals.retain(|a| a.id != arrival);
            events.push(Event::public(EventKind::Resume { arrival }));
        }
    }
}
