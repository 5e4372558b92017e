//! The turn structure: phase boundaries reported by the host.

use crate::error::ApplyError;
use crate::event::{Event, EventKind};
use crate::game::{Actor, Decision, Game, PlacementTurn};
use crate::ids::{Faction, Phase};
use crate::rules::{duke, placement};

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
    advance(g, events);
}

/// Move to the next phase; after Mentat a new turn begins with Storm and the
/// turn-scoped bookkeeping resets (R-PLC-2: the placement counter resets each turn).
pub(crate) fn advance(g: &mut Game, events: &mut Vec<Event>) {
    g.shipment_begun = false;
    match g.phase.next() {
        Some(next) => g.phase = next,
        None => {
            duke::end_turn(g, events);
            g.turn = g.turn.saturating_add(1);
            g.phase = Phase::Storm;
            g.ambassadors.placement = PlacementTurn::default();
            for s in &mut g.factions {
                s.elite_revived = 0;
            }
        }
    }
    events.push(Event::public(EventKind::PhaseStarted {
        turn: g.turn,
        phase: g.phase,
    }));
}
