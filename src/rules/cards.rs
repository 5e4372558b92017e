//! Treachery card movements shared by the effects: discarding from a hand and
//! drawing from the deck (reshuffling the discard pile into an empty deck with
//! the game's RNG, a commit point of R-INV-4).

use crate::base::ids::{CardId, Faction};
use crate::base::rng::GameRng;
use crate::model::event::{Audience, Event, EventKind};
use crate::model::game::Game;

/// An empty draw pile is refilled from its discard pile, shuffled with the
/// game's RNG (a commit point of R-INV-4): the Treachery deck (R-EFF-IX,
/// D-41) and the Nexus deck (E3 pp.10–11, D-53) alike. Returns
/// whether a reshuffle happened (never when the deck still has cards or the
/// discard pile is empty).
pub(crate) fn refill<T>(rng: &mut GameRng, deck: &mut Vec<T>, discard: &mut Vec<T>) -> bool {
    if !deck.is_empty() || discard.is_empty() {
        return false;
    }
    let mut pile = std::mem::take(discard);
    rng.shuffle(&mut pile);
    *deck = pile;
    true
}

/// Can a card be drawn (deck or discard non-empty)?
pub(crate) fn can_draw(g: &Game) -> bool {
    !g.treachery.deck.is_empty() || !g.treachery.discard.is_empty()
}

/// Move a card from a hand to the discard pile (public).
pub(crate) fn discard(g: &mut Game, faction: Faction, card: CardId, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(faction) {
        s.hand.retain(|&c| c != card);
    }
    g.treachery.discard.push(card);
    events.push(Event::public(EventKind::CardDiscarded { faction, card }));
}

/// Move several cards from one hand to the discard pile, in the order given
/// (public); one pass over the hand whatever the number of cards.
pub(crate) fn discard_many(g: &mut Game, faction: Faction, cards: &[CardId], events: &mut Vec<Event>) {
    let mut gone = vec![false; g.treachery.catalog.len()];
    for c in cards {
        if let Some(mark) = gone.get_mut(usize::from(c.0)) {
            *mark = true;
        }
    }
    if let Some(s) = g.faction_mut(faction) {
        s.hand.retain(|c| !gone.get(usize::from(c.0)).copied().unwrap_or(false));
    }
    g.treachery.discard.extend_from_slice(cards);
    events.extend(
        cards
            .iter()
            .map(|&card| Event::public(EventKind::CardDiscarded { faction, card })),
    );
}

/// Draw the top card into a hand; an empty deck is first refilled from the
/// shuffled discard pile. The identity goes to the drawer only.
pub(crate) fn draw(g: &mut Game, faction: Faction, events: &mut Vec<Event>) -> Option<CardId> {
    if refill(&mut g.rng, &mut g.treachery.deck, &mut g.treachery.discard) {
        events.push(Event::public(EventKind::DeckReshuffled {
            cards: u32::try_from(g.treachery.deck.len()).unwrap_or(u32::MAX),
        }));
        events.push(Event {
            audience: Audience::Host,
            event: EventKind::DeckOrder {
                deck: g.treachery.deck.clone(),
            },
        });
    }
    if g.treachery.deck.is_empty() {
        return None;
    }
    let card = g.treachery.deck.remove(0);
    if let Some(s) = g.faction_mut(faction) {
        s.hand.push(card);
    }
    events.push(Event::public(EventKind::CardDrawn { faction }));
    events.push(Event::only(vec![faction], EventKind::CardReceived { faction, card }));
    Some(card)
}
