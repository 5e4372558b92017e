//! Documented limits on every list of a setup and of a saved game
//! (docs/RULES.md D-80), and the ceiling of every counter (D-72).
//!
//! Sizes are checked first, right after decoding and before any other
//! check (the setup's in `engine/setup.rs`, the state's in
//! `check/sizes.rs`): a list over its limit is `setup/too_large` or
//! `state/too_large` and nothing else is examined. Every later check then works on lists of
//! bounded length, each pass linear in the input (seat look-ups through a
//! fixed [`SeatSet`], card look-ups through arrays indexed by card id).
//!
//! The limits are far above anything a game reaches: a game the engine
//! produced never meets them (a state it wrote always loads again).

use crate::base::ids::{Ambassador, Faction, Leader};

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

/// The ceiling of every monotone counter of a game — frame and arrival ids,
/// the turn, the cohort cycle: the loader accepts values up to it (D-72).
pub const COUNTER_LIMIT: u32 = 1 << 31;

/// The most any one command advances a counter (frames and arrivals opened
/// by one command, one turn, one recycle). Once a counter is more than
/// `COUNTER_LIMIT - PER_COMMAND`, `apply` refuses every command with
/// `state/ids_exhausted`, so an accepted command never makes a state the
/// loader refuses (D-72).
pub const PER_COMMAND: u32 = 64;

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
