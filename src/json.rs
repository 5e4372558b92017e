//! The JSON door: the same operations over UTF-8 JSON text, as the C and WASM
//! bindings and the CLI use them. Malformed input is an error with a stable
//! code (`decode/…`, `state/…`), never a panic.

pub(crate) mod format;
pub(crate) mod input;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::check;
use crate::codec::writer::{to_text, write_json};
use crate::engine::apply::apply_mut;
use crate::engine::setup::Setup;
use crate::model::command::{Command, Viewer};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::{Actor, Game, FORMAT_VERSION};
use input::{check_len, version_of, AnObject, Version};

/// Decode a JSON object. The wire format is objects only: serde would also
/// fill a struct from an array by position, which the protocol does not allow
/// (at the top level; see docs/protocol.md).
fn decode<T: DeserializeOwned>(text: &str, shape_error: fn(String) -> ApplyError) -> Result<T, ApplyError> {
    let opening = text.trim_start().chars().next();
    if opening == Some('[') {
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return Err(ApplyError::InvalidJson(e.to_string()));
        }
        return Err(shape_error("expected a JSON object, found an array".into()));
    }
    parse(text, shape_error)
}

/// Decode any JSON value (no top-level shape check).
fn parse<T: DeserializeOwned>(text: &str, shape_error: fn(String) -> ApplyError) -> Result<T, ApplyError> {
    serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => shape_error(e.to_string()),
        _ => ApplyError::InvalidJson(e.to_string()),
    })
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, ApplyError> {
    to_text(value).map_err(unencodable)
}

/// Any wire document (a view, options, events, an error report, a scenario
/// step report …) as compact JSON text, written by the engine's one writer:
/// byte for byte what `serde_json::to_string` writes (D-154). Every binding
/// writes its documents through this or the door's other functions.
pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, ApplyError> {
    to_text(value).map_err(unencodable)
}

/// A value the engine could not write (never met: the wire types always serialize).
fn unencodable(e: serde_json::Error) -> ApplyError {
    ApplyError::InvalidState(e.to_string())
}

/// Decode a command.
pub fn command_from_json(text: &str) -> Result<Command, ApplyError> {
    check_len(text, "command")?;
    decode(text, ApplyError::InvalidCommand)
}

/// Decode a setup document.
pub fn setup_from_json(text: &str) -> Result<Setup, ApplyError> {
    check_len(text, "setup")?;
    decode(text, ApplyError::InvalidSetupDocument)
}

/// Decode a viewer id given as a JSON string (`"ecaz"`, `"spectator"`, `"host"`).
pub fn viewer_from_json(text: &str) -> Result<Viewer, ApplyError> {
    check_len(text, "viewer")?;
    decode(text, ApplyError::InvalidViewer)
}

/// Decode an actor id given as a JSON string (`"ecaz"`, `"host"`).
pub fn actor_from_json(text: &str) -> Result<Actor, ApplyError> {
    check_len(text, "actor")?;
    decode(text, ApplyError::InvalidViewer)
}

/// A viewer or actor id as the bindings take it: bare (`ecaz`) or as a JSON
/// string (`"ecaz"`). The JSON door itself (`view_json`, `options_json`)
/// takes JSON strings only.
fn id_from_text<T: DeserializeOwned>(text: &str) -> Result<T, ApplyError> {
    check_len(text, "id")?;
    let trimmed = text.trim();
    // A bare id is read as the JSON string naming it (one deserializer for
    // every decode keeps the WASM module small, D-150).
    let decoded = if trimmed.starts_with('"') {
        serde_json::from_str::<T>(trimmed)
    } else {
        serde_json::to_string(trimmed).and_then(|quoted| serde_json::from_str::<T>(&quoted))
    };
    decoded.map_err(|e| match e.classify() {
        serde_json::error::Category::Data => ApplyError::InvalidViewer(e.to_string()),
        _ => ApplyError::InvalidJson(e.to_string()),
    })
}

/// A viewer id, bare (`ecaz`, `spectator`, `host`) or JSON-quoted.
pub fn viewer_from_text(text: &str) -> Result<Viewer, ApplyError> {
    id_from_text(text)
}

