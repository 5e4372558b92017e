//! Scenario playthroughs (ARCHITECTURE §7): a setup plus a list of commands,
//! each with its expected outcome. Scenario files are plain JSON data that any
//! engine can replay (a conformance corpus); [`run`] replays one and reports
//! every step. Before each step the state makes a JSON round trip, which must
//! give back the identical state.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::apply::apply;
use crate::command::{Command, Viewer};
use crate::error::{ApplyError, ErrorReport};
use crate::event::Event;
use crate::game::{Actor, Game};
use crate::json::{game_from_json, game_to_json};
use crate::options::{options, Options};
use crate::setup::Setup;
use crate::view::{view, View};

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Short name.
    pub name: String,
    /// What the scenario shows, with the rule ids it covers.
    #[serde(default)]
    pub description: String,
    /// The game to start from.
    pub setup: Setup,
    /// The commands, in order.
    pub steps: Vec<Step>,
}

/// One command and what it should do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Step {
    /// Why this step is here (rule ids welcome).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The command.
    pub command: Command,
    /// The expected error code; absent = the command must be accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StepReport {
    /// Step number, from 1.
    pub step: usize,
    /// The step's note.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The command.
    pub command: Command,
    /// Events when accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<Event>>,
    /// The error when rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorReport>,
    /// Did the outcome match the step's expectation?
    pub as_expected: bool,
}

/// Everything observable after a step: pending frames, every viewer's view,
/// and every actor's options (what the snapshot tests record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Observation {
    /// One view per seated faction, then the spectator's.
    pub views: Vec<View>,
    /// Options of the host and of each seated faction that has any.
    pub options: Vec<ActorOptions>,
}

/// One actor's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActorOptions {
    /// The actor.
    pub actor: Actor,
    /// Its options.
    pub options: Options,
}

/// Observe a game from every seat, a spectator, and every actor's options.
pub fn observe(game: &Game) -> Observation {
    let views = game
        .seats()
        .iter()
        .map(|&f| view(game, Viewer::Faction(f)))
        .chain(std::iter::once(view(game, Viewer::Spectator)))
        .collect();
    let options = std::iter::once(Actor::Host)
        .chain(game.seats().iter().map(|&f| Actor::Faction(f)))
        .map(|actor| ActorOptions {
            actor,
            options: options(game, actor),
        })
        .filter(|a| !a.options.commands.is_empty())
        .collect();
    Observation { views, options }
}

/// Why a replay stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayFailure {
    /// The setup did not build.
    Setup(ApplyError),
    /// The JSON round trip before step `step` did not give back the same state.
    RoundTrip {
        /// The step about to run.
        step: usize,
        /// What went wrong.
        detail: String,
    },
}

/// A replayed scenario: the final game and a report per step.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The game after the last step.
    pub game: Game,
    /// One report per step.
    pub reports: Vec<StepReport>,
    /// The observation after each step (same length as `reports`).
    pub observations: Vec<Observation>,
}

impl Replay {
    /// Did every step match its expectation?
    pub fn all_as_expected(&self) -> bool {
        self.reports.iter().all(|r| r.as_expected)
    }
}

/// Replay a scenario. Every step runs whatever the earlier ones did; a
/// rejected command leaves the game as it was (and that is checked: the state
/// JSON must be byte-identical).
pub fn run(scenario: &Scenario) -> Result<Replay, ReplayFailure> {
    let mut game = scenario.setup.build().map_err(ReplayFailure::Setup)?;
    let mut reports = Vec::with_capacity(scenario.steps.len());
    let mut observations = Vec::with_capacity(scenario.steps.len());
    for (i, step) in scenario.steps.iter().enumerate() {
        let n = i + 1;
        let before = game_to_json(&game).map_err(|e| ReplayFailure::RoundTrip {
            step: n,
            detail: e.to_string(),
        })?;
        let reloaded = game_from_json(&before).map_err(|e| ReplayFailure::RoundTrip {
            step: n,
            detail: e.to_string(),
        })?;
        if reloaded != game {
            return Err(ReplayFailure::RoundTrip {
                step: n,
                detail: "the reloaded state differs".into(),
            });
        }
        let (events, error) = match apply(&reloaded, &step.command) {
            Ok((next, events)) => {
                game = next;
                (Some(events), None)
            }
            Err(e) => {
                let after = game_to_json(&reloaded).unwrap_or_default();
                let mut report = e.report();
                if after != before {
                    report.message.push_str(" [BUG: the state changed]");
                }
                (None, Some(report))
            }
        };
        let as_expected = match (&step.error, &error) {
            (None, None) => true,
            (Some(code), Some(got)) => *code == got.code && !got.message.ends_with("[BUG: the state changed]"),
            _ => false,
        };
        observations.push(observe(&game));
        reports.push(StepReport {
            step: n,
            note: step.note.clone(),
            command: step.command.clone(),
            events,
            error,
            as_expected,
        });
    }
    Ok(Replay {
        game,
        reports,
        observations,
    })
}
