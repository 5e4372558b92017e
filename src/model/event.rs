//! Events (ARCHITECTURE §4): what changed, and for whom.
//!
//! A host can mirror every change the library makes from the event stream
//! alone. Each event has an [`Audience`]: public events go to everyone,
//! `only` events to the named factions (and the host), host events to the
//! host alone. Use [`Event::visible_to`] to filter a stream for a viewer.

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::Serialize;

use crate::base::ids::{
    Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard,
};
use crate::model::command::{Cause, Destruction, Origin, Viewer};
use crate::model::game::{Actor, Decision, DukeCustody, LeaderCustody, Stack, Zone};

/// Who may see an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Audience {
    /// D-7: every player, spectators and the host.
    Public,
    /// D-25: only these factions (and the host).
    Only {
        /// The factions that see it.
        factions: Vec<Faction>,
    },
    /// D-41: only the host (e.g. the deck order).
    Host,
}

impl Audience {
    /// Is `viewer` in this audience? The host is in every one; a faction in
    /// the public one and those naming it; a spectator in the public one only.
    pub fn includes(&self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (_, Viewer::Host) | (Audience::Public, _) => true,
            (Audience::Only { factions }, Viewer::Faction(f)) => factions.contains(&f),
            _ => false,
        }
    }
}

/// One event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Event {
    /// Who may see it.
    pub audience: Audience,
    /// What happened.
    pub event: EventKind,
}

impl Event {
    /// An event only these factions (and the host) see.
    pub fn only(factions: Vec<Faction>, event: EventKind) -> Self {
        Event {
            audience: Audience::Only { factions },
            event,
        }
    }

    /// A public event.
    pub fn public(event: EventKind) -> Self {
        Event {
            audience: Audience::Public,
            event,
        }
    }

    /// May this viewer see the event?
    pub fn visible_to(&self, viewer: Viewer) -> bool {
        self.audience.includes(viewer)
    }
}

