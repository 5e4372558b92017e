//! `Setup` (unvalidated, JSON) → validated [`Game`] (ARCHITECTURE §3).
//!
//! Everything but the seats may be left out: the printed starting facts fill
//! the rest (board.md: starting spice, free revival, hand limits) and the
//! printed starting positions where the rules fix them ([`printed_start`]).
//! Where the player chooses (the Fremen's 10 forces, Moritani's 6, where the
//! Ixians put the HMS) the setup must say so, or it is refused with a problem
//! naming the field. A host adopting the library for a game in progress gives
//! every field explicitly. Validation reports every problem at once
//! ([`ApplyError::InvalidSetup`]).
//!
//! RNG use at setup, in this fixed order (R-INV-1, R-INV-4): the five-token
//! cohort (only when Ecaz is seated and no inventory is given), the Treachery
//! deck order (only when no deck is given), the Nexus deck order (only with
//! the Nexus module and no Nexus deck given).

use std::collections::BTreeMap;
use std::sync::Arc;

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::Serialize;

use crate::base::board::{elite_total, faction_info, BASE_TREACHERY};
use crate::base::bounds::{SeatSet, MAX_CARDS, MAX_LEADERS, MAX_NEXUS_CARDS, MAX_SEATS, MAX_STACKS, MAX_TOKENS};
use crate::base::ids::{Ambassador, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard};
use crate::base::order::map_of;
use crate::base::policy::Policies;
use crate::base::rng::GameRng;
use crate::check;
use crate::check::sizes::Sizes;
use crate::model::error::{ApplyError, Problem};
use crate::model::game::{
    Actor, Ambassadors, Decision, Duke, DukeCustody, FactionState, Forces, Game, GameOptions, HmsPointer, Insight,
    Knowledge, LeaderCustody, LeaderState, NexusCards, PlacementTurn, Stack, Token, Treachery, Zone, FORMAT_VERSION,
};

/// Largest seed accepted: seeds stay exact in every host language (2^53 − 1).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Sector where Ecaz's six starting forces stand by default. The printed rule
/// puts them in Imperial Basin (9–11) split as Ecaz chooses; the split is an
/// engine default, not printed, and has no rule consequence at the start (the
/// Shield Wall stands, so Imperial Basin is storm-proof; docs/RULES.md §10).
pub const ECAZ_START_SECTOR: Sector = 10;

fn start_stack(territory: Territory, sector: Sector, normal: u32, elite: u32) -> Vec<Stack> {
    vec![Stack {
        territory,
        sector,
        normal,
        elite,
        advisors: 0,
    }]
}

/// The printed starting position of `f` on the board (D-56), or `None`
/// where the player chooses and the setup must say: base rules — Atreides 10
/// in Arrakeen, Harkonnen 10 in Carthag, Guild 5 in Tuek's Sietch, Bene
/// Gesserit 1 in the Polar Sink, Emperor all in reserves, Fremen 10 placed as
/// they like among Sietch Tabr, False Wall South and False Wall West (`None`);
/// E1 — Ixians 3 Suboids and 3 Cyborgs in the HMS (`None` when the HMS is not
/// placed: the Ixians choose where it stands), Tleilaxu all in reserves; E2 —
/// CHOAM and Richese all in reserves; E3 — Ecaz 6 in Imperial Basin, Moritani
/// 6 placed as it likes (`None`).
///
/// `advanced`: in the Advanced game the Bene Gesserit place their first force
/// in any territory (an advisor where another faction's forces stand), so
/// their start is theirs to give too (`None`; D-56, D-169).
pub fn printed_start(f: Faction, hms_placed: bool, advanced: bool) -> Option<Vec<Stack>> {
    match f {
        Faction::BeneGesserit if advanced => None,
        Faction::Atreides => Some(start_stack(Territory::Arrakeen, 10, 10, 0)),
        Faction::Harkonnen => Some(start_stack(Territory::Carthag, 11, 10, 0)),
        Faction::Guild => Some(start_stack(Territory::TueksSietch, 5, 5, 0)),
        Faction::BeneGesserit => Some(start_stack(Territory::PolarSink, 0, 1, 0)),
        Faction::Ecaz => Some(start_stack(Territory::ImperialBasin, ECAZ_START_SECTOR, 6, 0)),
        Faction::Ixians if hms_placed => Some(start_stack(Territory::HiddenMobileStronghold, 0, 3, 3)),
        Faction::Emperor | Faction::Tleilaxu | Faction::Choam | Faction::Richese => Some(Vec::new()),
        Faction::Fremen | Faction::Moritani | Faction::Ixians => None,
    }
}

