//! Scenario playthroughs (ARCHITECTURE §7): a setup plus a list of commands,
//! each with its expected outcome. Scenario files are plain JSON data that any
//! engine can replay (a conformance corpus, specified in docs/conformance.md);
//! [`run`] replays one and reports every step. Before each step the state
//! makes a JSON round trip, which must give back the identical state.
//!
//! Format 2 (D-120–D-123) adds in-file expectations to a step
//! ([`Expect`]): events matched by kind and listed fields in order, view
//! fragments per viewer (JSON Pointer → value, or absent), and options that
//! must or must not be listed. A format-1 file (no `format` key, no `expect`)
//! is a format-2 file without expectations and loads unchanged.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::apply::apply;
use crate::engine::options::{options, Options};
use crate::engine::setup::Setup;
use crate::engine::view::{view, View};
use crate::json::{game_from_json, game_to_json};
use crate::model::command::{Command, Viewer};
use crate::model::error::{ApplyError, ErrorReport};
use crate::model::event::Event;
use crate::model::game::{Actor, Game};

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Short name.
    pub name: String,
    /// What the scenario shows, with the rule ids it covers.
    #[serde(default)]
    pub description: String,
    /// The scenario format: 1 (only error codes per step) or 2 (steps may
    /// carry `expect`); absent means 1. A replay refuses any other value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 2))]
    pub format: Option<u32>,
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
    /// Format 2: what must be observable after this step.
    #[serde(default, skip_serializing_if = "Expect::is_empty")]
    pub expect: Expect,
}

/// The scenario format this library writes and the newest it reads.
pub const SCENARIO_FORMAT: u32 = 2;

/// Format 2: the expected outcome of a step beyond its error code. Every part
/// is optional; an empty `Expect` checks nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expect {
    /// Events the step must emit, in this order; other events may come
    /// before, between and after them (unless `eventCount` is given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<EventPattern>,
    /// The exact number of events the step emits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_count: Option<usize>,
    /// View fragments, per viewer, after the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<ViewExpectation>,
    /// Options that must or must not be listed, per actor, after the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionsExpectation>,
}

impl Expect {
    /// Does it expect nothing?
    pub fn is_empty(&self) -> bool {
        self.events.is_empty() && self.event_count.is_none() && self.views.is_empty() && self.options.is_empty()
    }
}

/// An event pattern: it matches an event whose `event.kind` is `kind`, whose
/// `event` object has every other listed field with an equal JSON value, and
/// (when given) whose audience equals `audience`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventPattern {
    /// The event kind (`ambassadorPlaced` …).
    pub kind: String,
    /// The audience the event must have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<crate::model::event::Audience>,
    /// Fields of the event that must be present with these values.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

/// What one viewer's view must show after a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewExpectation {
    /// Whose view (a faction id, `spectator` or `host`).
    pub viewer: Viewer,
    /// JSON Pointer (RFC 6901) into the view → the value found there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub equals: BTreeMap<String, Value>,
    /// JSON Pointers that must find nothing (or `null`): what the viewer may not see.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
}

/// An option pattern: it matches a listed command whose `action.kind` is
/// `kind`, or a choice descriptor of that `kind`, having every other listed
/// field with an equal JSON value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionPattern {
    /// The action or choice kind (`place`, `relocate` …).
    pub kind: String,
    /// Fields that must be present with these values.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

/// What one actor's options must (not) list after a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OptionsExpectation {
    /// Whose options (`host` or a faction id).
    pub actor: Actor,
    /// Each pattern must match at least one option.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub present: Vec<OptionPattern>,
    /// No option may match any of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<OptionPattern>,
}

/// Does `object` have `kind` and every field of `fields` with an equal value?
fn matches(object: &Value, kind: &str, fields: &Map<String, Value>) -> bool {
    object.get("kind").and_then(Value::as_str) == Some(kind) && fields.iter().all(|(k, v)| object.get(k) == Some(v))
}

/// A pattern as compact JSON, for mismatch messages.
fn shown<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn event_matches(event: &Value, pattern: &EventPattern) -> bool {
    let audience_ok = match &pattern.audience {
        None => true,
        Some(a) => serde_json::to_value(a).ok().as_ref() == event.get("audience"),
    };
    audience_ok
        && event
            .get("event")
            .is_some_and(|e| matches(e, &pattern.kind, &pattern.fields))
}

