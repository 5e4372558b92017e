//! R-EFF-BG: the beneficiary uses the effect of an Ambassador that was not in
//! Ecaz's supply this cycle (P-BG-POOL); Ecaz picks it, the beneficiary makes
//! that effect's own choices. The BG token is removed (at the trigger, R-TRG-6);
//! the copied token is neither moved nor marked used. Never copies Ecaz. The
//! matching-faction exclusion applied to the BG token at the entry, not to the
//! copied effect, so a copy of Harkonnen may target a Harkonnen entrant.

use crate::base::ids::{Ambassador, ArrivalId, Faction};
use crate::base::policy::BgPool;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Game, Zone};
use crate::rules::{effects, frames};

/// The copyable identities for this beneficiary, in [`Ambassador::ALL`] order.
pub(crate) fn candidates(g: &Game, entrant: Faction, beneficiary: Faction) -> Vec<Ambassador> {
    let a = &g.ambassadors;
    Ambassador::NON_ECAZ
        .into_iter()
        .filter(|&t| t != Ambassador::BeneGesserit)
        .filter(|&t| match g.policies.bg_pool {
            BgPool::OutsideOriginalSupply => !a.cohort.contains(&t),
            BgPool::NotInSupplyNow => a.zone(t) != Zone::Supply,
        })
        .filter(|&t| effects::triggerable(g, t, entrant, beneficiary))
        .collect()
}

/// A validated copy choice.
#[derive(Debug, Clone)]
pub(crate) struct Copy {
    start: effects::Start,
    arrival: ArrivalId,
    effect: Ambassador,
}

pub(crate) fn check_copy(
    arrival: ArrivalId,
    entrant: Faction,
    beneficiary: Faction,
    candidates: &[Ambassador],
    effect: Ambassador,
) -> Result<Copy, ApplyError> {
    if !candidates.contains(&effect) {
        return Err(ApplyError::NotCopyable(effect));
    }
    // The candidates were frozen when BG triggered (R-EFF-BG): a nested
    // reaction since then does not withdraw one; an effect that can no longer
    // do anything simply resolves doing nothing.
    let start = effects::frozen(arrival, effect, entrant, beneficiary);
    Ok(Copy { start, arrival, effect })
}

pub(crate) fn commit_copy(g: &mut Game, c: Copy, events: &mut Vec<Event>) {
    g.pending.pop();
    events.push(Event::public(EventKind::EffectCopied {
        arrival: c.arrival,
        effect: c.effect,
    }));
    effects::start(g, c.start, events);
    frames::settle(g, events);
}
