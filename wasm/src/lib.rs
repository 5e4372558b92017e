//! # ecaz-wasm — the Ecaz rules engine for JavaScript (Node and browsers)
//!
//! Thin `#[wasm_bindgen]` wrappers over the core crate's JSON door, mirroring
//! the C ABI (`ffi/`) with camelCase names:
//!
//! | JS | C | core |
//! |---|---|---|
//! | `newGameJson(setup)` | `ecaz_new_game_json` | [`ecaz::new_game_json`] |
//! | `applyJson(state, command)` → `{state, events}` | `ecaz_apply_json` | [`ecaz::apply_json`] |
//! | `viewJson(state, viewer)` | `ecaz_view_json` | [`ecaz::view_json`] |
//! | `optionsJson(state, actor)` | `ecaz_options_json` | [`ecaz::options_json`] |
//! | `boardJson()` | `ecaz_board_json` | [`ecaz::board_json`] |
//! | `narrate(state, item, viewer)` → sentence or `null` | `ecaz_narrate_json` | [`ecaz::narrate_text`] |
//! | `new Game(setup)`, `Game.fromState(state)` | `ecaz_game_new`, `ecaz_game_from_state` | |
//! | `eventsForJson(events, viewer)` | `ecaz_events_for_json` | [`ecaz::events_for`] |
//! | `errorCodes()` | | [`ecaz::ApplyError::CODES`] |
//! | `game.apply(command)` → events | `ecaz_game_apply` | [`ecaz::apply_mut`] |
//! | `game.state()`, `game.view(viewer)`, `game.options(actor)` | `ecaz_game_state`, … | |
//!
//! Every value crosses as JSON text (a JS string), exactly as the schemas in
//! `schemas/` describe it; the TypeScript types generated from those schemas
//! type the parsed values. A viewer or actor is an id (`"ecaz"`,
//! `"spectator"`, `"host"`), bare or JSON-quoted.
//!
//! Errors are thrown as JS `Error` objects (name `EcazError`) carrying the
//! stable `code` (`rule/stale_frame`, `decode/invalid_json` …) and, when they
//! apply, `rule` and `problems`. A non-string argument is thrown as
//! `decode/invalid_json`.

use ecaz::{ApplyError, ErrorReport, Viewer};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The module's allocator (D-153): Talc over the module's own memory, grown
/// as needed, with no lock (the module is single-threaded).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &'static str = r#"
/** What `applyJson` returns: the new state and the events, both JSON text. */
export interface ApplyOutcome {
    /** The new state (a `Game` document). */
    state: string;
    /** The events, a JSON array of `Event`. */
    events: string;
}

/** The errors every function throws: a JS `Error` with the engine's stable code. */
export interface EcazError extends Error {
    name: "EcazError";
    /** Stable code such as `rule/stale_frame` or `decode/invalid_json`. */
    code: string;
    /** The rule or policy id (RULES.md) the error enforces, where one applies. */
    rule?: string;
    /** The first problems (at most 32) of a setup or state error. */
    problems?: { path: string; message: string }[];
    /** How many problems the setup or state error found in all. */
    problemCount?: number;
}
"#;

/// Build the thrown value: a JS `Error` with `code`, `rule` and `problems`.
fn js_error(report: &ErrorReport) -> JsValue {
    let error = js_sys::Error::new(&report.message);
    error.set_name("EcazError");
    set(&error, "code", &JsValue::from_str(&report.code));
    if let Some(rule) = &report.rule {
        set(&error, "rule", &JsValue::from_str(rule));
    }
    if !report.problems.is_empty() {
        let problems = Array::new();
        for problem in &report.problems {
            let item = Object::new();
            set(&item, "path", &JsValue::from_str(&problem.path));
            set(&item, "message", &JsValue::from_str(&problem.message));
            problems.push(&item);
        }
        set(&error, "problems", &problems);
    }
    if report.problem_count > 0 {
        // The total found; `problems` lists at most the first 32 (D-81).
        let count = u32::try_from(report.problem_count).unwrap_or(u32::MAX);
        set(&error, "problemCount", &JsValue::from_f64(f64::from(count)));
    }
    error.into()
}

