//! Commands (ARCHITECTURE §4): `Command { actor, action }`.
//!
//! The actor is a seated faction (a player decision) or `host` (a fact decided
//! outside the library). Each action may be issued by one kind of actor only;
//! anything else is `rule/wrong_actor` (no actor forgery). Decision commands
//! name the frame they answer.

use std::borrow::Cow;

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::base::ids::{
    Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard,
};
use crate::model::game::{is_false, Actor, LeaderCustody};

/// Where arriving forces come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Origin {
    /// R-TRG-3: off-planet reserves (a shipment).
    Reserves,
    /// R-TRG-3: a sector of a territory on the board.
    Board {
        /// The territory left.
        territory: Territory,
        /// The sector left.
        sector: Sector,
    },
    /// One group from several sectors of one territory (R-EFF-FRE); the
    /// per-sector counts must add up to the arrival's counts.
    Group {
        /// The territory left.
        territory: Territory,
        /// What leaves each sector.
        sectors: Vec<SectorForces>,
    },
}

impl Origin {
    /// The territory left (None for reserves).
    pub fn territory(&self) -> Option<Territory> {
        match self {
            Origin::Reserves => None,
            Origin::Board { territory, .. } | Origin::Group { territory, .. } => Some(*territory),
        }
    }
}

/// How forces arrived (R-TRG-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Cause {
    /// A shipment (from reserves, or Guild cross-shipment).
    Shipment,
    /// Ordinary movement.
    Movement,
    /// A worm ride.
    Worm,
    /// Any other host-reported arrival.
    Other,
    /// Made by the engine: the Fremen Ambassador relocation (R-EFF-FRE).
    AmbassadorFremen,
    /// Made by the engine: the Guild Ambassador shipment (R-EFF-GLD).
    AmbassadorGuild,
}

/// Forces taken from one sector (R-EFF-FRE groups span several sectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectorForces {
    /// The sector.
    pub sector: Sector,
    /// Ordinary forces (BG fighters, or advisors when the move is of advisors).
    #[serde(default)]
    pub normal: u32,
    /// Elite forces.
    #[serde(default)]
    pub elite: u32,
}

/// One command: who issues it and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Command {
    /// `host` or a faction id.
    pub actor: Actor,
    /// What the actor does.
    pub action: Action,
    /// D-230: apply only at this revision of the game (`rule/stale_revision`
    /// otherwise, nothing changes): a retried write never applies twice.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub if_revision: Option<u32>,
}

impl Command {
    /// A command from `actor` (no revision guard).
    pub fn new(actor: Actor, action: Action) -> Self {
        Command {
            actor,
            action,
            if_revision: None,
        }
    }
    /// A command from a faction.
    pub fn faction(f: Faction, action: Action) -> Self {
        Command::new(Actor::Faction(f), action)
    }
    /// A command from the host.
    pub fn host(action: Action) -> Self {
        Command::new(Actor::Host, action)
    }
    /// D-230: this command, guarded to apply only at `revision`.
    #[must_use]
    pub fn at_revision(self, revision: u32) -> Self {
        Command {
            if_revision: Some(revision),
            ..self
        }
    }
}

/// What destroyed a territory's contents (R-TRG-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Destruction {
    /// A Lasgun/Shield explosion.
    LasgunShield,
    /// Moritani's Atomics Terror.
    AtomicsTerror,
    /// Any other host-reported destruction of a territory's contents.
    Other,
}

/// R-EFF-ECAZ: the two exclusive branches of the Ecaz effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EcazBranch {
    /// (a) take Duke Vidal.
    Duke,
    /// (b) offer the entrant an alliance.
    Alliance,
}

