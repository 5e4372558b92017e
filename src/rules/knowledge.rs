//! Private knowledge records (D-25): only the viewer's own view and
//! events carry them; they persist through JSON round trips. A newer record of
//! the same kind about the same faction replaces the older one, so the state
//! stays bounded.

use crate::base::ids::Faction;
use crate::model::game::{Game, Insight, Knowledge};

pub(crate) fn record(g: &mut Game, viewer: Faction, about: Faction, info: Insight) {
    g.knowledge
        .retain(|k| !(k.viewer == viewer && k.about == about && k.info.same_kind(&info)));
    g.knowledge.push(Knowledge {
        viewer,
        about,
        turn: g.turn,
        info,
    });
}