/// An actor id, bare (`ecaz`, `host`) or JSON-quoted.
pub fn actor_from_text(text: &str) -> Result<Actor, ApplyError> {
    id_from_text(text)
}

fn unsupported(found: &Version) -> ApplyError {
    ApplyError::UnsupportedVersion {
        found: found.to_string(),
        supported: FORMAT_VERSION,
    }
}

/// Migrate a state document of an older format version to the current one,
/// one version step at a time, each step an explicit rewrite (never a guess
/// by serde defaults). Returns the version found.
///
/// * 1 → 2 (D-107): every faction gains `revealedFaceDancers: []` (no
///   Face Dancer was ever revealed in format 1) and `allySince: null`
///   (format 1 did not record when an alliance began); Duke Vidal gains
///   `since: null` (not recorded); the Treachery cards gain `outside: []`
///   (format 1 had no such zone).
///
/// * 2 → 3 (D-171): typed, on the decoded game (`format::upgrade`): what
///   values mean (CHOAM's default hand limit, the Ixians' forces, gholas).
/// * 3 → 4 (D-230): the state gains `revision: 0` (applied to the document of
///   every state older than 4, before the typed steps, which it does not touch).
///
/// The document is then the current format's, as the engine writes it.
pub fn migrate(state: &mut serde_json::Value) -> Result<u32, ApplyError> {
    let (version, game) = migrated(state)?;
    *state = serde_json::from_str(&encode(&game)?).map_err(|e| ApplyError::InvalidState(e.to_string()))?;
    Ok(version)
}

/// [`migrate`]'s steps: the version found and the migrated game.
fn migrated(state: &mut serde_json::Value) -> Result<(u32, Game), ApplyError> {
    let found = match state.get("version") {
        None => Version::Missing,
        Some(v) => v.as_u64().map_or_else(
            || Version::Other(crate::model::error::bounded_message(v.to_string())),
            Version::Number,
        ),
    };
    let version = match found {
        Version::Number(v) => u32::try_from(v)
            .ok()
            .filter(|v| (crate::model::game::OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(v)),
        _ => None,
    }
    .ok_or_else(|| unsupported(&found))?;
    let shape = |m: &str| ApplyError::InvalidState(format!("format {version} state: {m}"));
    let mut at = version;
    while at < format::TYPED_FROM {
        match at {
            1 => {
                let factions = state
                    .get_mut("factions")
                    .and_then(serde_json::Value::as_array_mut)
                    .ok_or_else(|| shape("factions is not a list"))?;
                for f in factions {
                    let f = f.as_object_mut().ok_or_else(|| shape("a faction is not an object"))?;
                    if f.contains_key("revealedFaceDancers") {
                        // A later format labelled 1 (D-183): refused, not guessed.
                        return Err(ApplyError::InvalidState(
                            "the state is labelled format version 1 but is written in a later format \
                             (factions[].revealedFaceDancers): label it with its own version"
                                .into(),
                        ));
                    }
                    f.insert("revealedFaceDancers".into(), serde_json::json!([]));
                    f.insert("allySince".into(), serde_json::Value::Null);
                }
                state
                    .get_mut("duke")
                    .and_then(serde_json::Value::as_object_mut)
                    .ok_or_else(|| shape("duke is not an object"))?
                    .insert("since".into(), serde_json::Value::Null);
                state
                    .get_mut("treachery")
                    .and_then(serde_json::Value::as_object_mut)
                    .ok_or_else(|| shape("treachery is not an object"))?
                    .insert("outside".into(), serde_json::json!([]));
            }
            _ => return Err(unsupported(&found)),
        }
        at += 1;
        if let Some(v) = state.get_mut("version") {
            *v = at.into();
        }
    }
    // D-230: the revision guard's field, for every state older than it. It
    // is independent of the typed steps, which run next.
    if version < format::REVISION_FROM {
        add_revision(state).map_err(shape)?;
    }
    // The typed steps (D-171) on the decoded game.
    Ok((version, upgraded(state)?))
}

/// The game of a document whose shape is the current one (after the text
/// steps of [`migrate`]), brought up to the current format by the typed steps
/// of `format::upgrade`.
fn upgraded(state: &serde_json::Value) -> Result<Game, ApplyError> {
    // Read through the text deserializer (the only one the state types are
    // compiled for: D-150).
    let mut game: Game =
        serde_json::from_str(&state.to_string()).map_err(|e| ApplyError::InvalidState(e.to_string()))?;
    format::upgrade(&mut game)?;
    Ok(game)
}

/// D-230: the state gains `revision: 0` (a state written before the revision
/// guard counted no commands; the count starts where the state was loaded).
/// A document that already names a revision is not a state of an older format.
fn add_revision(state: &mut serde_json::Value) -> Result<(), &'static str> {
    let object = state.as_object_mut().ok_or("the state is not an object")?;
    if object.contains_key("revision") {
        return Err("revision is a field of a later format");
    }
    object.insert("revision".into(), serde_json::Value::from(0u32));
    Ok(())
}

