//! `ecaz-fuzz`: the in-process fuzzer of the JSON doors (docs/PERFORMANCE.md, "Fuzzing").
//!
//! ```text
//! ecaz-fuzz run SECONDS [--seed N] [--slow-ms MS] [--findings DIR]
//!     fuzz every door for SECONDS; minimized findings go to DIR
//!     (default target/fuzz-findings); exit status 1 when any was found
//! ecaz-fuzz expect DIR
//!     print the native outcome (`ok` or the error code) of every corpus
//!     case in DIR as JSON, for the WASM runner (tests/fuzz/wasm-corpus.mjs)
//! ecaz-fuzz new-game < SETUP          print the state a setup builds
//! ecaz-fuzz apply COMMAND < STATE     print the state after a command
//! ```
//!
//! Run from the repository root (the seeds are read from
//! `tests/scenarios`, `examples/scenarios`, `examples/bench` and
//! `tests/fuzz/corpus`). Use a release build: `scripts/fuzz SECONDS`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ecaz_fuzz::{check, corpus, generate, minimize, Door, Outcome, Rng, Seeds};

struct Args {
    seconds: u64,
    seed: u64,
    slow: Duration,
    findings: PathBuf,
}

fn parse(mut rest: impl Iterator<Item = String>) -> Result<Args, String> {
    let seconds = rest.next().and_then(|s| s.parse().ok()).ok_or("run needs SECONDS")?;
    let mut args = Args {
        seconds,
        seed: 1,
        slow: Duration::from_millis(1000),
        findings: PathBuf::from("target/fuzz-findings"),
    };
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--seed" => args.seed = value.parse().map_err(|_| "bad --seed")?,
            "--slow-ms" => args.slow = Duration::from_millis(value.parse().map_err(|_| "bad --slow-ms")?),
            "--findings" => args.findings = PathBuf::from(value),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1);
    match argv.next().as_deref() {
        Some("run") => match parse(argv) {
            Ok(args) => fuzz(&args),
            Err(e) => {
                eprintln!("ecaz-fuzz: {e}");
                ExitCode::from(2)
            }
        },
        // Helpers to write corpus cases by hand: a setup (stdin) to a state,
        // and a state (stdin) plus a command (argument) to the next state.
        Some(door @ ("new-game" | "apply")) => {
            let mut text = String::new();
            if std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).is_err() {
                return ExitCode::FAILURE;
            }
            let out = if door == "new-game" {
                ecaz::new_game_json(&text)
            } else {
                ecaz::apply_json(&text, &argv.next().unwrap_or_default()).map(|o| o.state)
            };
            match out {
                Ok(state) => {
                    println!("{state}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{}: {e}", e.code());
                    ExitCode::FAILURE
                }
            }
        }
        Some("expect") => {
            let dir = PathBuf::from(argv.next().unwrap_or_else(|| "tests/fuzz/corpus".into()));
            let labels: BTreeMap<String, String> = corpus(&dir)
                .into_iter()
                .map(|(path, case)| {
                    let name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    (name, ecaz_fuzz::run(&case).label().to_string())
                })
                .collect();
            match serde_json::to_string_pretty(&labels) {
                Ok(text) => {
                    println!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("ecaz-fuzz: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: ecaz-fuzz run SECONDS [--seed N] [--slow-ms MS] [--findings DIR] | ecaz-fuzz expect DIR");
            ExitCode::from(2)
        }
    }
}

fn fuzz(args: &Args) -> ExitCode {
    // Panics are caught and reported as findings; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let dirs = ["tests/scenarios", "examples/scenarios", "examples/bench"].map(PathBuf::from);
    let mut seeds = Seeds::load(&dirs);
    for (_, case) in corpus(&PathBuf::from("tests/fuzz/corpus")) {
        if let Ok(v) = serde_json::from_str(&case.state) {
            seeds.states.push(v);
        }
    }
    eprintln!(
        "seeds: {} setups, {} states, {} commands, {} strings, {} grafts",
        seeds.setups.len(),
        seeds.states.len(),
        seeds.commands.len(),
        seeds.strings.len(),
        seeds.grafts.len()
    );
    let mut rng = Rng::new(args.seed);
    let start = Instant::now();
    let budget = Duration::from_secs(args.seconds);
    let mut runs: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut codes: BTreeMap<String, u64> = BTreeMap::new();
    let mut found: Vec<String> = Vec::new();
    let mut slowest = (Duration::ZERO, "");
    let mut total = 0u64;
    while start.elapsed() < budget {
        let door = *rng.pick(&Door::ALL).unwrap_or(&Door::Apply);
        let case = generate(&mut rng, &seeds, door);
        let t = Instant::now();
        let result = check(&case, args.slow);
        let took = t.elapsed();
        if took > slowest.0 {
            slowest = (took, door.name());
        }
        total += 1;
        let entry = runs.entry(door.name()).or_default();
        entry.0 += 1;
        match result {
            Ok(Outcome::Accepted(state)) => {
                entry.1 += 1;
                if matches!(door, Door::NewGame | Door::Apply) {
                    seeds.remember(&mut rng, &state);
                }
            }
            Ok(Outcome::Refused(code)) => *codes.entry(code).or_default() += 1,
            Err(f) => {
                let small = minimize(&case, f.kind, args.slow, 400);
                let mut small = small;
                small.note = format!("{}: {}", f.kind, f.detail);
                let name = format!("{}-{}-{}.json", f.kind, door.name(), found.len());
                let path = args.findings.join(&name);
                let written = std::fs::create_dir_all(&args.findings)
                    .and_then(|()| std::fs::write(&path, serde_json::to_string_pretty(&small).unwrap_or_default()));
                eprintln!(
                    "FINDING {}: {} -> {} ({:?})",
                    f.kind,
                    f.detail,
                    path.display(),
                    written.err()
                );
                found.push(name);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz: {total} inputs in {secs:.0} s ({:.0}/s), seed {}, {} findings",
        total as f64 / secs.max(1e-9),
        args.seed,
        found.len()
    );
    for (door, (n, ok)) in &runs {
        println!("  {door}: {n} inputs, {ok} accepted");
    }
    println!("  slowest call: {:?} ({})", slowest.0, slowest.1);
    let mut top: Vec<(&String, &u64)> = codes.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    let shown: Vec<String> = top.iter().take(12).map(|(c, n)| format!("{c} {n}")).collect();
    println!("  refusals: {}", shown.join(", "));
    if found.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
