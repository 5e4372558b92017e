//! R-EFF-HAR: the beneficiary looks at one random Traitor card held by the
//! entrant (a Tleilaxu entrant: one of the Face Dancers it holds, revealed
//! or not — seed `001`, "Account for cards already revealed but still
//! held"; a returned or replaced card is no longer held: D-166), drawn once,
//! at the trigger's commit (R-INV-4).

use crate::base::ids::{Faction, TraitorCard};
use crate::model::event::{Event, EventKind};
use crate::model::game::{Game, Insight};
use crate::rules::knowledge;

/// The cards the draw is made from, and whether they are Face Dancers: every
/// held card, the Cheap Hero/Heroine card included (D-170).
fn pool(g: &Game, entrant: Faction) -> (Vec<TraitorCard>, bool) {
    match g.faction(entrant) {
        Some(s) if entrant == Faction::Tleilaxu => (s.face_dancers.clone(), true),
        Some(s) => (s.traitors.clone(), false),
        None => (Vec::new(), false),
    }
}

/// P-UNAVAILABLE: the entrant holds at least one such card (counts are public).
pub(crate) fn can_act(g: &Game, entrant: Faction) -> bool {
    !pool(g, entrant).0.is_empty()
}

pub(crate) fn resolve(g: &mut Game, beneficiary: Faction, entrant: Faction, events: &mut Vec<Event>) {
    let (cards, face_dancer) = pool(g, entrant);
    if cards.is_empty() {
        return;
    }
    let pick = g.rng.below(u32::try_from(cards.len()).unwrap_or(u32::MAX)) as usize;
    let Some(&leader) = cards.get(pick) else {
        return;
    };
    events.push(Event::public(EventKind::TraitorInspected {
        by: beneficiary,
        of: entrant,
    }));
    events.push(Event::only(
        vec![beneficiary],
        EventKind::TraitorSeen {
            of: entrant,
            leader,
            face_dancer,
        },
    ));
    let info = if face_dancer {
        Insight::FaceDancer { leader }
    } else {
        Insight::Traitor { leader }
    };
    knowledge::record(g, beneficiary, entrant, info);
}