/// `target[key] = value` (setting a property of a fresh object cannot fail).
fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

fn thrown(error: ApplyError) -> JsValue {
    js_error(&error.report())
}

/// The argument as text, or the error thrown for a non-string. A string of
/// more UTF-16 units than [`ecaz::MAX_INPUT_BYTES`] (hence of more UTF-8
/// bytes) is refused before it is copied into the module's memory (D-180);
/// the engine's door checks the exact byte length of the rest.
fn text(value: &JsValue, what: &'static str) -> Result<String, JsValue> {
    if let Some(units) = value.dyn_ref::<js_sys::JsString>().map(js_sys::JsString::length) {
        let len = usize::try_from(units).unwrap_or(usize::MAX);
        if len > ecaz::MAX_INPUT_BYTES {
            return Err(thrown(ApplyError::InputTooLarge { what, len }));
        }
    }
    value.as_string().ok_or_else(|| {
        let found = value.js_typeof().as_string().unwrap_or_default();
        thrown(ApplyError::InvalidJson(format!(
            "{what} must be JSON text (a string), not a value of type {found}"
        )))
    })
}

/// The library version (e.g. `0.1.0`).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The state format version this library writes and reads.
#[wasm_bindgen(js_name = formatVersion)]
pub fn format_version() -> u32 {
    ecaz::FORMAT_VERSION
}

// ---- the pure calls ----

/// Build a new game from a setup document (`Setup` JSON); returns the state JSON.
#[wasm_bindgen(js_name = newGameJson)]
pub fn new_game_json(#[wasm_bindgen(unchecked_param_type = "string")] setup: JsValue) -> Result<String, JsValue> {
    ecaz::new_game_json(&text(&setup, "setup")?).map_err(thrown)
}

/// Apply a command (`Command` JSON) to a state; returns the new state and the
/// events (`Event[]` JSON). The input state is never changed.
#[wasm_bindgen(js_name = applyJson, unchecked_return_type = "ApplyOutcome")]
pub fn apply_json(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] command: JsValue,
) -> Result<JsValue, JsValue> {
    let outcome = ecaz::apply_json(&text(&state, "state")?, &text(&command, "command")?).map_err(thrown)?;
    let result = Object::new();
    set(&result, "state", &JsValue::from(outcome.state));
    set(&result, "events", &JsValue::from(outcome.events));
    Ok(result.unchecked_into())
}

/// D-105: the Setup document (JSON) that imports a saved quiet moment
/// back to an equal game; older state format versions are migrated first.
#[wasm_bindgen(js_name = exportSetupJson)]
pub fn export_setup_json(#[wasm_bindgen(unchecked_param_type = "string")] state: JsValue) -> Result<String, JsValue> {
    ecaz::export_setup_json(&text(&state, "state")?).map_err(thrown)
}

/// The view of a state for a viewer (a faction id, `spectator` or `host`).
#[wasm_bindgen(js_name = viewJson)]
pub fn view_json(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] viewer: JsValue,
) -> Result<String, JsValue> {
    let game = ecaz::game_from_json(&text(&state, "state")?).map_err(thrown)?;
    let viewer: Viewer = ecaz::viewer_from_text(&text(&viewer, "viewer")?).map_err(thrown)?;
    ecaz::game_view_json(&game, viewer).map_err(thrown)
}

/// The legal commands of an actor (a faction id or `host`) in a state.
#[wasm_bindgen(js_name = optionsJson)]
pub fn options_json(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] actor: JsValue,
) -> Result<String, JsValue> {
    let game = ecaz::game_from_json(&text(&state, "state")?).map_err(thrown)?;
    let actor = ecaz::actor_from_text(&text(&actor, "actor")?).map_err(thrown)?;
    ecaz::game_options_json(&game, actor).map_err(thrown)
}

