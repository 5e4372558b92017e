//! Self-play throughput (D-161, ARCHITECTURE §9: ≥ 1,000,000
//! commands/s/core) on the typed in-place path: whole games at the simulated
//! table (`ecaz::sim`), every command a typed `Command` chosen by a bot or the
//! table's host and applied in place (`ecaz::apply_mut`, every rule checked as
//! on any other command), with no checks of the result and no JSON anywhere.
//!
//! Throughput is in commands (`Throughput::Elements` = commands sent,
//! accepted or refused) and the loop runs on one thread, so criterion's
//! `thrpt` line in elem/s reads as **commands per second per core**. Only the
//! play is timed: the tables are built and cloned outside the measurement.
//!
//! Run with `cargo bench --bench selfplay -- --warm-up-time 1 --measurement-time 5`.
//!
//! Groups: `selfplay/random` (every seat and the host's Karama answers by
//! the random bot) and `selfplay/heuristic` (by the heuristic bot); each
//! iteration plays the same 16 seeded games of 10 turns from their first
//! command to their last.

#![allow(clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ecaz::sim::{Table, TableConfig};
use ecaz::Profile;

const GAMES: u64 = 16;

fn tables(profile: Profile) -> Vec<Table> {
    (0..GAMES)
        .map(|seed| {
            let config = TableConfig {
                default_profile: profile,
                ..TableConfig::default()
            };
            Table::random(seed, None, config).expect("the random setups are valid")
        })
        .collect()
}

/// Plays every table to its end; the number of commands sent.
fn play(tables: &mut [Table]) -> u64 {
    let mut n = 0;
    for t in tables {
        while !t.finished() {
            black_box(t.step());
            n += 1;
        }
    }
    n
}

fn selfplay(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    for profile in Profile::ALL {
        let start = tables(profile);
        let commands = play(&mut start.clone());
        eprintln!(
            "selfplay/{profile}: {GAMES} games, {commands} commands per iteration; \
             thrpt elem/s = commands/s on one core"
        );
        group.throughput(Throughput::Elements(commands));
        group.bench_function(profile.id(), |b| {
            b.iter_batched(|| start.clone(), |mut t| play(&mut t), BatchSize::LargeInput);
        });
    }
    group.finish();
}

criterion_group!(benches, selfplay);
criterion_main!(benches);
