//! Structure-aware fuzzing of the engine's JSON doors on the stable toolchain
//! (docs/PERFORMANCE.md, "Fuzzing"): an in-process mutation loop, no nightly, no sanitizer.
//!
//! * **Seeds** are real documents: the setups and commands of every scenario
//!   file (`tests/scenarios/`, `examples/scenarios/`, `examples/bench/`), every
//!   state reached by replaying them, the commands `options` lists at those
//!   states, and every state an accepted fuzzed input produced.
//! * **Mutations** work on the JSON tree ([`mutate`]): boundary numbers,
//!   identifiers swapped for other identifiers seen in the seeds, fields and
//!   list entries removed, duplicated, repeated or grafted from another seed;
//!   now and then an object widened with tens of thousands of members of
//!   unknown names, or a byte-level edit of the text.
//! * **Doors**: `new_game_json`, `apply_json`, `view_json`, `options_json`
//!   and `game_from_json` ([`Door`]).
//! * **Checks** ([`check`]): no panic; every refusal carries a stable code
//!   and at most [`ecaz::MAX_REPORTED_PROBLEMS`] problems; every accepted
//!   state loads again and passes [`ecaz::audit::check`] (liveness and a
//!   closed round trip), and every command `options` lists there is accepted;
//!   every view and option list is JSON; no call is slow.
//!
//! A failing case is minimized ([`minimize`]) and written as a [`Case`]
//! file; the committed ones (`tests/fuzz/corpus/`) are replayed by
//! `tests/fuzz/tests/corpus.rs` in the normal test suite and by the Node
//! runner `tests/fuzz/wasm-corpus.mjs` through the WASM binding (`scripts/fuzz-wasm`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The JSON door a case goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Door {
    /// `new_game_json(input)`.
    NewGame,
    /// `apply_json(state, input)`.
    Apply,
    /// `view_json(state, input)`.
    View,
    /// `options_json(state, input)`.
    Options,
    /// `game_from_json(state)`.
    Load,
}

impl Door {
    /// Every door.
    pub const ALL: [Door; 5] = [Door::NewGame, Door::Apply, Door::View, Door::Options, Door::Load];

    /// The door's name as in the corpus files.
    pub fn name(self) -> &'static str {
        match self {
            Door::NewGame => "newGame",
            Door::Apply => "apply",
            Door::View => "view",
            Door::Options => "options",
            Door::Load => "load",
        }
    }
}

/// One input to one door: what the corpus files hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    /// What the case is about (the finding it reproduces).
    #[serde(default)]
    pub note: String,
    /// The door.
    pub door: Door,
    /// The state text (`apply`, `view`, `options`, `load`).
    #[serde(default)]
    pub state: String,
    /// The other argument: setup, command, viewer or actor text.
    #[serde(default)]
    pub input: String,
}

/// What a door did with a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted; the output text.
    Accepted(String),
    /// Refused with this stable code.
    Refused(String),
}

impl Outcome {
    /// `ok` or the error code, as the WASM runner compares them.
    pub fn label(&self) -> &str {
        match self {
            Outcome::Accepted(_) => "ok",
            Outcome::Refused(code) => code,
        }
    }
}

/// Run a case through its door (no checks).
pub fn run(case: &Case) -> Outcome {
    let result = match case.door {
        Door::NewGame => ecaz::new_game_json(&case.input),
        Door::Apply => ecaz::apply_json(&case.state, &case.input).map(|o| o.state),
        Door::View => ecaz::view_json(&case.state, &case.input),
        Door::Options => ecaz::options_json(&case.state, &case.input),
        Door::Load => ecaz::game_from_json(&case.state).and_then(|g| ecaz::game_to_json(&g)),
    };
    match result {
        Ok(text) => Outcome::Accepted(text),
        Err(e) => Outcome::Refused(e.code().to_string()),
    }
}

/// What is wrong with a case's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// A short, stable kind (`panic`, `slow`, `unloadable`, `audit`,
    /// `listed-rejected`, `bad-error`, `bad-output`), used to minimize.
    pub kind: &'static str,
    /// Details for humans.
    pub detail: String,
}

fn finding(kind: &'static str, detail: impl Into<String>) -> Finding {
    Finding {
        kind,
        detail: detail.into(),
    }
}

const NAMESPACES: [&str; 4] = ["decode/", "state/", "setup/", "rule/"];