/// A game to build.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Setup {
    /// The seated factions in seating order (2–6, distinct).
    pub seats: Vec<Faction>,
    /// RNG seed (0 ..= 2^53 − 1), required: the host's secret. It fixes the
    /// cohort, the deck order and every later draw, so a host draws it from
    /// a good random source and never shows it to players; no view, event,
    /// option or error reveals it (D-82). A setup without one is refused
    /// with `setup/missing_seed`.
    #[schemars(with = "u64")]
    pub seed: Option<u64>,
    /// Game options.
    #[serde(default)]
    pub options: GameOptions,
    /// Where the Hidden Mobile Stronghold points; present = HMS in play (needs the Ixians).
    #[serde(default)]
    pub hms: Option<HmsPointer>,
    /// Rule policies (RULES §9); each defaults.
    #[serde(default)]
    pub policies: Policies,
    /// Current turn (default 1).
    #[serde(default)]
    pub turn: Option<u32>,
    /// Current phase (default `storm`).
    #[serde(default)]
    pub phase: Option<Phase>,
    /// Storm sector 1–18 (default 1).
    #[serde(default)]
    pub storm: Option<Sector>,
    /// Is the Shield Wall standing? (default true)
    #[serde(default)]
    pub shield_wall_standing: Option<bool>,
    /// Per-faction table state, keyed by faction id; omitted fields take printed defaults.
    #[serde(default)]
    pub factions: BTreeMap<Faction, FactionSetup>,
    /// The Treachery card catalog: card kind by card id. Default: the 33 base cards.
    #[serde(default)]
    pub cards: Option<Vec<String>>,
    /// Extra card identities appended to the catalog (expansion cards).
    #[serde(default)]
    pub extra_cards: Vec<String>,
    /// The draw pile, top first. Default: every card not in a hand or the discard, shuffled.
    #[serde(default)]
    pub deck: Option<Vec<CardId>>,
    /// The discard pile.
    #[serde(default)]
    pub discard: Vec<CardId>,
    /// The Nexus draw pile (Nexus module). Default: every card not held or discarded, shuffled.
    #[serde(default)]
    pub nexus_deck: Option<Vec<Faction>>,
    /// The Nexus discard pile.
    #[serde(default)]
    pub nexus_discard: Vec<Faction>,
    /// The Ambassador inventory. Default: Ecaz token in supply + 5 drawn (R-INV-1).
    #[serde(default)]
    pub ambassadors: Option<AmbassadorsSetup>,
    /// Duke Vidal's custody (default: set aside).
    #[serde(default)]
    pub duke: Option<DukeCustody>,
    /// While Duke Vidal is lent (P-DUKE-LOAN): the custody he returns to.
    #[serde(default)]
    pub duke_before_loan: Option<DukeCustody>,
    /// While Duke Vidal is captured: the lasting custody he returns to after
    /// his captor uses him in a battle or returns him (D-168).
    #[serde(default)]
    pub duke_before_capture: Option<DukeCustody>,
    /// Import a game at Ecaz's open end-of-Revival placement window (R-PLC-1):
    /// the built game starts with the placement frame open (phase `revival`).
    #[serde(default)]
    pub placement_open: bool,
    /// Catalog cards outside deck, discard and hands (e.g. Richese's cache).
    #[serde(default)]
    pub outside: Vec<CardId>,
    /// The turn Duke Vidal came into his current custody (D-108).
    #[serde(default)]
    pub duke_since: Option<u32>,
    /// The turn Duke Vidal was last used in a battle (P-NEX-CUN-TIME).
    #[serde(default)]
    pub duke_battle_turn: Option<u32>,
    /// Private knowledge records (hands and Traitors seen, Secret Ally answers).
    #[serde(default)]
    pub knowledge: Vec<Knowledge>,
    /// Someone shipped or moved in this Shipment & Movement phase (P-NEX-BET-TIME).
    #[serde(default)]
    pub shipment_begun: bool,
    /// The generator state to continue with (overrides `seed`; an export
    /// carries it so the imported game draws exactly as the saved one).
    #[serde(default)]
    pub rng: Option<GameRng>,
    /// Frame and arrival id counters to continue with (default: from 1).
    #[serde(default)]
    pub counters: Option<Counters>,
}

