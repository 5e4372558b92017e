//! The host's table as `syncTable` carries it (docs/protocol.md, "Table
//! sync"): the facts of every seated faction and of the decks, and one
//! difference a reconcile found.

use std::collections::BTreeMap;

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::Serialize;

use crate::base::ids::{CardId, Faction, TraitorCard};
use crate::model::game::{Forces, LeaderState, Stack};

/// One faction's part of a whole-table reconcile: every field required but
/// the lists that are usually empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FactionTable {
    /// Spice.
    pub spice: u32,
    /// Forces off-planet.
    pub reserves: Forces,
    /// Forces in the Tanks.
    pub tanks: Forces,
    /// Forces on the board, by territory and sector (elite and advisors included).
    pub board: Vec<Stack>,
    /// Custody of this faction's leaders (the printed five and its declared
    /// extra leaders) that are not available; unlisted ones are available.
    #[serde(default)]
    pub leaders: Vec<LeaderState>,
    /// Treachery cards held.
    pub hand: Vec<CardId>,
    /// Hand limit.
    pub hand_limit: u8,
    /// Traitor cards held.
    #[serde(default)]
    pub traitors: Vec<TraitorCard>,
    /// Face Dancers held (Tleilaxu).
    #[serde(default)]
    pub face_dancers: Vec<TraitorCard>,
    /// The held Face Dancers revealed face up.
    #[serde(default)]
    pub revealed_face_dancers: Vec<TraitorCard>,
    /// Ally.
    #[serde(default)]
    pub ally: Option<Faction>,
    /// Nexus card held.
    #[serde(default)]
    pub nexus: Option<Faction>,
}

/// The whole table a host reconciles with `syncTable`: every seated faction,
/// the Treachery deck (top first), discard pile and cards outside, the Nexus
/// deck (top first) and discard pile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TableFacts {
    /// Every seated faction, keyed by faction id.
    pub factions: BTreeMap<Faction, FactionTable>,
    /// The Treachery draw pile, top first.
    pub deck: Vec<CardId>,
    /// The Treachery discard pile.
    pub discard: Vec<CardId>,
    /// Cards outside deck, discard and hands (e.g. Richese's cache).
    #[serde(default)]
    pub outside: Vec<CardId>,
    /// The Nexus draw pile, top first (Nexus module). Omitted: the engine
    /// keeps its own order of the cards neither held nor discarded (a card
    /// that newly returns to the pile goes to the bottom, in faction order).
    #[serde(default)]
    pub nexus_deck: Option<Vec<Faction>>,
    /// The Nexus discard pile.
    #[serde(default)]
    pub nexus_discard: Vec<Faction>,
}

/// One fact that differed, as `syncTable` found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Difference {
    /// The fact (`factions.atreides.hand`, `deck` …).
    pub path: String,
    /// The engine's value before the reconcile.
    pub before: serde_json::Value,
    /// The host's value, now the engine's.
    pub after: serde_json::Value,
}
