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
    serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => shape_error(e.to_string()),
        _ => ApplyError::InvalidJson(e.to_string()),
    })
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, ApplyError> {
    serde_json::to_string(value).map_err(|e| ApplyError::InvalidState(e.to_string()))
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
    let decoded = if trimmed.starts_with('"') {
        serde_json::from_str::<T>(trimmed)
    } else {
        serde_json::from_value::<T>(serde_json::Value::String(trimmed.to_string()))
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

/// Decode a game state: the format version is checked first (an unknown
/// version is `state/unsupported_version`), then the shape, then every
/// invariant (`state/inconsistent`).
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
            if found.as_ref().and_then(serde_json::Value::as_u64) != Some(u64::from(FORMAT_VERSION)) {
                return Err(unsupported(found));
            }
            return Err(e);
        }
    };
    if game.version != FORMAT_VERSION {
        return Err(unsupported(Some(game.version.into())));
    }
    let problems = integrity::problems(&game);
    if !problems.is_empty() {
        return Err(ApplyError::CorruptState(problems));
    }
    Ok(game)
}

/// Encode a game state.
pub fn game_to_json(game: &Game) -> Result<String, ApplyError> {
    encode(game)
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

/// The view of a state for a viewer (`viewer` is a JSON string such as `"ecaz"`).
pub fn view_json(state: &str, viewer: &str) -> Result<String, ApplyError> {
    let game = game_from_json(state)?;
    let viewer = viewer_from_json(viewer)?;
    encode(&crate::view::view(&game, viewer))
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
    let game = game_from_json(state)?;
    let actor = actor_from_json(actor)?;
    encode(&crate::options::options(&game, actor))
}