/// Decode a game state: the input's length first (D-180), then the format
/// version (an unknown version is `state/unsupported_version`; an older
/// supported one is migrated, [`migrate`]), then the shape, then the length
/// of every list (`state/too_large`, D-80), then every invariant
/// (`state/inconsistent`).
pub fn game_from_json(text: &str) -> Result<Game, ApplyError> {
    check_len(text, "state")?;
    match decode(text, ApplyError::InvalidState) {
        Ok(game) => current(game),
        Err(e @ ApplyError::InvalidJson(_)) => Err(e),
        Err(e) => {
            // Text that is not JSON at all is `decode/invalid_json`, whatever
            // serde met first.
            if let Err(syntax) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
                return Err(ApplyError::InvalidJson(syntax.to_string()));
            }
            // Say "wrong version" rather than "wrong shape" when that is the
            // cause (the version read unbuilt: D-181).
            match version_of(text) {
                Version::Number(v) if v < u64::from(FORMAT_VERSION) => from_older_format(text),
                Version::Number(v) if v == u64::from(FORMAT_VERSION) => Err(e),
                other => Err(unsupported(&other)),
            }
        }
    }
}

/// A state of an older supported format, read into a `serde_json::Value`
/// only after a streaming pass has bounded its values (D-180) and refused a
/// member named twice (as the typed format-2 read does: D-182), migrated
/// ([`migrate`]), then read as the current format's `Game`.
fn from_older_format(text: &str) -> Result<Game, ApplyError> {
    let older = |m: String| ApplyError::InvalidState(format!("an older-format state: {m}"));
    input::scan(text, true).map_err(|shape| older(shape.to_string()))?;
    let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| older(e.to_string()))?;
    let (_, game) = migrated(&mut value)?;
    checked(game)
}

/// A game read in the current shape: it must be labelled with the current
/// version. The current shape labelled with an older version (whose shape
/// differs) is refused (D-183); an unknown version is
/// `state/unsupported_version`.
fn current(game: Game) -> Result<Game, ApplyError> {
    if game.version != FORMAT_VERSION {
        if (crate::model::game::OLDEST_FORMAT_VERSION..FORMAT_VERSION).contains(&game.version) {
            return Err(ApplyError::InvalidState(format!(
                "the state is labelled format version {} but is written in format {FORMAT_VERSION}: \
                 label it {FORMAT_VERSION}, or migrate a genuine format-{} state",
                game.version, game.version
            )));
        }
        return Err(unsupported(&Version::Number(u64::from(game.version))));
    }
    checked(game)
}

/// The checks every loaded state passes: the length of every list
/// (`state/too_large`, D-80), then every invariant (`state/inconsistent`).
fn checked(game: Game) -> Result<Game, ApplyError> {
    let too_large = check::sizes::state_sizes(&game);
    if !too_large.is_empty() {
        return Err(ApplyError::StateTooLarge(too_large.into()));
    }
    let problems = check::problems(&game);
    if !problems.is_empty() {
        return Err(ApplyError::CorruptState(problems.into()));
    }
    Ok(game)
}

/// Encode a game state.
pub fn game_to_json(game: &Game) -> Result<String, ApplyError> {
    encode(game)
}

/// D-105: the Setup document that imports back to exactly this state (a
/// quiet moment; otherwise `state/not_quiet`).
pub fn export_setup_json(state: &str) -> Result<String, ApplyError> {
    let game = game_from_json(state)?;
    encode(&Setup::export(&game)?)
}

