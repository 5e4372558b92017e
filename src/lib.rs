//! # ecaz — the rules engine for the Ecaz faction of GF9 *Dune*
//!
//! A pure library (no I/O, no clock, no globals) that is the single source of
//! truth for Ecaz logic: the Ambassadors, Duke Vidal, the Ecaz alliance and
//! the Ecaz Nexus card. A *host* owns the rest of the game, reports facts
//! (phase boundaries, storm, arrivals, Karama plays …) as host commands, and
//! relays player decisions as faction commands.
//!
//! ```
//! use ecaz::{apply, options, view, Action, Actor, Ambassador, Command, Faction, Phase, Setup, Territory, Viewer};
//!
//! // Build a game (defaults — printed starting facts and positions where the
//! // rules fix them — fill everything but seats and seed).
//! let mut game = Setup::for_seats(&[Faction::Ecaz, Faction::Atreides], 42).build()?;
//! // The host walks the turn to the end of Revival …
//! for phase in [Phase::Storm, Phase::SpiceBlow, Phase::ChoamCharity, Phase::Bidding, Phase::Revival] {
//!     game = apply(&game, &Command::host(Action::EndPhase { phase }))?.0;
//! }
//! // … where Ecaz may place Ambassadors (R-PLC-1).
//! let frame = game.open_frame().map(|f| f.id).unwrap();
//! let token = Ambassador::Ecaz;
//! let place = Command::faction(Faction::Ecaz, Action::Place { frame, token, territory: Territory::Arrakeen });
//! let (game, events) = apply(&game, &place)?;
//! assert_eq!(events.len(), 1); // the announcement opens the Karama window (R-PLC-5)
//! let frame = game.open_frame().map(|f| f.id).unwrap();
//! let (game, _) = apply(&game, &Command::host(Action::AllowPlacement { frame }))?;
//! assert_eq!(view(&game, Viewer::Spectator).ambassadors.placement.placed, 1);
//! assert!(!options(&game, Actor::Faction(Faction::Ecaz)).commands.is_empty());
//! # Ok::<(), ecaz::ApplyError>(())
//! ```

mod apply;
pub mod audit;
mod board;
pub mod bots;
mod bounds;
mod command;
mod error;
mod event;
mod game;
mod ids;
mod integrity;
mod json;
mod mirror;
pub mod narrate;
mod options;
mod policy;
mod rng;
mod rules;
pub mod scenario;
pub mod schema;
mod setup;
pub mod sim;
mod view;
mod wire;
mod writer;

pub use apply::{apply, apply_mut, validate};
pub use board::{
    board, exposed_to_storm, faction_info, has_sector, in_storm, info as territory_info, is_stronghold, storm_advance,
    storm_path, Board, BoardFaction, BoardTerritory, FactionInfo, Named, StormProof, TerritoryInfo, TerritoryKind,
    BASE_TREACHERY, DUKE_VIDAL_STRENGTH, KARAMA, STRONGHOLDS,
};
pub use bots::{Bot, BotRng, Profile};
pub use bounds::{
    MAX_CARDS, MAX_FRAMES, MAX_KNOWLEDGE, MAX_LEADERS, MAX_NEXUS_CARDS, MAX_SEATS, MAX_STACKS, MAX_TOKENS,
};
pub use command::{Action, Cause, Command, Destruction, EcazBranch, Origin, SectorForces, Viewer};
pub use error::{ApplyError, ErrorReport, Problem, Problems, MAX_REPORTED_PROBLEMS};
pub use event::{Audience, DukeReason, Event, EventKind, LossCause, NexusMode, PlacementEnd, ReturnCause};
pub use game::{
    Actor, Ambassadors, Decision, Duke, DukeCustody, DukeSource, FactionState, Forces, Frame, Game, GameOptions,
    HmsPointer, Insight, Knowledge, LeaderCustody, LeaderState, NexusCards, OpenArrival, PlacementTurn, Stack, Token,
    Treachery, Zone, FORMAT_VERSION, OLDEST_FORMAT_VERSION,
};
pub use ids::{Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory};
pub use json::{
    actor_from_text, apply_events_json, apply_json, board_json, bot_command_json, bot_json, command_from_json,
    diff_table_json, events_for_json, events_from_json, export_setup_json, game_from_json, game_options_json,
    game_to_json, game_view_json, migrate, narrate_json, narrate_text, new_game_json, options_json, profile_from_text,
    setup_from_json, table_from_json, table_of_json, view_json, viewer_events_json, viewer_from_text, write_events,
    JsonOutcome,
};
pub use mirror::{apply_events, diff_table, table_of};
pub use options::{options, Choice, GroupSource, Options, Position};
pub use policy::*;
pub use rng::GameRng;
pub use rules::storm::MAX_STORM_MOVE;
pub use rules::sync::{Difference, FactionTable, TableFacts};
pub use rules::table::{MAX_FACE_DANCERS, MAX_SPICE, MAX_TRAITORS};
pub use setup::{
    base_catalog, elite_total, printed_start, AmbassadorsSetup, Counters, FactionSetup, Setup, ECAZ_START_SECTOR,
    MAX_SEED,
};
pub use view::{events_for, view, AmbassadorsView, FactionView, FrameView, NexusView, TreacheryView, View};
