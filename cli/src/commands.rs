//! `ecaz replay`, `ecaz schema`, `ecaz validate`, and the pipe-friendly JSON
//! door for tool authors: `ecaz new`, `ecaz apply`, `ecaz view`, `ecaz options`.

use std::io::Write;
use std::path::Path;

use ecaz::scenario::{ReplayFailure, Scenario, StepReport};

use crate::error::CliError;
use crate::say;

/// A document from a file or standard input, refused unread past the
/// engine's input cap (D-180): at most `MAX_INPUT_BYTES` + 1 bytes are read.
fn read_capped(source: &mut dyn std::io::Read, what: &str) -> Result<String, CliError> {
    use std::io::Read as _;
    let cap = ecaz::MAX_INPUT_BYTES;
    let mut bytes = Vec::new();
    source
        .take(u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::new("cli/io", format!("cannot read {what}: {e}")))?;
    if bytes.len() > cap {
        return Err(CliError::new(
            "decode/input_too_large",
            format!("{what} is over {cap} bytes, the limit (docs/integration.md, input policy)"),
        ));
    }
    String::from_utf8(bytes).map_err(|_| CliError::new("decode/invalid_utf8", format!("{what} is not UTF-8")))
}

fn read(path: &Path) -> Result<String, CliError> {
    let mut file = std::fs::File::open(path).map_err(|e| CliError::io("read", path, &e))?;
    read_capped(&mut file, &path.display().to_string())
}

// ---- replay ----

/// What a step expected, for the failure message.
fn expectation(expected: Option<&str>) -> String {
    match expected {
        Some(code) => format!("error {code}"),
        None => "acceptance".to_string(),
    }
}

/// What a step did, for the failure message.
fn outcome(report: &StepReport) -> String {
    match &report.error {
        Some(e) => format!("error {} ({})", e.code, e.message),
        None => "acceptance".to_string(),
    }
}

fn replay_failure(path: &Path, failure: &ReplayFailure) -> CliError {
    match failure {
        ReplayFailure::Setup(e) => {
            let problems: Vec<String> = e
                .problems()
                .iter()
                .map(|p| format!("{}: {}", p.path, p.message))
                .collect();
            let detail = if problems.is_empty() {
                e.to_string()
            } else {
                format!("{} problem(s): {}", problems.len(), problems.join("; "))
            };
            CliError::new(
                e.code(),
                format!("{}: the scenario's setup is invalid: {detail}", path.display()),
            )
        }
        ReplayFailure::UnsupportedFormat(format) => CliError::new(
            "decode/invalid_scenario",
            format!(
                "{}: scenario format {format} is not supported (1 ..= {})",
                path.display(),
                ecaz::scenario::SCENARIO_FORMAT
            ),
        ),
        ReplayFailure::RoundTrip { step, detail } => CliError::new(
            "cli/round_trip",
            format!(
                "{}: before step {step} the state's JSON round trip failed: {detail}",
                path.display()
            ),
        ),
        #[allow(unreachable_patterns)]
        other => CliError::new(
            "cli/replay",
            format!("{}: the replay failed: {other:?}", path.display()),
        ),
    }
}

/// Replay a scenario file: one JSON `StepReport` per line on `out`; an error
/// when the file cannot be read or decoded, the replay stops early, or any
/// step did not go as the file expects.
pub fn replay(path: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let text = read(path)?;
    let scenario: Scenario =
        serde_json::from_str(&text).map_err(|e| CliError::json(path, "scenario", "decode/invalid_scenario", &e))?;
    let replay = ecaz::scenario::run(&scenario).map_err(|f| replay_failure(path, &f))?;
    for report in &replay.reports {
        say(out, ecaz::to_json(report).map_err(CliError::from)?)?;
    }
    let unexpected: Vec<String> = replay
        .reports
        .iter()
        .zip(&scenario.steps)
        .filter(|(report, _)| !report.as_expected)
        .flat_map(|(report, step)| {
            let code_ok = match (&step.error, &report.error) {
                (None, None) => true,
                (Some(code), Some(got)) => *code == got.code,
                _ => false,
            };
            let code = (!code_ok || report.mismatches.is_empty()).then(|| {
                format!(
                    "step {}: expected {}, got {}",
                    report.step,
                    expectation(step.error.as_deref()),
                    outcome(report)
                )
            });
            code.into_iter()
                .chain(report.mismatches.iter().map(|m| format!("step {}: {m}", report.step)))
                .collect::<Vec<_>>()
        })
        .collect();
    if unexpected.is_empty() {
        return Ok(());
    }
    Err(CliError::new(
        "cli/unexpected",
        format!(
            "{} ({}): {} of {} step(s) did not go as expected: {}",
            path.display(),
            scenario.name,
            replay.reports.iter().filter(|r| !r.as_expected).count(),
            replay.reports.len(),
            unexpected.join("; ")
        ),
    ))
}

// ---- schema ----

/// The names `ecaz schema` knows.
fn schema_names() -> Vec<&'static str> {
    ecaz::schema::all().into_iter().map(|(name, _)| name).collect()
}

