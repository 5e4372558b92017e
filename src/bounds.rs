//! Documented limits on every list of a [`Setup`] and of a saved [`Game`]
//! (docs/RULES.md D-80).
//!
//! Sizes are checked first, right after decoding and before any other
//! check: a list over its limit is `setup/too_large` or `state/too_large`
//! and nothing else is examined. Every later check then works on lists of
//! bounded length, each pass linear in the input (seat look-ups through a
//! fixed [`SeatSet`], card look-ups through arrays indexed by card id).
//!
//! The limits are far above anything a game reaches: a game the engine
//! produced never meets them (a state it wrote always loads again).

use crate::error::Problem;
use crate::game::{Decision, Game, Insight};
use crate::ids::{Ambassador, Faction, Leader};
use crate::setup::Setup;

/// Seats listed (a game seats 2–6 distinct factions; longer lists of the 12
/// factions are refused as invalid, lists longer than 12 as too large).
pub const MAX_SEATS: usize = Faction::ALL.len();
/// Treachery cards in the catalog (`cards` + `extraCards`); hence also the
/// most cards in the deck, the discard pile, any one hand or a hand insight.
pub const MAX_CARDS: usize = 1024;
/// Leader records per faction (`leaders`), Traitor cards and Face Dancers
/// per faction: at most one per leader of the game.
pub const MAX_LEADERS: usize = Leader::ALL.len();
/// Stacks per faction on the board (and in a Betrayal window's group): one per sector of the map is far below it.
pub const MAX_STACKS: usize = 512;
/// Nexus cards in the Nexus deck or discard pile (one per faction).
pub const MAX_NEXUS_CARDS: usize = Faction::ALL.len();
/// Ambassador tokens listed (`tokens`, `cohort`, a BG copy's candidates).
pub const MAX_TOKENS: usize = Ambassador::ALL.len();
/// Open decisions (`pending`) and open arrivals (`arrivals`).
pub const MAX_FRAMES: usize = 256;
/// Private knowledge records (`knowledge`): one per viewer, subject and kind
/// of insight is 12 × 12 × 4 = 576.
pub const MAX_KNOWLEDGE: usize = 1024;

/// The seated factions as a fixed bitset: constant-time look-ups, whatever
/// the length of the list it was built from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SeatSet(u16);

impl SeatSet {
    pub(crate) fn of(seats: &[Faction]) -> Self {
        SeatSet(seats.iter().fold(0u16, |bits, f| bits | (1 << f.index())))
    }
    pub(crate) fn contains(self, f: Faction) -> bool {
        self.0 & (1 << f.index()) != 0
    }
}

struct Sizes(Vec<Problem>);

impl Sizes {
    fn check(&mut self, path: impl FnOnce() -> String, len: usize, max: usize) {
        if len > max {
            self.0.push(Problem::new(
                path(),
                format!("{len} entries; the limit is {max} (docs/RULES.md D-80)"),
            ));
        }
    }
}

fn base_card_count() -> usize {
    crate::board::BASE_TREACHERY.iter().map(|(_, n)| usize::from(*n)).sum()
}

/// The lists of a setup that are longer than their limit.
pub(crate) fn setup_sizes(s: &Setup) -> Vec<Problem> {
    let mut z = Sizes(Vec::new());
    z.check(|| "seats".into(), s.seats.len(), MAX_SEATS);
    let catalog = s
        .cards
        .as_ref()
        .map_or_else(base_card_count, Vec::len)
        .saturating_add(s.extra_cards.len());
    z.check(|| "cards".into(), catalog, MAX_CARDS);
    if let Some(deck) = &s.deck {
        z.check(|| "deck".into(), deck.len(), MAX_CARDS);
    }
    z.check(|| "discard".into(), s.discard.len(), MAX_CARDS);
    if let Some(deck) = &s.nexus_deck {
        z.check(|| "nexusDeck".into(), deck.len(), MAX_NEXUS_CARDS);
    }
    z.check(|| "nexusDiscard".into(), s.nexus_discard.len(), MAX_NEXUS_CARDS);
    for (f, x) in &s.factions {
        let at = |field: &str| format!("factions.{f}.{field}");
        z.check(|| at("hand"), x.hand.len(), MAX_CARDS);
        z.check(|| at("leaders"), x.leaders.len(), MAX_LEADERS);
        z.check(|| at("traitors"), x.traitors.len(), MAX_LEADERS);
        z.check(|| at("faceDancers"), x.face_dancers.len(), MAX_LEADERS);
        if let Some(board) = &x.board {
            z.check(|| at("board"), board.len(), MAX_STACKS);
        }
    }
    if let Some(a) = &s.ambassadors {
        z.check(|| "ambassadors.cohort".into(), a.cohort.len(), MAX_TOKENS);
    }
    z.0
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