/// Every action, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Action {
    // ---- Ecaz decisions ----
    /// R-PLC-1..4 (Ecaz): announce the placement of a supply token in a stronghold.
    Place {
        /// The placement frame.
        frame: FrameId,
        /// A token in Ecaz's supply.
        token: Ambassador,
        /// A stronghold.
        territory: Territory,
    },
    /// R-PLC-1 (Ecaz): place no more this turn.
    FinishPlacement {
        /// The placement frame.
        frame: FrameId,
    },

    /// R-TRG-1 (Ecaz): do not trigger the token; it stays, nothing changes.
    Decline {
        /// The trigger offer frame.
        frame: FrameId,
    },
    /// R-TRG-1, R-TRG-5 (Ecaz): trigger the token for a beneficiary (Ecaz or its ally).
    Trigger {
        /// The trigger offer frame.
        frame: FrameId,
        /// Ecaz or its current ally.
        beneficiary: Faction,
    },
    /// R-EFF-BG (Ecaz): the effect the Bene Gesserit token copies.
    Copy {
        /// The copy frame.
        frame: FrameId,
        /// One of the frame's candidates.
        effect: Ambassador,
    },
    /// R-EFF-CHOAM (beneficiary): discard these own cards (any number, none allowed) for 3 spice each.
    DiscardForSpice {
        /// The CHOAM frame.
        frame: FrameId,
        /// Distinct cards from the beneficiary's hand, in any order: they are
        /// discarded in hand order whatever the order named (D-83).
        cards: Vec<CardId>,
    },
    /// R-EFF-IX (beneficiary): discard this card, then draw one.
    SwapCard {
        /// The Ixian frame.
        frame: FrameId,
        /// A card from the beneficiary's hand.
        card: CardId,
    },
    /// R-EFF-RIC (beneficiary): pay 3 spice for the top card, or not.
    BuyCard {
        /// The Richese frame.
        frame: FrameId,
        /// Buy (true) or decline (false).
        buy: bool,
    },

    /// R-EFF-ECAZ (Ecaz): pick the branch when both are possible.
    ChooseBranch {
        /// The branch frame.
        frame: FrameId,
        /// Duke or alliance.
        branch: EcazBranch,
    },
    /// R-EFF-ECAZ (b) (the entrant): accept or refuse Ecaz's alliance.
    AnswerAlliance {
        /// The alliance offer frame.
        frame: FrameId,
        /// Accept (true) or refuse.
        accept: bool,
    },
    /// P-DUKE-LOAN (Ecaz): lend Duke Vidal to the new ally for this turn, or not.
    LendDuke {
        /// The loan frame.
        frame: FrameId,
        /// Lend (true) or keep.
        lend: bool,
    },

    /// R-EFF-FRE (beneficiary): move one group from one territory (several
    /// sectors allowed) to a sector of any territory; an empty group moves nothing.
    Relocate {
        /// The Fremen frame.
        frame: FrameId,
        /// The territory the group leaves.
        from: Territory,
        /// What leaves each of its sectors.
        #[serde(default)]
        group: Vec<SectorForces>,
        /// The group is of Bene Gesserit advisors.
        #[serde(default)]
        advisors: bool,
        /// Destination territory.
        to: Territory,
        /// Destination sector.
        sector: Sector,
    },
    /// R-EFF-GLD (beneficiary): ship up to 4 reserves, free; 0 ships nothing.
    Ship {
        /// The Guild frame.
        frame: FrameId,
        /// Destination territory.
        territory: Territory,
        /// Destination sector.
        sector: Sector,
        /// Ordinary forces.
        #[serde(default)]
        normal: u32,
        /// Elite forces.
        #[serde(default)]
        elite: u32,
    },
    /// R-EFF-TLX (beneficiary): revive one own leader from the Tanks, free.
    ReviveLeader {
        /// The Tleilaxu frame.
        frame: FrameId,
        /// The leader.
        leader: Leader,
    },
    /// R-EFF-TLX (Ecaz only): revive Duke Vidal, free (P-DUKE-REVIVED custody).
    ReviveDuke {
        /// The Tleilaxu frame.
        frame: FrameId,
    },
    /// R-EFF-TLX, P-TLX (beneficiary): revive up to 4 forces, free (0 allowed).
    ReviveForces {
        /// The Tleilaxu frame.
        frame: FrameId,
        /// Ordinary forces.
        #[serde(default)]
        normal: u32,
        /// Elite forces (at most one per turn, shared with ordinary revival).
        #[serde(default)]
        elite: u32,
    },

    /// R-EFF-FRE / R-EFF-GLD / R-EFF-TLX (beneficiary): use nothing of the effect.
    Pass {
        /// The effect frame.
        frame: FrameId,
    },

    /// R-NEX-CUN (Ecaz, holding the Ecaz Nexus card, unallied; Battle phase,
    /// before Duke Vidal's battle, P-NEX-CUN-TIME): take Duke Vidal for this turn.
    PlayCunning {},
    /// R-NEX-BET (the unallied non-Ecaz holder; Shipment & Movement before
    /// anyone ships or moves, P-NEX-BET-TIME): Ecaz's ally's forces in
    /// `territory` return to its reserves, unless a Karama cancels it.
    PlayBetrayal {
        /// A territory where both Ecaz and its ally have forces.
        territory: Territory,
    },
    /// R-NEX-SEC (the unallied holder, Ecaz not seated): does `target` hold
    /// any of my leaders as a Traitor? The engine answers.
    PlaySecretAlly {
        /// Any seated player, the holder included.
        target: Faction,
    },

    // ---- host answers to response windows ----
    /// P-NEX-BET-TIME (host): nobody cancelled the Betrayal; it takes effect.
    AllowBetrayal {
        /// The Betrayal response frame.
        frame: FrameId,
    },
    /// P-NEX-BET-TIME (host): `faction` played the Karama `card` against the Betrayal.
    CancelBetrayal {
        /// The Betrayal response frame.
        frame: FrameId,
        /// Who played Karama (not the holder).
        faction: Faction,
        /// The Karama card.
        card: CardId,
        /// D-251: the host vouches that `card` counts as a Karama here
        /// (its rules, a situation the engine does not model); the card
        /// must still be in `faction`'s hand. Default false.
        #[serde(default)]
        #[serde(skip_serializing_if = "is_false")]
        host_vouched_karama: bool,
    },
    /// R-PLC-5 (host): nobody cancelled the announced placement; commit it.
    AllowPlacement {
        /// The placement response frame.
        frame: FrameId,
    },
    /// R-PLC-5 (host): `faction` played the Karama `card` against the announced placement.
    CancelPlacement {
        /// The placement response frame.
        frame: FrameId,
        /// Who played Karama (not Ecaz).
        faction: Faction,
        /// The Karama card, from that faction's hand.
        card: CardId,
        /// D-251: the host vouches that `card` counts as a Karama here
        /// (its rules, a situation the engine does not model); the card
        /// must still be in `faction`'s hand. Default false.
        #[serde(default)]
        #[serde(skip_serializing_if = "is_false")]
        host_vouched_karama: bool,
    },

    // ---- host reports: turn structure, storm, board ----
    /// R-TRG-3 (host): forces of `entrant` arrived in `territory`/`sector`. The
    /// engine moves them on its table and, when this is an entry into a
    /// stronghold holding a token, offers Ecaz the trigger. The host holds the
    /// entrant's remaining action until the `resume` event for this arrival.
    Arrive {
        /// Who arrives.
        entrant: Faction,
        /// How.
        cause: Cause,
        /// From where.
        from: Origin,
        /// Destination territory.
        territory: Territory,
        /// Destination sector.
        sector: Sector,
        /// Ordinary forces (BG fighters, or BG advisors when `advisors`).
        #[serde(default)]
        normal: u32,
        /// Elite forces.
        #[serde(default)]
        elite: u32,
        /// Bene Gesserit forces arriving as advisors (never a trigger, R-TRG-2).
        #[serde(default)]
        advisors: bool,
        /// P-NEST: the open arrival this one is a reaction to (e.g. BG
        /// accompaniment of an effect shipment). A linked arrival is accepted
        /// while a decision is open; its reactions settle before the parent's.
        #[serde(default)]
        parent: Option<ArrivalId>,
        /// P-REACT-ORDER (D-252): run the host's own entry reactions before
        /// Ecaz's trigger offer for this arrival, as policy `hostFirst`
        /// does for every arrival. Default false.
        #[serde(default)]
        #[serde(skip_serializing_if = "is_false")]
        reactions_first: bool,
    },
    /// P-NEST (host): the host has run its own entry reactions to an arrival
    /// the engine made (Fremen or Guild effect).
    ReactionsDone {
        /// The host-reactions frame.
        frame: FrameId,
    },
    /// The current phase ends (the host names it, as a guard against drift).
    /// Ending Revival opens Ecaz's placement (R-PLC-1); ending Mentat starts the next turn.
    EndPhase {
        /// The phase that ends; must be the current one.
        phase: Phase,
    },
    /// The storm moves `sectors` sectors counter-clockwise (Storm phase); exposed
    /// strongholds on its path return their Ambassador (R-TRG-9). With the
    /// game option `stormLosses` the engine also destroys the forces in exposed
    /// sectors on its path per the base rules (Fremen lose half, rounded up);
    /// otherwise the host reports the losses itself (`loseForces`).
    MoveStorm {
        /// Sectors moved, 0..=20.
        sectors: u32,
    },
    /// R-TRG-9, D-4 (host): Family Atomics destroyed the Shield Wall (Storm phase): Arrakeen, Carthag
    /// and Imperial Basin are exposed to the storm from now on.
    DestroyShieldWall {},
    /// R-DUKE-3 (host): Duke Vidal was used in a battle by whoever has him in
    /// play. A temporary control (a loan included, P-DUKE-LOAN) ends and he is
    /// set aside; a captor or ghola holder keeps him.
    DukeUsedInBattle {},
    /// R-DUKE-3 (host): Duke Vidal was killed (controlled, captured or a
    /// ghola); he goes to the Tanks.
    DukeKilled {},
    /// R-DUKE-2 (host): Duke Vidal was captured by `by` (from his controller,
    /// his captor or his ghola holder).
    DukeCaptured {
        /// The captor.
        by: Faction,
    },
    /// R-DUKE-2 (host): a captured Duke Vidal was returned: he is set aside.
    DukeReturned {},
    /// R-DUKE-2 (host): Duke Vidal left the Tanks as `by`'s ghola.
    DukeGhola {
        /// Who holds the ghola.
        by: Faction,
    },
    /// R-DUKE-4 (host): Ecaz revived Duke Vidal for 5 spice (P-DUKE-REVIVED).
    DukeRevived {},
    /// R-DUKE-2 (host): Moritani's stronghold-battle power gave it Duke Vidal
    /// for one battle (set aside at turn end).
    DukeToMoritani {},
    // ---- host reports: table sync (D-40–D-47) ----
    /// D-40, D-46 (host): spice from the bank (income, collection, charity, …).
    GainSpice {
        /// Who.
        faction: Faction,
        /// How much (> 0).
        amount: u32,
    },
    /// D-40, D-46 (host): spice paid to the bank (`to` null) or to another faction.
    PaySpice {
        /// Who pays.
        faction: Faction,
        /// How much (> 0, at most what it has).
        amount: u32,
        /// Recipient, or null for the bank.
        #[serde(default)]
        to: Option<Faction>,
    },
    /// D-41 (host): `faction` draws the top Treachery card (the discard pile is
    /// reshuffled, seeded, when the deck is empty).
    DrawCard {
        /// Who draws.
        faction: Faction,
    },
    /// D-41 (host): `faction` discards `card` from its hand.
    DiscardCard {
        /// Who.
        faction: Faction,
        /// The card.
        card: CardId,
    },
    /// D-41 (host): `card` passes from one hand to another (gift, trade, capture …).
    GiveCard {
        /// Who gives.
        from: Faction,
        /// Who receives.
        to: Faction,
        /// The card.
        card: CardId,
    },
    /// D-42 (host): the Traitor cards `faction` now holds (dealt, kept or replaced).
    SetTraitors {
        /// Who (not the Tleilaxu, who hold Face Dancers).
        faction: Faction,
        /// The cards held now (at most 4): leader ids, or `cheap_hero` (D-170).
        traitors: Vec<TraitorCard>,
    },
    /// D-42 (host): the Face Dancers the Tleilaxu now hold face down (at most 3).
    SetFaceDancers {
        /// The cards held now: leader ids, or `cheap_hero` (D-170).
        face_dancers: Vec<TraitorCard>,
    },
    /// D-44 (host): forces lost on the board (battle, storm, …) go to the Tanks.
    LoseForces {
        /// Whose.
        faction: Faction,
        /// Where.
        territory: Territory,
        /// Sector.
        sector: Sector,
        /// Ordinary forces (BG fighters).
        #[serde(default)]
        normal: u32,
        /// Elite forces.
        #[serde(default)]
        elite: u32,
        /// BG advisors.
        #[serde(default)]
        advisors: u32,
    },
    /// D-40 (host): forces leave the board for the reserves (not a loss).
    ReturnForces {
        /// Whose.
        faction: Faction,
        /// Where.
        territory: Territory,
        /// Sector.
        sector: Sector,
        /// Ordinary forces.
        #[serde(default)]
        normal: u32,
        /// Elite forces.
        #[serde(default)]
        elite: u32,
        /// BG advisors.
        #[serde(default)]
        advisors: u32,
    },
    /// (host) ordinary revival: forces from the Tanks to reserves (at most one
    /// elite per turn, shared with the Tleilaxu Ambassador, P-TLX).
    ReviveFromTanks {
        /// Whose.
        faction: Faction,
        /// Ordinary forces.
        #[serde(default)]
        normal: u32,
        /// Elite forces.
        #[serde(default)]
        elite: u32,
    },
    /// R-TRG-2, D-40 (host): Bene Gesserit forces flip between advisors and fighters in one sector.
    FlipAdvisors {
        /// Where.
        territory: Territory,
        /// Sector.
        sector: Sector,
        /// How many.
        count: u32,
        /// Advisors become fighters (true) or fighters become advisors (false).
        to_fighters: bool,
    },
    /// D-43 (host): a leader's custody changed: killed (tanks), revived or returned
    /// (available), captured, made a ghola.
    SetLeader {
        /// The leader.
        leader: Leader,
        /// Its new custody (must differ from the current one).
        custody: LeaderCustody,
    },
    /// R-TRG-2, R-TRG-5 (host): two unallied factions ally (held Nexus cards are discarded).
    FormAlliance {
        /// One.
        a: Faction,
        /// The other.
        b: Faction,
    },
    /// (host) `faction`'s alliance ends (a lent Duke returns, P-DUKE-LOAN).
    BreakAlliance {
        /// Either partner.
        faction: Faction,
    },
    /// D-102 (host): the Tleilaxu reveal a held Face Dancer: it turns face
    /// up (public), stays held, still counts for the Harkonnen effect
    /// (R-EFF-HAR, D-166) and no longer for Secret Ally (P-NEX-SEC-FD).
    RevealFaceDancer {
        /// A Face Dancer the Tleilaxu hold face down (a leader id, or
        /// `cheap_hero`, D-170).
        leader: TraitorCard,
    },
    /// D-103 (host): a card from outside deck and discard (e.g. bought
    /// from Richese's cache) goes into a hand.
    TakeOutsideCard {
        /// Who takes it.
        faction: Faction,
        /// A card of the `outside` zone.
        card: CardId,
    },
    /// D-100 (host): reconcile the whole table at once: the engine's mirror
    /// becomes exactly `table` (validated like a Setup, every problem at
    /// once); Ambassadors, Duke Vidal, frames, knowledge and the RNG stay.
    /// Refused (`rule/frame_depends`) when a pending decision depends on a
    /// fact it would change.
    SyncTable {
        /// The host's whole table.
        table: Box<crate::model::table::TableFacts>,
    },
    /// D-41 (host): a hand limit changed.
    SetHandLimit {
        /// Whose.
        faction: Faction,
        /// The new limit (1–20).
        limit: u8,
    },
    /// D-47 (host): `faction` is dealt the top Nexus card (Nexus module; unallied, holding none).
    DealNexus {
        /// Who receives it.
        faction: Faction,
    },
    /// D-47 (host): `faction` discards its held Nexus card.
    DiscardNexus {
        /// Who discards.
        faction: Faction,
    },
    /// The Ixians moved the HMS; a token inside stays attached (R-PLC-4).
    MoveHms {
        /// The non-stronghold territory it now points at.
        territory: Territory,
        /// The sector of that territory.
        sector: Sector,
    },
    /// Everything in a territory was destroyed (Lasgun/Shield explosion,
    /// Atomics Terror …); a token there returns to Ecaz's supply (R-TRG-9).
    DestroyTerritory {
        /// The territory.
        territory: Territory,
        /// What destroyed it.
        cause: Destruction,
    },
}

