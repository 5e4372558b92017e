//! The turn structure: phase boundaries reported by the host.

use crate::base::ids::{Faction, Phase};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Actor, Decision, Game};
use crate::rules::{clock, placement};

/// Validate `endPhase`: the host names the phase that ends, which must be the current one.
pub(crate) fn check_end_phase(g: &Game, phase: Phase) -> Result<(), ApplyError> {
    if g.phase != phase {
        return Err(ApplyError::PhaseMismatch {
            named: phase,
            actual: g.phase,
        });
    }
    Ok(())
}

/// End the current phase. Ending Revival opens Ecaz's placement when Ecaz is
/// seated and has not used this turn's opportunity (R-PLC-1); the phase then
/// ends when the placement closes.
pub(crate) fn commit_end_phase(g: &mut Game, events: &mut Vec<Event>) {
    if g.phase == Phase::Revival && g.is_seated(Faction::Ecaz) && !g.ambassadors.placement.closed {
        let frame = g.push_frame(Actor::Faction(Faction::Ecaz), Decision::Placement);
        events.push(Event::public(EventKind::PlacementOpened {
            frame,
            next_cost: placement::next_cost(g),
        }));
        return;
    }
    clock::advance(g, events);
}
