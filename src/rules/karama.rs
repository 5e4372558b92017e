//! Karama response windows (R-PLC-5, P-NEX-BET-TIME): the host reports that
//! a faction plays a Karama card it holds; the card goes to the discard pile.
//! In the Advanced game the Bene Gesserit may play any worthless card as a
//! Karama (base rules, BG Advanced advantage; D-49, D-164) in every window.
//! The host's rules may let more card kinds count (P-KARAMA-HOST, D-250), and
//! the host may vouch for one card on the report itself (D-251).

use crate::base::board;
use crate::base::ids::{CardId, Faction};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::Game;
use crate::rules::cards;

/// `by` is seated, is not `excluded` (the faction whose act is answered), and
/// holds `card`, a Karama — or any card when the host vouches that it counts
/// as one here (`vouched`, D-251: custody is still checked).
pub(crate) fn check(g: &Game, by: Faction, card: CardId, excluded: Faction, vouched: bool) -> Result<(), ApplyError> {
    let holder = g.faction(by).ok_or(ApplyError::NotSeated(by))?;
    if by == excluded {
        return Err(ApplyError::OwnPlacement(by));
    }
    if !holder.hand.contains(&card) {
        return Err(ApplyError::CardNotHeld { faction: by, card });
    }
    if !vouched && !counts_as_karama(g, by, card) {
        let kind = g.treachery.kind(card).unwrap_or_default();
        return Err(ApplyError::NotKarama {
            card,
            kind: kind.to_string(),
        });
    }
    Ok(())
}

/// Does `card` serve `by` as a Karama? A Karama card does; in the Advanced
/// game (`options.advanced`) a worthless card of any deck does too when `by`
/// is the Bene Gesserit (D-49, D-164: decided by the card's kind); so does
/// a card of a kind the host's rules list (P-KARAMA-HOST, D-250).
pub(crate) fn counts_as_karama(g: &Game, by: Faction, card: CardId) -> bool {
    match g.treachery.kind(card) {
        Some(board::KARAMA) => true,
        Some(kind) => {
            (g.options.advanced && by == Faction::BeneGesserit && board::is_worthless(kind))
                || g.policies.karama_kinds.iter().any(|k| k == kind)
        }
        None => false,
    }
}

/// The Karama is played: discarded, publicly.
pub(crate) fn play(g: &mut Game, by: Faction, card: CardId, events: &mut Vec<Event>) {
    cards::discard(g, by, card, events);
}