/// The id counters of a saved game (D-105: a lossless import keeps ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Counters {
    /// The next frame id to hand out.
    pub next_frame: u32,
    /// The next arrival id to hand out.
    pub next_arrival: u32,
    /// With `placementOpen`: the id of the open placement frame (below `nextFrame`).
    #[serde(default)]
    pub placement_frame: Option<FrameId>,
    /// D-230: the revision to continue from (default 0).
    #[serde(default)]
    pub revision: u32,
}

/// One faction's table state; every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FactionSetup {
    /// Spice (default: printed starting spice).
    #[serde(default)]
    pub spice: Option<u32>,
    /// Reserves (default: what is not on the board or in the Tanks).
    #[serde(default)]
    pub reserves: Option<Forces>,
    /// Forces in the Tanks (default none).
    #[serde(default)]
    pub tanks: Option<Forces>,
    /// Forces on the board (default: the printed starting position,
    /// [`printed_start`]; required where the player chooses).
    #[serde(default)]
    pub board: Option<Vec<Stack>>,
    /// Leader custody overrides; leaders not listed are available.
    #[serde(default)]
    pub leaders: Vec<LeaderState>,
    /// Treachery cards held.
    #[serde(default)]
    pub hand: Vec<CardId>,
    /// Hand limit (default printed).
    #[serde(default)]
    pub hand_limit: Option<u8>,
    /// Traitor cards held.
    #[serde(default)]
    pub traitors: Vec<TraitorCard>,
    /// Face Dancers held (Tleilaxu).
    #[serde(default)]
    pub face_dancers: Vec<TraitorCard>,
    /// Ally (must be reciprocal).
    #[serde(default)]
    pub ally: Option<Faction>,
    /// Nexus card held.
    #[serde(default)]
    pub nexus: Option<Faction>,
    /// Free revivals per turn (default printed).
    #[serde(default)]
    pub free_revival: Option<u8>,
    /// Elite forces already revived this turn (P-TLX).
    #[serde(default)]
    pub elite_revived: u8,
    /// Held Face Dancers revealed face up (Tleilaxu; a subset of `faceDancers`).
    #[serde(default)]
    pub revealed_face_dancers: Vec<TraitorCard>,
    /// Extra leaders of this faction in play (CHOAM's Auditor, the Kwisatz
    /// Haderach); available unless `leaders` says otherwise.
    #[serde(default)]
    pub extra_leaders: Vec<Leader>,
    /// The turn the alliance was formed (with `ally`).
    #[serde(default)]
    pub ally_since: Option<u32>,
}

/// An explicit Ambassador inventory (a game in progress, or a fixed cohort for a test).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AmbassadorsSetup {
    /// Zone of each token; tokens not listed: Ecaz → supply, cohort → supply, others → pool.
    #[serde(default)]
    pub zones: BTreeMap<Ambassador, Zone>,
    /// The current cohort (5 distinct non-Ecaz tokens).
    pub cohort: Vec<Ambassador>,
    /// Completed recycles.
    #[serde(default)]
    pub cycle: u32,
    /// This turn's placement bookkeeping.
    #[serde(default)]
    pub placement: PlacementTurn,
}

/// The base Treachery catalog: card kind by card id, in [`BASE_TREACHERY`] order.
pub fn base_catalog() -> Vec<String> {
    BASE_TREACHERY
        .iter()
        .flat_map(|(kind, n)| std::iter::repeat_n((*kind).to_string(), usize::from(*n)))
        .collect()
}

impl Setup {
    /// A setup with only seats and a seed; everything else takes defaults.
    pub fn for_seats(seats: &[Faction], seed: u64) -> Self {
        Setup {
            seats: seats.to_vec(),
            seed: Some(seed),
            ..Setup::default()
        }
    }