/// Check a case: run it (catching panics, timing it) and check what came out.
/// `slow`: the longest a door call may take.
pub fn check(case: &Case, slow: Duration) -> Result<Outcome, Finding> {
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(|| run_checked(case));
    let took = start.elapsed();
    let outcome = match outcome {
        Ok(result) => result?,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            return Err(finding("panic", msg));
        }
    };
    if took > slow {
        return Err(finding("slow", format!("{:?} in {}", took, case.door.name())));
    }
    Ok(outcome)
}

fn run_checked(case: &Case) -> Result<Outcome, Finding> {
    let error = match case.door {
        Door::NewGame => ecaz::new_game_json(&case.input).err(),
        Door::Apply => ecaz::apply_json(&case.state, &case.input).err(),
        Door::View => ecaz::view_json(&case.state, &case.input).err(),
        Door::Options => ecaz::options_json(&case.state, &case.input).err(),
        Door::Load => ecaz::game_from_json(&case.state).err(),
    };
    if let Some(e) = &error {
        if !NAMESPACES.iter().any(|n| e.code().starts_with(n)) {
            return Err(finding("bad-error", format!("code {}", e.code())));
        }
        if e.problems().len() > ecaz::MAX_REPORTED_PROBLEMS || e.problem_count() < e.problems().len() {
            return Err(finding("bad-error", "problem list over its cap"));
        }
        if e.report().message.len() > 64 * 1024 {
            return Err(finding("bad-error", "error message over 64 KiB"));
        }
    }
    let outcome = run(case);
    match (&outcome, case.door) {
        (Outcome::Accepted(state), Door::NewGame | Door::Apply | Door::Load) => audit_state(state)?,
        (Outcome::Accepted(text), Door::View | Door::Options) => {
            if serde_json::from_str::<Value>(text).is_err() {
                return Err(finding("bad-output", "output is not JSON"));
            }
        }
        (Outcome::Refused(_), _) => {}
    }
    Ok(outcome)
}

/// An accepted state: it loads again, passes the audits, and every command
/// `options` lists (for every seat and the host) is accepted.
pub fn audit_state(state: &str) -> Result<(), Finding> {
    let game = ecaz::game_from_json(state).map_err(|e| finding("unloadable", format!("{}: {e}", e.code())))?;
    ecaz::audit::check(&game).map_err(|e| finding("audit", e))?;
    for actor in actors(&game) {
        for cmd in ecaz::options(&game, actor).commands {
            if let Err(e) = ecaz::validate(&game, &cmd) {
                return Err(finding(
                    "listed-rejected",
                    format!("{cmd:?} listed but refused: {}", e.code()),
                ));
            }
        }
    }
    Ok(())
}

/// Every seat and the host.
pub fn actors(game: &ecaz::Game) -> Vec<ecaz::Actor> {
    game.seats()
        .iter()
        .map(|&f| ecaz::Actor::Faction(f))
        .chain(std::iter::once(ecaz::Actor::Host))
        .collect()
}

// ---------------------------------------------------------------------------
// Randomness (the fuzzer's own, never the game's)
// ---------------------------------------------------------------------------

/// xorshift64*.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        usize::try_from(self.bits() % u64::try_from(n).unwrap_or(u64::MAX)).unwrap_or(0)
    }
    /// True with probability `num/den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
    /// A random element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

// ---------------------------------------------------------------------------
// Seeds
// ---------------------------------------------------------------------------

/// The documents mutations start from.
#[derive(Debug, Default, Clone)]
pub struct Seeds {
    /// Setup documents.
    pub setups: Vec<Value>,
    /// State documents.
    pub states: Vec<Value>,
    /// Command documents.
    pub commands: Vec<Value>,
    /// Every string seen (identifiers, kinds).
    pub strings: Vec<String>,
    /// Subtrees seen, keyed by the field that held them (for grafts).
    pub grafts: Vec<(String, Value)>,
}

/// The most states kept (older ones are replaced at random).
const MAX_STATES: usize = 400;