/// `ecaz schema [NAME] [--out DIR]`.
pub fn schema(name: Option<&str>, dir: Option<&Path>, out: &mut dyn Write) -> Result<(), CliError> {
    let all = ecaz::schema::all();
    let chosen: Vec<_> = match name {
        None => all,
        Some(wanted) => match all.into_iter().find(|(n, _)| *n == wanted) {
            Some(one) => vec![one],
            None => {
                return Err(CliError::new(
                    "cli/unknown_schema",
                    format!(
                        "there is no schema named `{wanted}` (known: {})",
                        schema_names().join(", ")
                    ),
                ))
            }
        },
    };
    match (dir, name) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir).map_err(|e| CliError::io("create", dir, &e))?;
            for (n, schema) in &chosen {
                let path = dir.join(format!("{n}.json"));
                std::fs::write(&path, ecaz::schema::render(schema)).map_err(|e| CliError::io("write", &path, &e))?;
                say(out, format!("wrote {}", path.display()))?;
            }
            Ok(())
        }
        (None, Some(_)) => {
            for (_, schema) in &chosen {
                out.write_all(ecaz::schema::render(schema).as_bytes())
                    .map_err(|e| CliError::stdout(&e))?;
            }
            Ok(())
        }
        (None, None) => {
            for n in schema_names() {
                say(out, n)?;
            }
            Ok(())
        }
    }
}

// ---- validate ----

/// Does the document look like a saved state (a top-level `version` key)?
fn looks_like_state(text: &str) -> bool {
    // Read unbuilt: only whether the member is there (D-180).
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default)]
        version: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Probe>(text)
        .ok()
        .is_some_and(|p| p.version.is_some())
}

/// `ecaz validate FILE`: "ok", or the error report (every problem) as
/// JSON on `out` and an error.
pub fn validate(path: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let text = read(path)?;
    let checked = if looks_like_state(&text) {
        ecaz::game_from_json(&text).map(|_| ())
    } else {
        ecaz::setup_from_json(&text).and_then(|setup| setup.build()).map(|_| ())
    };
    match checked {
        Ok(()) => say(out, "ok"),
        Err(e) => {
            say(out, ecaz::to_json(&e.report()).map_err(CliError::from)?)?;
            let mut err = CliError::from(&e);
            err.message = format!("{}: {}", path.display(), err.message);
            Err(err)
        }
    }
}

// ---- export-setup ----

/// D-105: print the Setup that imports the saved quiet moment back losslessly.
pub fn export_setup(path: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let text = read(path)?;
    match ecaz::export_setup_json(&text) {
        Ok(setup) => say(out, setup),
        Err(e) => {
            let mut err = CliError::from(&e);
            err.message = format!("{}: {}", path.display(), err.message);
            Err(err)
        }
    }
}

// ---- the JSON door: new, apply, view, options ----

/// Where a document comes from: a file, or standard input for `-`.
fn read_input(input: &Path, stdin: &mut dyn std::io::Read) -> Result<String, CliError> {
    if input == Path::new("-") {
        return read_capped(stdin, "standard input");
    }
    read(input)
}

/// At most one argument may be `-` (standard input is read once).
fn one_stdin(inputs: &[&Path]) -> Result<(), CliError> {
    if inputs.iter().filter(|p| **p == Path::new("-")).count() > 1 {
        return Err(CliError::new(
            "cli/stdin_twice",
            "only one argument may be `-` (standard input)",
        ));
    }
    Ok(())
}

/// `ecaz new SETUP`: the initial state JSON of a setup document.
pub fn new_game(setup: &Path, stdin: &mut dyn std::io::Read, out: &mut dyn Write) -> Result<(), CliError> {
    let text = read_input(setup, stdin)?;
    say(out, ecaz::new_game_json(&text)?)
}

/// `ecaz apply STATE COMMAND`: `{"state": …, "events": […]}`.
pub fn apply(state: &Path, command: &Path, stdin: &mut dyn std::io::Read, out: &mut dyn Write) -> Result<(), CliError> {
    one_stdin(&[state, command])?;
    let state = read_input(state, stdin)?;
    let command = read_input(command, stdin)?;
    say(out, ecaz::apply_json(&state, &command)?.to_document())
}

/// `ecaz view STATE --as VIEWER`: the viewer's redacted view.
pub fn view(state: &Path, viewer: &str, stdin: &mut dyn std::io::Read, out: &mut dyn Write) -> Result<(), CliError> {
    let viewer = ecaz::viewer_from_text(viewer)?;
    let game = ecaz::game_from_json(&read_input(state, stdin)?)?;
    say(out, ecaz::to_json(&ecaz::view(&game, viewer)).map_err(CliError::from)?)
}

/// `ecaz options STATE --for ACTOR`: the actor's legal commands and choices.
pub fn options(state: &Path, actor: &str, stdin: &mut dyn std::io::Read, out: &mut dyn Write) -> Result<(), CliError> {
    let actor = ecaz::actor_from_text(actor)?;
    let game = ecaz::game_from_json(&read_input(state, stdin)?)?;
    say(
        out,
        ecaz::to_json(&ecaz::options(&game, actor)).map_err(CliError::from)?,
    )
}