    /// Validate and build the game, or report what is wrong: a list over its
    /// limit (`setup/too_large`, nothing else checked), a missing seed
    /// (`setup/missing_seed`), else every rule problem (`setup/invalid`, the
    /// first [`crate::MAX_REPORTED_PROBLEMS`] listed).
    pub fn build(&self) -> Result<Game, ApplyError> {
        let too_large = setup_sizes(self);
        if !too_large.is_empty() {
            return Err(ApplyError::SetupTooLarge(too_large.into()));
        }
        let Some(seed) = self.seed else {
            return Err(ApplyError::MissingSeed);
        };
        let mut problems = self.setup_problems();
        let mut rng = self
            .rng
            .clone()
            .unwrap_or_else(|| GameRng::from_seed(seed.min(MAX_SEED)));
        let mut game = self.assemble(&mut rng);
        if self.placement_open {
            let next = game.next_frame;
            if let Some(id) = self.counters.and_then(|c| c.placement_frame) {
                game.next_frame = id.0;
            }
            game.push_frame(Actor::Faction(Faction::Ecaz), Decision::Placement);
            game.next_frame = game.next_frame.max(next);
        }
        problems.extend(check::problems(&game));
        if problems.is_empty() {
            Ok(game)
        } else {
            Err(ApplyError::InvalidSetup(problems.into()))
        }
    }

    /// Problems only a setup can have (the built game's invariants are checked apart).
    fn setup_problems(&self) -> Vec<Problem> {
        let mut p = Vec::new();
        if self.seed.is_some_and(|seed| seed > MAX_SEED) {
            p.push(Problem::new(
                "seed",
                format!("seed must be at most 2^53 − 1 ({MAX_SEED})"),
            ));
        }
        let seated = SeatSet::of(&self.seats);
        for f in self.factions.keys() {
            if !seated.contains(*f) {
                p.push(Problem::new(format!("factions.{f}"), format!("{f} is not seated")));
            }
        }
        if self.placement_open {
            let closed = self.ambassadors.as_ref().is_some_and(|a| a.placement.closed);
            if self.phase != Some(Phase::Revival) || !self.seats.contains(&Faction::Ecaz) || closed {
                p.push(Problem::new(
                    "placementOpen",
                    "an open placement window needs Ecaz seated, phase `revival` and the turn's opportunity unused",
                ));
            }
        }
        if self.ambassadors.is_some() && !self.seats.contains(&Faction::Ecaz) {
            p.push(Problem::new(
                "ambassadors",
                "Ambassadors are in play only with Ecaz seated",
            ));
        }
        if !self.options.nexus && (self.nexus_deck.is_some() || !self.nexus_discard.is_empty()) {
            p.push(Problem::new("nexusDeck", "Nexus cards need the Nexus module option"));
        }
        // Card kinds are checked on the built catalog (integrity), as on a loaded state.
        p.extend(self.import_problems());
        // D-56: a starting position the player chooses must be given.
        for &f in &self.seats {
            let given = self.factions.get(&f).is_some_and(|x| x.board.is_some());
            if !given && printed_start(f, self.hms.is_some(), self.options.advanced).is_none() {
                let why = match f {
                    Faction::Fremen => {
                        "the Fremen place their 10 starting forces as they like among Sietch Tabr, False Wall South and False Wall West (base rules): give them in `board`"
                    }
                    Faction::Moritani => "Moritani places its 6 starting forces as it likes (E3): give them in `board`",
                    Faction::BeneGesserit => {
                        "in the Advanced game the Bene Gesserit place their first force in any territory, as an advisor where another faction's forces stand (base rules, Advanced): give it in `board`"
                    }
                    _ => "the Ixians start in the HMS, which they place (E1): give `hms`, or the Ixian `board`",
                };
                p.push(Problem::new(format!("factions.{f}.board"), why));
            }
        }
        if let Some(a) = &self.ambassadors {
            if a.zones
                .get(&Ambassador::Ecaz)
                .is_some_and(|z| matches!(z, Zone::Pool | Zone::Used | Zone::Removed))
            {
                p.push(Problem::new(
                    "ambassadors.zones.ecaz",
                    "the Ecaz token is in supply or placed (R-INV-3)",
                ));
            }
        }
        p
    }