/// Check a step's expectations against what it did (`events`: `None` when the
/// command was rejected) and the game after it. One message per mismatch;
/// empty when everything is as expected.
pub fn check(expect: &Expect, events: Option<&[Event]>, game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    if !expect.events.is_empty() || expect.event_count.is_some() {
        match events {
            None => out.push("events expected, but the command was rejected".to_string()),
            Some(events) => {
                let values: Vec<Value> = events.iter().filter_map(|e| serde_json::to_value(e).ok()).collect();
                if let Some(n) = expect.event_count {
                    if n != values.len() {
                        out.push(format!("expected {n} event(s), got {}", values.len()));
                    }
                }
                let mut rest = values.iter();
                for (i, pattern) in expect.events.iter().enumerate() {
                    if !rest.any(|e| event_matches(e, pattern)) {
                        let kinds: Vec<&str> = values
                            .iter()
                            .filter_map(|e| e.get("event").and_then(|k| k.get("kind")).and_then(Value::as_str))
                            .collect();
                        out.push(format!(
                            "expected event {} of {} not found (in order): {}; the step emitted [{}]",
                            i + 1,
                            expect.events.len(),
                            shown(pattern),
                            kinds.join(", ")
                        ));
                        break;
                    }
                }
            }
        }
    }
    for v in &expect.views {
        let doc = serde_json::to_value(view(game, v.viewer)).unwrap_or(Value::Null);
        for (pointer, want) in &v.equals {
            match doc.pointer(pointer) {
                Some(got) if got == want => {}
                Some(got) => out.push(format!(
                    "view of {} at {pointer}: expected {}, got {}",
                    v.viewer,
                    shown(want),
                    shown(got)
                )),
                None => out.push(format!(
                    "view of {} at {pointer}: expected {}, found nothing",
                    v.viewer,
                    shown(want)
                )),
            }
        }
        for pointer in &v.absent {
            match doc.pointer(pointer) {
                None | Some(Value::Null) => {}
                Some(got) => out.push(format!(
                    "view of {} at {pointer}: expected absent, got {}",
                    v.viewer,
                    shown(got)
                )),
            }
        }
    }
    for o in &expect.options {
        let listed = options(game, o.actor);
        let candidates: Vec<Value> = listed
            .commands
            .iter()
            .filter_map(|c| serde_json::to_value(&c.action).ok())
            .chain(listed.choices.iter().filter_map(|c| serde_json::to_value(c).ok()))
            .collect();
        for p in &o.present {
            if !candidates.iter().any(|c| matches(c, &p.kind, &p.fields)) {
                out.push(format!("options of {}: nothing matches {}", o.actor, shown(p)));
            }
        }
        for p in &o.absent {
            if let Some(found) = candidates.iter().find(|c| matches(c, &p.kind, &p.fields)) {
                out.push(format!(
                    "options of {}: {} must be absent, but {} is listed",
                    o.actor,
                    shown(p),
                    shown(found)
                ));
            }
        }
    }
    out
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
    /// Did the outcome match the step's expectation (its error code and,
    /// in format 2, every expectation)?
    pub as_expected: bool,
    /// Format 2: every expectation the step did not meet (see [`check`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mismatches: Vec<String>,
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
    /// The file's `format` is not one this library reads (1 ..= [`SCENARIO_FORMAT`]).
    UnsupportedFormat(u32),
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
    if let Some(format) = scenario.format.filter(|f| !(1..=SCENARIO_FORMAT).contains(f)) {
        return Err(ReplayFailure::UnsupportedFormat(format));
    }
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
        let code_ok = match (&step.error, &error) {
            (None, None) => true,
            (Some(code), Some(got)) => *code == got.code && !got.message.ends_with("[BUG: the state changed]"),
            _ => false,
        };
        let mismatches = check(&step.expect, events.as_deref(), &game);
        let as_expected = code_ok && mismatches.is_empty();
        observations.push(observe(&game));
        reports.push(StepReport {
            step: n,
            note: step.note.clone(),
            command: step.command.clone(),
            events,
            error,
            as_expected,
            mismatches,
        });
    }
    Ok(Replay {
        game,
        reports,
        observations,
    })
}