/// Build a game from a setup document; returns the state JSON.
pub fn new_game_json(setup: &str) -> Result<String, ApplyError> {
    let game = setup_from_json(setup)?.build()?;
    encode(&game)
}

/// The result of [`apply_json`]: the new state and the events, both JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonOutcome {
    /// The new state.
    pub state: String,
    /// The events, a JSON array.
    pub events: String,
}

impl JsonOutcome {
    /// `{"state": …, "events": […]}` as one JSON document.
    pub fn to_document(&self) -> String {
        format!("{{\"state\":{},\"events\":{}}}", self.state, self.events)
    }
}

/// Apply a command to a state, all in JSON.
pub fn apply_json(state: &str, command: &str) -> Result<JsonOutcome, ApplyError> {
    let mut game = game_from_json(state)?;
    let command = command_from_json(command)?;
    let events: Vec<Event> = apply_mut(&mut game, &command)?;
    Ok(JsonOutcome {
        state: encode(&game)?,
        events: encode(&events)?,
    })
}

/// Appends the events' JSON (`Event[]`, as [`apply_json`] writes them) to
/// `out`, whose memory the caller keeps from one command to the next (the
/// WASM handle: D-152).
pub fn write_events(out: &mut Vec<u8>, events: &[Event]) -> Result<(), ApplyError> {
    write_json(out, events).map_err(unencodable)
}

/// The view of a state for a viewer (`viewer` is a JSON string such as `"ecaz"`).
pub fn view_json(state: &str, viewer: &str) -> Result<String, ApplyError> {
    game_view_json(&game_from_json(state)?, viewer_from_json(viewer)?)
}

/// The view of a game for a viewer, as JSON (the bindings' handles).
pub fn game_view_json(game: &Game, viewer: Viewer) -> Result<String, ApplyError> {
    encode(&crate::engine::view::view(game, viewer))
}

/// A bot profile id, bare (`heuristic`) or JSON-quoted.
pub fn profile_from_text(text: &str) -> Result<crate::extras::bots::Profile, ApplyError> {
    let trimmed = text.trim();
    let id = trimmed
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(trimmed);
    crate::extras::bots::Profile::from_id(id)
        .ok_or_else(|| ApplyError::InvalidBot(format!("unknown bot profile {trimmed:?} (random, heuristic)")))
}

/// What a bot of `profile` seeded with `seed` sends as `actor` in `state`
/// ([`crate::extras::bots::choose`]): the command as JSON, or `null` when it has
/// nothing to send. `actor` and `profile` are bare ids or JSON strings.
pub fn bot_json(state: &str, actor: &str, profile: &str, seed: u64) -> Result<String, ApplyError> {
    let game = game_from_json(state)?;
    bot_command_json(&game, actor, profile, seed)
}

/// As [`bot_json`], for a game already loaded (the bindings' handles).
pub fn bot_command_json(game: &Game, actor: &str, profile: &str, seed: u64) -> Result<String, ApplyError> {
    let actor = actor_from_text(actor)?;
    let profile = profile_from_text(profile)?;
    encode(&crate::extras::bots::choose(game, actor, profile, seed))
}

/// Narrate an event or a command (either as JSON: an object with `audience`
/// is an event, any other a command) for a viewer (an id, bare or
/// JSON-quoted), in the game `state` (the state the event came out of or the
/// command is applied to: it gives the card catalog and the policies).
/// Returns the sentence, or `None` when the viewer does not see the event
/// (see [`crate::extras::narrate::event`]). An item that is neither is
/// `decode/invalid_command`.
pub fn narrate_text(state: &str, item: &str, viewer: &str) -> Result<Option<String>, ApplyError> {
    check_len(item, "item")?;
    let game = game_from_json(state)?;
    let viewer = viewer_from_text(viewer)?;
    #[derive(Deserialize)]
    struct AudienceProbe {
        #[serde(default)]
        audience: Option<serde::de::IgnoredAny>,
    }
    let is_event = serde_json::from_str::<AudienceProbe>(item).is_ok_and(|p| p.audience.is_some());
    let sentence = if is_event {
        // An event's `tableSynced` differences are read into `Value`s: bounded first (D-180).
        input::scan(item, false).map_err(|shape| match shape {
            input::Shape::Syntax(m) => ApplyError::InvalidJson(m),
            other => ApplyError::InvalidCommand(format!("an event: {other}")),
        })?;
        let event: Event = decode(item, |m| ApplyError::InvalidCommand(format!("an event: {m}")))?;
        crate::extras::narrate::event(&game, &event, viewer)
    } else {
        Some(crate::extras::narrate::command(
            &game,
            &command_from_json(item)?,
            viewer,
        ))
    };
    Ok(sentence)
}