/// Why the placement opportunity closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PlacementEnd {
    /// Ecaz finished.
    Finished,
    /// A Karama prevented further placement this turn (R-PLC-5).
    Prevented,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum EventKind {
    /// R-PLC-1: a phase began (a new turn begins with `storm`).
    PhaseStarted {
        /// Turn number.
        turn: u32,
        /// The phase.
        phase: Phase,
    },
    /// R-PLC-1: Ecaz's end-of-Revival placement opened.
    PlacementOpened {
        /// The frame Ecaz answers.
        frame: FrameId,
        /// Cost of the next token (R-PLC-2).
        next_cost: u32,
    },
    /// R-PLC-5: Ecaz announced a placement; the response window is open.
    PlacementAnnounced {
        /// The response frame the host answers.
        frame: FrameId,
        /// The token; `null` in the public copy when P-SUPPLY-VIS is
        /// `ownerOnly` (Ecaz and the host get a copy naming it).
        token: Option<Ambassador>,
        /// The stronghold.
        territory: Territory,
        /// The spice it will cost.
        cost: u32,
    },
    /// R-PLC-2/3: a token was placed; Ecaz paid `cost` spice to the bank.
    AmbassadorPlaced {
        /// The token (placed face up: public).
        token: Ambassador,
        /// The stronghold.
        territory: Territory,
        /// Spice paid to the bank.
        cost: u32,
    },
    /// D-41: a card went from a hand to the Treachery discard pile.
    CardDiscarded {
        /// Whose hand.
        faction: Faction,
        /// The card (discards are public).
        card: CardId,
    },
    /// R-PLC-5: the announced placement was cancelled by Karama; nothing was paid.
    PlacementCancelled {
        /// The token, still in supply (`null` in the public copy under `ownerOnly`).
        token: Option<Ambassador>,
        /// The stronghold it was meant for.
        territory: Territory,
        /// Who played Karama.
        by: Faction,
    },
    /// R-PLC-1: the placement opportunity closed for this turn.
    PlacementClosed {
        /// Tokens placed this turn.
        placed: u8,
        /// Why it closed.
        reason: PlacementEnd,
    },
    /// R-TRG-9, D-4: the storm moved.
    StormMoved {
        /// Sector it left.
        from: Sector,
        /// Sector it stopped in.
        to: Sector,
        /// Sectors moved.
        sectors: u32,
    },
    /// R-TRG-9, D-4: the Shield Wall was destroyed.
    ShieldWallDestroyed,
    /// R-PLC-4, D-6: the HMS moved.
    HmsMoved {
        /// Territory it points at now.
        territory: Territory,
        /// Sector.
        sector: Sector,
    },
    /// R-TRG-9: a placed token was destroyed and went back to Ecaz's supply (not a trigger).
    AmbassadorReturned {
        /// The token.
        token: Ambassador,
        /// The stronghold it was in.
        territory: Territory,
        /// What destroyed it.
        cause: ReturnCause,
    },
    /// R-TRG-3: forces arrived; `entry` says whether it is an entry.
    Arrived {
        /// The arrival (named again by its `resume`).
        arrival: ArrivalId,
        /// Who arrived.
        entrant: Faction,
        /// How.
        cause: Cause,
        /// From where.
        from: Origin,
        /// Destination.
        territory: Territory,
        /// Destination sector.
        sector: Sector,
        /// Ordinary forces.
        normal: u32,
        /// Elite forces.
        elite: u32,
        /// Arrived as BG advisors.
        advisors: bool,
        /// Is it an entry (R-TRG-3)?
        entry: bool,
        /// P-NEST: the arrival it is a reaction to.
        parent: Option<ArrivalId>,
    },
    /// R-TRG-1, R-TRG-4: a decision frame opened (reactions to an entry).
    DecisionOpened {
        /// The frame.
        frame: FrameId,
        /// Who answers.
        actor: Actor,
        /// The decision kind.
        decision_kind: String,
        /// The decision; `null` in the public copy when its details are not
        /// public (D-241: P-FRAME-VIS `actorOnly`, or P-SUPPLY-VIS
        /// `ownerOnly` for a supply-revealing kind); a full copy follows
        /// for those who may see them.
        decision: Option<Decision>,
    },
    /// R-TRG-1: Ecaz declined; the token stays.
    TriggerDeclined {
        /// The entry.
        arrival: ArrivalId,
        /// The token.
        token: Ambassador,
        /// Its stronghold.
        territory: Territory,
    },
    /// R-TRG-7 (D-55): a pending trigger offer was withdrawn because its
    /// token was triggered first by a nested reaction; nobody answers it.
    TriggerOfferWithdrawn {
        /// The withdrawn offer's frame.
        frame: FrameId,
        /// Its arrival.
        arrival: ArrivalId,
        /// The token, no longer placed.
        token: Ambassador,
        /// The stronghold it was placed in.
        territory: Territory,
    },
    /// R-TRG-1, R-TRG-6: Ecaz triggered a token; it went to `disposal`.
    AmbassadorTriggered {
        /// The entry.
        arrival: ArrivalId,
        /// The token.
        token: Ambassador,
        /// Its stronghold.
        territory: Territory,
        /// Who entered.
        entrant: Faction,
        /// Who benefits.
        beneficiary: Faction,
        /// Where the token went (used, supply, removed).
        disposal: Zone,
    },
    /// R-EFF-BG: the Bene Gesserit token copies this effect.
    EffectCopied {
        /// The entry.
        arrival: ArrivalId,
        /// The copied identity.
        effect: Ambassador,
    },
    /// R-TRG-4: an effect finished.
    EffectResolved {
        /// The entry.
        arrival: ArrivalId,
        /// The effect.
        effect: Ambassador,
        /// Who benefited.
        beneficiary: Faction,
    },
    /// D-46: spice from the bank.
    SpiceGained {
        /// Who.
        faction: Faction,
        /// How much.
        amount: u32,
    },
    /// D-46: spice paid, to the bank (`to` = null) or to a faction.
    SpicePaid {
        /// Who paid.
        faction: Faction,
        /// How much.
        amount: u32,
        /// Recipient faction, or null for the bank.
        to: Option<Faction>,
    },
    /// R-EFF-ATR: `by` looked at `of`'s hand (the cards go to `by` only).
    HandInspected {
        /// Who looked.
        by: Faction,
        /// Whose hand.
        of: Faction,
    },
    /// R-EFF-ATR (private to the beneficiary): the hand seen.
    HandSeen {
        /// Whose hand.
        of: Faction,
        /// The cards.
        cards: Vec<CardId>,
    },
    /// R-EFF-HAR: `by` looked at one random Traitor card of `of` (the card goes to `by` only).
    TraitorInspected {
        /// Who looked.
        by: Faction,
        /// Whose card.
        of: Faction,
    },
    /// R-EFF-HAR (private to the beneficiary): the card seen.
    TraitorSeen {
        /// Whose card.
        of: Faction,
        /// The card (a leader id, or `cheap_hero`, D-170).
        leader: TraitorCard,
        /// It was a Tleilaxu Face Dancer.
        face_dancer: bool,
    },
    /// D-41: a faction drew a Treachery card (public: the identity goes in `cardReceived`).
    CardDrawn {
        /// Who.
        faction: Faction,
    },
    /// D-41 (private to the drawer): the card drawn.
    CardReceived {
        /// Who.
        faction: Faction,
        /// The card.
        card: CardId,
    },
    /// D-41, R-EFF-IX: the Treachery discard pile was shuffled into the empty deck.
    DeckReshuffled {
        /// Cards in the new deck.
        cards: u32,
    },
    /// D-41 (host only): the new deck order after a reshuffle, top first, so a host
    /// can mirror the deck from the event stream.
    DeckOrder {
        /// The draw pile, top first.
        deck: Vec<CardId>,
    },
    /// R-INV-4, E3 pp.10–11 (D-53): the Nexus discard pile was shuffled
    /// into the empty Nexus deck before a deal.
    NexusReshuffled {
        /// Cards in the new Nexus deck.
        cards: u32,
    },
    /// R-INV-4 (host only): the new Nexus deck order after a reshuffle, top first.
    NexusDeckOrder {
        /// The Nexus draw pile, top first.
        deck: Vec<Faction>,
    },
    /// R-TRG-8: the cohort completed; used tokens went back to the pool.
    CohortRecycled {
        /// Tokens returned to the pool.
        returned: Vec<Ambassador>,
        /// Recycles so far.
        cycle: u32,
    },
    /// R-TRG-8: the new cohort, now in Ecaz's supply (audience per P-SUPPLY-VIS).
    CohortDrawn {
        /// The five tokens.
        tokens: Vec<Ambassador>,
    },
    /// Duke Vidal changed hands (R-DUKE-1..4).
    DukeMoved {
        /// His new custody.
        custody: DukeCustody,
        /// Why.
        reason: DukeReason,
    },
    /// An alliance formed (R-EFF-ECAZ (b), or reported by the host).
    AllianceFormed {
        /// One partner (Ecaz, when the Ecaz Ambassador formed it).
        a: Faction,
        /// The other (the entrant who accepted).
        b: Faction,
    },
    /// R-EFF-ECAZ (b): the entrant refused the alliance.
    AllianceRefused {
        /// The entrant.
        entrant: Faction,
    },
    /// D-47: a held Nexus card was discarded (joining an alliance discards it).
    NexusDiscarded {
        /// Who held it.
        faction: Faction,
        /// The card (discards are public).
        card: Faction,
    },
    /// R-EFF-TLX: forces went from the Tanks to reserves, free.
    ForcesRevived {
        /// Whose.
        faction: Faction,
        /// Ordinary forces.
        normal: u32,
        /// Elite forces.
        elite: u32,
    },
    /// R-EFF-TLX: a leader came back from the Tanks, free.
    LeaderRevived {
        /// Whose.
        faction: Faction,
        /// The leader.
        leader: Leader,
    },
    /// D-47 (public): a player was dealt a Nexus card; its identity goes to that player only.
    NexusDealt {
        /// Who.
        faction: Faction,
    },
    /// D-47 (private to the receiver): the Nexus card dealt.
    NexusReceived {
        /// Who.
        faction: Faction,
        /// The card.
        card: Faction,
    },
    /// R-NEX-CUN, R-NEX-BET, R-NEX-SEC: the Ecaz Nexus card was played (and discarded).
    NexusPlayed {
        /// Who played it.
        faction: Faction,
        /// The mode.
        mode: NexusMode,
    },
    /// R-NEX-BET: the Betrayal awaits Karama responses.
    BetrayalAnnounced {
        /// The host's response frame.
        frame: FrameId,
        /// The territory.
        territory: Territory,
        /// Ecaz's ally.
        ally: Faction,
    },
    /// R-NEX-BET: a Karama cancelled the Betrayal; the board is unchanged, the card is spent.
    BetrayalCancelled {
        /// Who played Karama.
        by: Faction,
    },
    /// R-NEX-BET: forces went from the board back to reserves (not a shipment,
    /// movement, battle loss or revival).
    ForcesReturned {
        /// Whose.
        faction: Faction,
        /// The stacks that left the board.
        stacks: Vec<Stack>,
    },
    /// R-NEX-SEC: the holder asked about `target` (the answer goes per P-NEX-SEC-AUDIENCE).
    SecretAllyAsked {
        /// Who asked.
        holder: Faction,
        /// About whom.
        target: Faction,
    },
    /// R-NEX-SEC: the answer (audience per P-NEX-SEC-AUDIENCE): yes/no only.
    SecretAllyAnswered {
        /// Who asked.
        holder: Faction,
        /// About whom.
        target: Faction,
        /// Does the target hold any of the holder's leaders as a Traitor?
        answer: bool,
    },
    /// D-44: forces went from the board to the Tanks.
    ForcesLost {
        /// Whose.
        faction: Faction,
        /// What was lost, per sector (`advisors` included).
        stacks: Vec<Stack>,
        /// Why.
        cause: LossCause,
    },
    /// D-35 (host report): forces went from the Tanks to reserves by ordinary revival.
    ForcesRevivedFromTanks {
        /// Whose.
        faction: Faction,
        /// Ordinary forces.
        normal: u32,
        /// Elite forces.
        elite: u32,
    },
    /// R-TRG-2: Bene Gesserit forces flipped in one sector.
    AdvisorsFlipped {
        /// Where.
        territory: Territory,
        /// Sector.
        sector: Sector,
        /// How many.
        count: u32,
        /// To fighters (true) or to advisors.
        to_fighters: bool,
    },
    /// D-41: a card passed between hands (public: the identity goes to the two parties).
    CardGiven {
        /// Giver.
        from: Faction,
        /// Receiver.
        to: Faction,
    },
    /// D-41 (private to giver and receiver): the card given.
    CardPassed {
        /// Giver.
        from: Faction,
        /// Receiver.
        to: Faction,
        /// The card.
        card: CardId,
    },
    /// D-17, D-42 (public): how many Traitor cards (or Face Dancers) a faction holds now.
    TraitorsChanged {
        /// Whose.
        faction: Faction,
        /// Traitor cards held.
        traitors: u32,
        /// Face Dancers held.
        face_dancers: u32,
    },
    /// D-42 (private to the holder): the Traitor cards / Face Dancers held now.
    TraitorsHeld {
        /// Whose.
        faction: Faction,
        /// Traitor cards (leader ids, or `cheap_hero`, D-170).
        traitors: Vec<TraitorCard>,
        /// Face Dancers.
        face_dancers: Vec<TraitorCard>,
    },
    /// D-43: a leader's custody changed.
    LeaderMoved {
        /// The leader.
        leader: Leader,
        /// Its custody now.
        custody: LeaderCustody,
    },
    /// D-29: an alliance ended.
    AllianceBroken {
        /// One partner.
        a: Faction,
        /// The other.
        b: Faction,
    },
    /// D-41: a hand limit changed.
    HandLimitSet {
        /// Whose.
        faction: Faction,
        /// The limit.
        limit: u8,
    },
    /// D-100 (host only): `syncTable` replaced the engine's mirror: each
    /// fact that differed, with the engine's value before and the host's after.
    TableSynced {
        /// What differed (empty: the tables already agreed).
        differences: Vec<crate::model::table::Difference>,
    },
    /// D-102: a Tleilaxu Face Dancer was revealed: it is face up (public).
    FaceDancerRevealed {
        /// The card (a leader id, or `cheap_hero`, D-170).
        leader: TraitorCard,
    },
    /// D-103: a card from outside deck and discard went into a hand (public:
    /// the cache it came from is face up).
    OutsideCardTaken {
        /// Who took it.
        faction: Faction,
        /// The card.
        card: CardId,
    },
    /// R-TRG-4: every reaction to this arrival has settled; the host may now
    /// continue the entrant's action.
    Resume {
        /// The arrival.
        arrival: ArrivalId,
    },
}

