//! Errors with stable codes (ARCHITECTURE §5).
//!
//! Every failure of the library is one [`ApplyError`]. Its [`ApplyError::code`]
//! is a stable, namespaced string (`decode/…`, `state/…`, `setup/…`, `rule/…`)
//! that crosses the C and WASM bindings verbatim; the message is for humans and
//! may change. Rule errors carry the id of the rule they enforce
//! ([`ApplyError::rule`]). On any error nothing changed: not the state, not the
//! RNG.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::base::ids::{
    Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard,
};

/// One problem found while validating a [`crate::Setup`] or a loaded state.
/// Validation reports every problem at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Problem {
    /// Where the problem is, as a dotted path into the setup or state
    /// (`factions.ecaz.spice`, `ambassadors.cohort`).
    pub path: String,
    /// What is wrong, for humans.
    pub message: String,
}

impl Problem {
    pub(crate) fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The most problems a setup or state error lists (D-81): a
/// report stays small whatever the input; [`Problems::total`] says how many
/// were found in all (docs/RULES.md D-81).
pub const MAX_REPORTED_PROBLEMS: usize = 32;

/// The problems of a setup or state error: the first
/// [`MAX_REPORTED_PROBLEMS`] found, in the order found, and how many were
/// found in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems {
    shown: Vec<Problem>,
    total: usize,
}

impl Problems {
    /// The problems listed (at most [`MAX_REPORTED_PROBLEMS`]).
    pub fn shown(&self) -> &[Problem] {
        &self.shown
    }
    /// How many problems were found in all (listed or not).
    pub fn total(&self) -> usize {
        self.total
    }
}

impl From<Vec<Problem>> for Problems {
    fn from(mut all: Vec<Problem>) -> Self {
        let total = all.len();
        all.truncate(MAX_REPORTED_PROBLEMS);
        Problems { shown: all, total }
    }
}

