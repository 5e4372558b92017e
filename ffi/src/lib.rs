//! # ecaz-ffi — the C ABI of the Ecaz rules engine
//!
//! Everything crosses as UTF-8 JSON given as (pointer, length): setup
//! documents, states, commands, events, views, options and narration, exactly as the core
//! crate's JSON door ([`ecaz::apply_json`] …) reads and writes them. The
//! header `ffi/include/ecaz.h` is generated from this file by cbindgen
//! (`cargo run -p ecaz-ffi-header -- --write`).
//!
//! ## Conventions
//!
//! - Every fallible call returns an [`EcazStatus`] (`ECAZ_STATUS_OK` = 0) and
//!   hands out at most one owned [`EcazBuffer`] through an out-parameter: on
//!   success the output JSON, on failure the error report JSON
//!   (`{"code": "rule/stale_frame", "message": …, "rule": …, "problems": […]}`,
//!   schema `schemas/error.json`). The caller frees it with
//!   [`ecaz_buffer_free`]. The out-parameter is set to NULL first, so it is
//!   always defined after the call.
//! - Input pointers may be NULL only with length 0 (an empty input, which is
//!   then a decode error); input longer than [`ECAZ_MAX_INPUT_LEN`] is refused
//!   unread; input that is not UTF-8 is refused.
//! - A game handle ([`EcazGame`]) is created by [`ecaz_game_new`] or
//!   [`ecaz_game_from_state`] and freed by [`ecaz_game_free`]. One handle must
//!   not be used by two threads at once; distinct handles are independent.
//! - No call unwinds into C: every export runs inside `catch_unwind`, and a
//!   panic (a bug) is reported as `ECAZ_STATUS_PANIC` with code
//!   `internal/panic`. A handle whose command panicked half-way is poisoned:
//!   later calls on it fail with `internal/poisoned`.
//! - Both frees accept NULL.

// The C ABI is unsafe by nature: raw pointers come in and go out. Unsafe code
// is allowed in this crate only; each unsafe block is small and states why it
// is sound, and `unsafe_op_in_unsafe_fn` makes every unsafe operation explicit.
#![allow(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]

use std::any::Any;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use ecaz::{ApplyError, ErrorReport, Game, Viewer};

/// The largest input (in bytes) any call reads: 16 MiB. A longer input is
/// refused with `ECAZ_STATUS_INPUT_TOO_LARGE` before a byte of it is read.
pub const ECAZ_MAX_INPUT_LEN: usize = 16 * 1024 * 1024;

// One cap for every door (D-180): the C ABI's is the engine's.
const _: () = assert!(ECAZ_MAX_INPUT_LEN == ecaz::MAX_INPUT_BYTES);

/// The outcome of a call.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcazStatus {
    /// Success; the out-parameter holds the output (if the call has one).
    Ok = 0,
    /// The engine refused the input: invalid JSON, a malformed command, setup
    /// or state, or a rule violation. The error report has the stable code.
    Error = 1,
    /// A required pointer was NULL (an input with a non-zero length, the game
    /// handle, or the out-parameter for the output). Code `decode/null_input`.
    NullArgument = 2,
    /// An input was not valid UTF-8. Code `decode/invalid_utf8`.
    InvalidUtf8 = 3,
    /// An input was longer than `ECAZ_MAX_INPUT_LEN`. Code `decode/input_too_large`.
    InputTooLarge = 4,
    /// A bug: the library panicked (code `internal/panic`), or the handle was
    /// poisoned by an earlier panic (code `internal/poisoned`).
    Panic = 5,
}

/// An owned, immutable UTF-8 JSON text handed out by the library: an output
/// document or an error report. `data` is followed by a NUL byte that `len`
/// does not count, so it can also be printed as a C string. Free it with
/// `ecaz_buffer_free`; never free or change `data` yourself.
#[repr(C)]
#[derive(Debug)]
pub struct EcazBuffer {
    /// The text (UTF-8, NUL-terminated).
    pub data: *const c_char,
    /// Its length in bytes, without the terminating NUL.
    pub len: usize,
}

/// A game kept inside the library (the handle API). Opaque to C.
#[derive(Debug)]
pub struct EcazGame {
    game: Game,
    /// Set while a command is being committed; stays set if that panicked.
    poisoned: bool,
}

