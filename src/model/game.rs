//! The game state (ARCHITECTURE §3): the table the library mirrors, the
//! Ambassador inventory, Duke Vidal, the Nexus cards, the pending decision
//! frames and the RNG.
//!
//! A [`Game`] is only ever built by [`crate::Setup::build`] (validated) or by
//! decoding a serialized state (version-checked and integrity-checked); it is
//! only ever changed by [`crate::apply`]. Its fields are private; read it
//! through the accessors or, better, through [`crate::view`].

use std::borrow::Cow;
use std::sync::Arc;

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::base::ids::{
    Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard,
};
use crate::base::rng::GameRng;

/// The state format version this library writes and reads.
pub const FORMAT_VERSION: u32 = 4;

/// The oldest state format version this library still loads (by explicit
/// migration, `json::migrate`); see docs/integration.md §6.
pub const OLDEST_FORMAT_VERSION: u32 = 1;

/// Normal and elite force counts (elite: Sardaukar, Fedaykin, Cyborgs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Forces {
    /// Ordinary forces.
    #[serde(default)]
    pub normal: u32,
    /// Elite (starred) forces.
    #[serde(default)]
    pub elite: u32,
}

impl Forces {
    /// All forces.
    pub fn total(self) -> u32 {
        self.normal.saturating_add(self.elite)
    }
}

/// One faction's forces in one sector of one territory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Stack {
    /// Territory.
    pub territory: Territory,
    /// Sector of that territory (0 for Polar Sink and the HMS).
    pub sector: Sector,
    /// Ordinary forces (for Bene Gesserit: fighters).
    #[serde(default)]
    pub normal: u32,
    /// Elite forces.
    #[serde(default)]
    pub elite: u32,
    /// Bene Gesserit advisors (BG only).
    #[serde(default)]
    pub advisors: u32,
}

impl Stack {
    /// All forces in the stack, advisors included.
    pub fn total(&self) -> u32 {
        self.normal.saturating_add(self.elite).saturating_add(self.advisors)
    }
}

/// Where a faction leader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum LeaderCustody {
    /// D-43: with its faction, usable.
    Available,
    /// D-43: dead, in the Tleilaxu Tanks.
    Tanks,
    /// D-43: captured by another faction (Harkonnen, Moritani …).
    Captured {
        /// The captor.
        by: Faction,
    },
    /// D-43: revived as a ghola by another faction (Tleilaxu).
    Ghola {
        /// The faction that controls the ghola.
        by: Faction,
    },
}

/// One faction leader and its custody. Records stay with the native faction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeaderState {
    /// The leader.
    pub leader: Leader,
    /// Where it is.
    pub custody: LeaderCustody,
}

/// One seated faction's table state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FactionState {
    /// Which faction.
    pub faction: Faction,
    /// Spice behind the shield (hidden from others in views).
    pub spice: u32,
    /// Forces off-planet.
    pub reserves: Forces,
    /// Forces in the Tleilaxu Tanks.
    pub tanks: Forces,
    /// Forces on the board.
    pub board: Vec<Stack>,
    /// The faction's five leaders, then the extra leaders the setup declared
    /// (CHOAM's Auditor, the Kwisatz Haderach; format 2), and their custody.
    pub leaders: Vec<LeaderState>,
    /// Treachery cards held (hidden from others).
    pub hand: Vec<CardId>,
    /// Treachery hand limit.
    pub hand_limit: u8,
    /// Traitor cards held (hidden from others).
    pub traitors: Vec<TraitorCard>,
    /// Tleilaxu Face Dancers held (hidden from others, but for the revealed ones).
    pub face_dancers: Vec<TraitorCard>,
    /// The held Face Dancers revealed face up (public; a subset of
    /// `face_dancers`): spent, no longer counted by the Harkonnen effect
    /// (R-EFF-HAR) nor by Secret Ally (P-NEX-SEC-FD). Format 2.
    pub revealed_face_dancers: Vec<TraitorCard>,
    /// Current ally.
    pub ally: Option<Faction>,
    /// The turn the current alliance was formed (None: unallied, or formed
    /// before format 2 recorded it). Format 2.
    pub ally_since: Option<u32>,
    /// The Nexus card held (its identity is hidden from others).
    pub nexus: Option<Faction>,
    /// Free revivals per turn.
    pub free_revival: u8,
    /// Elite forces revived this turn, by any route (P-TLX: the Tleilaxu
    /// Ambassador revives an elite only while this is 0).
    #[serde(default)]
    pub elite_revived: u8,
}

