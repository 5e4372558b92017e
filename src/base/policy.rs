//! The rule policies (RULES §9): every question the printed sources leave
//! open, as a named field with its default. Single-valued policies are listed
//! too, so that a host reading a game's configuration sees every choice the
//! engine makes.

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::Serialize;

/// P-SUPPLY-VIS: is Ecaz's unplaced supply public?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SupplyVisibility {
    /// Every viewer sees every token's zone (default).
    #[default]
    Public,
    /// Others see placed, used and removed tokens, and only the counts of supply and pool.
    OwnerOnly,
}

/// P-FRAME-VIS: who sees a decision frame's details (D-240).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum FrameVisibility {
    /// Every viewer sees every frame's details (default).
    #[default]
    Public,
    /// A frame's details (beneficiaries, candidates, previews, choices) go
    /// only to the faction that decides and to the host; the others see that
    /// a decision is open, its kind and who decides. Host frames stay public.
    ActorOnly,
}

impl FrameVisibility {
    /// The default (`public`): not written in a saved state (D-240).
    pub fn is_public(&self) -> bool {
        *self == FrameVisibility::Public
    }
}

/// P-BG-POOL: which tokens can the Bene Gesserit Ambassador copy?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum BgPool {
    /// Identities outside this cycle's original supply (Ecaz + cohort), wherever they are now (default).
    #[default]
    OutsideOriginalSupply,
    /// Identities not in Ecaz's supply at the moment of the trigger.
    NotInSupplyNow,
}

/// P-UNAVAILABLE: can an effect that cannot do anything be triggered?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Unavailable {
    /// Ixian (empty hand), Harkonnen (no traitors), BG (nothing to copy) and
    /// Ecaz (neither branch) cannot be triggered; others may and do nothing (default).
    #[default]
    NotTriggerable,
    /// Every effect may be triggered and then does what it can.
    AlwaysTriggerable,
}

/// P-NEST: order of nested entry reactions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum NestOrder {
    /// A nested entry's reactions settle before the parent resumes (the only choice).
    #[default]
    ChildFirst,
}

/// P-FRE-ROUTE: does the Fremen relocation need a path?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum FremenRoute {
    /// No path; source sectors and destination sector outside the storm;
    /// occupancy applies; HMS only from the territory it points at (Ixians anywhere).
    #[default]
    NoPath,
}

/// P-RIC-PAY: who receives the Richese Ambassador's 3 spice?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum RichesePay {
    /// The bank, as printed (default).
    #[default]
    Bank,
    /// Treated as a card purchase (Emperor income, Harkonnen bonus).
    Purchase,
}

/// P-TLX: Tleilaxu Ambassador revival versus ordinary revival.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum TleilaxuRevival {
    /// Free and independent; at most one elite per turn shared with ordinary
    /// revival; fewer than 4 allowed (the only choice).
    #[default]
    Independent,
}

/// P-ECAZ-ALLY: the Ecaz effect with the ally as beneficiary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EcazAllyBenefit {
    /// The ally may take Duke Vidal (kept until battle use); the alliance branch is Ecaz's own.
    #[default]
    AllyTakesDuke,
}

/// P-DUKE-LOAN: which Duke can be lent, and where he goes after.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DukeLoan {
    /// Only one Ecaz controls or that is set aside and available; at turn end
    /// or after a battle he returns to his previous holder, else set aside.
    #[default]
    ReturnToPreviousHolder,
}

/// P-DUKE-REVIVED: custody of a revived Duke.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DukeRevived {
    /// Set aside; Ecaz must re-acquire him (default).
    #[default]
    SetAside,
    /// Revived into Ecaz's control.
    Ecaz,
}

/// P-NEX-CUN-TIME: when Cunning may be played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CunningTiming {
    /// Any time in the Battle phase before Duke Vidal's battle is fought.
    #[default]
    BattlePhase,
}

