//! Audits of a game state that tests, fuzzers, bots and hosts run after any
//! command (docs/RULES.md §10, "Never stuck, never poisoned"). Each returns `Ok(())` or a one-line
//! description of what is wrong; neither changes the game nor draws from
//! its RNG.
//!
//! * [`liveness`] — the game can always move: an open frame's actor has a
//!   legal command that [`crate::options`] lists and [`crate::apply`]
//!   accepts, and a quiet game (no frame open) can be moved forward by the
//!   host's `endPhase`.
//! * [`reload`] — the state survives a save: [`crate::game_to_json`] then
//!   [`crate::game_from_json`] gives back an equal game, whose encoding is
//!   byte-identical (a closed round trip: no accepted command makes a state
//!   the loader refuses).
//! * [`check`] — both.
//!
//! ```
//! use ecaz::{apply, audit, Action, Command, Faction, Phase, Setup};
//! let game = Setup::for_seats(&[Faction::Ecaz, Faction::Atreides], 3).build()?;
//! audit::check(&game)?;
//! let (next, _) = apply(&game, &Command::host(Action::EndPhase { phase: Phase::Storm }))?;
//! audit::check(&next)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::base::bounds::{COUNTER_LIMIT, PER_COMMAND};

use crate::engine::apply::validate;
use crate::engine::options::options;
use crate::json::{game_from_json, game_to_json};
use crate::model::command::{Action, Command};
use crate::model::error::ApplyError;
use crate::model::game::{Actor, Game};

/// Liveness (ARCHITECTURE §4, D-70): whenever a frame is open, its actor has at
/// least one legal command — `options` lists a command or a choice
/// descriptor, and every listed command is accepted — and every open arrival
/// still has something to settle (a frame of its own or an open child), so
/// its `resume` will come. With no frame open, no arrival is open and the
/// host's `endPhase` for the current phase is accepted.
///
/// The one exception is the terminal state: a game whose counters are
/// exhausted (`state/ids_exhausted`, D-72) is over, whether or not a frame
/// is open — `apply` refuses every command and `options` lists nothing for
/// anyone (D-84, D-85).
pub fn liveness(game: &Game) -> Result<(), String> {
    if crate::check::exhausted(game) {
        return liveness_of_the_end(game);
    }
    for a in game.open_arrivals() {
        let busy = game.pending().iter().any(|f| f.decision.arrival() == Some(a.id))
            || game.open_arrivals().iter().any(|c| c.parent == Some(a.id));
        if !busy {
            return Err(format!("arrival {} is open with nothing left to settle", a.id));
        }
    }
    match game.open_frame() {
        Some(frame) => {
            let o = options(game, frame.actor);
            if o.frame != Some(frame.id) {
                return Err(format!(
                    "options of {} do not name the open frame {}",
                    frame.actor, frame.id
                ));
            }
            if o.commands.is_empty() && o.choices.is_empty() {
                return Err(format!(
                    "deadlock: {} owns frame {} ({}) and has no legal command",
                    frame.actor,
                    frame.id,
                    frame.decision.name()
                ));
            }
            for c in &o.commands {
                if let Err(e) = validate(game, c) {
                    return Err(format!("listed {} refused: {} {e}", c.action.name(), e.code()));
                }
            }
            Ok(())
        }
        None => {
            let end = Command::host(Action::EndPhase { phase: game.phase() });
            validate(game, &end).map_err(|e| format!("a quiet game cannot move: endPhase refused: {} {e}", e.code()))
        }
    }
}

/// The terminal state (D-85): every actor's options are empty and the host's
/// `endPhase` is refused with `state/ids_exhausted`, so a host learns the game
/// is over from any command it sends.
fn liveness_of_the_end(game: &Game) -> Result<(), String> {
    let end = Command::host(Action::EndPhase { phase: game.phase() });
    match validate(game, &end) {
        Err(ApplyError::IdsExhausted) => {}
        other => return Err(format!("an exhausted game answered endPhase with {other:?}")),
    }
    let actors = game.seats().iter().copied().map(Actor::Faction).chain([Actor::Host]);
    for actor in actors {
        let o = options(game, actor);
        if !o.commands.is_empty() || !o.choices.is_empty() {
            return Err(format!("an exhausted game lists options for {actor}"));
        }
    }
    Ok(())
}

/// Closed round trip (D-72–D-75): the state encodes, decodes to an
/// equal game (every load-time invariant holds), and re-encodes to the same
/// bytes.
pub fn reload(game: &Game) -> Result<(), String> {
    let text = game_to_json(game).map_err(|e| format!("encoding failed: {} {e}", e.code()))?;
    let back = game_from_json(&text).map_err(|e| {
        let problems: Vec<String> = e
            .problems()
            .iter()
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect();
        format!("reload refused: {} {e} {problems:?}", e.code())
    })?;
    if &back != game {
        return Err("the reloaded state differs from the saved one".into());
    }
    let again = game_to_json(&back).map_err(|e| format!("re-encoding failed: {} {e}", e.code()))?;
    if again != text {
        return Err("the reloaded state encodes to different bytes".into());
    }
    Ok(())
}

/// Both audits: [`liveness`] then [`reload`].
pub fn check(game: &Game) -> Result<(), String> {
    liveness(game)?;
    reload(game)
}