impl Seeds {
    /// Read every scenario file under `dirs` and replay it, keeping its setup,
    /// its commands, every state reached and every listed command there.
    pub fn load(dirs: &[PathBuf]) -> Seeds {
        let mut seeds = Seeds::default();
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for file in files.iter().filter(|f| f.extension().is_some_and(|x| x == "json")) {
                seeds.add_scenario(file);
            }
        }
        let mut strings = BTreeSet::new();
        let mut grafts = Vec::new();
        for doc in seeds.setups.iter().chain(&seeds.states).chain(&seeds.commands) {
            collect(doc, None, &mut strings, &mut grafts);
        }
        seeds.strings = strings.into_iter().collect();
        grafts.sort_by(|a, b| a.0.cmp(&b.0));
        grafts.dedup();
        seeds.grafts = grafts;
        seeds
    }

    fn add_scenario(&mut self, file: &Path) {
        let Some(doc) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        else {
            return;
        };
        let Some(setup) = doc.get("setup") else {
            return;
        };
        self.setups.push(setup.clone());
        let Ok(mut state) = ecaz::new_game_json(&setup.to_string()) else {
            return;
        };
        self.add_state(&state);
        for step in doc.get("steps").and_then(Value::as_array).into_iter().flatten() {
            let Some(cmd) = step.get("command") else {
                continue;
            };
            self.commands.push(cmd.clone());
            if let Ok(out) = ecaz::apply_json(&state, &cmd.to_string()) {
                state = out.state;
                self.add_state(&state);
            }
        }
    }

    /// Keep a state (and the commands listed there) as a seed.
    pub fn add_state(&mut self, state: &str) {
        let Ok(value) = serde_json::from_str::<Value>(state) else {
            return;
        };
        if let Ok(game) = ecaz::game_from_json(state) {
            for actor in actors(&game) {
                let o = ecaz::options(&game, actor);
                for cmd in o.commands.iter().take(8) {
                    if let Ok(v) = serde_json::to_value(cmd) {
                        if self.commands.len() < 4000 {
                            self.commands.push(v);
                        }
                    }
                }
            }
        }
        self.states.push(value);
    }

    /// Keep a state produced by an accepted fuzzed input, replacing an older
    /// one at random once the pool is full.
    pub fn remember(&mut self, rng: &mut Rng, state: &str) {
        if self.states.len() < MAX_STATES {
            self.add_state(state);
        } else if let Ok(value) = serde_json::from_str::<Value>(state) {
            let i = rng.below(self.states.len());
            if let Some(slot) = self.states.get_mut(i) {
                *slot = value;
            }
        }
    }
}

fn collect(v: &Value, key: Option<&str>, strings: &mut BTreeSet<String>, grafts: &mut Vec<(String, Value)>) {
    if let Some(k) = key {
        // Small subtrees only: grafting whole states would only grow inputs.
        if v.to_string().len() <= 2048 {
            grafts.push((k.to_string(), v.clone()));
        }
    }
    match v {
        Value::String(s) if s.len() <= 64 => {
            strings.insert(s.clone());
        }
        Value::Array(items) => {
            for item in items {
                collect(item, key, strings, grafts);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                strings.insert(k.clone());
                collect(item, Some(k), strings, grafts);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------

const BOUNDARY: [i128; 18] = [
    0,
    1,
    2,
    -1,
    3,
    5,
    12,
    18,
    20,
    33,
    255,
    256,
    65_535,
    65_536,
    2_147_483_647,
    2_147_483_648,
    4_294_967_295,
    9_007_199_254_740_991,
];

fn boundary(rng: &mut Rng, current: Option<i128>) -> Value {
    let n = match (rng.below(4), current) {
        (0, Some(c)) => c.saturating_add(1),
        (1, Some(c)) => c.saturating_sub(1),
        _ => BOUNDARY.get(rng.below(BOUNDARY.len())).copied().unwrap_or(0),
    };
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(i), _) => Value::from(i),
        (_, Ok(u)) => Value::from(u),
        _ => Value::from(u64::MAX),
    }
}

/// The number of nodes of a tree.
fn size(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(size).sum(),
        Value::Object(map) => map.values().map(size).sum(),
        _ => 0,
    }
}

/// The `k`-th node in pre-order, with the field name that holds it.
fn nth_mut<'a>(v: &'a mut Value, k: &mut usize, key: Option<&'a str>) -> Option<(&'a mut Value, Option<String>)> {
    if *k == 0 {
        return Some((v, key.map(str::to_string)));
    }
    *k -= 1;
    match v {
        Value::Array(items) => {
            for item in items.iter_mut() {
                let n = size(item);
                if *k < n {
                    return nth_mut(item, k, key);
                }
                *k -= n;
            }
            None
        }
        Value::Object(map) => {
            for (name, item) in map.iter_mut() {
                let n = size(item);
                if *k < n {
                    return nth_mut(item, k, Some(name.as_str()));
                }
                *k -= n;
            }
            None
        }
        _ => None,
    }
}