impl FactionState {
    /// Forces on the board, advisors included.
    pub fn on_board(&self) -> u32 {
        self.board.iter().map(Stack::total).fold(0, u32::saturating_add)
    }
    /// The Face Dancers held face down (not revealed).
    pub fn hidden_face_dancers(&self) -> impl Iterator<Item = TraitorCard> + '_ {
        self.face_dancers
            .iter()
            .copied()
            .filter(|l| !self.revealed_face_dancers.contains(l))
    }
    /// The leaders that are not available, as a table or a setup lists them.
    pub(crate) fn unavailable_leaders(&self) -> Vec<LeaderState> {
        self.leaders
            .iter()
            .filter(|l| l.custody != LeaderCustody::Available)
            .copied()
            .collect()
    }
    /// Forces in reserves, on the board and in the Tanks.
    pub fn total_forces(&self) -> u32 {
        self.reserves
            .total()
            .saturating_add(self.tanks.total())
            .saturating_add(self.on_board())
    }
}

/// The Treachery cards: a public catalog (card id → kind) and their places.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Treachery {
    /// Card kind by card id (`catalog[id]`); public and fixed for the game.
    pub catalog: Arc<[String]>,
    /// Draw pile, top first (its order is hidden from every faction).
    pub deck: Vec<CardId>,
    /// Discard pile, most recent last (public).
    pub discard: Vec<CardId>,
    /// Cards of the catalog outside deck, discard and hands (e.g. Richese's
    /// cache, face up; public), until the host puts one into a hand. Format 2.
    pub outside: Vec<CardId>,
}

impl Treachery {
    /// The kind of a card, if the id exists.
    pub fn kind(&self, card: CardId) -> Option<&str> {
        self.catalog.get(usize::from(card.0)).map(String::as_str)
    }
}

/// The Nexus deck (module option). Held cards live on [`FactionState::nexus`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NexusCards {
    /// Draw pile, top first (hidden).
    pub deck: Vec<Faction>,
    /// Discard pile (public).
    pub discard: Vec<Faction>,
}

/// Who controls Duke Vidal, and through which route (R-DUKE-1, R-DUKE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum DukeCustody {
    /// R-DUKE-1: set aside, controlled by nobody (his starting place).
    SetAside,
    /// R-DUKE-2: controlled by a faction.
    Controlled {
        /// The controller.
        by: Faction,
        /// How control was obtained.
        source: DukeSource,
    },
    /// R-DUKE-3: dead, in the Tanks.
    Tanks,
    /// D-30: captured.
    Captured {
        /// The captor.
        by: Faction,
    },
    /// R-NEX-CUN: a ghola (only the Tleilaxu make gholas: E1; D-168).
    Ghola {
        /// The controller of the ghola (the Tleilaxu).
        by: Faction,
    },
}

/// The route by which a faction controls Duke Vidal (R-DUKE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DukeSource {
    /// The Ecaz Ambassador effect: until used in a battle.
    EcazAmbassador,
    /// Moritani's stronghold-battle power: one battle, set aside at turn end.
    Moritani,
    /// The Ecaz Nexus Cunning: this turn.
    NexusCunning,
    /// Lent by Ecaz to a new ally: this turn.
    AllianceLoan,
}

/// Duke Vidal's disc (R-DUKE-1): one, outside every roster, no Traitor card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Duke {
    /// Current custody.
    pub custody: DukeCustody,
    /// P-DUKE-LOAN: while lent, the custody he returns to when the loan ends
    /// (Ecaz's control, or set aside).
    #[serde(default)]
    pub before_loan: Option<DukeCustody>,
    /// While captured: the lasting custody he was captured from — Ecaz
    /// Ambassador control or a Tleilaxu ghola — to which he returns after
    /// his captor uses him in a battle or returns him (base rules on
    /// captured leaders; D-168). None: captured from a temporary control
    /// (it ended with the capture) or before format 3 recorded it.
    #[serde(default)]
    pub before_capture: Option<DukeCustody>,
    /// The turn in which he was last used in a battle (P-NEX-CUN-TIME).
    #[serde(default)]
    pub battle_turn: Option<u32>,
    /// The turn he came into his current custody (None: before format 2
    /// recorded it). Format 2.
    pub since: Option<u32>,
}

