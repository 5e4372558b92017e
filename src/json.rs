//! The JSON door: the same operations over UTF-8 JSON text, as the C and WASM
//! bindings and the CLI use them. Malformed input is an error with a stable
//! code (`decode/…`, `state/…`), never a panic.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::apply::apply_mut;
use crate::command::{Command, Viewer};
use crate::error::ApplyError;
use crate::event::Event;
use crate::game::{Actor, Game, FORMAT_VERSION};
use crate::integrity;
use crate::setup::Setup;

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

/// Appends `value`'s JSON to `out`: the one serializer every document the
/// engine writes goes through (each type is compiled for one writer only:
/// issue 12 item 5), [`crate::writer`] (D-154), which writes serde_json's
/// bytes.
pub(crate) fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), serde_json::Error> {
    crate::writer::append(out, value)
}

/// `value`'s JSON text, as `serde_json::to_string` writes it (through [`write_json`]).
pub(crate) fn to_text<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    write_json(&mut out, value)?;
    // The writer writes UTF-8 only (D-154); checked rather than assumed.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// A value the engine could not write (never met: the wire types always serialize).
fn unencodable(e: serde_json::Error) -> ApplyError {
    ApplyError::InvalidState(e.to_string())
}

/// Decode a command.
pub fn command_from_json(text: &str) -> Result<Command, ApplyError> {
    decode(text, ApplyError::InvalidCommand)
}

/// Decode a setup document.
pub fn setup_from_json(text: &str) -> Result<Setup, ApplyError> {
    decode(text, ApplyError::InvalidSetupDocument)
}

/// Decode a viewer id given as a JSON string (`"ecaz"`, `"spectator"`, `"host"`).
pub fn viewer_from_json(text: &str) -> Result<Viewer, ApplyError> {
    decode(text, ApplyError::InvalidViewer)
}

/// Decode an actor id given as a JSON string (`"ecaz"`, `"host"`).
pub fn actor_from_json(text: &str) -> Result<Actor, ApplyError> {
    decode(text, ApplyError::InvalidViewer)
}