fn graft(rng: &mut Rng, seeds: &Seeds, key: Option<&str>) -> Option<Value> {
    let pool: Vec<&Value> = match key {
        Some(k) => seeds.grafts.iter().filter(|(g, _)| g == k).map(|(_, v)| v).collect(),
        None => Vec::new(),
    };
    match rng.pick(&pool) {
        Some(v) => Some((*v).clone()),
        None => rng.pick(&seeds.grafts).map(|(_, v)| v.clone()),
    }
}

/// Apply one random structure-aware mutation somewhere in `doc`.
pub fn mutate(rng: &mut Rng, seeds: &Seeds, doc: &mut Value) {
    let mut k = rng.below(size(doc));
    let Some((node, key)) = nth_mut(doc, &mut k, None) else {
        return;
    };
    let op = rng.below(10);
    match node {
        Value::Number(n) if op < 8 => {
            let current = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from));
            *node = boundary(rng, current);
        }
        Value::String(_) if op < 8 => {
            if let Some(s) = rng.pick(&seeds.strings) {
                *node = Value::String(s.clone());
            }
        }
        Value::Bool(b) if op < 8 => *b = !*b,
        Value::Array(items) if op < 8 => {
            let len = items.len();
            match rng.below(6) {
                0 if len > 0 => {
                    items.remove(rng.below(len));
                }
                1 if len > 0 => {
                    let i = rng.below(len);
                    if let Some(item) = items.get(i).cloned() {
                        items.insert(i, item);
                    }
                }
                2 if len > 1 => {
                    let (a, b) = (rng.below(len), rng.below(len));
                    items.swap(a, b);
                }
                3 if len > 0 => {
                    // Repeat an entry: long lists are where the limits are.
                    if let Some(item) = items.get(rng.below(len)).cloned() {
                        let times = 1 + rng.below(64);
                        items.extend(std::iter::repeat_n(item, times));
                    }
                }
                4 => items.clear(),
                _ => {
                    if let Some(v) = graft(rng, seeds, key.as_deref()) {
                        match v {
                            Value::Array(more) => items.extend(more),
                            one => items.push(one),
                        }
                    }
                }
            }
        }
        Value::Object(map) if op < 8 => {
            let keys: Vec<String> = map.keys().cloned().collect();
            if rng.below(32) == 0 {
                // Widen: tens of thousands of members of unknown names. The
                // decoders work per member (D-151: once quadratic in them).
                let wide = 10_000 + rng.below(50_000);
                for i in 0..wide {
                    map.insert(format!("zz{i}"), Value::from(i));
                }
                return;
            }
            match rng.below(3) {
                0 => {
                    if let Some(name) = rng.pick(&keys) {
                        map.remove(name);
                    }
                }
                1 => {
                    if let Some(name) = rng.pick(&keys).cloned() {
                        if let Some(v) = graft(rng, seeds, Some(&name)) {
                            map.insert(name, v);
                        }
                    }
                }
                _ => {
                    if let Some((name, v)) = rng.pick(&seeds.grafts).cloned() {
                        map.insert(name, v);
                    }
                }
            }
        }
        _ => {
            *node = match rng.below(4) {
                0 => Value::Null,
                1 => boundary(rng, None),
                _ => graft(rng, seeds, key.as_deref()).unwrap_or(Value::Null),
            };
        }
    }
}

/// A byte-level edit of a text (for the decoders).
pub fn mutate_text(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = rng.below(chars.len() + 1);
    let (head, tail) = chars.split_at(at.min(chars.len()));
    let head: String = head.iter().collect();
    let tail: String = tail.iter().collect();
    match rng.below(4) {
        0 => head,
        1 => {
            let odd = ['"', '{', '[', ',', '\\', '\u{0}', 'é'];
            format!("{head}{}{tail}", rng.pick(&odd).copied().unwrap_or('"'))
        }
        2 => format!("{head}{tail}{tail}"),
        _ => format!("{head}{}", tail.chars().skip(1 + rng.below(8)).collect::<String>()),
    }
}

// ---------------------------------------------------------------------------
// Case generation
// ---------------------------------------------------------------------------

fn viewer_text(rng: &mut Rng, seeds: &Seeds) -> String {
    let ids = ["\"ecaz\"", "\"host\"", "\"spectator\"", "\"moritani\"", "\"atreides\""];
    match rng.below(5) {
        0 => rng
            .pick(&seeds.strings)
            .map_or_else(String::new, |s| Value::from(s.as_str()).to_string()),
        _ => (*rng.pick(&ids).unwrap_or(&"\"host\"")).to_string(),
    }
}