impl Duke {
    /// Who controls him, if anyone.
    pub fn controller(&self) -> Option<Faction> {
        match self.custody {
            DukeCustody::Controlled { by, .. } => Some(by),
            _ => None,
        }
    }
    /// Not in the Tanks, not captured, not a ghola (R-EFF-ECAZ).
    pub fn available(&self) -> bool {
        matches!(self.custody, DukeCustody::SetAside | DukeCustody::Controlled { .. })
    }
}

/// Where an Ambassador token is (R-INV-2). Every token is in exactly one zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Zone {
    /// R-INV-2: undrawn.
    Pool,
    /// R-INV-2: in Ecaz's supply; may be placed.
    Supply,
    /// R-INV-2: placed in a stronghold (the HMS interior included).
    Placed {
        /// The stronghold.
        territory: Territory,
    },
    /// R-INV-2: triggered and set aside for this cycle.
    Used,
    /// R-INV-2: the Bene Gesserit token after it triggered; never returns.
    Removed,
}

/// One Ambassador token and its zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Token {
    /// The token (one per identity).
    pub token: Ambassador,
    /// Its zone.
    pub zone: Zone,
}

/// Ecaz's end-of-Revival placement bookkeeping for the current turn (R-PLC-1, R-PLC-2, R-PLC-5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlacementTurn {
    /// Tokens committed this turn; the next costs one more.
    pub placed: u8,
    /// The opportunity was used (finished or prevented); it never reopens this turn.
    pub closed: bool,
    /// The faction whose Karama prevented further placement this turn.
    pub prevented_by: Option<Faction>,
}

/// The Ambassador inventory (R-INV-1..4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ambassadors {
    /// All eleven tokens, in [`Ambassador::ALL`] order.
    pub tokens: Vec<Token>,
    /// The current cohort: the five non-Ecaz tokens drawn for this cycle (R-INV-1).
    pub cohort: Vec<Ambassador>,
    /// Completed recycles so far (R-TRG-8).
    pub cycle: u32,
    /// This turn's placement bookkeeping.
    pub placement: PlacementTurn,
}

impl Ambassadors {
    /// The zone of a token.
    pub fn zone(&self, token: Ambassador) -> Zone {
        self.tokens
            .iter()
            .find(|t| t.token == token)
            .map_or(Zone::Pool, |t| t.zone)
    }

    /// The token placed in a stronghold, if any.
    pub fn placed_in(&self, territory: Territory) -> Option<Ambassador> {
        self.tokens
            .iter()
            .find(|t| t.zone == Zone::Placed { territory })
            .map(|t| t.token)
    }

    /// Tokens in a zone, in [`Ambassador::ALL`] order.
    pub fn in_zone(&self, zone: Zone) -> impl Iterator<Item = Ambassador> + '_ {
        self.tokens.iter().filter(move |t| t.zone == zone).map(|t| t.token)
    }

    pub(crate) fn set_zone(&mut self, token: Ambassador, zone: Zone) {
        if let Some(t) = self.tokens.iter_mut().find(|t| t.token == token) {
            t.zone = zone;
        }
    }
}

/// Where the Hidden Mobile Stronghold points (E1): a non-stronghold sector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HmsPointer {
    /// The territory it points at.
    pub territory: Territory,
    /// The sector of that territory.
    pub sector: Sector,
}

/// Game options chosen at setup (D-15, D-44).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameOptions {
    /// Advanced game rules (default `false`: the Basic game). The engine reads
    /// it for the Bene Gesserit's Karama equivalents: in the Advanced game BG
    /// may play any worthless card as a Karama (D-49).
    #[serde(default)]
    pub advanced: bool,
    /// The Nexus module (Nexus cards in play).
    #[serde(default)]
    pub nexus: bool,
    /// The engine applies the storm's force losses when the host moves the
    /// storm (base rules; Fremen lose half, rounded up). Off: the host reports
    /// storm losses itself with `loseForces`.
    #[serde(default)]
    pub storm_losses: bool,
    /// D-170: the optional rule "Cheap Hero Traitor" — the one Cheap
    /// Hero/Heroine Traitor card (`cheap_hero`) is in the Traitor deck. Off
    /// (the default), a report naming it is refused. Written into a saved
    /// state only when on.
    #[serde(default)]
    #[serde(skip_serializing_if = "is_false")]
    #[schemars(extend("default" = false))]
    pub cheap_hero_traitor: bool,
}

