//! The native side of the bindings benchmarks (docs/PERFORMANCE.md,
//! "Bindings"): one command stream — examples/bench/mid_game_turn.json, a
//! whole Ecaz turn from a 6-faction mid-game state — through
//!
//! - `bindings/native_typed`: `ecaz::apply_mut` over decoded commands (no JSON);
//! - `bindings/native_json`: `ecaz::apply_json`, state JSON + command JSON in,
//!   state JSON + events JSON out, the state passed along as JSON;
//! - `bindings/c_handle`: the C ABI handle, `ecaz_game_apply` (command JSON
//!   in, events JSON out, the state kept inside), buffers freed;
//! - `bindings/c_pure`: the C ABI pure call `ecaz_apply_json`, the new state
//!   cut out of the `{"state":…,"events":…}` document for the next call;
//! - `bindings/serde_floor`: `serde_json` parsing each state the stream meets
//!   into `ecaz::Game` and serializing it again (what any JSON round trip of
//!   the state costs natively).
//!
//! Throughput is in commands (criterion's time / stream length = per command).
//! Run through `scripts/bench-bindings`, which adds the WASM numbers from Node.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]
#![allow(unsafe_code)] // calling the C ABI; every pointer is valid for its length.

use std::hint::black_box;
use std::ptr;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ecaz::scenario::Scenario;
use ecaz::{Command, Game};
use ecaz_ffi::{ecaz_apply_json, ecaz_buffer_free, EcazBuffer, EcazStatus};

mod handle;

use handle::{Handle, FIXTURE};

struct Workload {
    start: Game,
    start_json: String,
    commands: Vec<Command>,
    command_json: Vec<String>,
    states: Vec<String>,
}

fn workload() -> Workload {
    let scenario: Scenario = serde_json::from_str(FIXTURE).expect("the fixture is a scenario");
    let start = scenario.setup.build().expect("the fixture's setup builds");
    let commands: Vec<Command> = scenario.steps.iter().map(|s| s.command.clone()).collect();
    let command_json = commands.iter().map(|c| serde_json::to_string(c).unwrap()).collect();
    let mut states = Vec::new();
    let mut game = start.clone();
    for command in &commands {
        states.push(ecaz::game_to_json(&game).unwrap());
        ecaz::apply_mut(&mut game, command).expect("the fixture's stream replays");
    }
    Workload {
        start_json: ecaz::game_to_json(&start).unwrap(),
        start,
        commands,
        command_json,
        states,
    }
}

fn bench(c: &mut Criterion) {
    let w = workload();
    let n = w.commands.len() as u64;
    let mut group = c.benchmark_group("bindings");
    group.throughput(Throughput::Elements(n));

    group.bench_function("native_typed", |b| {
        b.iter_batched(
            || w.start.clone(),
            |mut game| {
                for command in &w.commands {
                    black_box(ecaz::apply_mut(&mut game, command).unwrap());
                }
                game
            },
            BatchSize::SmallInput,
        )
    });

    group.bench_function("native_json", |b| {
        b.iter(|| {
            let mut state = w.start_json.clone();
            for command in &w.command_json {
                let outcome = ecaz::apply_json(&state, command).unwrap();
                black_box(&outcome.events);
                state = outcome.state;
            }
            state
        })
    });

    group.bench_function("c_handle", |b| {
        b.iter_batched(
            || Handle::from_state(&w.start_json),
            |handle| {
                handle.apply_all(&w.command_json);
                handle
            },
            BatchSize::SmallInput,
        )
    });

    group.bench_function("c_pure", |b| {
        b.iter(|| {
            let mut state = w.start_json.clone();
            for command in &w.command_json {
                let mut out: *mut EcazBuffer = ptr::null_mut();
                // SAFETY: the inputs are valid for their lengths; `out` is valid.
                let status = unsafe {
                    ecaz_apply_json(
                        state.as_ptr().cast(),
                        state.len(),
                        command.as_ptr().cast(),
                        command.len(),
                        &mut out,
                    )
                };
                assert_eq!(status, EcazStatus::Ok);
                // SAFETY: an OK call hands out a buffer of `len` UTF-8 bytes; freed once.
                let document = unsafe {
                    let bytes = std::slice::from_raw_parts((*out).data.cast::<u8>(), (*out).len);
                    let text = std::str::from_utf8(bytes).unwrap();
                    let end = text.rfind(",\"events\":").unwrap();
                    let next = text.get("{\"state\":".len()..end).unwrap().to_string();
                    ecaz_buffer_free(out);
                    next
                };
                state = document;
            }
            state
        })
    });

    group.bench_function("serde_floor", |b| {
        b.iter(|| {
            for state in &w.states {
                let game: Game = serde_json::from_str(state).unwrap();
                black_box(serde_json::to_string(&game).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
