//! R-EFF-EMP: the beneficiary receives 5 spice from the bank.

use crate::event::{Event, EventKind};
use crate::game::Game;
use crate::ids::Faction;

/// Spice granted (E3 p.8).
pub(crate) const GRANT: u32 = 5;

pub(crate) fn resolve(g: &mut Game, beneficiary: Faction, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(beneficiary) {
        s.spice = s.spice.saturating_add(GRANT);
    }
    events.push(Event::public(EventKind::SpiceGained {
        faction: beneficiary,
        amount: GRANT,
    }));
}