/// The actor of a command or the owner of a decision frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Actor {
    /// The host: reports facts decided outside the library.
    Host,
    /// A seated faction (a player decision).
    Faction(Faction),
}

// Actor as a plain string on the wire: `host` or a faction id.

impl Actor {
    /// The wire id: `host` or the faction id.
    pub fn id(self) -> &'static str {
        match self {
            Actor::Host => "host",
            Actor::Faction(f) => f.id(),
        }
    }
}

impl std::fmt::Display for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Actor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Actor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = crate::codec::wire::text(d)?;
        if s == "host" {
            return Ok(Actor::Host);
        }
        Faction::from_id(&s)
            .map(Actor::Faction)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown actor `{s}` (expected `host` or a faction id)")))
    }
}

impl JsonSchema for Actor {
    fn schema_name() -> Cow<'static, str> {
        "Actor".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::base::ids::faction_id_schema(
            "Actor",
            "`host` (facts decided outside the library) or a faction id (a player decision).",
            &["host"],
        )
    }
}

/// One pending decision: who answers it and the data to continue with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Frame {
    /// Id named by the command that answers it.
    pub id: FrameId,
    /// The one actor who may answer.
    pub actor: Actor,
    /// What is being decided, with its continuation data.
    pub decision: Decision,
}

/// Leaves a `false` flag out of the written document (flags that default
/// to false and are omitted then: D-170, D-251, D-252).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// The typed decisions a frame can hold. Continuations are data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Decision {
    /// R-PLC-1: Ecaz places Ambassadors one at a time, then finishes.
    Placement,
    /// R-PLC-5: Ecaz announced a placement; the host reports whether another
    /// faction cancels it with Karama, or allows it.
    PlacementResponse {
        /// The token Ecaz wants to place.
        token: Ambassador,
        /// The stronghold.
        territory: Territory,
        /// The spice it will cost (R-PLC-2).
        cost: u32,
    },
    /// R-TRG-1: an entry into a stronghold holding a placed token; Ecaz
    /// triggers it (naming the beneficiary, R-TRG-5) or declines.
    TriggerOffer {
        /// The entry.
        arrival: ArrivalId,
        /// The placed token.
        token: Ambassador,
        /// Its stronghold.
        territory: Territory,
        /// Who entered.
        entrant: Faction,
        /// Who may benefit (Ecaz, and its ally when it has one), frozen at the offer.
        beneficiaries: Vec<Faction>,
    },
    /// R-EFF-BG: Ecaz picks the effect the Bene Gesserit token copies.
    CopyEffect {
        /// The entry.
        arrival: ArrivalId,
        /// Who entered (targeted effects still target it).
        entrant: Faction,
        /// Who benefits.
        beneficiary: Faction,
        /// The copyable identities, frozen at the trigger (P-BG-POOL, P-UNAVAILABLE).
        candidates: Vec<Ambassador>,
    },
    /// R-EFF-CHOAM: the beneficiary discards any number of its cards for 3 spice each.
    ChoamDiscard {
        /// The entry.
        arrival: ArrivalId,
        /// Who chooses and benefits.
        beneficiary: Faction,
    },
    /// R-EFF-IX: the beneficiary discards one card, then draws one.
    IxianSwap {
        /// The entry.
        arrival: ArrivalId,
        /// Who chooses and benefits.
        beneficiary: Faction,
    },
    /// R-EFF-ECAZ: both branches are possible; Ecaz picks one.
    EcazBranch {
        /// The entry.
        arrival: ArrivalId,
        /// Who entered (the alliance branch targets it).
        entrant: Faction,
        /// Who benefits.
        beneficiary: Faction,
    },
    /// R-EFF-ECAZ (b): only the entrant answers the alliance offer.
    AllianceOffer {
        /// The entry.
        arrival: ArrivalId,
        /// Who is offered the alliance.
        entrant: Faction,
    },
    /// R-EFF-ECAZ (b), P-DUKE-LOAN: Ecaz may lend Duke Vidal to its new ally for this turn.
    DukeLoan {
        /// The entry.
        arrival: ArrivalId,
        /// The new ally.
        ally: Faction,
    },
    /// R-EFF-FRE: the beneficiary relocates one group.
    FremenRelocation {
        /// The entry.
        arrival: ArrivalId,
        /// Who moves.
        beneficiary: Faction,
    },
    /// R-EFF-GLD: the beneficiary ships up to 4 reserves.
    GuildShipment {
        /// The entry.
        arrival: ArrivalId,
        /// Who ships.
        beneficiary: Faction,
    },
    /// R-EFF-TLX: the beneficiary revives a leader or up to 4 forces.
    TleilaxuRevival {
        /// The entry.
        arrival: ArrivalId,
        /// Who revives.
        beneficiary: Faction,
    },
    /// P-NEST: the engine made an arrival (Fremen/Guild effect); the host runs
    /// its own entry reactions, may report linked arrivals, then says done.
    /// P-REACT-ORDER (D-252): also opened first for a host-reported entry
    /// whose trigger offer waits (`offerAfter`).
    HostReactions {
        /// The arrival.
        arrival: ArrivalId,
        /// D-252: Ecaz's trigger offer for this arrival opens when the host
        /// closes the window, if the entry still triggers. Omitted when false.
        #[serde(default)]
        #[serde(skip_serializing_if = "is_false")]
        offer_after: bool,
    },
    /// R-NEX-BET, P-NEX-BET-TIME: the holder played Betrayal (the card is
    /// spent); the host reports a Karama cancel or allows it.
    BetrayalResponse {
        /// Who played it.
        holder: Faction,
        /// The territory.
        territory: Territory,
        /// Ecaz's ally, whose forces return.
        ally: Faction,
        /// The ally's forces there when it was played (every sector).
        group: Vec<Stack>,
    },
    /// R-EFF-RIC: the beneficiary may pay 3 spice for the top card.
    RicheseBuy {
        /// The entry.
        arrival: ArrivalId,
        /// Who chooses and benefits.
        beneficiary: Faction,
    },
}