/// Every way a call into the library can fail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    // ---- decoding (input that is not even a well-formed value) ----
    /// The input is not JSON at all.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// JSON, but not a valid command (unknown kind, unknown territory, negative amount …).
    #[error("invalid command: {0}")]
    InvalidCommand(String),
    /// JSON, but not a valid setup document.
    #[error("invalid setup document: {0}")]
    InvalidSetupDocument(String),
    /// JSON, but not a valid viewer.
    #[error("invalid viewer: {0}")]
    InvalidViewer(String),
    /// Not a bot profile (`random`, `heuristic`), or a seed out of range (bindings).
    #[error("invalid bot request: {0}")]
    InvalidBot(String),
    /// JSON, but not a valid game state.
    #[error("invalid state: {0}")]
    InvalidState(String),
    /// JSON, but not a valid event list (`Event[]`).
    #[error("invalid events: {0}")]
    InvalidEvents(String),
    /// Input bytes are not UTF-8 (bindings only).
    #[error("input is not valid UTF-8")]
    InvalidUtf8,
    /// A required input was missing (NULL pointer in the C ABI).
    #[error("missing input: {0}")]
    NullInput(&'static str),
    /// An input is longer than [`crate::MAX_INPUT_BYTES`] (D-180): refused
    /// before any of it is parsed.
    #[error("{what} is {len} bytes; the limit is {limit} (docs/integration.md, input policy)", limit = crate::MAX_INPUT_BYTES)]
    InputTooLarge {
        /// Which input (`state`, `command` …).
        what: &'static str,
        /// Its length in bytes (at least: a binding may stop counting past the limit).
        len: usize,
    },

    // ---- state ----
    /// The state was written by a format version this library does not read.
    #[error("state format version {found} is not supported (this library reads version {supported})")]
    UnsupportedVersion {
        /// Version found in the document (`None` when absent).
        found: String,
        /// The version this library writes and reads.
        supported: u32,
    },
    /// The state decoded but breaks the game's invariants.
    #[error("state is inconsistent: {} problem(s), first: {}", .0.total(), first_message(.0))]
    CorruptState(Problems),
    /// A list of the state is longer than its documented limit (docs/RULES.md
    /// D-80); nothing else was checked.
    #[error("state is too large: {} list(s) over their limit, first: {}", .0.total(), first_message(.0))]
    StateTooLarge(Problems),

    /// A counter (frame or arrival ids, the turn, the cohort cycle) is at its ceiling (D-72).
    #[error("the state's counters (frame or arrival ids, turn, cohort cycle) are exhausted")]
    IdsExhausted,

    // ---- setup ----
    /// The setup breaks the rules; the first problems are listed (D-81).
    #[error("setup is invalid: {} problem(s), first: {}", .0.total(), first_message(.0))]
    InvalidSetup(Problems),
    /// A list of the setup is longer than its documented limit (docs/RULES.md
    /// D-80); nothing else was checked.
    #[error("setup is too large: {} list(s) over their limit, first: {}", .0.total(), first_message(.0))]
    SetupTooLarge(Problems),
    /// The setup has no `seed`: the seed is the host's secret and is never
    /// defaulted (D-82).
    #[error("the setup has no `seed`: give a secret seed (0 ..= 2^53 − 1)")]
    MissingSeed,

    // ---- protocol ----
    /// The command's actor may not issue this command (faction vs host).
    #[error("{actor} may not issue `{action}`: {why}")]
    WrongActor {
        /// The actor named in the command.
        actor: String,
        /// The command kind.
        action: &'static str,
        /// Who may.
        why: &'static str,
    },
    /// A faction that is not seated in this game.
    #[error("{0} is not seated in this game")]
    NotSeated(Faction),
    /// The frame named is not the open decision (answered, replaced, or never existed).
    #[error("frame {named} is not the open decision{}", match .open { Some(f) => format!(" (open: {f})"), None => " (no decision is open)".to_string() })]
    StaleFrame {
        /// The frame id the command named.
        named: FrameId,
        /// The frame that is open, if any.
        open: Option<FrameId>,
    },
    /// D-231: a table document (`TableFacts`) of the wrong shape.
    #[error("invalid table: {0}")]
    InvalidTableDocument(String),
    /// D-231: events given to `applyEvents` do not follow from the table
    /// given (not the table they came from, or not all of one command's events).
    #[error("the events do not fit the table: {0}")]
    EventsMismatch(String),
    /// D-230: the command's `ifRevision` is not the game's revision (another
    /// write came first, or this one was already applied).
    #[error("the command was written for revision {named}; the game is at revision {current}")]
    StaleRevision {
        /// The revision the command named.
        named: u32,
        /// The game's revision.
        current: u32,
    },
    /// The open decision belongs to another actor.
    #[error("frame {frame} is answered by {owner}, not {actor}")]
    NotYourDecision {
        /// The open frame.
        frame: FrameId,
        /// Who answers it.
        owner: String,
        /// Who tried.
        actor: String,
    },
    /// The command does not answer this kind of decision.
    #[error("`{action}` does not answer a {frame_kind} decision")]
    WrongDecision {
        /// The command kind.
        action: &'static str,
        /// The open frame's kind.
        frame_kind: &'static str,
    },
    /// A host report arrived while a decision is open.
    #[error("a decision is open (frame {0}); settle it first")]
    DecisionPending(FrameId),
    /// D-101: a report or reconcile would change a fact that a pending
    /// decision depends on.
    #[error("frame {frame} ({kind}) depends on {fact}; settle it first")]
    FrameDepends {
        /// The pending frame.
        frame: FrameId,
        /// Its decision kind.
        kind: &'static str,
        /// The fact it depends on (`factions.atreides.hand` …).
        fact: String,
    },
    /// D-100: a `syncTable` table breaks the game's invariants; every problem is listed.
    #[error("the table is invalid: {} problem(s), first: {}", .0.total(), first_message(.0))]
    InvalidTable(Problems),
    /// D-105: an export needs a quiet moment.
    #[error("not a quiet moment: {0}")]
    NotQuiet(String),
    /// D-103: the card is not outside deck, discard and hands.
    #[error("card {0} is not outside deck, discard and hands")]
    CardNotOutside(CardId),
    /// The command belongs to another phase.
    #[error("`{action}` needs the {expected} phase; the game is in {actual}")]
    WrongPhase {
        /// The command kind.
        action: &'static str,
        /// The phase the command needs.
        expected: Phase,
        /// The current phase.
        actual: Phase,
    },

    /// `endPhase` named a phase that is not the current one.
    #[error("`endPhase` names the {named} phase, but the game is in the {actual} phase")]
    PhaseMismatch {
        /// The phase named.
        named: Phase,
        /// The current phase.
        actual: Phase,
    },

    // ---- rules ----
    /// R-PLC-3: only tokens in Ecaz's supply can be placed.
    #[error("the {0} Ambassador is not in Ecaz's supply")]
    TokenNotInSupply(Ambassador),
    /// R-PLC-3: Ambassadors go only into strongholds.
    #[error("{0} is not a stronghold")]
    NotAStronghold(Territory),
    /// R-PLC-3 / R-PLC-4: the HMS is not in play.
    #[error("the Hidden Mobile Stronghold is not in play")]
    HmsNotInPlay,
    /// R-PLC-3: the stronghold is in the storm.
    #[error("{territory} is in the storm (sector {sector})")]
    StrongholdInStorm {
        /// The stronghold.
        territory: Territory,
        /// Its sector, under the storm.
        sector: Sector,
    },
    /// R-PLC-3: one Ambassador per stronghold.
    #[error("{territory} already holds the {token} Ambassador")]
    StrongholdHasAmbassador {
        /// The stronghold.
        territory: Territory,
        /// The token already there.
        token: Ambassador,
    },
    /// R-PLC-2: Ecaz cannot pay.
    #[error("{faction} has {has} spice and needs {needs}")]
    InsufficientSpice {
        /// Who pays.
        faction: Faction,
        /// What it has.
        has: u32,
        /// What it needs.
        needs: u32,
    },
    /// R-PLC-5: Ecaz cannot cancel its own placement with Karama.
    #[error("{0} cannot cancel its own act with Karama")]
    OwnPlacement(Faction),
    /// The faction does not hold this card.
    #[error("{faction} does not hold card {card}")]
    CardNotHeld {
        /// Who should hold it.
        faction: Faction,
        /// The card.
        card: CardId,
    },
    /// The card is not a Karama.
    #[error("card {card} is a {kind}, not a Karama")]
    NotKarama {
        /// The card.
        card: CardId,
        /// What it is.
        kind: String,
    },
    /// A storm move outside 0..=20 sectors.
    #[error("the storm moves 0 to {max} sectors, not {amount}")]
    StormAmount {
        /// The amount reported.
        amount: u32,
        /// The largest amount accepted.
        max: u32,
    },
    /// The Shield Wall was already destroyed.
    #[error("the Shield Wall is already destroyed")]
    ShieldWallGone,
    /// R-TRG-3: an arrival of no forces.
    #[error("an arrival moves at least one force")]
    EmptyArrival,
    /// An arrival that goes nowhere (same sector).
    #[error("an arrival must leave its sector")]
    NoMovement,
    /// The faction has no elite forces.
    #[error("{0} has no elite forces")]
    NoEliteForces(Faction),
    /// Only the Bene Gesserit have advisors.
    #[error("{0} has no advisors")]
    NoAdvisors(Faction),
    /// A position that is not on the board (or the HMS when it is not in play).
    #[error("{territory} has no sector {sector}")]
    InvalidPosition {
        /// Territory.
        territory: Territory,
        /// Sector.
        sector: Sector,
    },
    /// The forces are not where the report says.
    #[error("{faction} has {have} such forces there, not {need}")]
    NotEnoughForces {
        /// Whose forces.
        faction: Faction,
        /// How many are there.
        have: u32,
        /// How many the report needs.
        need: u32,
    },
    /// A group's per-sector counts do not add up to the arrival's counts.
    #[error("the forces are not as described (a group's sectors must add up to its counts, and a quoted group must still be there)")]
    GroupMismatch,
    /// R-TRG-5: the beneficiary is Ecaz or its current ally.
    #[error("{0} cannot benefit from this trigger (Ecaz or its ally only)")]
    NotABeneficiary(Faction),
    /// P-UNAVAILABLE: the effect could do nothing for this beneficiary.
    #[error("the {effect} effect can do nothing for {beneficiary} now")]
    EffectUnavailable {
        /// The effect.
        effect: Ambassador,
        /// The beneficiary.
        beneficiary: Faction,
    },
    /// R-EFF-BG / P-BG-POOL: not one of the copyable identities.
    #[error("the Bene Gesserit token cannot copy {0} here")]
    NotCopyable(Ambassador),
    /// The same card named twice.
    #[error("card {0} is named twice")]
    DuplicateCard(CardId),
    /// R-EFF-RIC: the hand is at its limit.
    #[error("{0}'s hand is full")]
    HandFull(Faction),
    /// No card left to draw (deck and discard empty).
    #[error("no Treachery card is left to draw")]
    DeckEmpty,
    /// R-EFF-ECAZ: that branch is not possible now.
    #[error("the {0:?} branch of the Ecaz effect is not possible now")]
    BranchUnavailable(crate::model::command::EcazBranch),
    /// Occupancy: a stronghold holds forces of at most two factions.
    #[error("{0} already holds forces of two other factions")]
    StrongholdFull(Territory),
    /// Occupancy: allies may not share a territory (except Ecaz and its ally).
    #[error("{ally}, an ally, is already in {territory}")]
    AllyPresent {
        /// The territory.
        territory: Territory,
        /// The ally there.
        ally: Faction,
    },
    /// E1: the HMS is entered only from the territory it points at (Ixians from anywhere).
    #[error("the HMS is entered only from {pointer} (not from {})", match .from { Some(t) => t.to_string(), None => "reserves".to_string() })]
    HmsEntry {
        /// Where the forces come from (None = reserves).
        from: Option<Territory>,
        /// The territory the HMS points at.
        pointer: Territory,
    },
    /// A position in the storm.
    #[error("sector {sector} of {territory} is in the storm")]
    InStorm {
        /// Territory.
        territory: Territory,
        /// Sector.
        sector: Sector,
    },
    /// R-EFF-GLD / R-EFF-TLX: more than 4 forces.
    #[error("at most {max} forces, not {asked}")]
    TooManyForces {
        /// The most allowed.
        max: u32,
        /// What was asked.
        asked: u32,
    },
    /// E1 (D-168): only the Tleilaxu make gholas.
    #[error("only the Tleilaxu make gholas, not {0}")]
    GholaTleilaxuOnly(Faction),
    /// P-TLX (D-165): in the Advanced game, one Sardaukar or Fedaykin revived
    /// per turn, shared with ordinary revival.
    #[error("{faction} may revive {left} more elite force(s) this turn (one Sardaukar or Fedaykin a turn in the Advanced game), not {asked}")]
    EliteRevivalUsed {
        /// The beneficiary.
        faction: Faction,
        /// Elite forces it may still revive this turn.
        left: u32,
        /// Elite forces asked for.
        asked: u32,
    },
    /// R-EFF-TLX: the leader is not this faction's own leader in the Tanks.
    #[error("{0} is not one of the beneficiary's own leaders in the Tanks")]
    LeaderNotInTanks(Leader),
    /// R-EFF-TLX: Duke Vidal is revived only by Ecaz.
    #[error("only Ecaz revives Duke Vidal")]
    DukeRevivalEcazOnly,
    /// P-NEST: a linked arrival names a parent arrival that has settled (or never existed).
    #[error("arrival {0} is not open: a reaction arrival must be reported while its parent is open")]
    ParentSettled(ArrivalId),
    /// R-EFF-FRE: the group's sectors repeat.
    #[error("sector {0} is named twice")]
    DuplicateSector(Sector),
    /// Nexus: the actor does not hold the Ecaz Nexus card (or the module is off).
    #[error("{0} does not hold the Ecaz Nexus card")]
    NexusNotHeld(Faction),
    /// Nexus: the card's mode for this holder is another one (RULES §7).
    #[error("the Ecaz Nexus card is played as {mode} by this holder")]
    WrongNexusMode {
        /// The mode the holder may play.
        mode: &'static str,
    },
    /// Nexus: only unallied players play Nexus cards.
    #[error("{0} is allied and cannot play a Nexus card")]
    AlliedNexus(Faction),
    /// Nexus: outside the card's window (P-NEX-CUN-TIME, P-NEX-BET-TIME).
    #[error("{card} is not playable now: {why}")]
    NexusWindow {
        /// The mode.
        card: &'static str,
        /// Why not.
        why: &'static str,
    },
    /// R-NEX-BET: Ecaz and its ally do not both have forces there.
    #[error("Ecaz and its ally do not both have forces in {0}")]
    NotShared(Territory),
    /// Nexus: dealing to a player who already holds a card, or from an empty deck.
    #[error("cannot deal a Nexus card to {faction}: {why}")]
    NexusDeal {
        /// The player.
        faction: Faction,
        /// Why not.
        why: &'static str,
    },
    /// Nexus cards are not in play (module off).
    #[error("the Nexus module is not in play")]
    NexusOff,
    /// R-TRG-7: the offered token is no longer there (a nested reaction used it).
    #[error("the {token} Ambassador is no longer in {territory}")]
    TokenGone {
        /// The token offered.
        token: Ambassador,
        /// Its stronghold.
        territory: Territory,
    },
    /// Only the engine makes arrivals with an Ambassador-effect cause.
    #[error("only the engine reports arrivals caused by an Ambassador effect")]
    EngineCause,
    /// A report of zero (nothing happened).
    #[error("an amount of zero reports nothing")]
    ZeroAmount,
    /// Spice beyond the engine's guard.
    #[error("spice totals stay at most {0}")]
    SpiceLimit(u32),
    /// A faction named twice where two are needed.
    #[error("{0} cannot be both sides")]
    SameFaction(Faction),
    /// Too many Traitor cards (or Face Dancers).
    #[error("{faction} holds at most {max} such cards")]
    TooManyTraitors {
        /// Who.
        faction: Faction,
        /// The most allowed.
        max: usize,
    },
    /// A Traitor card that is named twice, held by another faction, not of a
    /// seated faction, or the Cheap Hero/Heroine card without the option
    /// `cheapHeroTraitor` (D-170).
    #[error("the {0} Traitor card cannot be held here")]
    TraitorUnavailable(TraitorCard),
    /// An impossible leader move (e.g. killing a dead leader).
    #[error("{leader} cannot go from {from:?} to {to:?}")]
    LeaderMove {
        /// The leader.
        leader: Leader,
        /// Where it is.
        from: crate::model::game::LeaderCustody,
        /// Where the report sends it.
        to: crate::model::game::LeaderCustody,
    },
    /// Two factions that cannot ally now.
    #[error("{a} and {b} cannot ally (one is allied, or they are the same)")]
    AllianceImpossible {
        /// One.
        a: Faction,
        /// The other.
        b: Faction,
    },
    /// Not allied.
    #[error("{0} has no ally")]
    NotAllied(Faction),
    /// A hand limit out of range.
    #[error("a hand limit is 1–20, not {0}")]
    HandLimit(u8),
    /// E3 p.5: Atomics Terror is excluded from the HMS.
    #[error("Atomics Terror cannot be used on the Hidden Mobile Stronghold")]
    TerrorExcludedFromHms,
    /// Nobody has Duke Vidal in play (controlled, captured or a ghola).
    #[error("Duke Vidal is not in play")]
    DukeNotInPlay,
    /// Duke Vidal is in the Tanks, captured or a ghola.
    #[error("Duke Vidal is in the Tanks, captured or a ghola")]
    DukeUnavailable,
    /// Duke Vidal is not in the Tanks.
    #[error("Duke Vidal is not in the Tanks")]
    DukeNotInTanks,
    /// Duke Vidal is not captured (so he cannot be returned).
    #[error("Duke Vidal is not captured")]
    DukeNotCaptured,
    /// That faction already controls Duke Vidal.
    #[error("{0} already controls Duke Vidal")]
    DukeAlreadyControlled(Faction),
    /// The HMS cannot point there.
    #[error("the HMS cannot point at {territory} sector {sector}: {why}")]
    InvalidHmsPointer {
        /// Territory named.
        territory: Territory,
        /// Sector named.
        sector: Sector,
        /// Why not.
        why: &'static str,
    },
}