    /// Problems of the fields a lossless import adds (D-105).
    fn import_problems(&self) -> Vec<Problem> {
        let mut p = Vec::new();
        for (f, given) in &self.factions {
            for (i, l) in given.extra_leaders.iter().enumerate() {
                if !l.is_extra() || l.faction() != *f || given.extra_leaders.iter().take(i).any(|x| x == l) {
                    p.push(Problem::new(
                        format!("factions.{f}.extraLeaders"),
                        format!("{l} is not an extra leader of {f} (or is declared twice)"),
                    ));
                }
            }
            for l in &given.leaders {
                if l.leader.is_extra() && !given.extra_leaders.contains(&l.leader) {
                    p.push(Problem::new(
                        format!("factions.{f}.leaders"),
                        format!("{} is not declared in extraLeaders", l.leader),
                    ));
                }
            }
            if given.ally_since.is_some() && given.ally.is_none() {
                p.push(Problem::new(
                    format!("factions.{f}.allySince"),
                    "allySince needs an ally",
                ));
            }
        }
        for (i, k) in self.knowledge.iter().enumerate() {
            let asker = match k.info {
                Insight::SecretAlly { asker, .. } => Some(asker),
                _ => None,
            };
            let unseated = [Some(k.viewer), Some(k.about), asker]
                .into_iter()
                .flatten()
                .any(|f| !self.seats.contains(&f));
            if unseated || k.turn == 0 || k.turn > self.turn.unwrap_or(1) {
                p.push(Problem::new(
                    format!("knowledge[{i}]"),
                    "a knowledge record names seated factions and a turn already begun",
                ));
            }
        }
        if let Some(c) = self.counters {
            let placement_ok = c
                .placement_frame
                .is_none_or(|id| self.placement_open && id.0 >= 1 && id.0 < c.next_frame);
            if c.next_frame == 0 || c.next_arrival == 0 || !placement_ok {
                p.push(Problem::new(
                    "counters",
                    "ids count from 1; a placement frame id needs placementOpen and is below nextFrame",
                ));
            }
        }
        p
    }

    fn faction_state(&self, f: Faction) -> FactionState {
        let info = faction_info(f);
        let given = self.factions.get(&f).cloned().unwrap_or_default();
        let board = given
            .board
            .unwrap_or_else(|| printed_start(f, self.hms.is_some(), self.options.advanced).unwrap_or_default());
        let tanks = given.tanks.unwrap_or_default();
        let reserves = given.reserves.unwrap_or_else(|| {
            let elite_out = board
                .iter()
                .map(|s| s.elite)
                .fold(0u32, u32::saturating_add)
                .saturating_add(tanks.elite);
            let elite = elite_total(f).saturating_sub(elite_out);
            let others_out = board
                .iter()
                .map(|s| s.normal.saturating_add(s.advisors))
                .fold(0u32, u32::saturating_add)
                .saturating_add(tanks.normal);
            let normal = u32::from(info.forces)
                .saturating_sub(elite_total(f))
                .saturating_sub(others_out);
            Forces { normal, elite }
        });
        let leaders = f
            .leaders()
            .into_iter()
            .map(|leader| {
                let custody = given
                    .leaders
                    .iter()
                    .find(|l| l.leader == leader)
                    .map_or(LeaderCustody::Available, |l| l.custody);
                LeaderState { leader, custody }
            })
            .chain(given.extra_leaders.iter().map(|&leader| {
                LeaderState {
                    leader,
                    custody: given
                        .leaders
                        .iter()
                        .find(|l| l.leader == leader)
                        .map_or(LeaderCustody::Available, |l| l.custody),
                }
            }))
            .chain(given.leaders.iter().filter(|l| l.leader.faction() != f).copied())
            .collect();
        FactionState {
            faction: f,
            spice: given.spice.unwrap_or(info.spice),
            reserves,
            tanks,
            board,
            leaders,
            hand: given.hand,
            hand_limit: given.hand_limit.unwrap_or(info.hand_limit),
            traitors: given.traitors,
            face_dancers: given.face_dancers,
            revealed_face_dancers: given.revealed_face_dancers,
            ally: given.ally,
            ally_since: given.ally_since,
            nexus: given.nexus,
            free_revival: given.free_revival.unwrap_or(info.free_revival),
            elite_revived: given.elite_revived,
        }
    }