/// Narrate an event or a command (JSON text: an event is an object with
/// `audience`) for a viewer (a faction id, `spectator` or `host`), in
/// English: one sentence that says no more than that viewer may know, or
/// `null` when the viewer does not see the event. `state` is the game the
/// event came out of or the command is applied to (card names, policies).
#[wasm_bindgen(js_name = narrate, unchecked_return_type = "string | null")]
pub fn narrate(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] item: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] viewer: JsValue,
) -> Result<JsValue, JsValue> {
    let sentence = ecaz::narrate_text(
        &text(&state, "state")?,
        &text(&item, "item")?,
        &text(&viewer, "viewer")?,
    )
    .map_err(thrown)?;
    Ok(sentence.map_or(JsValue::NULL, |s| JsValue::from_str(&s)))
}

/// The engine's static board data: every territory (id, name, kind,
/// sectors, storm-proofing, neighbours) and the printed names of factions,
/// leaders and phases, as JSON text.
#[wasm_bindgen(js_name = boardJson)]
pub fn board_json() -> Result<String, JsValue> {
    ecaz::board_json().map_err(thrown)
}

/// The events of one command (`Event[]` JSON, as `applyJson` or
/// `game.apply` return them) that a viewer (a faction id, `spectator` or
/// `host`) may see, in order, as `Event[]` JSON.
#[wasm_bindgen(js_name = eventsForJson)]
pub fn events_for_json(
    #[wasm_bindgen(unchecked_param_type = "string")] events: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] viewer: JsValue,
) -> Result<String, JsValue> {
    let events = ecaz::events_from_json(&text(&events, "events")?).map_err(thrown)?;
    let viewer: Viewer = ecaz::viewer_from_text(&text(&viewer, "viewer")?).map_err(thrown)?;
    ecaz::viewer_events_json(&events, viewer).map_err(thrown)
}

/// D-231: the table of a state (`TableFacts` JSON): what a host that keeps
/// its own table starts from.
#[wasm_bindgen(js_name = tableOfJson)]
pub fn table_of_json(#[wasm_bindgen(unchecked_param_type = "string")] state: JsValue) -> Result<String, JsValue> {
    ecaz::table_of_json(&text(&state, "state")?).map_err(thrown)
}

/// D-231: the table (`TableFacts` JSON) after one command's events (`Event[]`
/// JSON, every audience, as `applyJson` or `game.apply` return them).
#[wasm_bindgen(js_name = applyEventsJson)]
pub fn apply_events_json(
    #[wasm_bindgen(unchecked_param_type = "string")] table: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] events: JsValue,
) -> Result<String, JsValue> {
    ecaz::apply_events_json(&text(&table, "table")?, &text(&events, "events")?).map_err(thrown)
}

/// D-231: the facts that differ from table `a` to table `b` (`Difference[]`
/// JSON, as `tableSynced` lists them).
#[wasm_bindgen(js_name = diffTableJson)]
pub fn diff_table_json(
    #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
) -> Result<String, JsValue> {
    ecaz::diff_table_json(&text(&a, "table")?, &text(&b, "table")?).map_err(thrown)
}

/// Every stable error code the engine can throw (the package's `ErrorCode`
/// type is generated from this list).
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Vec<String> {
    ecaz::ApplyError::CODES.iter().map(|code| (*code).to_string()).collect()
}

/// Test builds only (cargo feature `test-panic`, never in the released
/// package): a deliberate panic, which aborts the WASM instance, so the
/// package's recovery (`internal/panic`, then `internal/poisoned` for older
/// handles) can be tested.
#[cfg(feature = "test-panic")]
#[allow(clippy::panic)]
#[wasm_bindgen(js_name = testPanic)]
pub fn test_panic() {
    panic!("deliberate test panic");
}

// ---- the handle ----