fn first_message(problems: &Problems) -> String {
    match problems.shown().first() {
        Some(p) => format!("{}: {}", p.path, p.message),
        None => "none".to_string(),
    }
}

// The stable codes, one list: `ApplyError::code` and `ApplyError::CODES`
// (every code, which the bindings publish, e.g. the TypeScript `ErrorCode`
// union) are generated from the same arms, so neither can miss one.
macro_rules! stable_codes {
    ($($pattern:pat => $code:literal,)*) => {
        impl ApplyError {
            /// The stable, namespaced code of this error.
            pub fn code(&self) -> &'static str {
                use ApplyError::*;
                match self {
                    $($pattern => $code,)*
                }
            }

            /// Every stable code the library can return, in declaration order
            /// (distinct; some codes cover several variants).
            pub const CODES: &'static [&'static str] = &[$($code,)*];
        }
    };
}

stable_codes! {
            InvalidJson(_) => "decode/invalid_json",
            InvalidCommand(_) => "decode/invalid_command",
            InvalidSetupDocument(_) => "decode/invalid_setup",
            InvalidViewer(_) => "decode/invalid_viewer",
            InvalidBot(_) => "decode/invalid_bot",
            InvalidState(_) => "decode/invalid_state",
            InvalidEvents(_) => "decode/invalid_events",
            InvalidTableDocument(_) => "decode/invalid_table",
            InvalidUtf8 => "decode/invalid_utf8",
            NullInput(_) => "decode/null_input",
            InputTooLarge { .. } => "decode/input_too_large",
            UnsupportedVersion { .. } => "state/unsupported_version",
            CorruptState(_) => "state/inconsistent",
            StateTooLarge(_) => "state/too_large",
            IdsExhausted => "state/ids_exhausted",
            InvalidSetup(_) => "setup/invalid",
            SetupTooLarge(_) => "setup/too_large",
            MissingSeed => "setup/missing_seed",
            WrongActor { .. } => "rule/wrong_actor",
            NotSeated(_) => "rule/not_seated",
            StaleFrame { .. } => "rule/stale_frame",
            StaleRevision { .. } => "rule/stale_revision",
            NotYourDecision { .. } => "rule/not_your_decision",
            WrongDecision { .. } => "rule/wrong_decision",
            DecisionPending(_) => "rule/decision_pending",
            FrameDepends { .. } => "rule/frame_depends",
            InvalidTable(_) => "sync/invalid_table",
            EventsMismatch(_) => "sync/events_mismatch",
            NotQuiet(_) => "state/not_quiet",
            CardNotOutside(_) => "rule/card_not_outside",
            WrongPhase { .. } | PhaseMismatch { .. } => "rule/wrong_phase",
            TokenNotInSupply(_) => "rule/token_not_in_supply",
            NotAStronghold(_) => "rule/not_a_stronghold",
            HmsNotInPlay => "rule/hms_not_in_play",
            StrongholdInStorm { .. } => "rule/stronghold_in_storm",
            StrongholdHasAmbassador { .. } => "rule/stronghold_has_ambassador",
            InsufficientSpice { .. } => "rule/insufficient_spice",
            OwnPlacement(_) => "rule/own_placement",
            CardNotHeld { .. } => "rule/card_not_held",
            NotKarama { .. } => "rule/not_karama",
            StormAmount { .. } => "rule/storm_amount",
            ShieldWallGone => "rule/shield_wall_destroyed",
            InvalidHmsPointer { .. } => "rule/invalid_hms_pointer",
            EmptyArrival => "rule/empty_arrival",
            GroupMismatch => "rule/group_mismatch",
            NoMovement => "rule/no_movement",
            NoEliteForces(_) => "rule/no_elite_forces",
            NoAdvisors(_) => "rule/no_advisors",
            InvalidPosition { .. } => "rule/invalid_position",
            NotEnoughForces { .. } => "rule/not_enough_forces",
            NotABeneficiary(_) => "rule/not_a_beneficiary",
            EffectUnavailable { .. } => "rule/effect_unavailable",
            NotCopyable(_) => "rule/not_copyable",
            DuplicateCard(_) => "rule/duplicate_card",
            HandFull(_) => "rule/hand_full",
            DeckEmpty => "rule/deck_empty",
            BranchUnavailable(_) => "rule/branch_unavailable",
            TerrorExcludedFromHms => "rule/terror_excluded_from_hms",
            NexusNotHeld(_) => "rule/nexus_not_held",
            WrongNexusMode { .. } => "rule/wrong_nexus_mode",
            AlliedNexus(_) => "rule/allied_nexus",
            NexusWindow { .. } => "rule/nexus_window",
            NotShared(_) => "rule/not_shared",
            NexusDeal { .. } => "rule/nexus_deal",
            NexusOff => "rule/nexus_off",
            ZeroAmount => "rule/zero_amount",
            TokenGone { .. } => "rule/token_gone",
            EngineCause => "rule/engine_cause",
            SpiceLimit(_) => "rule/spice_limit",
            SameFaction(_) => "rule/same_faction",
            TooManyTraitors { .. } => "rule/too_many_traitors",
            TraitorUnavailable(_) => "rule/traitor_unavailable",
            LeaderMove { .. } => "rule/leader_move",
            AllianceImpossible { .. } => "rule/alliance_impossible",
            NotAllied(_) => "rule/not_allied",
            HandLimit(_) => "rule/hand_limit",
            StrongholdFull(_) => "rule/stronghold_full",
            AllyPresent { .. } => "rule/ally_present",
            HmsEntry { .. } => "rule/hms_entry",
            InStorm { .. } => "rule/in_storm",
            TooManyForces { .. } => "rule/too_many_forces",
            EliteRevivalUsed { .. } => "rule/elite_revival_used",
            GholaTleilaxuOnly(_) => "rule/ghola_tleilaxu_only",
            LeaderNotInTanks(_) => "rule/leader_not_in_tanks",
            DukeRevivalEcazOnly => "rule/duke_revival_ecaz_only",
            ParentSettled(_) => "rule/parent_settled",
            DuplicateSector(_) => "rule/duplicate_sector",
            DukeNotInPlay => "rule/duke_not_in_play",
            DukeUnavailable => "rule/duke_unavailable",
            DukeNotInTanks => "rule/duke_not_in_tanks",
            DukeNotCaptured => "rule/duke_not_captured",
            DukeAlreadyControlled(_) => "rule/duke_already_controlled",
}