/// [`narrate_text`] with its answer as JSON: a string, or `null`.
pub fn narrate_json(state: &str, item: &str, viewer: &str) -> Result<String, ApplyError> {
    encode(&narrate_text(state, item, viewer)?)
}

/// The engine's static board data ([`crate::board`]) as JSON.
pub fn board_json() -> Result<String, ApplyError> {
    encode(&crate::base::board::board())
}

/// The legal commands of an actor (`actor` is a JSON string such as `"host"`).
pub fn options_json(state: &str, actor: &str) -> Result<String, ApplyError> {
    game_options_json(&game_from_json(state)?, actor_from_json(actor)?)
}

/// The legal commands of an actor in a game, as JSON (the bindings' handles).
pub fn game_options_json(game: &Game, actor: Actor) -> Result<String, ApplyError> {
    encode(&crate::engine::options::options(game, actor))
}

/// Decode an event list (`Event[]`, as [`apply_json`] returns it): an array
/// of objects (an event is never filled from an array by position).
pub fn events_from_json(text: &str) -> Result<Vec<Event>, ApplyError> {
    check_len(text, "events")?;
    // Every item an object, none built (D-180).
    let _: Vec<AnObject> = parse(text, |m| {
        ApplyError::InvalidEvents(format!("every event must be a JSON object: {m}"))
    })?;
    // A `tableSynced` event's differences are read into `Value`s: bounded first (D-180).
    input::scan(text, false).map_err(|shape| match shape {
        input::Shape::Syntax(m) => ApplyError::InvalidJson(m),
        other => ApplyError::InvalidEvents(other.to_string()),
    })?;
    // The text is JSON (parsed above): every error left is the events' shape.
    serde_json::from_str(text).map_err(|e| ApplyError::InvalidEvents(e.to_string()))
}

/// The events a viewer may see ([`crate::events_for`]), all in JSON: `events`
/// is an `Event[]` array as [`apply_json`] returns it, `viewer` a JSON string
/// such as `"atreides"`.
pub fn events_for_json(events: &str, viewer: &str) -> Result<String, ApplyError> {
    viewer_events_json(&events_from_json(events)?, viewer_from_json(viewer)?)
}

/// The events a viewer may see ([`crate::events_for`]), as JSON.
pub fn viewer_events_json(events: &[Event], viewer: Viewer) -> Result<String, ApplyError> {
    encode(&crate::engine::view::events_for(events, viewer))
}

/// Decode a table document ([`crate::TableFacts`], as `syncTable` takes it).
/// Its lists are bounded like a state's (`decode/invalid_table`).
pub fn table_from_json(text: &str) -> Result<crate::TableFacts, ApplyError> {
    let table = decode(text, ApplyError::InvalidTableDocument)?;
    crate::extras::mirror::check_size(&table)?;
    Ok(table)
}

/// D-231: the table of a state ([`crate::table_of`]), as JSON.
pub fn table_of_json(state: &str) -> Result<String, ApplyError> {
    encode(&crate::extras::mirror::table_of(&game_from_json(state)?))
}

/// D-231: the table after one command's events ([`crate::apply_events`]),
/// all in JSON: `table` a table document, `events` the `Event[]` array.
pub fn apply_events_json(table: &str, events: &str) -> Result<String, ApplyError> {
    let table = table_from_json(table)?;
    encode(&crate::extras::mirror::apply_events(
        &table,
        &events_from_json(events)?,
    )?)
}

/// D-231: the facts that differ between two tables ([`crate::diff_table`]),
/// as a `Difference[]` array.
pub fn diff_table_json(a: &str, b: &str) -> Result<String, ApplyError> {
    encode(&crate::extras::mirror::diff_table(
        &table_from_json(a)?,
        &table_from_json(b)?,
    ))
}