/// The three modes of the Ecaz Nexus card (RULES §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum NexusMode {
    /// Held by Ecaz.
    Cunning,
    /// Ecaz seated, held by another player.
    Betrayal,
    /// Ecaz not seated.
    SecretAlly,
}

impl NexusMode {
    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            NexusMode::Cunning => "Cunning",
            NexusMode::Betrayal => "Betrayal",
            NexusMode::SecretAlly => "Secret Ally",
        }
    }
}

/// Why forces went to the Tanks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum LossCause {
    /// Host-reported (battle, Lasgun/Shield, Terror …).
    Reported,
    /// The storm, applied by the engine (`moveStorm` with `destroyForces`).
    Storm,
}

/// Why Duke Vidal moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DukeReason {
    /// R-EFF-ECAZ (a): taken through the Ecaz Ambassador.
    Ambassador,
    /// P-DUKE-LOAN: lent to the new ally.
    Loan,
    /// P-DUKE-LOAN: a loan ended; he went back.
    LoanEnded,
    /// R-DUKE-3: temporary control ended with a battle use.
    BattleUse,
    /// R-DUKE-3: killed.
    Killed,
    /// Captured.
    Captured,
    /// A captured Duke was returned (set aside).
    Returned,
    /// He left the Tanks as a ghola.
    Ghola,
    /// R-DUKE-4: revived by Ecaz.
    Revived,
    /// R-DUKE-2: Moritani's stronghold-battle power.
    Moritani,
    /// A turn-long control expired at the end of the turn.
    TurnEnd,
    /// R-NEX-CUN: Ecaz took him with the Nexus Cunning.
    Cunning,
}

/// Why a placed token returned to supply (R-TRG-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ReturnCause {
    /// The storm reached an exposed stronghold.
    Storm,
    /// A Lasgun/Shield explosion.
    LasgunShield,
    /// Moritani's Atomics Terror.
    AtomicsTerror,
    /// Another host-reported destruction.
    Other,
}

impl From<Destruction> for ReturnCause {
    fn from(d: Destruction) -> Self {
        match d {
            Destruction::LasgunShield => ReturnCause::LasgunShield,
            Destruction::AtomicsTerror => ReturnCause::AtomicsTerror,
            Destruction::Other => ReturnCause::Other,
        }
    }
}