/// P-NEX-BET-TIME: when Betrayal may be played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum BetrayalTiming {
    /// Shipment & Movement before anyone ships or moves; opens a Karama response window.
    #[default]
    BeforeShipment,
}

/// P-NEX-SEC-SCOPE: which leaders count as "yours" for Secret Ally.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SecretAllyScope {
    /// The holder's native faction leaders, dead or alive, wherever they are (default).
    #[default]
    Native,
    /// The leaders the holder currently controls.
    Controlled,
}

/// P-NEX-SEC-AUDIENCE: who learns the Secret Ally answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SecretAllyAudience {
    /// The holder only (default).
    #[default]
    Holder,
    /// Every player.
    Table,
}

/// P-NEX-SEC-FD: do Tleilaxu Face Dancers count as traitors for Secret Ally?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SecretAllyFaceDancers {
    /// No (default).
    #[default]
    No,
    /// Yes.
    Yes,
}

/// P-REACT-ORDER (D-252): for an arrival the host reports, which comes first —
/// Ecaz's trigger offer or the host's own entry reactions?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ReactionOrder {
    /// The trigger offer opens at once; the host runs its own reactions
    /// after the arrival resumes (default).
    #[default]
    OfferFirst,
    /// A `hostReactions` window (`offerAfter`) opens first; the offer opens
    /// when the host closes it, if the entry still triggers.
    HostFirst,
}

impl ReactionOrder {
    /// Is this the default (`offerFirst`)? Then it is left out of the
    /// written state and views (D-252: default states stay byte-identical).
    pub fn is_default(&self) -> bool {
        *self == ReactionOrder::OfferFirst
    }
}

/// Every policy of RULES §9. Each field defaults to the RULES default, so a
/// setup names only what it changes. The host-kit policies (P-KARAMA-HOST,
/// P-REACT-ORDER) are written only when they differ from their default, so
/// a default game's state is the same with or without them (D-250, D-252).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Policies {
    /// P-SUPPLY-VIS.
    pub supply_visibility: SupplyVisibility,
    /// P-BG-POOL.
    pub bg_pool: BgPool,
    /// P-UNAVAILABLE.
    pub unavailable: Unavailable,
    /// P-NEST.
    pub nest: NestOrder,
    /// P-FRE-ROUTE.
    pub fremen_route: FremenRoute,
    /// P-RIC-PAY.
    pub richese_pay: RichesePay,
    /// P-TLX.
    pub tleilaxu_revival: TleilaxuRevival,
    /// P-ECAZ-ALLY.
    pub ecaz_ally: EcazAllyBenefit,
    /// P-DUKE-LOAN.
    pub duke_loan: DukeLoan,
    /// P-DUKE-REVIVED.
    pub duke_revived: DukeRevived,
    /// P-NEX-CUN-TIME.
    pub cunning_timing: CunningTiming,
    /// P-NEX-BET-TIME.
    pub betrayal_timing: BetrayalTiming,
    /// P-NEX-SEC-SCOPE.
    pub secret_ally_scope: SecretAllyScope,
    /// P-NEX-SEC-AUDIENCE.
    pub secret_ally_audience: SecretAllyAudience,
    /// P-NEX-SEC-FD.
    pub secret_ally_face_dancers: SecretAllyFaceDancers,
    /// P-KARAMA-HOST (D-250): the Treachery card kinds (kinds of this game's
    /// catalog, each once, never `karama` itself) that the host's rules let
    /// count as a Karama in every Karama window, beside the printed rules.
    /// Empty (default): the printed rules only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub karama_kinds: Vec<String>,
    /// P-REACT-ORDER (D-252).
    #[serde(skip_serializing_if = "ReactionOrder::is_default")]
    pub reaction_order: ReactionOrder,
    /// P-FRAME-VIS. Written only when not `public` (D-240: a game with
    /// the default keeps its saved bytes).
    #[serde(skip_serializing_if = "FrameVisibility::is_public")]
    pub frame_visibility: FrameVisibility,
}