/// A viewer or actor id as the bindings take it: bare (`ecaz`) or as a JSON
/// string (`"ecaz"`). The JSON door itself (`view_json`, `options_json`)
/// takes JSON strings only.
fn id_from_text<T: DeserializeOwned>(text: &str) -> Result<T, ApplyError> {
    let trimmed = text.trim();
    // A bare id is read as the JSON string naming it (one deserializer for
    // every decode keeps the WASM module small, issue 12 item 5).
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

#[derive(Deserialize)]
struct VersionProbe {
    #[serde(default)]
    version: Option<serde_json::Value>,
}

fn unsupported(found: Option<serde_json::Value>) -> ApplyError {
    ApplyError::UnsupportedVersion {
        found: found.map_or_else(|| "none".to_string(), |v| v.to_string()),
        supported: FORMAT_VERSION,
    }
}

/// Migrate a state document of an older format version to the current one,
/// one version step at a time, each step an explicit rewrite (never a guess
/// by serde defaults). Returns the version found.
///
/// * 1 → 2 (issue 13): every faction gains `revealedFaceDancers: []` (no
///   Face Dancer was ever revealed in format 1) and `allySince: null`
///   (format 1 did not record when an alliance began); Duke Vidal gains
///   `since: null` (not recorded); the Treachery cards gain `outside: []`
///   (format 1 had no such zone).
/// * 2 → 3 (D-230): the state gains `revision: 0` (`add_revision`).
pub fn migrate(state: &mut serde_json::Value) -> Result<u32, ApplyError> {
    let found = state.get("version").cloned();
    let version = found
        .as_ref()
        .and_then(serde_json::Value::as_u64)
        .and_then(|v| u32::try_from(v).ok())
        .filter(|v| (crate::game::OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(v))
        .ok_or_else(|| unsupported(found.clone()))?;
    let shape = |m: &str| ApplyError::InvalidState(format!("format {version} state: {m}"));
    let mut at = version;
    while at < FORMAT_VERSION {
        match at {
            1 => {
                let factions = state
                    .get_mut("factions")
                    .and_then(serde_json::Value::as_array_mut)
                    .ok_or_else(|| shape("factions is not a list"))?;
                for f in factions {
                    let f = f.as_object_mut().ok_or_else(|| shape("a faction is not an object"))?;
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
            2 => add_revision(state).map_err(shape)?,
            _ => return Err(unsupported(found)),
        }
        at += 1;
        if let Some(v) = state.get_mut("version") {
            *v = at.into();
        }
    }
    Ok(version)
}

/// D-230, the format step that adds the revision guard: the state gains
/// `revision: 0` (a state written before the format counted no commands; the
/// count starts where the state was loaded). A document that already names a
/// revision is not a state of the older format.
pub(crate) fn add_revision(state: &mut serde_json::Value) -> Result<(), &'static str> {
    let object = state.as_object_mut().ok_or("the state is not an object")?;
    if object.contains_key("revision") {
        return Err("revision is a field of a later format");
    }
    object.insert("revision".into(), serde_json::Value::from(0u32));
    Ok(())
}

/// Decode a game state: the format version is checked first (an unknown
/// version is `state/unsupported_version`; an older supported one is
/// migrated, [`migrate`]), then the shape, then the length of every list
/// (`state/too_large`, D-80), then every invariant
/// (`state/inconsistent`).
pub fn game_from_json(text: &str) -> Result<Game, ApplyError> {
    let game: Game = match decode(text, ApplyError::InvalidState) {
        Ok(g) => g,
        Err(e @ ApplyError::InvalidJson(_)) => return Err(e),
        Err(e) => {
            // Text that is not JSON at all is `decode/invalid_json`, whatever
            // serde met first.
            if let Err(syntax) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
                return Err(ApplyError::InvalidJson(syntax.to_string()));
            }
            // Say "wrong version" rather than "wrong shape" when that is the cause.
            let probe: Option<VersionProbe> = serde_json::from_str(text).ok();
            let found = probe.and_then(|p| p.version);
            // An older supported version: migrate it explicitly (issue 13).
            if found
                .as_ref()
                .and_then(serde_json::Value::as_u64)
                .is_some_and(|v| v < u64::from(FORMAT_VERSION))
            {
                let mut value: serde_json::Value =
                    serde_json::from_str(text).map_err(|e| ApplyError::InvalidJson(e.to_string()))?;
                migrate(&mut value)?;
                // Read back through the text deserializer (the only one the
                // state types are compiled for: issue 12 item 5).
                let game: Game =
                    serde_json::from_str(&value.to_string()).map_err(|e| ApplyError::InvalidState(e.to_string()))?;
                return checked(game);
            }
            if found.as_ref().and_then(serde_json::Value::as_u64) != Some(u64::from(FORMAT_VERSION)) {
                return Err(unsupported(found));
            }
            return Err(e);
        }
    };
    checked(game)
}

fn checked(game: Game) -> Result<Game, ApplyError> {
    if game.version != FORMAT_VERSION {
        return Err(unsupported(Some(game.version.into())));
    }
    let too_large = crate::bounds::state_sizes(&game);
    if !too_large.is_empty() {
        return Err(ApplyError::StateTooLarge(too_large.into()));
    }
    let problems = integrity::problems(&game);
    if !problems.is_empty() {
        return Err(ApplyError::CorruptState(problems.into()));
    }
    Ok(game)
}

/// Encode a game state.
pub fn game_to_json(game: &Game) -> Result<String, ApplyError> {
    encode(game)
}

/// Issue 13: the Setup document that imports back to exactly this state (a
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
    encode(&crate::view::view(game, viewer))
}

/// A bot profile id, bare (`heuristic`) or JSON-quoted.
pub fn profile_from_text(text: &str) -> Result<crate::bots::Profile, ApplyError> {
    let trimmed = text.trim();
    let id = trimmed
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(trimmed);
    crate::bots::Profile::from_id(id)
        .ok_or_else(|| ApplyError::InvalidBot(format!("unknown bot profile {trimmed:?} (random, heuristic)")))
}

/// What a bot of `profile` seeded with `seed` sends as `actor` in `state`
/// ([`crate::bots::choose`]): the command as JSON, or `null` when it has
/// nothing to send. `actor` and `profile` are bare ids or JSON strings.
pub fn bot_json(state: &str, actor: &str, profile: &str, seed: u64) -> Result<String, ApplyError> {
    let game = game_from_json(state)?;
    bot_command_json(&game, actor, profile, seed)
}

/// As [`bot_json`], for a game already loaded (the bindings' handles).
pub fn bot_command_json(game: &Game, actor: &str, profile: &str, seed: u64) -> Result<String, ApplyError> {
    let actor = actor_from_text(actor)?;
    let profile = profile_from_text(profile)?;
    encode(&crate::bots::choose(game, actor, profile, seed))
}

/// Narrate an event or a command (either as JSON: an object with `audience`
/// is an event, any other a command) for a viewer (an id, bare or
/// JSON-quoted), in the game `state` (the state the event came out of or the
/// command is applied to: it gives the card catalog and the policies).
/// Returns the sentence, or `None` when the viewer does not see the event
/// (see [`crate::narrate::event`]). An item that is neither is
/// `decode/invalid_command`.
pub fn narrate_text(state: &str, item: &str, viewer: &str) -> Result<Option<String>, ApplyError> {
    let game = game_from_json(state)?;
    let viewer = viewer_from_text(viewer)?;
    #[derive(Deserialize)]
    struct AudienceProbe {
        #[serde(default)]
        audience: Option<serde::de::IgnoredAny>,
    }
    let is_event = serde_json::from_str::<AudienceProbe>(item).is_ok_and(|p| p.audience.is_some());
    let sentence = if is_event {
        let event: Event = decode(item, |m| ApplyError::InvalidCommand(format!("an event: {m}")))?;
        crate::narrate::event(&game, &event, viewer)
    } else {
        Some(crate::narrate::command(&game, &command_from_json(item)?, viewer))
    };
    Ok(sentence)
}

/// [`narrate_text`] with its answer as JSON: a string, or `null`.
pub fn narrate_json(state: &str, item: &str, viewer: &str) -> Result<String, ApplyError> {
    encode(&narrate_text(state, item, viewer)?)
}

/// The engine's static board data ([`crate::board`]) as JSON.
pub fn board_json() -> Result<String, ApplyError> {
    encode(&crate::board::board())
}

/// The legal commands of an actor (`actor` is a JSON string such as `"host"`).
pub fn options_json(state: &str, actor: &str) -> Result<String, ApplyError> {
    game_options_json(&game_from_json(state)?, actor_from_json(actor)?)
}

/// The legal commands of an actor in a game, as JSON (the bindings' handles).
pub fn game_options_json(game: &Game, actor: Actor) -> Result<String, ApplyError> {
    encode(&crate::options::options(game, actor))
}

/// Decode an event list (`Event[]`, as [`apply_json`] returns it): an array
/// of objects (an event is never filled from an array by position).
pub fn events_from_json(text: &str) -> Result<Vec<Event>, ApplyError> {
    let items: Vec<serde_json::Value> = parse(text, ApplyError::InvalidEvents)?;
    if items.iter().any(|item| !item.is_object()) {
        return Err(ApplyError::InvalidEvents("every event must be a JSON object".into()));
    }
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
    encode(&crate::view::events_for(events, viewer))
}

/// Decode a table document ([`crate::TableFacts`], as `syncTable` takes it).
/// Its lists are bounded like a state's (`decode/invalid_table`).
pub fn table_from_json(text: &str) -> Result<crate::TableFacts, ApplyError> {
    let table = decode(text, ApplyError::InvalidTableDocument)?;
    crate::mirror::check_size(&table)?;
    Ok(table)
}

/// D-231: the table of a state ([`crate::table_of`]), as JSON.
pub fn table_of_json(state: &str) -> Result<String, ApplyError> {
    encode(&crate::mirror::table_of(&game_from_json(state)?))
}

/// D-231: the table after one command's events ([`crate::apply_events`]),
/// all in JSON: `table` a table document, `events` the `Event[]` array.
pub fn apply_events_json(table: &str, events: &str) -> Result<String, ApplyError> {
    let table = table_from_json(table)?;
    encode(&crate::mirror::apply_events(&table, &events_from_json(events)?)?)
}

/// D-231: the facts that differ between two tables ([`crate::diff_table`]),
/// as a `Difference[]` array.
pub fn diff_table_json(a: &str, b: &str) -> Result<String, ApplyError> {
    encode(&crate::mirror::diff_table(&table_from_json(a)?, &table_from_json(b)?))
}