impl Action {
    /// The wire name of the action kind.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Place { .. } => "place",
            Action::FinishPlacement { .. } => "finishPlacement",
            Action::Decline { .. } => "decline",
            Action::Trigger { .. } => "trigger",
            Action::Copy { .. } => "copy",
            Action::DiscardForSpice { .. } => "discardForSpice",
            Action::SwapCard { .. } => "swapCard",
            Action::BuyCard { .. } => "buyCard",
            Action::Arrive { .. } => "arrive",
            Action::ChooseBranch { .. } => "chooseBranch",
            Action::AnswerAlliance { .. } => "answerAlliance",
            Action::LendDuke { .. } => "lendDuke",
            Action::ReactionsDone { .. } => "reactionsDone",
            Action::Relocate { .. } => "relocate",
            Action::Pass { .. } => "pass",
            Action::PlayCunning {} => "playCunning",
            Action::PlayBetrayal { .. } => "playBetrayal",
            Action::PlaySecretAlly { .. } => "playSecretAlly",
            Action::AllowBetrayal { .. } => "allowBetrayal",
            Action::CancelBetrayal { .. } => "cancelBetrayal",
            Action::DealNexus { .. } => "dealNexus",
            Action::GainSpice { .. } => "gainSpice",
            Action::PaySpice { .. } => "paySpice",
            Action::DrawCard { .. } => "drawCard",
            Action::DiscardCard { .. } => "discardCard",
            Action::GiveCard { .. } => "giveCard",
            Action::SetTraitors { .. } => "setTraitors",
            Action::SetFaceDancers { .. } => "setFaceDancers",
            Action::LoseForces { .. } => "loseForces",
            Action::ReturnForces { .. } => "returnForces",
            Action::ReviveFromTanks { .. } => "reviveFromTanks",
            Action::FlipAdvisors { .. } => "flipAdvisors",
            Action::SetLeader { .. } => "setLeader",
            Action::FormAlliance { .. } => "formAlliance",
            Action::BreakAlliance { .. } => "breakAlliance",
            Action::SetHandLimit { .. } => "setHandLimit",
            Action::RevealFaceDancer { .. } => "revealFaceDancer",
            Action::TakeOutsideCard { .. } => "takeOutsideCard",
            Action::SyncTable { .. } => "syncTable",
            Action::DiscardNexus { .. } => "discardNexus",
            Action::Ship { .. } => "ship",
            Action::ReviveLeader { .. } => "reviveLeader",
            Action::ReviveDuke { .. } => "reviveDuke",
            Action::ReviveForces { .. } => "reviveForces",
            Action::DukeUsedInBattle {} => "dukeUsedInBattle",
            Action::DukeKilled {} => "dukeKilled",
            Action::DukeCaptured { .. } => "dukeCaptured",
            Action::DukeReturned {} => "dukeReturned",
            Action::DukeGhola { .. } => "dukeGhola",
            Action::DukeRevived {} => "dukeRevived",
            Action::DukeToMoritani {} => "dukeToMoritani",
            Action::AllowPlacement { .. } => "allowPlacement",
            Action::CancelPlacement { .. } => "cancelPlacement",
            Action::EndPhase { .. } => "endPhase",
            Action::MoveStorm { .. } => "moveStorm",
            Action::DestroyShieldWall {} => "destroyShieldWall",
            Action::MoveHms { .. } => "moveHms",
            Action::DestroyTerritory { .. } => "destroyTerritory",
        }
    }

    /// A player's own initiative (a Nexus card play): no frame, a faction actor.
    pub fn is_play(&self) -> bool {
        matches!(
            self,
            Action::PlayCunning {} | Action::PlayBetrayal { .. } | Action::PlaySecretAlly { .. }
        )
    }

    /// The frame a decision command answers; `None` for host reports and plays.
    pub fn frame(&self) -> Option<FrameId> {
        match self {
            Action::Place { frame, .. }
            | Action::FinishPlacement { frame }
            | Action::Decline { frame }
            | Action::Trigger { frame, .. }
            | Action::Copy { frame, .. }
            | Action::DiscardForSpice { frame, .. }
            | Action::SwapCard { frame, .. }
            | Action::BuyCard { frame, .. }
            | Action::ChooseBranch { frame, .. }
            | Action::AnswerAlliance { frame, .. }
            | Action::LendDuke { frame, .. }
            | Action::ReactionsDone { frame }
            | Action::Relocate { frame, .. }
            | Action::Pass { frame }
            | Action::AllowBetrayal { frame }
            | Action::CancelBetrayal { frame, .. }
            | Action::Ship { frame, .. }
            | Action::ReviveLeader { frame, .. }
            | Action::ReviveDuke { frame }
            | Action::ReviveForces { frame, .. }
            | Action::AllowPlacement { frame }
            | Action::CancelPlacement { frame, .. } => Some(*frame),
            _ => None,
        }
    }
}

// ---- Viewer as a plain string on the wire ----

/// Who a view is for (ARCHITECTURE §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Viewer {
    /// A seated faction: its own secrets plus public information.
    Faction(Faction),
    /// Someone watching: public information only.
    Spectator,
    /// The host: everything except the RNG state.
    Host,
}

impl Viewer {
    /// The wire id: a faction id, `spectator` or `host`.
    pub fn id(self) -> &'static str {
        match self {
            Viewer::Faction(f) => f.id(),
            Viewer::Spectator => "spectator",
            Viewer::Host => "host",
        }
    }
}

impl std::fmt::Display for Viewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Viewer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Viewer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = crate::codec::wire::text(d)?;
        match s.as_ref() {
            "host" => Ok(Viewer::Host),
            "spectator" => Ok(Viewer::Spectator),
            other => Faction::from_id(other).map(Viewer::Faction).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown viewer `{other}` (expected a faction id, `spectator` or `host`)"
                ))
            }),
        }
    }
}

impl JsonSchema for Viewer {
    fn schema_name() -> Cow<'static, str> {
        "Viewer".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::base::ids::faction_id_schema("Viewer", "A faction id, `spectator` or `host`.", &["spectator", "host"])
    }
}
