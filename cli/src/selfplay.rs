//! `ecaz selfplay`: N seeded games between bots at a simulated table
//! (`ecaz::sim`), with a summary as text or one JSON document.
//!
//! Game `i` of a run plays seed `--seed + i`; the same command line prints
//! the same summary (apart from the timing lines). `--check` runs
//! `ecaz::sim::check` after every command (liveness, every state invariant
//! through a JSON reload) and counts panics as violations. `--compare` plays
//! the same seeds twice, Ecaz heuristic and Ecaz random, and prints both.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use ecaz::sim::{self, Stats, Table, TableConfig};
use ecaz::{Faction, Profile};
use serde::Serialize;

use crate::error::CliError;
use crate::say;

/// What to play.
#[derive(Debug, Clone)]
pub struct Run {
    /// Number of games.
    pub games: u64,
    /// Seed of the first game.
    pub seed: u64,
    /// Fixed seats (else random tables of 2–6 seats).
    pub seats: Option<Vec<Faction>>,
    /// Turns per game.
    pub turns: u32,
    /// One step in `noise` is a random host report (0: never).
    pub noise: u32,
    /// Profile of every seat without its own.
    pub profile: Profile,
    /// Per-seat profiles.
    pub bots: BTreeMap<Faction, Profile>,
    /// Check after every command (and how much).
    pub check: Option<sim::CheckLevel>,
    /// Worker threads.
    pub jobs: usize,
}

/// The JSON summary of one run.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary<'a> {
    games: u64,
    first_seed: u64,
    turns_per_game: u32,
    checked: Option<&'static str>,
    profile: Profile,
    bots: &'a BTreeMap<Faction, Profile>,
    seconds: f64,
    commands_per_second: f64,
    decisions_per_game: f64,
    placements_per_turn: f64,
    duke_custody_changes: u64,
    effect_spice: u64,
    /// The first violations found (at most 20).
    violation_samples: &'a [String],
    #[serde(flatten)]
    stats: &'a Stats,
}

/// Result of playing one run.
struct Played {
    stats: Stats,
    samples: Vec<String>,
    seconds: f64,
}

fn parse_faction(s: &str) -> Result<Faction, CliError> {
    Faction::ALL
        .into_iter()
        .find(|f| f.id() == s)
        .ok_or_else(|| CliError::new("cli/usage", format!("unknown faction `{s}`")))
}

/// `ecaz,atreides,…`
pub fn parse_seats(s: &str) -> Result<Vec<Faction>, CliError> {
    s.split(',').map(|x| parse_faction(x.trim())).collect()
}

/// `full`, `fast` or `mirror`.
pub fn parse_check(s: &str) -> Result<sim::CheckLevel, CliError> {
    match s {
        "full" => Ok(sim::CheckLevel::Full),
        "fast" => Ok(sim::CheckLevel::Fast),
        "mirror" => Ok(sim::CheckLevel::Mirror),
        _ => Err(CliError::new(
            "cli/usage",
            format!("unknown check level `{s}` (full, fast, mirror)"),
        )),
    }
}

/// `random` or `heuristic`.
pub fn parse_profile(s: &str) -> Result<Profile, CliError> {
    Profile::from_id(s).ok_or_else(|| CliError::new("cli/usage", format!("unknown bot profile `{s}`")))
}

/// `FACTION=PROFILE`
pub fn parse_bot(s: &str) -> Result<(Faction, Profile), CliError> {
    let (f, p) = s
        .split_once('=')
        .ok_or_else(|| CliError::new("cli/usage", format!("`--bot {s}`: expected FACTION=PROFILE")))?;
    Ok((parse_faction(f.trim())?, parse_profile(p.trim())?))
}