/// What a bot sends (D-130): the command (JSON text) a bot of `profile`
/// (`"random"` or `"heuristic"`) seeded with `seed` (an integer
/// 0 ..= 2^53 − 1) chooses for `actor` in a state, or `"null"` when the actor
/// has nothing to send. Same inputs, same command.
#[wasm_bindgen(js_name = botCommand)]
pub fn bot_command(
    #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] actor: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] profile: JsValue,
    seed: f64,
) -> Result<String, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if !(0.0..=MAX_SAFE).contains(&seed) || seed.fract() != 0.0 {
        return Err(thrown(ApplyError::InvalidBot(format!(
            "the seed must be an integer 0 ..= 2^53 - 1, not {seed}"
        ))));
    }
    // An integral f64 within 0 ..= 2^53 - 1 converts exactly.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let seed = seed as u64;
    let (state, actor, profile) = (
        text(&state, "state")?,
        text(&actor, "actor")?,
        text(&profile, "profile")?,
    );
    ecaz::bot_json(&state, &actor, &profile, seed).map_err(thrown)
}

/// A game kept inside the WASM module: commands go in, events come out, and
/// the state JSON is produced only when asked for (`state()`). Call `free()`
/// when done (or rely on the garbage collector's finalizer).
#[wasm_bindgen]
#[derive(Debug)]
pub struct Game {
    game: ecaz::Game,
    /// The command text `applyInput` reads, written by the typed layer
    /// through `inputBuffer` (D-152).
    input: Vec<u8>,
    /// The events text of the last command, kept for the typed layer to
    /// read (D-152); emptied at the next command, its memory kept up to
    /// [`KEEP`].
    output: Vec<u8>,
    /// The error of the last `applyInput` that failed, until `takeError`
    /// takes it (D-153).
    error: Option<JsValue>,
}

impl Game {
    fn holding(game: ecaz::Game) -> Game {
        Game {
            game,
            input: Vec::new(),
            output: Vec::new(),
            error: None,
        }
    }

    /// Decode, apply and encode one command; the events JSON is left in
    /// `output` (its memory reused from one command to the next).
    fn run(&mut self, command: &str) -> Result<(), JsValue> {
        let command = ecaz::command_from_json(command).map_err(thrown)?;
        let events = ecaz::apply_mut(&mut self.game, &command).map_err(thrown)?;
        reuse(&mut self.output);
        ecaz::write_events(&mut self.output, &events).map_err(thrown)
    }
}

/// The output buffer's memory is kept for the next command up to this size;
/// a larger one is given back. (The input buffer's is the typed layer's
/// call: `releaseInput`, D-153.)
const KEEP: usize = 64 * 1024;

/// What `applyInput` returns when the command failed: no events text is
/// that long (a `Vec` holds at most `isize::MAX` bytes).
const FAILED: usize = usize::MAX;

/// Empties a buffer for the next command, keeping its memory unless that is
/// over [`KEEP`].
fn reuse(buffer: &mut Vec<u8>) {
    if buffer.capacity() > KEEP {
        *buffer = Vec::new();
    } else {
        buffer.clear();
    }
}