impl Decision {
    /// The wire name of the decision kind.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Placement => "placement",
            Decision::PlacementResponse { .. } => "placementResponse",
            Decision::TriggerOffer { .. } => "triggerOffer",
            Decision::CopyEffect { .. } => "copyEffect",
            Decision::ChoamDiscard { .. } => "choamDiscard",
            Decision::IxianSwap { .. } => "ixianSwap",
            Decision::RicheseBuy { .. } => "richeseBuy",
            Decision::EcazBranch { .. } => "ecazBranch",
            Decision::AllianceOffer { .. } => "allianceOffer",
            Decision::DukeLoan { .. } => "dukeLoan",
            Decision::FremenRelocation { .. } => "fremenRelocation",
            Decision::GuildShipment { .. } => "guildShipment",
            Decision::TleilaxuRevival { .. } => "tleilaxuRevival",
            Decision::HostReactions { .. } => "hostReactions",
            Decision::BetrayalResponse { .. } => "betrayalResponse",
        }
    }

    /// Under P-SUPPLY-VIS `ownerOnly`, is this decision's content hidden from
    /// everyone but Ecaz and the host? (A placement announcement names a
    /// token still in the supply; BG copy candidates reveal the cohort.)
    pub fn reveals_supply(&self) -> bool {
        Decision::kind_reveals_supply(self.name())
    }

    /// [`Decision::reveals_supply`] of the decisions of wire kind `kind`
    /// (what a `decisionOpened` event without its decision still names).
    pub fn kind_reveals_supply(kind: &str) -> bool {
        matches!(kind, "placementResponse" | "copyEffect")
    }

    /// The Ambassador effect this decision belongs to and its beneficiary
    /// (the identity a `pass` resolves, D-70); `None` for placement, trigger
    /// offers, host reactions and the Betrayal window.
    pub fn effect(&self) -> Option<(Ambassador, Faction)> {
        match self {
            Decision::Placement
            | Decision::PlacementResponse { .. }
            | Decision::TriggerOffer { .. }
            | Decision::HostReactions { .. }
            | Decision::BetrayalResponse { .. } => None,
            Decision::CopyEffect { beneficiary, .. } => Some((Ambassador::BeneGesserit, *beneficiary)),
            Decision::ChoamDiscard { beneficiary, .. } => Some((Ambassador::Choam, *beneficiary)),
            Decision::IxianSwap { beneficiary, .. } => Some((Ambassador::Ixians, *beneficiary)),
            Decision::RicheseBuy { beneficiary, .. } => Some((Ambassador::Richese, *beneficiary)),
            Decision::EcazBranch { beneficiary, .. } => Some((Ambassador::Ecaz, *beneficiary)),
            Decision::AllianceOffer { .. } | Decision::DukeLoan { .. } => Some((Ambassador::Ecaz, Faction::Ecaz)),
            Decision::FremenRelocation { beneficiary, .. } => Some((Ambassador::Fremen, *beneficiary)),
            Decision::GuildShipment { beneficiary, .. } => Some((Ambassador::Guild, *beneficiary)),
            Decision::TleilaxuRevival { beneficiary, .. } => Some((Ambassador::Tleilaxu, *beneficiary)),
        }
    }

    /// May the beneficiary always `pass` (use nothing of the effect)? The
    /// board effects: R-EFF-FRE, R-EFF-GLD, R-EFF-TLX ("may"). Any other
    /// effect frame accepts `pass` only when it has lapsed (D-70).
    pub fn passable(&self) -> bool {
        matches!(
            self,
            Decision::FremenRelocation { .. } | Decision::GuildShipment { .. } | Decision::TleilaxuRevival { .. }
        )
    }

    /// The arrival whose reaction this decision belongs to.
    pub fn arrival(&self) -> Option<ArrivalId> {
        match self {
            Decision::Placement | Decision::PlacementResponse { .. } | Decision::BetrayalResponse { .. } => None,
            Decision::TriggerOffer { arrival, .. }
            | Decision::CopyEffect { arrival, .. }
            | Decision::ChoamDiscard { arrival, .. }
            | Decision::IxianSwap { arrival, .. }
            | Decision::RicheseBuy { arrival, .. }
            | Decision::EcazBranch { arrival, .. }
            | Decision::AllianceOffer { arrival, .. }
            | Decision::DukeLoan { arrival, .. }
            | Decision::FremenRelocation { arrival, .. }
            | Decision::GuildShipment { arrival, .. }
            | Decision::TleilaxuRevival { arrival, .. }
            | Decision::HostReactions { arrival, .. } => Some(*arrival),
        }
    }
}

