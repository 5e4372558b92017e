//! R-EFF-CHOAM: the beneficiary discards any number of its own Treachery
//! cards (none allowed) and receives 3 spice from the bank for each.

use crate::base::ids::{Ambassador, ArrivalId, CardId, Faction};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::Game;
use crate::rules::{cards, effects, frames};

/// Spice per discarded card (E3 p.8).
pub(crate) const PER_CARD: u32 = 3;

/// Does the beneficiary hold any card to discard? (hand sizes are public)
pub(crate) fn has_cards(g: &Game, beneficiary: Faction) -> bool {
    g.faction(beneficiary).is_some_and(|s| !s.hand.is_empty())
}

/// A validated CHOAM discard.
#[derive(Debug, Clone)]
pub(crate) struct DiscardForSpice {
    arrival: ArrivalId,
    beneficiary: Faction,
    cards: Vec<CardId>,
}

/// R-EFF-CHOAM, D-83: `chosen` is a set of the beneficiary's cards, named in
/// any order, each once. Linear in the hand and the choice (marks by card id).
pub(crate) fn check_discard_for_spice(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    chosen: &[CardId],
) -> Result<DiscardForSpice, ApplyError> {
    let hand = g.faction(beneficiary).map(|s| s.hand.as_slice()).unwrap_or_default();
    let slots = g.treachery.catalog.len();
    let mut held = vec![false; slots];
    for c in hand {
        if let Some(mark) = held.get_mut(usize::from(c.0)) {
            *mark = true;
        }
    }
    let mut named = vec![false; slots];
    for &card in chosen {
        let i = usize::from(card.0);
        if !held.get(i).copied().unwrap_or(false) {
            return Err(ApplyError::CardNotHeld {
                faction: beneficiary,
                card,
            });
        }
        match named.get_mut(i) {
            Some(seen) if *seen => return Err(ApplyError::DuplicateCard(card)),
            Some(seen) => *seen = true,
            None => {}
        }
    }
    // The canonical order is the hand's: `[16, 27]` and `[27, 16]` make the
    // same state and the same events.
    let cards = hand
        .iter()
        .copied()
        .filter(|c| named.get(usize::from(c.0)).copied().unwrap_or(false))
        .collect();
    Ok(DiscardForSpice {
        arrival,
        beneficiary,
        cards,
    })
}

pub(crate) fn commit_discard_for_spice(g: &mut Game, d: DiscardForSpice, events: &mut Vec<Event>) {
    g.pending.pop();
    cards::discard_many(g, d.beneficiary, &d.cards, events);
    let earned = PER_CARD.saturating_mul(u32::try_from(d.cards.len()).unwrap_or(u32::MAX));
    // D-71: the bank pays at most up to the spice ceiling.
    let amount = crate::rules::table::grant_spice(g, d.beneficiary, earned);
    if amount > 0 {
        events.push(Event::public(EventKind::SpiceGained {
            faction: d.beneficiary,
            amount,
        }));
    }
    effects::resolved(d.arrival, Ambassador::Choam, d.beneficiary, events);
    frames::settle(g, events);
}
