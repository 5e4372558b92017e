//! R-EFF-IX: the beneficiary discards one Treachery card, then draws one; an
//! empty deck is refilled from the discard pile after the discard.

use crate::base::ids::{Ambassador, ArrivalId, CardId, Faction};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::Game;
use crate::rules::{cards, effects, frames};

/// P-UNAVAILABLE: the beneficiary holds a card to discard (hand sizes are public).
pub(crate) fn can_act(g: &Game, beneficiary: Faction) -> bool {
    g.faction(beneficiary).is_some_and(|s| !s.hand.is_empty())
}

/// A validated Ixian swap.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Swap {
    arrival: ArrivalId,
    beneficiary: Faction,
    card: CardId,
}

pub(crate) fn check_swap(g: &Game, arrival: ArrivalId, beneficiary: Faction, card: CardId) -> Result<Swap, ApplyError> {
    if !g.faction(beneficiary).is_some_and(|s| s.hand.contains(&card)) {
        return Err(ApplyError::CardNotHeld {
            faction: beneficiary,
            card,
        });
    }
    Ok(Swap {
        arrival,
        beneficiary,
        card,
    })
}

/// Discard first, then draw: the discarded card may come back if the deck was
/// empty and the discard pile is reshuffled.
pub(crate) fn commit_swap(g: &mut Game, s: Swap, events: &mut Vec<Event>) {
    g.pending.pop();
    cards::discard(g, s.beneficiary, s.card, events);
    cards::draw(g, s.beneficiary, events);
    effects::resolved(s.arrival, Ambassador::Ixians, s.beneficiary, events);
    frames::settle(g, events);
}
