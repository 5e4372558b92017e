//! Trigger offers, disposal, settling and recycling (R-TRG-1, R-TRG-4..8).

use crate::error::ApplyError;
use crate::event::{Audience, Event, EventKind};
use crate::game::{Actor, Decision, Game, Zone};
use crate::ids::{Ambassador, ArrivalId, Faction, Territory};
use crate::policy::SupplyVisibility;
use crate::rules::effects;

/// Push a reaction frame and announce it (its content per P-SUPPLY-VIS).
pub(crate) fn open_frame(g: &mut Game, actor: Actor, decision: Decision, events: &mut Vec<Event>) {
    let frame = g.push_frame(actor, decision.clone());
    let decision_kind = decision.name().to_string();
    let hidden = decision.reveals_supply() && g.policies.supply_visibility == SupplyVisibility::OwnerOnly;
    let public = EventKind::DecisionOpened {
        frame,
        actor,
        decision_kind: decision_kind.clone(),
        decision: (!hidden).then(|| decision.clone()),
    };
    events.push(Event::public(public));
    if hidden {
        let full = EventKind::DecisionOpened {
            frame,
            actor,
            decision_kind,
            decision: Some(decision),
        };
        events.push(Event::only(vec![Faction::Ecaz], full));
    }
}

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
    settle(g, events);
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
    settle(g, events);
}

/// R-TRG-7 (issue 17): once a token is disposed of, every other pending offer
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

/// R-TRG-4, R-TRG-8, P-NEST: close every arrival whose reactions (children
/// included) have settled, innermost first, each with its one `resume`. Just
/// before the outermost arrival resumes, a completed cohort recycles — so the
/// recycle follows the effect that completed it and everything it caused.
///
/// An arrival settles when no frame of its own and no open child remain —
/// wherever it is in the list, not only on top: a sibling reported after it
/// may still be open when its last child resumes (its own offer having been
/// withdrawn while that child was open, R-TRG-7). Found by the offline
/// self-play run (seed 101681): the arrival was left open with nothing to
/// settle, a state the loader refuses.
pub(crate) fn settle(g: &mut Game, events: &mut Vec<Event>) {
    while let Some(id) = next_settled(g) {
        if g.arrivals.len() == 1 {
            recycle_if_complete(g, events);
        }
        g.arrivals.retain(|a| a.id != id);
        events.push(Event::public(EventKind::Resume { arrival: id }));
    }
}

/// The most recent open arrival with no frame of its own and no open child.
fn next_settled(g: &Game) -> Option<ArrivalId> {
    let busy: std::collections::BTreeSet<ArrivalId> = g
        .pending
        .iter()
        .filter_map(|f| f.decision.arrival())
        .chain(g.arrivals.iter().filter_map(|a| a.parent))
        .collect();
    g.arrivals.iter().rev().map(|a| a.id).find(|id| !busy.contains(id))
}

/// R-TRG-8: when every cohort token is used or removed, used tokens return to
/// the pool and five new tokens are drawn from it (BG, once removed, stays out).
pub(crate) fn recycle_if_complete(g: &mut Game, events: &mut Vec<Event>) {
    let a = &g.ambassadors;
    if a.cohort.is_empty()
        || !a
            .cohort
            .iter()
            .all(|&t| matches!(a.zone(t), Zone::Used | Zone::Removed))
    {
        return;
    }
    // BG is never `used` (R-TRG-6; a state claiming so is refused on load), so
    // it can never be among the returned tokens.
    let mut returned: Vec<Ambassador> = a
        .cohort
        .iter()
        .copied()
        .filter(|&t| t != Ambassador::BeneGesserit && a.zone(t) == Zone::Used)
        .collect();
    if g.policies.supply_visibility == SupplyVisibility::OwnerOnly {
        // The set returned is public by now, the cohort's order is not:
        // listed in token order (P-SUPPLY-VIS, D-184).
        returned.sort_unstable();
    }
    for &t in &returned {
        g.ambassadors.set_zone(t, Zone::Pool);
    }
    let pool: Vec<Ambassador> = g
        .ambassadors
        .in_zone(Zone::Pool)
        .filter(|&t| t != Ambassador::Ecaz)
        .collect();
    let drawn = g.rng.sample(&pool, 5);
    for &t in &drawn {
        g.ambassadors.set_zone(t, Zone::Supply);
    }
    g.ambassadors.cohort = drawn.clone();
    g.ambassadors.cycle = g.ambassadors.cycle.saturating_add(1);
    events.push(Event::public(EventKind::CohortRecycled {
        returned,
        cycle: g.ambassadors.cycle,
    }));
    let audience = match g.policies.supply_visibility {
        SupplyVisibility::Public => Audience::Public,
        SupplyVisibility::OwnerOnly => Audience::Only {
            factions: vec![Faction::Ecaz],
        },
    };
    events.push(Event {
        audience,
        event: EventKind::CohortDrawn { tokens: drawn },
    });
}