/// A command for a state: mostly one `options` lists there or builds from a
/// choice, otherwise a seed command.
fn command_for(rng: &mut Rng, seeds: &Seeds, state: &Value) -> Value {
    if rng.chance(2, 3) {
        if let Ok(game) = ecaz::game_from_json(&state.to_string()) {
            let listed: Vec<ecaz::Command> = actors(&game)
                .into_iter()
                .flat_map(|a| ecaz::options(&game, a).commands)
                .collect();
            if let Some(v) = rng.pick(&listed).and_then(|c| serde_json::to_value(c).ok()) {
                return v;
            }
        }
    }
    rng.pick(&seeds.commands).cloned().unwrap_or(Value::Null)
}

/// A fresh random case: a seed document of the door's kind, mutated 0–4
/// times (structure), sometimes edited as text.
pub fn generate(rng: &mut Rng, seeds: &Seeds, door: Door) -> Case {
    let state = rng.pick(&seeds.states).cloned().unwrap_or(Value::Null);
    let mutations = rng.below(5);
    let mut case = Case {
        note: String::new(),
        door,
        state: String::new(),
        input: String::new(),
    };
    match door {
        Door::NewGame => {
            let mut setup = rng.pick(&seeds.setups).cloned().unwrap_or(Value::Null);
            for _ in 0..mutations.max(1) {
                mutate(rng, seeds, &mut setup);
            }
            case.input = setup.to_string();
        }
        Door::Apply => {
            let mut cmd = command_for(rng, seeds, &state);
            let mut state = state;
            // Mostly the command is mutated; sometimes the state.
            for _ in 0..mutations {
                if rng.chance(3, 4) {
                    mutate(rng, seeds, &mut cmd);
                } else {
                    mutate(rng, seeds, &mut state);
                }
            }
            case.state = state.to_string();
            case.input = cmd.to_string();
        }
        Door::View | Door::Options | Door::Load => {
            let mut state = state;
            for _ in 0..mutations.max(1) {
                mutate(rng, seeds, &mut state);
            }
            case.state = state.to_string();
            case.input = viewer_text(rng, seeds);
        }
    }
    if rng.chance(1, 20) {
        if case.door == Door::NewGame || (case.door == Door::Apply && rng.chance(1, 2)) {
            case.input = mutate_text(rng, &case.input);
        } else {
            case.state = mutate_text(rng, &case.state);
        }
    }
    case
}

// ---------------------------------------------------------------------------
// Minimization
// ---------------------------------------------------------------------------

/// Shrink a failing case while it fails the same way: drop fields and list
/// entries, shorten lists, for at most `budget` attempts.
pub fn minimize(case: &Case, kind: &str, slow: Duration, budget: usize) -> Case {
    let fails = |c: &Case| matches!(check(c, slow), Err(f) if f.kind == kind);
    let mut best = case.clone();
    let mut tries = 0;
    for field in [true, false] {
        let text = if field { &best.state } else { &best.input };
        let Ok(mut doc) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let mut k = 1;
        while k < size(&doc) && tries < budget {
            tries += 1;
            let mut candidate = doc.clone();
            let mut at = k;
            let shrunk = match nth_mut(&mut candidate, &mut at, None) {
                Some((Value::Array(items), _)) if items.len() > 1 => {
                    let half = items.len() / 2;
                    items.truncate(half);
                    true
                }
                Some((Value::Object(map), _)) if !map.is_empty() => {
                    let first = map.keys().next().cloned();
                    first.is_some_and(|name| map.remove(&name).is_some())
                }
                _ => false,
            };
            let mut trial = best.clone();
            if field {
                trial.state = candidate.to_string();
            } else {
                trial.input = candidate.to_string();
            }
            if shrunk && fails(&trial) {
                doc = candidate;
                best = trial;
            } else {
                k += 1;
            }
        }
    }
    best
}

/// The corpus files of a directory, sorted by name.
pub fn corpus(dir: &Path) -> Vec<(PathBuf, Case)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    files
        .into_iter()
        .filter(|f| f.extension().is_some_and(|x| x == "json"))
        .filter_map(|f| {
            let case = std::fs::read_to_string(&f)
                .ok()
                .and_then(|t| serde_json::from_str::<Case>(&t).ok())?;
            Some((f, case))
        })
        .collect()
}