    fn ambassadors(&self, rng: &mut GameRng) -> Ambassadors {
        let ecaz_seated = self.seats.contains(&Faction::Ecaz);
        let (cohort, zones, cycle, placement) = match &self.ambassadors {
            Some(a) => (a.cohort.clone(), a.zones.clone(), a.cycle, a.placement),
            None if ecaz_seated => (
                rng.sample(&Ambassador::NON_ECAZ, 5),
                BTreeMap::new(),
                0,
                PlacementTurn::default(),
            ),
            None => (Vec::new(), BTreeMap::new(), 0, PlacementTurn::default()),
        };
        let tokens = Ambassador::ALL
            .into_iter()
            .map(|token| {
                let default = if ecaz_seated && (token == Ambassador::Ecaz || cohort.contains(&token)) {
                    Zone::Supply
                } else {
                    Zone::Pool
                };
                Token {
                    token,
                    zone: zones.get(&token).copied().unwrap_or(default),
                }
            })
            .collect();
        Ambassadors {
            tokens,
            cohort,
            cycle,
            placement,
        }
    }

    fn assemble(&self, rng: &mut GameRng) -> Game {
        let factions: Vec<FactionState> = self.seats.iter().map(|&f| self.faction_state(f)).collect();
        // R-INV-1: the cohort is the first draw of the game.
        let ambassadors = self.ambassadors(rng);

        let mut catalog = self.cards.clone().unwrap_or_else(base_catalog);
        catalog.extend(self.extra_cards.iter().cloned());
        catalog.truncate(usize::from(u16::MAX));
        let deck = match &self.deck {
            Some(d) => d.clone(),
            None => {
                // Marks by card id: linear in the catalog and the hands.
                let mut held = vec![false; catalog.len()];
                for c in factions
                    .iter()
                    .flat_map(|s| s.hand.iter())
                    .chain(self.discard.iter())
                    .chain(self.outside.iter())
                {
                    if let Some(mark) = held.get_mut(usize::from(c.0)) {
                        *mark = true;
                    }
                }
                let mut rest: Vec<CardId> = (0..catalog.len())
                    .filter(|&i| !held.get(i).copied().unwrap_or(true))
                    .filter_map(|i| u16::try_from(i).ok().map(CardId))
                    .collect();
                rng.shuffle(&mut rest);
                rest
            }
        };

        let nexus = if self.options.nexus {
            let deck = match &self.nexus_deck {
                Some(d) => d.clone(),
                None => {
                    let mut rest: Vec<Faction> = Faction::ALL
                        .into_iter()
                        .filter(|c| !self.nexus_discard.contains(c) && !factions.iter().any(|s| s.nexus == Some(*c)))
                        .collect();
                    rng.shuffle(&mut rest);
                    rest
                }
            };
            NexusCards {
                deck,
                discard: self.nexus_discard.clone(),
            }
        } else {
            NexusCards::default()
        };

        Game {
            version: FORMAT_VERSION,
            revision: self.counters.map_or(0, |c| c.revision),
            seats: self.seats.clone(),
            options: self.options,
            policies: self.policies.clone(),
            turn: self.turn.unwrap_or(1),
            phase: self.phase.unwrap_or(Phase::Storm),
            storm: self.storm.unwrap_or(1),
            shield_wall_standing: self.shield_wall_standing.unwrap_or(true),
            hms: self.hms,
            factions,
            treachery: Treachery {
                catalog: Arc::from(catalog),
                deck,
                discard: self.discard.clone(),
                outside: self.outside.clone(),
            },
            nexus,
            duke: Duke {
                custody: self.duke.unwrap_or(DukeCustody::SetAside),
                before_loan: self.duke_before_loan,
                before_capture: self.duke_before_capture,
                battle_turn: self.duke_battle_turn,
                since: self.duke_since,
            },
            ambassadors,
            pending: Vec::new(),
            next_frame: self.counters.map_or(1, |c| c.next_frame),
            arrivals: Vec::new(),
            shipment_begun: self.shipment_begun,
            next_arrival: self.counters.map_or(1, |c| c.next_arrival),
            knowledge: self.knowledge.clone(),
            rng: rng.clone(),
        }
    }
}