/// A failed call: its status and the report handed to the caller.
struct Failure {
    status: EcazStatus,
    report: ErrorReport,
}

impl From<ApplyError> for Failure {
    fn from(error: ApplyError) -> Self {
        let status = match error {
            ApplyError::NullInput(_) => EcazStatus::NullArgument,
            ApplyError::InvalidUtf8 => EcazStatus::InvalidUtf8,
            _ => EcazStatus::Error,
        };
        Failure {
            status,
            report: error.report(),
        }
    }
}

impl Failure {
    fn binding(status: EcazStatus, code: &str, message: String) -> Self {
        Failure {
            status,
            report: ErrorReport {
                code: code.to_string(),
                message,
                rule: None,
                problems: Vec::new(),
                problem_count: 0,
            },
        }
    }
}

/// A call's result before it crosses the ABI: `Some(text)` to hand out,
/// `None` when the call has no output.
type Outcome = Result<Option<String>, Failure>;

// ---- buffers ----

/// Move `text` to the heap as a NUL-terminated buffer the caller owns.
fn into_buffer(text: String) -> *mut EcazBuffer {
    let len = text.len();
    let mut bytes = text.into_bytes();
    bytes.push(0);
    let data = Box::into_raw(bytes.into_boxed_slice()).cast::<c_char>();
    Box::into_raw(Box::new(EcazBuffer { data, len }))
}

/// Store `buffer` in `*out`, or free it if there is nowhere to put it.
///
/// # Safety
/// `out` is NULL or valid for a write of one pointer.
unsafe fn hand_out(out: *mut *mut EcazBuffer, buffer: *mut EcazBuffer) {
    if out.is_null() {
        // SAFETY: `buffer` was just made by `into_buffer` and is owned here.
        unsafe { ecaz_buffer_free(buffer) };
    } else {
        // SAFETY: `out` is non-NULL and, by the caller's contract, writable.
        unsafe { out.write(buffer) };
    }
}

/// Set `*out` to NULL, if `out` is given.
///
/// # Safety
/// `out` is NULL or valid for a write of one pointer.
unsafe fn clear<T>(out: *mut *mut T) {
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and, by the caller's contract, writable.
        unsafe { out.write(ptr::null_mut()) };
    }
}

fn report_json(report: &ErrorReport) -> String {
    ecaz::to_json(report).unwrap_or_else(|_| {
        String::from("{\"code\":\"internal/panic\",\"message\":\"the error report could not be encoded\"}")
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    let detail = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    format!("the library panicked (a bug; please report it): {detail}")
}

/// Run `body` without letting a panic cross the ABI, and hand its output or
/// error report out through `out` (which may be NULL: then nothing is handed
/// out and only the status tells what happened).
///
/// # Safety
/// `out` is NULL or valid for a write of one pointer.
unsafe fn run(out: *mut *mut EcazBuffer, body: impl FnOnce() -> Outcome) -> EcazStatus {
    // SAFETY: forwarded contract on `out`.
    unsafe { clear(out) };
    // The body only reads its inputs, or changes a handle that poisons itself
    // on a panic (see `ecaz_game_apply`), so observing it after a panic is fine.
    let result = catch_unwind(AssertUnwindSafe(body));
    let (status, text) = match result {
        Ok(Ok(None)) => return EcazStatus::Ok,
        Ok(Ok(Some(text))) => (EcazStatus::Ok, text),
        Ok(Err(failure)) => (failure.status, report_json(&failure.report)),
        Err(payload) => {
            let failure = Failure::binding(EcazStatus::Panic, "internal/panic", panic_message(payload.as_ref()));
            (failure.status, report_json(&failure.report))
        }
    };
    // Building the buffer only allocates; guard it all the same.
    match catch_unwind(move || into_buffer(text)) {
        Ok(buffer) => {
            // SAFETY: forwarded contract on `out`.
            unsafe { hand_out(out, buffer) };
            status
        }
        Err(_) => EcazStatus::Panic,
    }
}

// ---- inputs ----

/// Borrow an input as UTF-8 text.
///
/// # Safety
/// Unless `ptr` is NULL or `len` is 0 or above `ECAZ_MAX_INPUT_LEN`, `ptr`
/// points to `len` readable bytes that stay unchanged during the call.
unsafe fn text<'a>(ptr: *const c_char, len: usize, what: &'static str) -> Result<&'a str, Failure> {
    if len == 0 {
        return Ok("");
    }
    if ptr.is_null() {
        return Err(ApplyError::NullInput(what).into());
    }
    if len > ECAZ_MAX_INPUT_LEN {
        return Err(Failure::binding(
            EcazStatus::InputTooLarge,
            "decode/input_too_large",
            format!("{what} is {len} bytes; the limit is {ECAZ_MAX_INPUT_LEN}"),
        ));
    }
    // SAFETY: `ptr` is non-NULL and, by the caller's contract, points to `len`
    // readable, unchanging bytes; `len` ≤ 16 MiB is far below `isize::MAX`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|_| ApplyError::InvalidUtf8.into())
}

