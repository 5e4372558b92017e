//! Per-viewer projections (ARCHITECTURE §4): `view(&Game, Viewer) -> View`.
//!
//! A view never contains what its viewer may not know: other factions' spice
//! (base p.12 secrecy), hands, traitors, Face Dancers and Nexus card
//! identities; the deck order; the RNG state. A faction sees its own secrets;
//! a spectator sees public information; the host sees everything but the RNG.
//! Ecaz's unplaced supply follows P-SUPPLY-VIS; a pending frame's details
//! follow P-FRAME-VIS and P-SUPPLY-VIS (D-241).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::base::ids::{Ambassador, CardId, Faction, FrameId, Phase, Sector, TraitorCard};
use crate::base::policy::{Policies, SupplyVisibility};
use crate::model::command::Viewer;
use crate::model::event::Event;
use crate::model::game::{
    Actor, Decision, DukeCustody, Forces, Game, GameOptions, HmsPointer, Knowledge, LeaderState, OpenArrival,
    PlacementTurn, Stack, Zone,
};
use crate::rules::{frames, placement};

/// What one viewer may see of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct View {
    /// Whom this view is for.
    pub viewer: Viewer,
    /// D-230: the game's revision (+1 per accepted command): the value a
    /// command's `ifRevision` names.
    pub revision: u32,
    /// Seated factions, in seating order.
    pub seats: Vec<Faction>,
    /// Options.
    pub options: GameOptions,
    /// Policies in force.
    pub policies: Policies,
    /// Turn.
    pub turn: u32,
    /// Phase.
    pub phase: Phase,
    /// Storm sector.
    pub storm: Sector,
    /// Shield Wall standing?
    pub shield_wall_standing: bool,
    /// HMS pointer, when in play.
    pub hms: Option<HmsPointer>,
    /// Each seated faction, as this viewer may see it.
    pub factions: Vec<FactionView>,
    /// The Treachery cards as this viewer may see them.
    pub treachery: TreacheryView,
    /// The Nexus cards as this viewer may see them.
    pub nexus: NexusView,
    /// Duke Vidal (public).
    pub duke: DukeCustody,
    /// The turn Duke Vidal came into his current custody, when recorded (public).
    pub duke_since: Option<u32>,
    /// The turn he was last used in a battle (public, P-NEX-CUN-TIME).
    pub duke_battle_turn: Option<u32>,
    /// The Ambassadors as this viewer may see them.
    pub ambassadors: AmbassadorsView,
    /// Pending decisions, bottom first (the last is open).
    pub pending: Vec<FrameView>,
    /// Arrivals whose reactions have not settled, outermost first (R-TRG-4).
    pub open_arrivals: Vec<OpenArrival>,
    /// What this viewer privately learned (the host sees every record).
    pub knowledge: Vec<Knowledge>,
}

/// A faction as a viewer sees it (D-7, D-17). `None` = hidden from this viewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FactionView {
    /// Which faction.
    pub faction: Faction,
    /// Spice (own and host only).
    pub spice: Option<u32>,
    /// Reserves (public).
    pub reserves: Forces,
    /// Tanks (public).
    pub tanks: Forces,
    /// Board (public).
    pub board: Vec<Stack>,
    /// Leaders (public).
    pub leaders: Vec<LeaderState>,
    /// Cards held (public count).
    pub hand_count: usize,
    /// The cards (own and host only).
    pub hand: Option<Vec<CardId>>,
    /// Hand limit.
    pub hand_limit: u8,
    /// Traitor cards held (public count).
    pub traitor_count: usize,
    /// Face Dancers held face down (public count).
    pub face_dancer_count: usize,
    /// Traitors (own and host only).
    pub traitors: Option<Vec<TraitorCard>>,
    /// Face Dancers (own and host only).
    pub face_dancers: Option<Vec<TraitorCard>>,
    /// Face Dancers revealed face up (public; counted in `faceDancerCount`).
    pub revealed_face_dancers: Vec<TraitorCard>,
    /// Ally (public).
    pub ally: Option<Faction>,
    /// The turn the alliance was formed, when recorded (public).
    pub ally_since: Option<u32>,
    /// Holds a Nexus card? (public)
    pub holds_nexus: bool,
    /// Which Nexus card (own and host only).
    pub nexus: Option<Faction>,
    /// Free revivals.
    pub free_revival: u8,
}

/// The Treachery cards as a viewer sees them (D-41: hands are private).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TreacheryView {
    /// Card kind by card id (public).
    pub catalog: Arc<[String]>,
    /// Cards in the draw pile.
    pub deck_count: usize,
    /// The draw pile in order, top first (host only).
    pub deck: Option<Vec<CardId>>,
    /// The discard pile (public).
    pub discard: Vec<CardId>,
    /// Cards outside deck, discard and hands, e.g. Richese's cache (public).
    pub outside: Vec<CardId>,
}

/// The Nexus cards as a viewer sees them (D-47).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NexusView {
    /// Cards in the draw pile.
    pub deck_count: usize,
    /// The discard pile (public).
    pub discard: Vec<Faction>,
}

/// The Ambassadors as a viewer sees them (P-SUPPLY-VIS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AmbassadorsView {
    /// Tokens whose zone this viewer knows: placed, used and removed always
    /// (placed face up, per the designer); supply, pool and the cohort only
    /// when the supply is public or the viewer is Ecaz or the host.
    pub tokens: Vec<crate::model::game::Token>,
    /// The cohort, when visible.
    pub cohort: Option<Vec<Ambassador>>,
    /// Tokens in Ecaz's supply (always public as a count).
    pub supply_count: usize,
    /// Tokens in the pool (always public as a count).
    pub pool_count: usize,
    /// Completed recycles.
    pub cycle: u32,
    /// This turn's placement bookkeeping.
    pub placement: PlacementTurn,
    /// What the next placement costs (R-PLC-2).
    pub next_cost: u32,
}