/// An arrival whose reactions have not all settled; the host holds the
/// entrant's remaining action until the engine emits `resume` for it (R-TRG-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenArrival {
    /// The arrival.
    pub id: ArrivalId,
    /// Who arrived.
    pub entrant: Faction,
    /// Where.
    pub territory: Territory,
    /// The arrival it was caused by, for nested entries (P-NEST).
    pub parent: Option<ArrivalId>,
}

/// What a faction privately learned (R-EFF-ATR, R-EFF-HAR). Only that
/// faction's view carries it; a newer inspection of the same kind of the
/// same faction replaces the older one, so the state does not grow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Knowledge {
    /// Who knows it.
    pub viewer: Faction,
    /// About whom.
    pub about: Faction,
    /// When it was learned.
    pub turn: u32,
    /// What.
    pub info: Insight,
}

/// The content of a private inspection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Insight {
    /// R-EFF-ATR: the whole Treachery hand at that moment (a snapshot).
    Hand {
        /// The cards.
        cards: Vec<CardId>,
    },
    /// R-EFF-HAR: one Traitor card, drawn at random.
    Traitor {
        /// The card (a leader id or `cheap_hero`, D-170).
        leader: TraitorCard,
    },
    /// R-EFF-HAR: one Face Dancer, drawn at random (Tleilaxu entrant).
    FaceDancer {
        /// The card (a leader id or `cheap_hero`, D-170).
        leader: TraitorCard,
    },
    /// R-NEX-SEC: does `about` hold any of the asker's leaders as a Traitor?
    /// Fixed when asked; never a count or an identity.
    SecretAlly {
        /// Who asked (the holder of the card).
        asker: Faction,
        /// The answer.
        answer: bool,
    },
}

impl Insight {
    /// Two insights of the same kind replace each other.
    pub(crate) fn same_kind(&self, other: &Insight) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// The whole game state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Game {
    pub(crate) version: u32,
    /// D-230: the revision, +1 per accepted command (format 4); a command's
    /// `ifRevision` must name it.
    pub(crate) revision: u32,
    pub(crate) seats: Vec<Faction>,
    pub(crate) options: GameOptions,
    pub(crate) policies: crate::base::policy::Policies,
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
    pub(crate) storm: Sector,
    pub(crate) shield_wall_standing: bool,
    pub(crate) hms: Option<HmsPointer>,
    pub(crate) factions: Vec<FactionState>,
    pub(crate) treachery: Treachery,
    pub(crate) nexus: NexusCards,
    pub(crate) duke: Duke,
    pub(crate) ambassadors: Ambassadors,
    pub(crate) pending: Vec<Frame>,
    pub(crate) next_frame: u32,
    pub(crate) arrivals: Vec<OpenArrival>,
    /// Someone shipped or moved in this Shipment & Movement phase (P-NEX-BET-TIME).
    #[serde(default)]
    pub(crate) shipment_begun: bool,
    pub(crate) next_arrival: u32,
    pub(crate) knowledge: Vec<Knowledge>,
    pub(crate) rng: GameRng,
}

