//! Alliances formed by the Ecaz Ambassador (R-EFF-ECAZ (b)) and the Nexus
//! rule that joining an alliance discards a held Nexus card (RULES §7).

use crate::base::ids::Faction;
use crate::model::event::{Event, EventKind};
use crate::model::game::Game;

/// Are both factions seated and unallied?
pub(crate) fn both_unallied(g: &Game, a: Faction, b: Faction) -> bool {
    a != b && g.faction(a).is_some_and(|s| s.ally.is_none()) && g.faction(b).is_some_and(|s| s.ally.is_none())
}

/// Form the alliance; each partner's held Nexus card is discarded.
pub(crate) fn form(g: &mut Game, a: Faction, b: Faction, events: &mut Vec<Event>) {
    let g_turn = g.turn;
    for (me, other) in [(a, b), (b, a)] {
        let held = g.faction_mut(me).and_then(|s| {
            s.ally = Some(other);
            s.ally_since = Some(g_turn);
            s.nexus.take()
        });
        if let Some(card) = held {
            g.nexus.discard.push(card);
            events.push(Event::public(EventKind::NexusDiscarded { faction: me, card }));
        }
    }
    events.push(Event::public(EventKind::AllianceFormed { a, b }));
}