/// A stable error code (`rule/stale_frame` …): one of [`ApplyError::CODES`],
/// typed so that the schemas list every value (D-242). Written as its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ErrorCode(&'static str);

impl ErrorCode {
    /// The code as text.
    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The code named `text`, when it is one of [`ApplyError::CODES`].
    pub fn from_text(text: &str) -> Option<ErrorCode> {
        ApplyError::CODES.iter().find(|c| **c == text).map(|c| ErrorCode(c))
    }
}

impl From<&ApplyError> for ErrorCode {
    fn from(error: &ApplyError) -> Self {
        ErrorCode(error.code())
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<ErrorCode> for str {
    fn eq(&self, other: &ErrorCode) -> bool {
        self == other.0
    }
}

impl PartialEq<ErrorCode> for &str {
    fn eq(&self, other: &ErrorCode) -> bool {
        *self == other.0
    }
}

/// An `ErrorCode` reads as its text wherever a `&str` is expected.
impl std::ops::Deref for ErrorCode {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = crate::codec::wire::text(d)?;
        ErrorCode::from_text(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown error code `{}`", bounded_message(text.into_owned())))
        })
    }
}

impl JsonSchema for ErrorCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ErrorCode".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "D-242: a stable error code of the engine (`ApplyError::CODES`; docs/protocol.md lists what each means).",
            "type": "string",
            "enum": ApplyError::CODES,
        })
    }
}