impl Game {
    /// The seated factions, in seating order.
    pub fn seats(&self) -> &[Faction] {
        &self.seats
    }
    /// Is the faction seated?
    pub fn is_seated(&self, f: Faction) -> bool {
        self.seats.contains(&f)
    }
    /// Is this Traitor card in the game (board.md §Treachery; D-167, D-170)?
    /// A printed leader's is when its faction is seated; CHOAM's Auditor's
    /// when the Auditor is in play (CHOAM seated with the Auditor among its
    /// leaders, as every peer engine deals it); the Kwisatz Haderach has none;
    /// the Cheap Hero/Heroine card is with the option `cheapHeroTraitor`.
    pub fn traitor_card_exists(&self, card: impl Into<TraitorCard>) -> bool {
        let leader = match card.into() {
            TraitorCard::Leader(l) => l,
            TraitorCard::CheapHero => return self.options.cheap_hero_traitor,
        };
        match leader {
            Leader::KwisatzHaderach => false,
            Leader::ChoamAuditor => self
                .faction(Faction::Choam)
                .is_some_and(|s| s.leaders.iter().any(|l| l.leader == Leader::ChoamAuditor)),
            _ => self.is_seated(leader.faction()),
        }
    }
    /// Options chosen at setup.
    pub fn options(&self) -> GameOptions {
        self.options
    }
    /// The rule policies in force (RULES §9).
    pub fn policies(&self) -> &crate::base::policy::Policies {
        &self.policies
    }
    /// D-230: the revision — 0 when built, +1 per accepted command (never
    /// otherwise). A command carrying `ifRevision` is applied only at that
    /// revision (`rule/stale_revision`).
    pub fn revision(&self) -> u32 {
        self.revision
    }
    /// Current turn (from 1).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The storm's sector.
    pub fn storm(&self) -> Sector {
        self.storm
    }
    /// Is the Shield Wall still standing?
    pub fn shield_wall_standing(&self) -> bool {
        self.shield_wall_standing
    }
    /// Where the HMS points, when it is in play.
    pub fn hms(&self) -> Option<HmsPointer> {
        self.hms
    }
    /// A seated faction's table state.
    pub fn faction(&self, f: Faction) -> Option<&FactionState> {
        self.factions.iter().find(|s| s.faction == f)
    }
    pub(crate) fn faction_mut(&mut self, f: Faction) -> Option<&mut FactionState> {
        self.factions.iter_mut().find(|s| s.faction == f)
    }
    /// The Treachery cards.
    pub fn treachery(&self) -> &Treachery {
        &self.treachery
    }
    /// The Nexus deck and discard.
    pub fn nexus(&self) -> &NexusCards {
        &self.nexus
    }
    /// Duke Vidal.
    pub fn duke(&self) -> Duke {
        self.duke
    }
    /// The Ambassador inventory.
    pub fn ambassadors(&self) -> &Ambassadors {
        &self.ambassadors
    }
    /// The pending decision frames, bottom first; the last one is open.
    pub fn pending(&self) -> &[Frame] {
        &self.pending
    }
    /// Arrivals whose reactions have not settled, outermost first.
    pub fn open_arrivals(&self) -> &[OpenArrival] {
        &self.arrivals
    }
    /// Private knowledge records (the view shows each faction only its own).
    pub fn knowledge(&self) -> &[Knowledge] {
        &self.knowledge
    }
    /// The open decision, if any.
    pub fn open_frame(&self) -> Option<&Frame> {
        self.pending.last()
    }

    pub(crate) fn push_frame(&mut self, actor: Actor, decision: Decision) -> FrameId {
        let id = FrameId(self.next_frame);
        self.next_frame = self.next_frame.saturating_add(1);
        self.pending.push(Frame { id, actor, decision });
        id
    }
}
