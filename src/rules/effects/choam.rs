//! R-EFF-CHOAM: the beneficiary discards any number of its own Treachery
//! cards (none allowed) and receives 3 spice from the bank for each.

use crate::error::ApplyError;
use crate::event::{Event, EventKind};
use crate::game::Game;
use crate::ids::{Ambassador, ArrivalId, CardId, Faction};
use crate::rules::{cards, effects, trigger};

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

pub(crate) fn check_discard_for_spice(
    g: &Game,
    arrival: ArrivalId,
    beneficiary: Faction,
    chosen: &[CardId],
) -> Result<DiscardForSpice, ApplyError> {
    let hand = g.faction(beneficiary).map(|s| s.hand.as_slice()).unwrap_or_default();
    for (i, card) in chosen.iter().enumerate() {
        if chosen.iter().take(i).any(|c| c == card) {
            return Err(ApplyError::DuplicateCard(*card));
        }
        if !hand.contains(card) {
            return Err(ApplyError::CardNotHeld {
                faction: beneficiary,
                card: *card,
            });
        }
    }
    Ok(DiscardForSpice {
        arrival,
        beneficiary,
        cards: chosen.to_vec(),
    })
}

pub(crate) fn commit_discard_for_spice(g: &mut Game, d: DiscardForSpice, events: &mut Vec<Event>) {
    g.pending.pop();
    for &card in &d.cards {
        cards::discard(g, d.beneficiary, card, events);
    }
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
    trigger::settle(g, events);
}