/// Why an alternative is refused (D-242): the error code `apply` gives for
/// it, the rule or policy id where one applies, and a short message. Decided
/// from what the actor may know only, so it carries no secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Refusal {
    /// The stable code (`rule/effect_unavailable` …).
    pub code: ErrorCode,
    /// The rule or policy id, where one applies.
    #[serde(default)]
    pub rule: Option<String>,
    /// For humans (bounded, D-181).
    pub message: String,
}

impl From<&ApplyError> for Refusal {
    fn from(error: &ApplyError) -> Self {
        Refusal {
            code: ErrorCode::from(error),
            rule: error.rule().map(str::to_string),
            message: bounded_message(error.to_string()),
        }
    }
}

impl ApplyError {
    /// The rule or policy id (RULES.md) the error enforces, where one applies.
    pub fn rule(&self) -> Option<&'static str> {
        use ApplyError::*;
        match self {
            TokenNotInSupply(_) | NotAStronghold(_) | StrongholdInStorm { .. } | StrongholdHasAmbassador { .. } => {
                Some("R-PLC-3")
            }
            HmsNotInPlay | InvalidHmsPointer { .. } => Some("R-PLC-4"),
            // Spice is short in several rules (placement, Richese, revival, reports).
            InsufficientSpice { .. } => None,
            OwnPlacement(_) | NotKarama { .. } => Some("R-PLC-5"),
            ShieldWallGone | TerrorExcludedFromHms => Some("R-TRG-9"),
            EmptyArrival
            | NoMovement
            | NoEliteForces(_)
            | NoAdvisors(_)
            | InvalidPosition { .. }
            | NotEnoughForces { .. } => Some("R-TRG-3"),
            NotABeneficiary(_) => Some("R-TRG-5"),
            TokenGone { .. } => Some("R-TRG-7"),
            EngineCause => Some("P-NEST"),
            StrongholdFull(_) | AllyPresent { .. } | InStorm { .. } | DuplicateSector(_) => Some("R-EFF-FRE"),
            HmsEntry { .. } => Some("P-FRE-ROUTE"),
            TooManyForces { .. } => Some("R-EFF-GLD"),
            EliteRevivalUsed { .. } => Some("P-TLX"),
            GholaTleilaxuOnly(_) => Some("R-DUKE-2"),
            LeaderNotInTanks(_) | DukeRevivalEcazOnly => Some("R-EFF-TLX"),
            ParentSettled(_) => Some("P-NEST"),
            NexusNotHeld(_) | WrongNexusMode { .. } | AlliedNexus(_) | NexusDeal { .. } | NexusOff => Some("RULES §7"),
            NexusWindow { card: "Cunning", .. } => Some("P-NEX-CUN-TIME"),
            NexusWindow { .. } => Some("P-NEX-BET-TIME"),
            NotShared(_) => Some("R-NEX-BET"),
            EffectUnavailable { .. } => Some("P-UNAVAILABLE"),
            NotCopyable(_) => Some("R-EFF-BG"),
            HandFull(_) => Some("R-EFF-RIC"),
            BranchUnavailable(_) => Some("R-EFF-ECAZ"),
            DukeNotInPlay => Some("R-DUKE-3"),
            DukeUnavailable | DukeAlreadyControlled(_) => Some("R-DUKE-2"),
            DukeNotInTanks => Some("R-DUKE-4"),
            DukeNotCaptured => Some("R-DUKE-2"),
            _ => None,
        }
    }

    /// Problems listed with a setup or state error (empty otherwise): the
    /// first [`MAX_REPORTED_PROBLEMS`] of [`ApplyError::problem_count`].
    pub fn problems(&self) -> &[Problem] {
        match self {
            ApplyError::InvalidSetup(p)
            | ApplyError::CorruptState(p)
            | ApplyError::SetupTooLarge(p)
            | ApplyError::StateTooLarge(p)
            | ApplyError::InvalidTable(p) => p.shown(),
            _ => &[],
        }
    }

    /// How many problems a setup or state error found in all (0 otherwise).
    pub fn problem_count(&self) -> usize {
        match self {
            ApplyError::InvalidSetup(p)
            | ApplyError::CorruptState(p)
            | ApplyError::SetupTooLarge(p)
            | ApplyError::StateTooLarge(p) => p.total(),
            _ => 0,
        }
    }

    /// The wire form of this error. Bounded whatever the input (D-181):
    /// the message and each problem's path and message are cut to
    /// [`MAX_MESSAGE_BYTES`], and at most [`MAX_REPORTED_PROBLEMS`] problems
    /// are listed.
    pub fn report(&self) -> ErrorReport {
        ErrorReport {
            code: self.code().to_string(),
            message: bounded_message(self.to_string()),
            rule: self.rule().map(str::to_string),
            problems: self
                .problems()
                .iter()
                .map(|p| Problem {
                    path: bounded_message(p.path.clone()),
                    message: bounded_message(p.message.clone()),
                })
                .collect(),
            problem_count: self.problem_count(),
        }
    }
}

/// The longest message (or problem path or message) an error report carries,
/// in bytes, before its closing `…` (D-181): a message quoting a found value
/// (an unknown id, a version) quotes at most a prefix of it.
pub const MAX_MESSAGE_BYTES: usize = 512;

/// `text` cut to [`MAX_MESSAGE_BYTES`] at a character boundary, marked `…`
/// when cut.
pub fn bounded_message(mut text: String) -> String {
    if text.len() > MAX_MESSAGE_BYTES {
        let mut end = MAX_MESSAGE_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// An error as it crosses the wire (C, WASM, CLI): stable code, message,
/// rule id, and the problem list of setup/state errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ErrorReport {
    /// Stable code such as `rule/stale_frame`.
    pub code: String,
    /// Human-readable message.
    pub message: String,
    /// Rule or policy id, where one applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The first problems of a setup or state error (at most
    /// [`MAX_REPORTED_PROBLEMS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// How many problems were found in all (`problems` may list fewer).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub problem_count: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
