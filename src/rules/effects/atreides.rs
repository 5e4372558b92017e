//! R-EFF-ATR: the beneficiary looks at the entrant's whole Treachery hand — a
//! private snapshot (no transfer), kept as private knowledge.

use crate::base::ids::Faction;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Game, Insight};
use crate::rules::knowledge;

pub(crate) fn resolve(g: &mut Game, beneficiary: Faction, entrant: Faction, events: &mut Vec<Event>) {
    let cards = g.faction(entrant).map(|s| s.hand.clone()).unwrap_or_default();
    events.push(Event::public(EventKind::HandInspected {
        by: beneficiary,
        of: entrant,
    }));
    events.push(Event::only(
        vec![beneficiary],
        EventKind::HandSeen {
            of: entrant,
            cards: cards.clone(),
        },
    ));
    knowledge::record(g, beneficiary, entrant, Insight::Hand { cards });
}