#[wasm_bindgen]
impl Game {
    /// Build a new game from a setup document (`Setup` JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "string")] setup: JsValue) -> Result<Game, JsValue> {
        let setup = ecaz::setup_from_json(&text(&setup, "setup")?).map_err(thrown)?;
        let game = setup.build().map_err(thrown)?;
        Ok(Game::holding(game))
    }

    /// Restore a game from a saved state (`Game` JSON).
    #[wasm_bindgen(js_name = fromState)]
    pub fn from_state(#[wasm_bindgen(unchecked_param_type = "string")] state: JsValue) -> Result<Game, JsValue> {
        let game = ecaz::game_from_json(&text(&state, "state")?).map_err(thrown)?;
        Ok(Game::holding(game))
    }

    /// Apply a command (`Command` JSON) in place; returns the events
    /// (`Event[]` JSON). On error nothing changed.
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] command: JsValue,
    ) -> Result<String, JsValue> {
        self.run(&text(&command, "command")?)?;
        Ok(String::from_utf8_lossy(&self.output).into_owned())
    }

    /// Where the typed layer writes a command of up to `len` bytes of UTF-8
    /// for `applyInput` (0 when `len` is over the input cap, D-180): an
    /// address in the module's memory, which holds
    /// until `inputBuffer` or `releaseInput` is called again (D-153); a
    /// view of the memory must be taken again after the memory grows.
    /// D-152: `apply` without a string crossing the boundary each way.
    #[wasm_bindgen(js_name = inputBuffer)]
    pub fn input_buffer(&mut self, len: usize) -> usize {
        // No room beyond the input cap (D-180): address 0 says no.
        if len > ecaz::MAX_INPUT_BYTES {
            return 0;
        }
        // D-153: the buffer only grows (zero-filled once, to the size
        // asked), and stays where it is until this or `releaseInput` is
        // called again, so the typed layer asks only when it needs more.
        if len > self.input.len() {
            self.input.reserve_exact(len - self.input.len());
            self.input.resize(len, 0);
        }
        self.input.as_mut_ptr() as usize
    }

    /// Gives back the input buffer's memory (the typed layer calls it
    /// after a command of over 64 KiB).
    #[wasm_bindgen(js_name = releaseInput)]
    pub fn release_input(&mut self) {
        self.input = Vec::new();
    }

    /// `apply` of the command whose first `len` bytes were written at
    /// `inputBuffer`: returns the byte length of the events JSON, which
    /// `outputBuffer` locates, or [`FAILED`], and then `takeError` gives
    /// the error. On error nothing changed. D-153: one plain number back,
    /// not a `Result` (which crosses as an array made at every call).
    #[wasm_bindgen(js_name = applyInput)]
    pub fn apply_input(&mut self, len: usize) -> usize {
        let input = std::mem::take(&mut self.input);
        let bytes = input.get(..len).unwrap_or(&input);
        let outcome = match std::str::from_utf8(bytes) {
            Ok(command) => self.run(command),
            Err(e) => Err(thrown(ApplyError::InvalidJson(format!("command is not UTF-8: {e}")))),
        };
        self.input = input;
        match outcome {
            Ok(()) => self.output.len(),
            Err(error) => {
                self.error = Some(error);
                FAILED
            }
        }
    }

    /// The error of the last `applyInput` that returned [`FAILED`] (taken:
    /// a second call gives `undefined`).
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> JsValue {
        self.error.take().unwrap_or(JsValue::UNDEFINED)
    }

    /// Where the events JSON of the last `applyInput` is (valid until the
    /// next call into the module).
    #[wasm_bindgen(js_name = outputBuffer)]
    pub fn output_buffer(&self) -> usize {
        self.output.as_ptr() as usize
    }

    /// The state JSON (to persist it, or for the pure calls).
    pub fn state(&self) -> Result<String, JsValue> {
        ecaz::game_to_json(&self.game).map_err(thrown)
    }

    /// The view for a viewer (a faction id, `spectator` or `host`).
    pub fn view(&self, #[wasm_bindgen(unchecked_param_type = "string")] viewer: JsValue) -> Result<String, JsValue> {
        let viewer: Viewer = ecaz::viewer_from_text(&text(&viewer, "viewer")?).map_err(thrown)?;
        ecaz::game_view_json(&self.game, viewer).map_err(thrown)
    }

    /// The legal commands of an actor (a faction id or `host`).
    pub fn options(&self, #[wasm_bindgen(unchecked_param_type = "string")] actor: JsValue) -> Result<String, JsValue> {
        let actor = ecaz::actor_from_text(&text(&actor, "actor")?).map_err(thrown)?;
        ecaz::game_options_json(&self.game, actor).map_err(thrown)
    }
}
