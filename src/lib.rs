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
//!
//! ## A refused command changes nothing
//!
//! [`apply`] never changes its input; [`apply_mut`] changes the game in place
//! only when every check passes, and [`validate`] runs the checks alone. Each
//! refusal carries a stable code (the same over C, WASM and Python).
//!
//! ```
//! use ecaz::{apply_mut, game_to_json, validate, Action, Command, Faction, Phase, Setup};
//!
//! let mut game = Setup::for_seats(&[Faction::Ecaz, Faction::Atreides], 42).build()?;
//! let before = game_to_json(&game)?;
//! // Only the host reports phase boundaries.
//! let wrong = Command::faction(Faction::Ecaz, Action::EndPhase { phase: Phase::Storm });
//! let refused = apply_mut(&mut game, &wrong).unwrap_err();
//! assert_eq!(refused.code(), "rule/wrong_actor");
//! assert_eq!(game_to_json(&game)?, before); // byte for byte
//! let storm = Command::host(Action::EndPhase { phase: Phase::Storm });
//! assert!(validate(&game, &storm).is_ok());
//! assert_eq!(apply_mut(&mut game, &storm)?.len(), 1);
//! # Ok::<(), ecaz::ApplyError>(())
//! ```
//!
//! ## Saving and loading a game
//!
//! A game is saved as its state JSON ([`game_to_json`]) and loaded with
//! [`game_from_json`], which also reads every earlier state format
//! ([`OLDEST_FORMAT_VERSION`] to [`FORMAT_VERSION`], through [`migrate`]).
//!
//! ```
//! use ecaz::{game_from_json, game_to_json, Faction, Setup, FORMAT_VERSION};
//!
//! let game = Setup::for_seats(&[Faction::Ecaz, Faction::Harkonnen], 7).build()?;
//! let saved = game_to_json(&game)?;
//! assert!(saved.contains(&format!("\"version\":{FORMAT_VERSION}")));
//! let loaded = game_from_json(&saved)?;
//! assert_eq!(game_to_json(&loaded)?, saved);
//! # Ok::<(), ecaz::ApplyError>(())
//! ```
//!
//! ## The JSON doors
//!
//! Hosts that keep the state as text use the same calls on JSON: the wire
//! documents are described by the JSON Schemas ([`schema`]).
//!
//! ```
//! use ecaz::{apply_json, new_game_json, options_json, view_json};
//!
//! let state = new_game_json(r#"{"seats": ["ecaz", "atreides"], "seed": 42}"#)?;
//! let outcome = apply_json(&state, r#"{"actor": "host", "action": {"kind": "endPhase", "phase": "storm"}}"#)?;
//! assert!(outcome.events.starts_with('['));
//! let atreides = view_json(&outcome.state, r#""atreides""#)?;
//! assert!(atreides.contains("\"phase\":\"spiceBlow\""));
//! let host = options_json(&outcome.state, r#""host""#)?;
//! assert!(host.contains("endPhase"));
//! let refused = apply_json(&state, "{not json").unwrap_err();
//! assert_eq!(refused.code(), "decode/invalid_json");
//! # Ok::<(), ecaz::ApplyError>(())
//! ```
//!
//! ## What a player may see
//!
//! Forward to each player only [`events_for`] that player, and show them
//! their [`view`]: neither ever carries what the rules hide from them.
//!
//! ```
//! use ecaz::{apply, events_for, view, Action, Command, Faction, Phase, Setup, Viewer};
//!
//! let game = Setup::for_seats(&[Faction::Ecaz, Faction::Atreides], 42).build()?;
//! let (game, events) = apply(&game, &Command::host(Action::EndPhase { phase: Phase::Storm }))?;
//! let mine = events_for(&events, Viewer::Faction(Faction::Atreides));
//! assert!(mine.len() <= events.len());
//! assert_eq!(view(&game, Viewer::Faction(Faction::Atreides)).phase, Phase::SpiceBlow);
//! # Ok::<(), ecaz::ApplyError>(())
//! ```

#![deny(missing_docs)]

// The layers (docs/ARCHITECTURE.md), lowest first: codec, base, model,
// rules, check, engine, extras, the door (json), tools. A module uses only
// its own layer and lower ones; tests/layers.rs enforces it.
mod base;
mod check;
mod codec;
mod engine;
mod extras;
mod json;
mod model;
mod rules;
mod tools;

pub use extras::{bots, narrate};
pub use tools::{audit, scenario, schema, sim};

pub use base::board::{
    board, elite_total, exposed_to_storm, faction_info, has_sector, in_storm, info as territory_info, is_stronghold,
    storm_advance, storm_path, Board, BoardFaction, BoardTerritory, FactionInfo, Named, StormProof, TerritoryInfo,
    TerritoryKind, BASE_TREACHERY, DUKE_VIDAL_STRENGTH, KARAMA, STRONGHOLDS,
};
pub use base::bounds::{
    MAX_CARDS, MAX_FRAMES, MAX_KNOWLEDGE, MAX_LEADERS, MAX_NEXUS_CARDS, MAX_SEATS, MAX_STACKS, MAX_TOKENS,
};
pub use base::ids::{Ambassador, ArrivalId, CardId, Faction, FrameId, Leader, Phase, Sector, Territory, TraitorCard};
pub use base::policy::*;
pub use base::rng::GameRng;
pub use engine::apply::{apply, apply_mut, validate};
pub use engine::options::{options, Blocked, Choice, ClosedBranch, GroupSource, Options, Position, TriggerPreview};
pub use engine::setup::{
    base_catalog, printed_start, AmbassadorsSetup, Counters, FactionSetup, Setup, ECAZ_START_SECTOR, MAX_SEED,
};
pub use engine::view::{events_for, view, AmbassadorsView, FactionView, FrameView, NexusView, TreacheryView, View};
pub use extras::bots::{Bot, BotRng, Profile};
pub use extras::mirror::{apply_events, diff_table, table_of};
pub use json::input::{MAX_INPUT_BYTES, MAX_JSON_VALUES, MAX_NESTING};
pub use json::{
    actor_from_text, apply_events_json, apply_json, board_json, bot_command_json, bot_json, command_from_json,
    diff_table_json, events_for_json, events_from_json, export_setup_json, game_from_json, game_options_json,
    game_to_json, game_view_json, migrate, narrate_json, narrate_text, new_game_json, options_json, profile_from_text,
    setup_from_json, table_from_json, table_of_json, to_json, view_json, viewer_events_json, viewer_from_text,
    write_events, JsonOutcome,
};
pub use model::command::{Action, Cause, Command, Destruction, EcazBranch, Origin, SectorForces, Viewer};
pub use model::error::{
    bounded_message, ApplyError, ErrorCode, ErrorReport, Problem, Problems, Refusal, MAX_MESSAGE_BYTES,
    MAX_REPORTED_PROBLEMS,
};
pub use model::event::{Audience, DukeReason, Event, EventKind, LossCause, NexusMode, PlacementEnd, ReturnCause};
pub use model::game::{
    Actor, Ambassadors, Decision, Duke, DukeCustody, DukeSource, FactionState, Forces, Frame, Game, GameOptions,
    HmsPointer, Insight, Knowledge, LeaderCustody, LeaderState, NexusCards, OpenArrival, PlacementTurn, Stack, Token,
    Treachery, Zone, FORMAT_VERSION, OLDEST_FORMAT_VERSION,
};
pub use model::table::{Difference, FactionTable, TableFacts};
pub use rules::storm::MAX_STORM_MOVE;
pub use rules::table::{MAX_FACE_DANCERS, MAX_SPICE, MAX_TRAITORS};
