//! Frame bookkeeping, in one place: a reaction frame is opened and
//! announced ([`open_frame`]), arrivals whose reactions have settled resume
//! ([`settle`]), and a completed cohort recycles just before the outermost
//! arrival resumes ([`recycle_if_complete`]); who sees a frame's details
//! ([`decision_audience`]). R-TRG-4, R-TRG-8, P-NEST, P-SUPPLY-VIS,
//! P-FRAME-VIS.

use crate::base::ids::{Ambassador, ArrivalId, Faction};
use crate::base::policy::{FrameVisibility, Policies, SupplyVisibility};
use crate::model::event::{Audience, Event, EventKind};
use crate::model::game::{Actor, Decision, Game, Zone};

/// D-241: who may see the details of a decision frame of kind `kind` that
/// `actor` decides — the one rule views (`pending[].decision`), per-viewer
/// events (`decisionOpened`) and narration follow. Everyone sees that the
/// frame is open, its kind and who decides; its details go to:
/// - everyone, by default;
/// - Ecaz (and the host) when P-SUPPLY-VIS is `ownerOnly` and the kind
///   reveals the supply (a placement response names a token, the BG copy
///   candidates reveal the cohort);
/// - the deciding faction (and the host) when P-FRAME-VIS is `actorOnly`
///   (host frames stay public);
/// - under both, those allowed by both (the host alone when none is).
pub(crate) fn decision_audience(policies: &Policies, actor: Actor, kind: &str) -> Audience {
    let supply = policies.supply_visibility == SupplyVisibility::OwnerOnly && Decision::kind_reveals_supply(kind);
    let decider = match actor {
        Actor::Faction(f) if policies.frame_visibility == FrameVisibility::ActorOnly => Some(f),
        _ => None,
    };
    match (supply, decider) {
        (false, None) => Audience::Public,
        (true, None) => Audience::Only {
            factions: vec![Faction::Ecaz],
        },
        (false, Some(f)) => Audience::Only { factions: vec![f] },
        (true, Some(f)) if f == Faction::Ecaz => Audience::Only { factions: vec![f] },
        (true, Some(_)) => Audience::Host,
    }
}

/// Push a reaction frame and announce it: in public when its details are
/// public, else a public copy without them and a full copy to those who may
/// see them ([`decision_audience`]).
pub(crate) fn open_frame(g: &mut Game, actor: Actor, decision: Decision, events: &mut Vec<Event>) {
    let frame = g.push_frame(actor, decision.clone());
    let decision_kind = decision.name();
    let audience = decision_audience(&g.policies, actor, decision_kind);
    let hidden = audience != Audience::Public;
    let public = EventKind::DecisionOpened {
        frame,
        actor,
        decision_kind: decision_kind.to_string(),
        decision: (!hidden).then(|| decision.clone()),
    };
    events.push(Event::public(public));
    if hidden {
        let full = EventKind::DecisionOpened {
            frame,
            actor,
            decision_kind: decision_kind.to_string(),
            decision: Some(decision),
        };
        events.push(Event { audience, event: full });
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
    let busy: std::collections::BTreeSet<ArrivalId> = crate::base::order::set_of(
        g.pending
            .iter()
            .filter_map(|f| f.decision.arrival())
            .chain(g.arrivals.iter().filter_map(|a| a.parent)),
    );
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
        crate::base::order::order_by_key(&mut returned, |&t| t);
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
