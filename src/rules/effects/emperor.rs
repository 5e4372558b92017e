//! R-EFF-EMP: the beneficiary receives 5 spice from the bank.

use crate::base::ids::Faction;
use crate::model::event::{Event, EventKind};
use crate::model::game::Game;

/// Spice granted (E3 p.8).
pub(crate) const GRANT: u32 = 5;

/// D-71: at most up to the spice ceiling; nothing is announced when nothing is granted.
pub(crate) fn resolve(g: &mut Game, beneficiary: Faction, events: &mut Vec<Event>) {
    let amount = crate::rules::table::grant_spice(g, beneficiary, GRANT);
    if amount > 0 {
        events.push(Event::public(EventKind::SpiceGained {
            faction: beneficiary,
            amount,
        }));
    }
}