impl Setup {
    /// D-105: the Setup that imports back to exactly this game, at a quiet
    /// moment (no decision open but Ecaz's placement window, no arrival
    /// waiting for its `resume`): every table fact, the Ambassadors, Duke
    /// Vidal's tenure, private knowledge, the id counters and the RNG state.
    /// Elsewhere it is `state/not_quiet`.
    pub fn export(g: &Game) -> Result<Setup, ApplyError> {
        let placement_frame = match g.pending.as_slice() {
            [] => None,
            [only] if only.decision == Decision::Placement => Some(only.id),
            [.., open] => {
                return Err(ApplyError::NotQuiet(format!(
                    "frame {} ({}) is open",
                    open.id,
                    open.decision.name()
                )))
            }
        };
        if let Some(a) = g.arrivals.first() {
            return Err(ApplyError::NotQuiet(format!("arrival {} waits for its resume", a.id)));
        }
        let factions = g
            .factions
            .iter()
            .map(|s| {
                let setup = FactionSetup {
                    spice: Some(s.spice),
                    reserves: Some(s.reserves),
                    tanks: Some(s.tanks),
                    board: Some(s.board.clone()),
                    leaders: s.unavailable_leaders(),
                    hand: s.hand.clone(),
                    hand_limit: Some(s.hand_limit),
                    traitors: s.traitors.clone(),
                    face_dancers: s.face_dancers.clone(),
                    ally: s.ally,
                    nexus: s.nexus,
                    free_revival: Some(s.free_revival),
                    elite_revived: s.elite_revived,
                    revealed_face_dancers: s.revealed_face_dancers.clone(),
                    extra_leaders: s.leaders.iter().map(|l| l.leader).filter(|l| l.is_extra()).collect(),
                    ally_since: s.ally_since,
                };
                (s.faction, setup)
            })
            .collect::<Vec<_>>();
        let ecaz = g.is_seated(Faction::Ecaz);
        Ok(Setup {
            seats: g.seats.clone(),
            // The generator's state travels in `rng`, so the seed is never
            // drawn from; it is given because a setup must carry one (D-82).
            seed: Some(0),
            options: g.options,
            hms: g.hms,
            policies: g.policies.clone(),
            turn: Some(g.turn),
            phase: Some(g.phase),
            storm: Some(g.storm),
            shield_wall_standing: Some(g.shield_wall_standing),
            factions: map_of(factions),
            cards: Some(g.treachery.catalog.to_vec()),
            extra_cards: Vec::new(),
            deck: Some(g.treachery.deck.clone()),
            discard: g.treachery.discard.clone(),
            nexus_deck: g.options.nexus.then(|| g.nexus.deck.clone()),
            nexus_discard: g.nexus.discard.clone(),
            ambassadors: ecaz.then(|| AmbassadorsSetup {
                zones: map_of(g.ambassadors.tokens.iter().map(|t| (t.token, t.zone))),
                cohort: g.ambassadors.cohort.clone(),
                cycle: g.ambassadors.cycle,
                placement: g.ambassadors.placement,
            }),
            duke: Some(g.duke.custody),
            duke_before_loan: g.duke.before_loan,
            duke_before_capture: g.duke.before_capture,
            placement_open: placement_frame.is_some(),
            outside: g.treachery.outside.clone(),
            duke_since: g.duke.since,
            duke_battle_turn: g.duke.battle_turn,
            knowledge: g.knowledge.clone(),
            shipment_begun: g.shipment_begun,
            rng: Some(g.rng.clone()),
            counters: Some(Counters {
                next_frame: g.next_frame,
                next_arrival: g.next_arrival,
                placement_frame,
                revision: g.revision,
            }),
        })
    }
}

fn base_card_count() -> usize {
    crate::base::board::BASE_TREACHERY
        .iter()
        .map(|(_, n)| usize::from(*n))
        .sum()
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
    z.check(
        || "policies.karamaKinds".into(),
        s.policies.karama_kinds.len(),
        MAX_CARDS,
    );
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
