//! The length of every list of a saved state against its documented limit
//! ([`crate::bounds`], docs/RULES.md D-80): checked right after decoding,
//! before any other check.

use crate::base::bounds::{
    MAX_CARDS, MAX_FRAMES, MAX_KNOWLEDGE, MAX_LEADERS, MAX_NEXUS_CARDS, MAX_SEATS, MAX_STACKS, MAX_TOKENS,
};
use crate::model::error::Problem;
use crate::model::game::{Decision, Game, Insight};

/// Collects the lists that are longer than their limit.
pub(crate) struct Sizes(pub(crate) Vec<Problem>);

impl Sizes {
    pub(crate) fn check(&mut self, path: impl FnOnce() -> String, len: usize, max: usize) {
        if len > max {
            self.0.push(Problem::new(
                path(),
                format!("{len} entries; the limit is {max} (docs/RULES.md D-80)"),
            ));
        }
    }
}

/// The lists of a saved state that are longer than their limit.
pub(crate) fn state_sizes(g: &Game) -> Vec<Problem> {
    let mut z = Sizes(Vec::new());
    z.check(|| "seats".into(), g.seats.len(), MAX_SEATS);
    z.check(|| "factions".into(), g.factions.len(), MAX_SEATS);
    for (i, s) in g.factions.iter().enumerate() {
        let at = |field: &str| format!("factions[{i}].{field}");
        z.check(|| at("hand"), s.hand.len(), MAX_CARDS);
        z.check(|| at("leaders"), s.leaders.len(), MAX_LEADERS);
        z.check(|| at("traitors"), s.traitors.len(), MAX_LEADERS);
        z.check(|| at("faceDancers"), s.face_dancers.len(), MAX_LEADERS);
        z.check(|| at("board"), s.board.len(), MAX_STACKS);
    }
    z.check(
        || "policies.karamaKinds".into(),
        g.policies.karama_kinds.len(),
        MAX_CARDS,
    );
    z.check(|| "treachery.catalog".into(), g.treachery.catalog.len(), MAX_CARDS);
    z.check(|| "treachery.deck".into(), g.treachery.deck.len(), MAX_CARDS);
    z.check(|| "treachery.discard".into(), g.treachery.discard.len(), MAX_CARDS);
    z.check(|| "nexus.deck".into(), g.nexus.deck.len(), MAX_NEXUS_CARDS);
    z.check(|| "nexus.discard".into(), g.nexus.discard.len(), MAX_NEXUS_CARDS);
    z.check(|| "ambassadors.tokens".into(), g.ambassadors.tokens.len(), MAX_TOKENS);
    z.check(|| "ambassadors.cohort".into(), g.ambassadors.cohort.len(), MAX_TOKENS);
    z.check(|| "pending".into(), g.pending.len(), MAX_FRAMES);
    z.check(|| "arrivals".into(), g.arrivals.len(), MAX_FRAMES);
    z.check(|| "knowledge".into(), g.knowledge.len(), MAX_KNOWLEDGE);
    for (i, f) in g.pending.iter().enumerate() {
        let at = |field: &str| format!("pending[{i}].decision.{field}");
        match &f.decision {
            Decision::TriggerOffer { beneficiaries, .. } => {
                z.check(|| at("beneficiaries"), beneficiaries.len(), MAX_SEATS);
            }
            Decision::CopyEffect { candidates, .. } => {
                z.check(|| at("candidates"), candidates.len(), MAX_TOKENS);
            }
            Decision::BetrayalResponse { group, .. } => z.check(|| at("group"), group.len(), MAX_STACKS),
            _ => {}
        }
    }
    for (i, k) in g.knowledge.iter().enumerate() {
        if let Insight::Hand { cards } = &k.info {
            z.check(|| format!("knowledge[{i}].info.cards"), cards.len(), MAX_CARDS);
        }
    }
    z.0
}