/// Borrow a game handle.
///
/// # Safety
/// `game` is NULL or a live handle from `ecaz_game_new`/`ecaz_game_from_state`
/// not used by another thread during the call.
unsafe fn game_ref<'a>(game: *const EcazGame) -> Result<&'a Game, Failure> {
    // SAFETY: by the caller's contract a non-NULL `game` is a live handle.
    match unsafe { game.as_ref() } {
        None => Err(ApplyError::NullInput("game").into()),
        Some(handle) if handle.poisoned => Err(poisoned()),
        Some(handle) => Ok(&handle.game),
    }
}

fn poisoned() -> Failure {
    Failure::binding(
        EcazStatus::Panic,
        "internal/poisoned",
        "an earlier call panicked while changing this game; free it and restore a saved state".to_string(),
    )
}

fn encode<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    ecaz::to_json(value).map_err(Failure::from)
}

/// Report a NULL out-parameter that must receive the output.
fn require_out(out: *mut *mut EcazBuffer) -> Result<(), Failure> {
    if out.is_null() {
        Err(ApplyError::NullInput("out").into())
    } else {
        Ok(())
    }
}

// ---- versions ----
//
// These two return constants and cannot panic, so they need no `catch_unwind`.

/// The library version (e.g. `0.1.0`), a static NUL-terminated string. Never
/// free it.
#[no_mangle]
pub extern "C" fn ecaz_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast::<c_char>()
}

/// The state format version this library writes and reads (the state's
/// `version` field). A state of another version is refused with
/// `state/unsupported_version`.
#[no_mangle]
pub extern "C" fn ecaz_format_version() -> u32 {
    ecaz::FORMAT_VERSION
}

// ---- the pure calls: state JSON in, state JSON out ----

