//! R-EFF-RIC: if the beneficiary's hand is below its limit, it may pay 3 spice
//! and take the top Treachery card (P-RIC-PAY: to the bank by default). The
//! frame opens whether or not it can pay, so others never learn that.

use crate::base::ids::{Ambassador, ArrivalId, Faction};
use crate::base::policy::RichesePay;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::Game;
use crate::rules::{cards, effects, frames};

/// The price (E3 p.8).
pub(crate) const PRICE: u32 = 3;

/// Is the hand below its limit? (public)
pub(crate) fn has_room(g: &Game, beneficiary: Faction) -> bool {
    g.faction(beneficiary)
        .is_some_and(|s| s.hand.len() < usize::from(s.hand_limit))
}

/// A validated answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Buy {
    arrival: ArrivalId,
    beneficiary: Faction,
    buy: bool,
}

pub(crate) fn check_buy(g: &Game, arrival: ArrivalId, beneficiary: Faction, buy: bool) -> Result<Buy, ApplyError> {
    if buy {
        if !has_room(g, beneficiary) {
            return Err(ApplyError::HandFull(beneficiary));
        }
        let has = g.faction(beneficiary).map_or(0, |s| s.spice);
        if has < PRICE {
            return Err(ApplyError::InsufficientSpice {
                faction: beneficiary,
                has,
                needs: PRICE,
            });
        }
        if !cards::can_draw(g) {
            return Err(ApplyError::DeckEmpty);
        }
    }
    Ok(Buy {
        arrival,
        beneficiary,
        buy,
    })
}

/// P-RIC-PAY `purchase`: the price goes to the Emperor when seated (and not
/// the buyer), and a Harkonnen buyer draws its bonus card if it has room.
pub(crate) fn commit_buy(g: &mut Game, b: Buy, events: &mut Vec<Event>) {
    g.pending.pop();
    if b.buy {
        let purchase = g.policies.richese_pay == RichesePay::Purchase;
        // D-71: an Emperor at the spice ceiling cannot receive it; it goes to the bank.
        let room = crate::rules::table::spice_room(g, Faction::Emperor) >= PRICE;
        let to = (purchase && b.beneficiary != Faction::Emperor && g.is_seated(Faction::Emperor) && room)
            .then_some(Faction::Emperor);
        if let Some(s) = g.faction_mut(b.beneficiary) {
            s.spice = s.spice.saturating_sub(PRICE);
        }
        if let Some(s) = to.and_then(|t| g.faction_mut(t)) {
            s.spice = s.spice.saturating_add(PRICE);
        }
        events.push(Event::public(EventKind::SpicePaid {
            faction: b.beneficiary,
            amount: PRICE,
            to,
        }));
        cards::draw(g, b.beneficiary, events);
        if purchase && b.beneficiary == Faction::Harkonnen && has_room(g, b.beneficiary) {
            cards::draw(g, b.beneficiary, events);
        }
    }
    effects::resolved(b.arrival, Ambassador::Richese, b.beneficiary, events);
    frames::settle(g, events);
}