/// One game, checked or not; a panic is caught and counted as a violation.
fn one_game(run: &Run, seed: u64, samples: &mut Vec<String>) -> Stats {
    let config = TableConfig {
        turns: run.turns,
        noise: run.noise,
        profiles: run.bots.clone(),
        default_profile: run.profile,
        ..TableConfig::default()
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut table = match Table::random(seed, run.seats.as_deref(), config) {
            Ok(t) => t,
            Err(e) => {
                let mut s = Stats::default();
                s.violations += 1;
                return (s, vec![format!("game {seed}: the setup was refused: {}", e.code())]);
            }
        };
        let mut stats = Stats {
            games: 1,
            ..Stats::default()
        };
        let mut found = Vec::new();
        if let Some(level) = run.check {
            for v in sim::check(table.game(), level) {
                found.push(format!("game {seed} setup: {v}"));
            }
        }
        while !table.finished() {
            // D-231: every checked run follows the table with the mirror.
            let before = run.check.map(|_| ecaz::table_of(table.game()));
            let step = table.step();
            stats.record(&step);
            if let (Some(before), Ok(events)) = (&before, &step.outcome) {
                for v in sim::check_mirror(before, events, table.game()) {
                    found.push(format!("game {seed} command {}: {v}", stats.commands));
                }
            }
            if let Some(level) = run.check {
                for v in sim::check(table.game(), level) {
                    found.push(format!("game {seed} command {}: {v}", stats.commands));
                }
            }
        }
        if run.check == Some(sim::CheckLevel::Fast) {
            for v in sim::check_reload(table.game()) {
                found.push(format!("game {seed} end: {v}"));
            }
        }
        stats.finish(&table);
        stats.violations += u64::try_from(found.len()).unwrap_or(u64::MAX);
        (stats, found)
    }));
    match outcome {
        Ok((stats, found)) => {
            samples.extend(found.into_iter().take(20usize.saturating_sub(samples.len())));
            stats
        }
        Err(_) => {
            samples.push(format!("game {seed}: panicked"));
            Stats {
                games: 1,
                violations: 1,
                ..Stats::default()
            }
        }
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
struct Progress {
    on: bool,
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    fn new(total: u64) -> Self {
        let now = Instant::now();
        Progress {
            on: std::io::stderr().is_terminal() && total > 1,
            total,
            start: now,
            last: now,
        }
    }

    fn show(&mut self, done: u64, violations: u64) {
        if !self.on || (self.last.elapsed() < Duration::from_millis(200) && done < self.total) {
            return;
        }
        self.last = Instant::now();
        let width = 30u64;
        let filled = done.saturating_mul(width) / self.total.max(1);
        let bar: String = (0..width).map(|i| if i < filled { '#' } else { '.' }).collect();
        let _ = write!(
            std::io::stderr(),
            "\r[{bar}] {done}/{} games, {violations} violations, {:.0} s",
            self.total,
            self.start.elapsed().as_secs_f64()
        );
        if done >= self.total {
            let _ = writeln!(std::io::stderr());
        }
    }
}

fn play_all(run: &Run) -> Played {
    let start = Instant::now();
    let jobs = u64::try_from(run.jobs.max(1)).unwrap_or(1);
    let progress = std::sync::Mutex::new((Progress::new(run.games), 0u64, 0u64));
    let results: Vec<(Stats, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let progress = &progress;
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    let mut samples = Vec::new();
                    let mut i = j;
                    while i < run.games {
                        let s = one_game(run, run.seed.wrapping_add(i), &mut samples);
                        if let Ok(mut p) = progress.lock() {
                            p.1 += 1;
                            p.2 += s.violations;
                            let (done, bad) = (p.1, p.2);
                            p.0.show(done, bad);
                        }
                        stats.merge(&s);
                        i += jobs;
                    }
                    (stats, samples)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut stats = Stats::default();
    let mut samples = Vec::new();
    for (s, v) in results {
        stats.merge(&s);
        samples.extend(v);
    }
    samples.truncate(20);
    Played {
        stats,
        samples,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn per(n: u64, d: u64) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

fn text_summary(out: &mut dyn Write, run: &Run, p: &Played) -> Result<(), CliError> {
    let s = &p.stats;
    let map = |m: &BTreeMap<String, u64>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            m.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
        }
    };
    say(
        out,
        format!(
            "self-play: {} games from seed {}, {} turns each{}",
            s.games,
            run.seed,
            run.turns,
            match run.check {
                Some(sim::CheckLevel::Full) =>
                    ", checked after every command (liveness, invariants, JSON reload, table mirror)",
                Some(sim::CheckLevel::Fast) =>
                    ", checked after every command (liveness, invariants, table mirror; JSON reload at each game's end)",
                Some(sim::CheckLevel::Mirror) => ", the table mirror checked after every command",
                None => "",
            }
        ),
    )?;
    say(
        out,
        format!(
            "turns: {}   commands: {} ({} accepted, {} refused host reports)",
            s.turns, s.commands, s.accepted, s.refused
        ),
    )?;
    say(
        out,
        format!(
            "decisions: {} ({:.1} per game)   initiatives: {}   host frames: {}   host reports: {}",
            s.decisions,
            per(s.decisions, s.games),
            s.initiatives,
            s.host_frames,
            s.host_reports
        ),
    )?;
    say(
        out,
        format!(
            "placements: {} ({:.2} per turn, {} spice), {} cancelled with Karama",
            s.placements,
            s.placements_per_turn(),
            s.placement_spice,
            s.placements_cancelled
        ),
    )?;
    say(out, format!("effects triggered: {}", map(&s.triggered)))?;
    say(out, format!("effects copied by BG: {}", map(&s.copied)))?;
    say(out, format!("triggers declined: {}", s.declined))?;
    say(
        out,
        format!(
            "spice gained by effect: {} (total {})",
            map(&s.spice_by_effect),
            s.effect_spice()
        ),
    )?;
    say(out, format!("recycles: {}", s.recycles))?;
    say(
        out,
        format!(
            "Duke Vidal custody changes: {} ({})",
            s.duke_changes(),
            map(&s.duke_moves)
        ),
    )?;
    say(
        out,
        format!(
            "alliances formed: {}   Nexus plays: {}",
            s.alliances,
            map(&s.nexus_plays)
        ),
    )?;
    say(out, format!("arrivals: {} ({} nested)", s.arrivals, s.nested_arrivals))?;
    say(
        out,
        format!(
            "time: {:.2} s, {:.0} commands/s",
            p.seconds,
            per(s.commands, 1).max(0.0) / p.seconds.max(1e-9)
        ),
    )?;
    say(out, format!("violations: {}", s.violations))?;
    for v in &p.samples {
        say(out, format!("  {v}"))?;
    }
    Ok(())
}

fn json_summary<'a>(run: &'a Run, p: &'a Played) -> Summary<'a> {
    let s = &p.stats;
    Summary {
        games: s.games,
        first_seed: run.seed,
        turns_per_game: run.turns,
        checked: run.check.map(|l| match l {
            sim::CheckLevel::Full => "full",
            sim::CheckLevel::Fast => "fast",
            sim::CheckLevel::Mirror => "mirror",
        }),
        profile: run.profile,
        bots: &run.bots,
        seconds: p.seconds,
        commands_per_second: per(s.commands, 1) / p.seconds.max(1e-9),
        decisions_per_game: per(s.decisions, s.games),
        placements_per_turn: s.placements_per_turn(),
        duke_custody_changes: s.duke_changes(),
        effect_spice: s.effect_spice(),
        violation_samples: &p.samples,
        stats: s,
    }
}

/// The comparison metric (D-134): Ecaz's Ambassador economy,
/// spice gained through effects (by Ecaz and its ally) minus the spice Ecaz
/// paid to place tokens, per game with Ecaz seated.
fn economy(s: &Stats) -> f64 {
    (s.effect_spice() as f64 - s.placement_spice as f64) / s.ecaz_games.max(1) as f64
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Side<'a> {
    ecaz: Profile,
    economy_per_game: f64,
    effect_spice_per_game: f64,
    placement_spice_per_game: f64,
    ecaz_final_spice_per_game: f64,
    triggers_per_game: f64,
    summary: Summary<'a>,
}

fn side<'a>(ecaz: Profile, run: &'a Run, p: &'a Played) -> Side<'a> {
    let s = &p.stats;
    let g = s.ecaz_games.max(1) as f64;
    Side {
        ecaz,
        economy_per_game: economy(s),
        effect_spice_per_game: s.effect_spice() as f64 / g,
        placement_spice_per_game: s.placement_spice as f64 / g,
        ecaz_final_spice_per_game: s.ecaz_final_spice as f64 / g,
        triggers_per_game: s.triggered.values().sum::<u64>() as f64 / g,
        summary: json_summary(run, p),
    }
}

/// Run the games and print the summary; with `compare`, twice (Ecaz
/// heuristic, then Ecaz random) and the comparison.
pub fn selfplay(run: &Run, json: bool, compare: bool, out: &mut dyn Write) -> Result<(), CliError> {
    if run.games == 0 {
        return Err(CliError::new("cli/usage", "--games must be at least 1"));
    }
    if !compare {
        let p = play_all(run);
        if json {
            let text = serde_json::to_string_pretty(&json_summary(run, &p))
                .map_err(|e| CliError::new("cli/json", e.to_string()))?;
            say(out, text)?;
        } else {
            text_summary(out, run, &p)?;
        }
        return finish(&p);
    }
    let with = |ecaz: Profile| {
        let mut r = run.clone();
        r.bots.insert(Faction::Ecaz, ecaz);
        r
    };
    let (h_run, r_run) = (with(Profile::Heuristic), with(Profile::Random));
    let h = play_all(&h_run);
    let r = play_all(&r_run);
    let (hs, rs) = (side(Profile::Heuristic, &h_run, &h), side(Profile::Random, &r_run, &r));
    let wins = hs.economy_per_game > rs.economy_per_game;
    if json {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Comparison<'a> {
            metric: &'static str,
            heuristic_beats_random: bool,
            heuristic: Side<'a>,
            random: Side<'a>,
        }
        let doc = Comparison {
            metric: METRIC,
            heuristic_beats_random: wins,
            heuristic: hs,
            random: rs,
        };
        let text = serde_json::to_string_pretty(&doc).map_err(|e| CliError::new("cli/json", e.to_string()))?;
        say(out, text)?;
    } else {
        say(
            out,
            format!(
                "comparison over {} seeded games (seeds {}..{}), Ecaz's bot heuristic vs random, other seats {}",
                run.games,
                run.seed,
                run.seed.saturating_add(run.games),
                run.profile
            ),
        )?;
        say(out, format!("metric: {METRIC}"))?;
        say(
            out,
            "ecaz bot    economy/game  effect spice/game  placement spice/game  final spice/game  triggers/game",
        )?;
        for s in [&hs, &rs] {
            say(
                out,
                format!(
                    "{:<10} {:>13.2} {:>18.2} {:>21.2} {:>17.2} {:>14.2}",
                    s.ecaz.id(),
                    s.economy_per_game,
                    s.effect_spice_per_game,
                    s.placement_spice_per_game,
                    s.ecaz_final_spice_per_game,
                    s.triggers_per_game
                ),
            )?;
        }
        say(
            out,
            format!(
                "heuristic {} random on the metric ({:+.2} spice per game); violations: {} / {}",
                if wins { "beats" } else { "does not beat" },
                hs.economy_per_game - rs.economy_per_game,
                h.stats.violations,
                r.stats.violations
            ),
        )?;
    }
    finish(&h).and_then(|()| finish(&r))
}

const METRIC: &str =
    "Ecaz's Ambassador economy: spice gained through effects (Ecaz and its ally) minus spice paid for placements, per game with Ecaz seated";

fn finish(p: &Played) -> Result<(), CliError> {
    if p.stats.violations > 0 {
        return Err(CliError::new(
            "cli/violations",
            format!("{} violation(s) found", p.stats.violations),
        ));
    }
    Ok(())
}
