//! The turn's clock: the next phase, and a new turn after Mentat with its
//! turn-scoped bookkeeping reset. Used by the end of a phase (`turn`) and by
//! the end of Ecaz's placement (`placement`), which ends Revival.

use crate::base::ids::Phase;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Game, PlacementTurn};
use crate::rules::duke;

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
