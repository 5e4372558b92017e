//! `ecaz`: the command-line tool of the Ecaz rules engine, for humans and
//! tool authors.
//!
//! - `ecaz demo [--seed N]`: a seeded, scripted game told in English;
//! - `ecaz replay FILE`: replay a scenario file, one JSON step report per line;
//! - `ecaz schema [NAME] [--out DIR]`: the JSON Schemas of the wire types;
//! - `ecaz validate FILE`: check a setup document or a saved state;
//! - `ecaz selfplay [--games N] [--check] [--json] [--compare] …`: games between bots.
//! - `ecaz export-setup STATE`: the Setup document that imports a saved
//!   quiet moment back losslessly (D-105).
//! - `ecaz new SETUP`, `ecaz apply STATE COMMAND`, `ecaz view STATE --as VIEWER`,
//!   `ecaz options STATE --for ACTOR`: the JSON door, for pipes (`-` reads stdin).
//!
//! Errors print as `error: <code>: <message>` on stderr with exit status 1
//! (nothing on stdout for the JSON door); usage errors are clap's (exit
//! status 2). The tool never panics.

mod commands;
mod demo;
mod error;
mod selfplay;

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Command-line tool of the Ecaz rules engine (GF9 Dune, Ecaz & Moritani).
#[derive(Debug, Parser)]
#[command(name = "ecaz", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Play a seeded, scripted six-faction game and tell it in English:
    /// placement, a Karama cancellation, the storm after the Shield Wall falls,
    /// and an entry that triggers an Ambassador (its `resume` printed last).
    Demo {
        /// RNG seed of the game (0 ..= 2^53 − 1); the same seed prints the same story.
        #[arg(long, default_value_t = demo::DEFAULT_SEED)]
        seed: u64,
    },
    /// Replay a scenario file and print one JSON step report per line;
    /// exit 1 if any step did not go as the file expects.
    Replay {
        /// The scenario file (JSON, see `ecaz schema scenario`).
        scenario: PathBuf,
    },
    /// List the JSON Schemas, print one, or write them all to a directory.
    Schema {
        /// The schema to print (without it: list the names).
        name: Option<String>,
        /// Write the schemas (all, or NAME only) to DIR/NAME.json instead of printing.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Check a setup document or a saved state (a document with a top-level
    /// `version` key); print "ok" or every problem as JSON and exit 1.
    Validate {
        /// The setup or state file (JSON).
        file: PathBuf,
    },
    /// Play N seeded games between bots at a simulated table and print a
    /// summary (a progress bar goes to stderr on a terminal); exit 1 if a
    /// check found a violation.
    Selfplay {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed of the first game (game i plays seed + i).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Fixed seats, e.g. `ecaz,atreides,harkonnen` (default: random tables of 2–6 seats).
        #[arg(long)]
        seats: Option<String>,
        /// Bot profile of every seat without its own `--bot`: random or heuristic.
        #[arg(long, default_value = "random")]
        profile: String,
        /// One seat's profile, FACTION=PROFILE (repeatable), e.g. `--bot ecaz=heuristic`.
        #[arg(long = "bot")]
        bots: Vec<String>,
        /// Turns per game.
        #[arg(long, default_value_t = 10)]
        turns: u32,
        /// One step in N is a random host report, 0 for none.
        #[arg(long, default_value_t = 25)]
        noise: u32,
        /// After every command, check liveness and every state invariant: `full` (the
        /// default) through a JSON reload, `fast` in memory with the reload at each game's end;
        /// `mirror` only the table mirror (D-231), which every level checks.
        #[arg(long, num_args = 0..=1, default_missing_value = "full", value_name = "LEVEL")]
        check: Option<String>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Play the same seeds twice, Ecaz heuristic vs Ecaz random, and compare.
        #[arg(long)]
        compare: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Print the Setup document that imports a saved state back to an equal
    /// game (a quiet moment: no decision open but Ecaz's placement window, no
    /// arrival waiting); older state format versions are migrated first.
    ExportSetup {
        /// The saved state file (JSON).
        state: PathBuf,
    },
    /// Build a game from a setup document; print the state JSON.
    New {
        /// The setup document (JSON file, or `-` for stdin).
        setup: PathBuf,
    },
    /// Apply a command to a state; print `{"state": …, "events": […]}`.
    Apply {
        /// The state (JSON file, or `-` for stdin).
        state: PathBuf,
        /// The command (JSON file, or `-` for stdin).
        command: PathBuf,
    },
    /// Print what a viewer may see of a state (the redacted view).
    View {
        /// The state (JSON file, or `-` for stdin).
        state: PathBuf,
        /// A faction id, `spectator` or `host`.
        #[arg(long = "as", value_name = "VIEWER")]
        viewer: String,
    },
    /// Print an actor's legal commands and choice descriptors.
    Options {
        /// The state (JSON file, or `-` for stdin).
        state: PathBuf,
        /// A faction id or `host`.
        #[arg(long = "for", value_name = "ACTOR")]
        actor: String,
    },
}

/// Write one line to `out`.
pub(crate) fn say(out: &mut dyn Write, text: impl std::fmt::Display) -> Result<(), CliError> {
    writeln!(out, "{text}").map_err(|e| CliError::stdout(&e))
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Cmd::Demo { seed } => demo::run(seed, out),
        Cmd::Replay { scenario } => commands::replay(&scenario, out),
        Cmd::Schema { name, out: dir } => commands::schema(name.as_deref(), dir.as_deref(), out),
        Cmd::Validate { file } => commands::validate(&file, out),
        Cmd::Selfplay {
            games,
            seed,
            seats,
            profile,
            bots,
            turns,
            noise,
            check,
            json,
            compare,
            jobs,
        } => {
            let run = selfplay::Run {
                games,
                seed,
                seats: seats.as_deref().map(selfplay::parse_seats).transpose()?,
                turns,
                noise,
                profile: selfplay::parse_profile(&profile)?,
                bots: bots.iter().map(|b| selfplay::parse_bot(b)).collect::<Result<_, _>>()?,
                check: check.as_deref().map(selfplay::parse_check).transpose()?,
                jobs,
            };
            selfplay::selfplay(&run, json, compare, out)
        }
        Cmd::ExportSetup { state } => commands::export_setup(&state, out),
        Cmd::New { setup } => commands::new_game(&setup, &mut std::io::stdin().lock(), out),
        Cmd::Apply { state, command } => commands::apply(&state, &command, &mut std::io::stdin().lock(), out),
        Cmd::View { state, viewer } => commands::view(&state, &viewer, &mut std::io::stdin().lock(), out),
        Cmd::Options { state, actor } => commands::options(&state, &actor, &mut std::io::stdin().lock(), out),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(|e| CliError::stdout(&e)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // Whatever was printed before the failure (step reports, the
            // problem list) goes out first.
            let _ = out.flush();
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::FAILURE
        }
    }
}