/// A pending decision as a viewer sees it (D-1, D-24).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FrameView {
    /// Frame id.
    pub id: FrameId,
    /// Who answers it.
    pub actor: Actor,
    /// The decision kind.
    pub kind: String,
    /// The decision, or `null` when this viewer may not see its details
    /// (D-241): under P-FRAME-VIS `actorOnly` a faction's frame is shown to
    /// that faction and the host only; under P-SUPPLY-VIS `ownerOnly`, a
    /// placement announcement (its token is still in the supply) and the BG
    /// copy candidates (they reveal the cohort) to Ecaz and the host only.
    pub decision: Option<Decision>,
}

/// May `viewer` see faction `f`'s secrets (its own, or the host)?
pub(crate) fn sees_secrets_of(viewer: Viewer, f: Faction) -> bool {
    match viewer {
        Viewer::Host => true,
        Viewer::Faction(v) => v == f,
        Viewer::Spectator => false,
    }
}

/// May `viewer` see the tokens in Ecaz's supply, the pool and the cohort
/// (P-SUPPLY-VIS: everyone when `public`, else Ecaz and the host)?
pub(crate) fn supply_visible(game: &Game, viewer: Viewer) -> bool {
    game.policies.supply_visibility == SupplyVisibility::Public || sees_secrets_of(viewer, Faction::Ecaz)
}

/// The events of one command that `viewer` may see, in order (D-90):
/// the audience rule views follow — the host sees every event, a
/// faction the public ones and those addressed to it, a spectator the public
/// ones only. A host forwards `events_for(&events, viewer)` to each screen, so
/// it never sends one player another's card, traitor, answer or supply by
/// mistake. Pure.
pub fn events_for(events: &[Event], viewer: Viewer) -> Vec<Event> {
    events
        .iter()
        .filter(|event| event.visible_to(viewer))
        .cloned()
        .collect()
}

/// The projection of `game` for `viewer`. Pure: no RNG, no change.
pub fn view(game: &Game, viewer: Viewer) -> View {
    let factions = game
        .factions
        .iter()
        .map(|s| {
            let mine = sees_secrets_of(viewer, s.faction);
            FactionView {
                faction: s.faction,
                spice: mine.then_some(s.spice),
                reserves: s.reserves,
                tanks: s.tanks,
                board: s.board.clone(),
                leaders: s.leaders.clone(),
                hand_count: s.hand.len(),
                hand: mine.then(|| s.hand.clone()),
                hand_limit: s.hand_limit,
                traitor_count: s.traitors.len(),
                face_dancer_count: s.face_dancers.len(),
                traitors: mine.then(|| s.traitors.clone()),
                face_dancers: mine.then(|| s.face_dancers.clone()),
                revealed_face_dancers: s.revealed_face_dancers.clone(),
                ally: s.ally,
                ally_since: s.ally_since,
                holds_nexus: s.nexus.is_some(),
                nexus: if mine { s.nexus } else { None },
                free_revival: s.free_revival,
            }
        })
        .collect();
    let a = &game.ambassadors;
    let supply_visible = supply_visible(game, viewer);
    let tokens = a
        .tokens
        .iter()
        .filter(|t| supply_visible || matches!(t.zone, Zone::Placed { .. } | Zone::Used | Zone::Removed))
        .copied()
        .collect();
    View {
        viewer,
        revision: game.revision,
        seats: game.seats.clone(),
        options: game.options,
        policies: game.policies.clone(),
        turn: game.turn,
        phase: game.phase,
        storm: game.storm,
        shield_wall_standing: game.shield_wall_standing,
        hms: game.hms,
        factions,
        treachery: TreacheryView {
            catalog: Arc::clone(&game.treachery.catalog),
            deck_count: game.treachery.deck.len(),
            deck: (viewer == Viewer::Host).then(|| game.treachery.deck.clone()),
            discard: game.treachery.discard.clone(),
            outside: game.treachery.outside.clone(),
        },
        nexus: NexusView {
            deck_count: game.nexus.deck.len(),
            discard: game.nexus.discard.clone(),
        },
        duke: game.duke.custody,
        duke_since: game.duke.since,
        duke_battle_turn: game.duke.battle_turn,
        ambassadors: AmbassadorsView {
            tokens,
            cohort: supply_visible.then(|| a.cohort.clone()),
            supply_count: a.in_zone(Zone::Supply).count(),
            pool_count: a.in_zone(Zone::Pool).count(),
            cycle: a.cycle,
            placement: a.placement,
            next_cost: placement::next_cost(game),
        },
        pending: game
            .pending
            .iter()
            .map(|f| FrameView {
                id: f.id,
                actor: f.actor,
                kind: f.decision.name().to_string(),
                decision: frames::decision_audience(&game.policies, f.actor, f.decision.name())
                    .includes(viewer)
                    .then(|| f.decision.clone()),
            })
            .collect(),
        open_arrivals: game.arrivals.clone(),
        knowledge: game
            .knowledge
            .iter()
            .filter(|k| sees_secrets_of(viewer, k.viewer))
            .cloned()
            .collect(),
    }
}