/// Build a new game from a setup document (`schemas/setup.json`); on success
/// `*out` holds the state JSON.
///
/// # Safety
/// `setup` points to `setup_len` readable bytes (or is NULL with length 0);
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_new_game_json(
    setup: *const c_char,
    setup_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `setup` (above).
        let setup = unsafe { text(setup, setup_len, "setup") }?;
        Ok(Some(ecaz::new_game_json(setup)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// Apply a command to a state (the pure call): on success `*out` holds
/// `{"state": <new state>, "events": [<event>, …]}`. The input state is never
/// changed; on error nothing happened.
///
/// # Safety
/// `state` and `command` point to `state_len` and `command_len` readable bytes
/// (or are NULL with length 0); `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_apply_json(
    state: *const c_char,
    state_len: usize,
    command: *const c_char,
    command_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state` and `command` (above).
        let (state, command) = unsafe { (text(state, state_len, "state")?, text(command, command_len, "command")?) };
        Ok(Some(ecaz::apply_json(state, command)?.to_document()))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The view of a state for a viewer (a faction id, `spectator` or `host`;
/// bare or as a JSON string); on success `*out` holds the view JSON.
///
/// # Safety
/// As `ecaz_apply_json`, with `viewer` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_view_json(
    state: *const c_char,
    state_len: usize,
    viewer: *const c_char,
    viewer_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state` and `viewer` (above).
        let (state, viewer) = unsafe { (text(state, state_len, "state")?, text(viewer, viewer_len, "viewer")?) };
        let game = ecaz::game_from_json(state)?;
        let viewer: Viewer = ecaz::viewer_from_text(viewer)?;
        Ok(Some(encode(&ecaz::view(&game, viewer))?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The legal commands of an actor (a faction id or `host`; bare or as a JSON
/// string) in a state; on success `*out` holds the options JSON.
///
/// # Safety
/// As `ecaz_apply_json`, with `actor` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_options_json(
    state: *const c_char,
    state_len: usize,
    actor: *const c_char,
    actor_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state` and `actor` (above).
        let (state, actor) = unsafe { (text(state, state_len, "state")?, text(actor, actor_len, "actor")?) };
        let game = ecaz::game_from_json(state)?;
        let actor = ecaz::actor_from_text(actor)?;
        Ok(Some(encode(&ecaz::options(&game, actor))?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// What a bot sends (D-130): the command a bot of `profile` (`random` or
/// `heuristic`, bare or as a JSON string) seeded with `seed` chooses for
/// `actor` (a faction id or `host`) in a state — its answer to the open
/// decision, or a Nexus play when none is open. On success `*out` holds the
/// command JSON, or `null` when the actor has nothing to send. The same
/// state, actor, profile and seed always give the same command.
///
/// # Safety
/// As `ecaz_apply_json`, with `actor` and `profile` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_bot_json(
    state: *const c_char,
    state_len: usize,
    actor: *const c_char,
    actor_len: usize,
    profile: *const c_char,
    profile_len: usize,
    seed: u64,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state`, `actor` and `profile` (above).
        let (state, actor, profile) = unsafe {
            (
                text(state, state_len, "state")?,
                text(actor, actor_len, "actor")?,
                text(profile, profile_len, "profile")?,
            )
        };
        Ok(Some(ecaz::bot_json(state, actor, profile, seed)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The engine's static board data: every territory (id, name, kind,
/// sectors, storm-proofing, neighbours) and the printed names of factions,
/// leaders and phases. On success `*out` holds the JSON document.
///
/// # Safety
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_board_json(out: *mut *mut EcazBuffer) -> EcazStatus {
    let body = || {
        require_out(out)?;
        Ok(Some(ecaz::board_json()?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// Narrate an event or a command for a viewer, in English (D-140): one
/// sentence that says no more than that viewer may know. `item` is an event
/// (a JSON object with `audience`) or a command; `state` is the game the
/// event came out of or the command is applied to (it gives the card catalog
/// and the policies); `viewer` is a faction id, `spectator` or `host` (bare
/// or as a JSON string). On success `*out` holds the sentence as a JSON
/// string, or `null` when the viewer does not see the event.
///
/// # Safety
/// As `ecaz_apply_json`, with `item` for `command`, plus `viewer` pointing to
/// `viewer_len` readable bytes (or NULL with length 0).
#[no_mangle]
pub unsafe extern "C" fn ecaz_narrate_json(
    state: *const c_char,
    state_len: usize,
    item: *const c_char,
    item_len: usize,
    viewer: *const c_char,
    viewer_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state`, `item` and `viewer` (above).
        let (state, item, viewer) = unsafe {
            (
                text(state, state_len, "state")?,
                text(item, item_len, "item")?,
                text(viewer, viewer_len, "viewer")?,
            )
        };
        Ok(Some(ecaz::narrate_json(state, item, viewer)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The events of one command that a viewer (a faction id, `spectator` or
/// `host`; bare or as a JSON string) may see, in order: `events` is the
/// `Event[]` JSON an apply returned; on success `*out` holds the filtered
/// array. Forward each player only their own stream (D-90).
///
/// # Safety
/// As `ecaz_apply_json`, with `events` for `state` and `viewer` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_events_for_json(
    events: *const c_char,
    events_len: usize,
    viewer: *const c_char,
    viewer_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `events` and `viewer` (above).
        let (events, viewer) = unsafe { (text(events, events_len, "events")?, text(viewer, viewer_len, "viewer")?) };
        let events = ecaz::events_from_json(events)?;
        let viewer: Viewer = ecaz::viewer_from_text(viewer)?;
        Ok(Some(encode(&ecaz::events_for(&events, viewer))?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// D-231: the table of a state (`TableFacts` JSON, the document `syncTable`
/// takes); on success `*out` holds it.
///
/// # Safety
/// `state` points to `state_len` readable bytes (or is NULL with length 0);
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_table_of_json(
    state: *const c_char,
    state_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `state` (above).
        let state = unsafe { text(state, state_len, "state")? };
        Ok(Some(ecaz::table_of_json(state)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// D-231: the table after one command's events: `table` a `TableFacts`
/// document, `events` the `Event[]` JSON an apply returned (every audience).
/// On success `*out` holds the new table; events that do not fit the table
/// are `sync/events_mismatch`.
///
/// # Safety
/// As `ecaz_apply_json`, with `table` for `state` and `events` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_apply_events_json(
    table: *const c_char,
    table_len: usize,
    events: *const c_char,
    events_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `table` and `events` (above).
        let (table, events) = unsafe { (text(table, table_len, "table")?, text(events, events_len, "events")?) };
        Ok(Some(ecaz::apply_events_json(table, events)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// D-231: the facts that differ from table `a` to table `b` (`Difference[]`
/// JSON, as `tableSynced` lists them; `[]` when equal).
///
/// # Safety
/// As `ecaz_apply_json`, with `a` for `state` and `b` for `command`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_diff_table_json(
    a: *const c_char,
    a_len: usize,
    b: *const c_char,
    b_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `a` and `b` (above).
        let (a, b) = unsafe { (text(a, a_len, "table")?, text(b, b_len, "table")?) };
        Ok(Some(ecaz::diff_table_json(a, b)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

// ---- the handle API: the state stays inside the library ----

/// Hand a new game out through `out_game`.
///
/// # Safety
/// `out_game` is non-NULL and valid for a write of one pointer.
unsafe fn hand_out_game(out_game: *mut *mut EcazGame, game: Game) {
    let handle = Box::into_raw(Box::new(EcazGame { game, poisoned: false }));
    // SAFETY: forwarded contract on `out_game`.
    unsafe { out_game.write(handle) };
}

/// Create a game from a setup document. On success `*out_game` is a new
/// handle (free it with `ecaz_game_free`) and `*out_error` is NULL; on failure
/// `*out_game` is NULL and `*out_error` holds the error report. `out_error`
/// may be NULL when the report is not wanted.
///
/// # Safety
/// `setup` points to `setup_len` readable bytes (or is NULL with length 0);
/// `out_game` and `out_error` are NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_new(
    setup: *const c_char,
    setup_len: usize,
    out_game: *mut *mut EcazGame,
    out_error: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        if out_game.is_null() {
            return Err(ApplyError::NullInput("out_game").into());
        }
        // SAFETY: the caller's contract on `setup` (above).
        let setup = unsafe { text(setup, setup_len, "setup") }?;
        let game = ecaz::setup_from_json(setup)?.build()?;
        // SAFETY: `out_game` is non-NULL (checked) and writable (the caller's contract).
        unsafe { hand_out_game(out_game, game) };
        Ok(None)
    };
    // SAFETY: the caller's contract on `out_game` and `out_error` (above).
    unsafe {
        clear(out_game);
        run(out_error, body)
    }
}

/// Create a game from a saved state (as `ecaz_game_state` or the pure calls
/// give it). Ownership and errors as `ecaz_game_new`.
///
/// # Safety
/// As `ecaz_game_new`, with `state` for `setup`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_from_state(
    state: *const c_char,
    state_len: usize,
    out_game: *mut *mut EcazGame,
    out_error: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        if out_game.is_null() {
            return Err(ApplyError::NullInput("out_game").into());
        }
        // SAFETY: the caller's contract on `state` (above).
        let state = unsafe { text(state, state_len, "state") }?;
        let game = ecaz::game_from_json(state)?;
        // SAFETY: `out_game` is non-NULL (checked) and writable (the caller's contract).
        unsafe { hand_out_game(out_game, game) };
        Ok(None)
    };
    // SAFETY: the caller's contract on `out_game` and `out_error` (above).
    unsafe {
        clear(out_game);
        run(out_error, body)
    }
}

/// Apply a command to the game in place. On success `*out` holds the events
/// JSON array; on error `*out` holds the error report and the game is exactly
/// as it was (state and RNG).
///
/// # Safety
/// `game` is NULL or a live handle used by no other thread during the call;
/// `command` points to `command_len` readable bytes (or is NULL with length 0);
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_apply(
    game: *mut EcazGame,
    command: *const c_char,
    command_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract: NULL or a live handle, not shared.
        let Some(handle) = (unsafe { game.as_mut() }) else {
            return Err(ApplyError::NullInput("game").into());
        };
        if handle.poisoned {
            return Err(poisoned());
        }
        // SAFETY: the caller's contract on `command` (above).
        let command = unsafe { text(command, command_len, "command") }?;
        let command = ecaz::command_from_json(command)?;
        // `apply_mut` checks everything before its first change; the flag
        // stays set only if it panicked half-way through a commit.
        handle.poisoned = true;
        let events = ecaz::apply_mut(&mut handle.game, &command);
        handle.poisoned = false;
        Ok(Some(encode(&events?)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The game's state JSON (to persist it, or to hand it to the pure calls).
///
/// # Safety
/// `game` is NULL or a live handle used by no other thread during the call;
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_state(game: *const EcazGame, out: *mut *mut EcazBuffer) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `game` (above).
        let game = unsafe { game_ref(game) }?;
        Ok(Some(ecaz::game_to_json(game)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The game's view for a viewer (a faction id, `spectator` or `host`; bare
/// or as a JSON string); on success `*out` holds the view JSON.
///
/// # Safety
/// `game` is NULL or a live handle used by no other thread during the call;
/// `viewer` points to `viewer_len` readable bytes (or is NULL with length 0);
/// `out` is NULL or valid for a write of one pointer.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_view(
    game: *const EcazGame,
    viewer: *const c_char,
    viewer_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `game` and `viewer` (above).
        let (game, viewer) = unsafe { (game_ref(game)?, text(viewer, viewer_len, "viewer")?) };
        let viewer: Viewer = ecaz::viewer_from_text(viewer)?;
        Ok(Some(encode(&ecaz::view(game, viewer))?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// The legal commands of an actor (a faction id or `host`; bare or as a JSON
/// string); on success `*out` holds the options JSON.
///
/// # Safety
/// As `ecaz_game_view`, with `actor` for `viewer`.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_options(
    game: *const EcazGame,
    actor: *const c_char,
    actor_len: usize,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `game` and `actor` (above).
        let (game, actor) = unsafe { (game_ref(game)?, text(actor, actor_len, "actor")?) };
        let actor = ecaz::actor_from_text(actor)?;
        Ok(Some(encode(&ecaz::options(game, actor))?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

/// What a bot sends in the handle's game (as `ecaz_bot_json`); on success
/// `*out` holds the command JSON or `null`. The game is not changed: apply
/// the command with `ecaz_game_apply`.
///
/// # Safety
/// As `ecaz_game_options`, with `profile` (`profile_len` bytes) as well.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_bot(
    game: *const EcazGame,
    actor: *const c_char,
    actor_len: usize,
    profile: *const c_char,
    profile_len: usize,
    seed: u64,
    out: *mut *mut EcazBuffer,
) -> EcazStatus {
    let body = || {
        require_out(out)?;
        // SAFETY: the caller's contract on `game`, `actor` and `profile` (above).
        let (game, actor, profile) = unsafe {
            (
                game_ref(game)?,
                text(actor, actor_len, "actor")?,
                text(profile, profile_len, "profile")?,
            )
        };
        Ok(Some(ecaz::bot_command_json(game, actor, profile, seed)?))
    };
    // SAFETY: the caller's contract on `out` (above).
    unsafe { run(out, body) }
}

// ---- frees ----

/// Free a game handle. NULL is accepted and ignored.
///
/// # Safety
/// `game` is NULL or a live handle not used by any other thread, and it is not
/// used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn ecaz_game_free(game: *mut EcazGame) {
    if game.is_null() {
        return;
    }
    // Dropping a `Game` only frees memory; guard it all the same.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `game` came from `Box::into_raw` in `ecaz_game_new` or
        // `ecaz_game_from_state` and, by the caller's contract, is freed once.
        drop(unsafe { Box::from_raw(game) });
    }));
}

/// Free a buffer handed out by the library. NULL is accepted and ignored.
///
/// # Safety
/// `buffer` is NULL or a buffer from this library not freed before, and it is
/// not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn ecaz_buffer_free(buffer: *mut EcazBuffer) {
    if buffer.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `buffer` came from `Box::into_raw` in `into_buffer` and, by
        // the caller's contract, is freed once.
        let buffer = unsafe { Box::from_raw(buffer) };
        // SAFETY: `data` came from `Box::into_raw` of a boxed slice of
        // `len + 1` bytes (the text and its NUL) in `into_buffer`.
        let data = ptr::slice_from_raw_parts_mut(buffer.data.cast_mut().cast::<u8>(), buffer.len + 1);
        drop(unsafe { Box::from_raw(data) });
    }));
}

#[cfg(test)]
mod tests;
