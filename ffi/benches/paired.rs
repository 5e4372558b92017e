//! The native half of `scripts/bench-package` (the WASM
//! handle's `apply` against the native one). The machine this runs on
//! changes speed by up to 2× from one second to the next, so the two sides
//! are measured in short alternating windows, each pair a few hundred
//! milliseconds apart, and compared pair by pair
//! (`wasm/consumers/bench-paired.mjs` drives both).
//!
//! Protocol, one JSON line each way: on start this prints
//! `{"state": start state JSON, "commands": [command JSON…]}` (the stream of
//! `examples/bench/mid_game_turn.json`, each command as the engine writes it,
//! so that both sides read the same bytes); then for every line `MS` read
//! from standard input it runs the stream through the C ABI handle
//! (`ecaz_game_apply`, command JSON in, events JSON out, buffers freed, as
//! the criterion bench `bindings/c_handle`) for MS milliseconds, on a fresh
//! handle each time, and prints `{"perCommandNs": median, "streams": n}`.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]
#![allow(unsafe_code)] // calling the C ABI; every pointer is valid for its length.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use ecaz::scenario::Scenario;

mod handle;

use handle::{Handle, FIXTURE};

/// One run of the stream on a fresh handle: the time of the applies only.
fn stream(state: &str, commands: &[String]) -> Duration {
    let handle = Handle::from_state(state);
    let start = Instant::now();
    handle.apply_all(commands);
    start.elapsed()
}

fn main() {
    let scenario: Scenario = serde_json::from_str(FIXTURE).expect("the fixture is a scenario");
    let start = scenario.setup.build().expect("the fixture's setup builds");
    let state = ecaz::game_to_json(&start).unwrap();
    let commands: Vec<String> = scenario
        .steps
        .iter()
        .map(|s| serde_json::to_string(&s.command).unwrap())
        .collect();
    let mut stdout = std::io::stdout().lock();
    let hello = serde_json::json!({ "state": state, "commands": commands });
    writeln!(stdout, "{hello}").unwrap();
    stdout.flush().unwrap();
    for line in std::io::stdin().lock().lines() {
        let Ok(ms) = line.unwrap().trim().parse::<u64>() else {
            break;
        };
        let until = Instant::now() + Duration::from_millis(ms);
        let mut times = Vec::new();
        while Instant::now() < until {
            times.push(stream(&state, &commands));
        }
        times.sort();
        let median = times.get(times.len() / 2).map_or(0.0, |t| t.as_nanos() as f64) / commands.len() as f64;
        writeln!(
            stdout,
            "{}",
            serde_json::json!({ "perCommandNs": median, "streams": times.len() })
        )
        .unwrap();
        stdout.flush().unwrap();
    }
}
