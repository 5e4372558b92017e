//! Shared helpers for the integration tests: game builders, turn walkers,
//! placement shortcuts and the rejection assertion of ARCHITECTURE §7
//! (error code + byte-identical state, RNG included + `validate` agrees).

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

pub mod documents;

#[allow(unused_imports)]
pub use documents::{assert_valid, assert_valid_as, assert_valid_events, assert_valid_events_text, assert_valid_text};

use ecaz::{
    base_catalog, game_from_json, game_to_json, validate, Action, Actor, Ambassador, ApplyError, ArrivalId, CardId,
    Cause, Command, Decision, Event, EventKind, Faction, FrameId, Game, JsonOutcome, Options, Origin, Phase, Setup,
    Territory, View, Viewer, Zone,
};

// ---- The engine's doors, each checking what it produced against schemas/
// (D-125). Tests import these instead of ecaz's own. ----

/// Every this many states a test thread produces through [`apply`] /
/// [`apply_mut`], the state (the largest document, ~2-4 ms to validate in a
/// debug build) is validated; the first is always. Commands, events, error
/// reports, views, options and setups are validated every time, and the
/// scenario replays validate every state.
const STATE_SAMPLE: u32 = 8;

/// Validate `g` if it is this thread's state to sample (deterministic per test).
fn sample_state(g: &Game) {
    thread_local!(static CALLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
    let n = CALLS.with(|c| {
        let n = c.get();
        c.set(n.wrapping_add(1));
        n
    });
    if n % STATE_SAMPLE == 0 {
        assert_valid_text("game", &json(g));
    }
}

/// `ecaz::apply`, with the command, the events, the new state or the error
/// report validated against their schemas.
pub fn apply(g: &Game, cmd: &Command) -> Result<(Game, Vec<Event>), ApplyError> {
    assert_valid_as("command", cmd);
    let result = ecaz::apply(g, cmd);
    match &result {
        Ok((next, events)) => {
            assert_valid_events(events);
            sample_state(next);
        }
        Err(e) => assert_valid_as("error", &e.report()),
    }
    result
}

/// `ecaz::apply_mut`, validated like [`apply`].
pub fn apply_mut(g: &mut Game, cmd: &Command) -> Result<Vec<Event>, ApplyError> {
    assert_valid_as("command", cmd);
    let result = ecaz::apply_mut(g, cmd);
    match &result {
        Ok(events) => {
            assert_valid_events(events);
            sample_state(g);
        }
        Err(e) => assert_valid_as("error", &e.report()),
    }
    result
}

/// `ecaz::view`, validated against `view.json`.
pub fn view(g: &Game, viewer: Viewer) -> View {
    let v = ecaz::view(g, viewer);
    assert_valid_as("view", &v);
    v
}

/// `ecaz::options`, validated against `options.json`.
pub fn options(g: &Game, actor: Actor) -> Options {
    let o = ecaz::options(g, actor);
    assert_valid_as("options", &o);
    o
}

/// A command, its events and everything observable after it (the state, every
/// actor's options, every seat's, the spectator's and the host's view)
/// against their schemas: for walks that validate a sample of their steps.
pub fn assert_valid_documents(g: &Game, cmd: &Command, events: &[Event]) {
    assert_valid_as("command", cmd);
    assert_valid_events(events);
    assert_valid_text("game", &json(g));
    let mut viewers = vec![Viewer::Spectator, Viewer::Host];
    viewers.extend(g.seats().iter().map(|&f| Viewer::Faction(f)));
    for v in viewers {
        view(g, v);
    }
    let mut actors = vec![Actor::Host];
    actors.extend(g.seats().iter().map(|&f| Actor::Faction(f)));
    for a in actors {
        options(g, a);
    }
}

/// An error of the JSON door: its report must validate.
fn checked_err<T>(result: Result<T, ApplyError>) -> Result<T, ApplyError> {
    if let Err(e) = &result {
        assert_valid_as("error", &e.report());
    }
    result
}

/// `ecaz::apply_json`, the new state and events validated.
pub fn apply_json(state: &str, command: &str) -> Result<JsonOutcome, ApplyError> {
    let out = checked_err(ecaz::apply_json(state, command))?;
    assert_valid_text("command", command);
    assert_valid_text("game", &out.state);
    assert_valid_events_text(&out.events);
    Ok(out)
}

/// `ecaz::new_game_json`, the setup and the state validated.
pub fn new_game_json(setup: &str) -> Result<String, ApplyError> {
    let state = checked_err(ecaz::new_game_json(setup))?;
    assert_valid_text("setup", setup);
    assert_valid_text("game", &state);
    Ok(state)
}

/// `ecaz::view_json`, the view validated.
pub fn view_json(state: &str, viewer: &str) -> Result<String, ApplyError> {
    let v = checked_err(ecaz::view_json(state, viewer))?;
    assert_valid_text("view", &v);
    Ok(v)
}

/// `ecaz::options_json`, the options validated.
pub fn options_json(state: &str, actor: &str) -> Result<String, ApplyError> {
    let o = checked_err(ecaz::options_json(state, actor))?;
    assert_valid_text("options", &o);
    Ok(o)
}

/// A setup with only seats and a seed: printed defaults for the rest, and
/// the starting positions the players choose (Fremen, Moritani, Ixians
/// without the HMS; D-56) all in reserves.
pub fn setup(seats: &[Faction], seed: u64) -> Setup {
    let mut s = Setup::for_seats(seats, seed);
    for &f in seats {
        if ecaz::printed_start(f, false, false).is_none() {
            s.factions.entry(f).or_default().board = Some(Vec::new());
        }
    }
    s
}

/// Build a setup, panicking with every problem when it is rejected.
pub fn build_setup(s: &Setup) -> Game {
    assert_valid_as("setup", s);
    match s.build() {
        Ok(g) => {
            assert_valid_text("game", &json(&g));
            g
        }
        Err(e) => panic!("setup rejected: {} {:?}", e.code(), e.problems()),
    }
}

/// A default game for these seats.
pub fn build(seats: &[Faction], seed: u64) -> Game {
    build_setup(&setup(seats, seed))
}

/// Ecaz + Atreides + Harkonnen, the usual small table.
pub fn basic(seed: u64) -> Game {
    build(&[Faction::Ecaz, Faction::Atreides, Faction::Harkonnen], seed)
}

/// A host command.
pub fn host(action: Action) -> Command {
    Command::host(action)
}

/// An Ecaz command.
pub fn ecaz(action: Action) -> Command {
    Command::faction(Faction::Ecaz, action)
}

/// The state JSON (which carries the RNG).
pub fn json(g: &Game) -> String {
    game_to_json(g).expect("a game always serializes")
}

/// The state JSON as a value, for surgical edits.
pub fn json_value(g: &Game) -> serde_json::Value {
    serde_json::from_str(&json(g)).expect("state JSON parses")
}

/// D-230: `state` (a state as JSON) as it is after `n` more accepted commands
/// that change nothing else: its revision advanced by `n`.
pub fn advance_revision(state: &mut serde_json::Value, n: u64) {
    let at = state["revision"].as_u64().expect("a state has a revision");
    state["revision"] = (at + n).into();
}

/// D-230: a state's JSON without its revision, to compare games reached by
/// different numbers of commands.
pub fn json_without_revision(g: &Game) -> serde_json::Value {
    let mut v = json_value(g);
    v.as_object_mut().expect("a state is an object").remove("revision");
    v
}

/// Apply and unwrap, with the error code in the panic message.
pub fn ok(g: &Game, cmd: &Command) -> (Game, Vec<Event>) {
    match apply(g, cmd) {
        Ok(r) => r,
        Err(e) => panic!("{cmd:?} rejected: {} ({e})", e.code()),
    }
}

/// Apply in place and unwrap.
pub fn ok_mut(g: &mut Game, cmd: &Command) -> Vec<Event> {
    match apply_mut(g, cmd) {
        Ok(r) => r,
        Err(e) => panic!("{cmd:?} rejected: {} ({e})", e.code()),
    }
}

/// The host ends the current phase.
pub fn end_phase(g: &Game) -> (Game, Vec<Event>) {
    ok(g, &host(Action::EndPhase { phase: g.phase() }))
}

/// The host ends phases until it has ended a Revival phase: afterwards either
/// Ecaz's placement frame is open (phase still `revival`) or the game is in
/// `shipmentMovement`. Returns the events of the last `endPhase`.
pub fn walk_to_revival_end(g: &Game) -> (Game, Vec<Event>) {
    let mut g = g.clone();
    for _ in 0..20 {
        let was = g.phase();
        let (next, events) = end_phase(&g);
        g = next;
        if was == Phase::Revival {
            return (g, events);
        }
    }
    panic!("never reached the end of Revival");
}

/// The host ends phases until the next turn's Storm phase begins.
pub fn walk_to_next_turn(g: &Game) -> Game {
    let turn = g.turn();
    let mut g = g.clone();
    for _ in 0..20 {
        g = end_phase(&g).0;
        if g.turn() > turn {
            return g;
        }
    }
    panic!("never reached the next turn");
}

/// The host ends phases until `phase` is current (within this turn or the
/// next); an open placement frame is finished on the way.
pub fn walk_to_phase(g: &Game, phase: Phase) -> Game {
    let mut g = g.clone();
    for _ in 0..20 {
        if placement_open(&g) {
            g = finish(&g).0;
        }
        if g.phase() == phase && g.open_frame().is_none() {
            return g;
        }
        g = end_phase(&g).0;
    }
    panic!("never reached {phase}");
}

/// The id of the open frame (panics when none is open).
pub fn open_id(g: &Game) -> FrameId {
    g.open_frame().map(|f| f.id).expect("a frame is open")
}

/// The host reports a shipment of one force from reserves (an entry when
/// `territory` is new to the entrant), linked to `parent` when given (P-NEST).
pub fn shipment(entrant: Faction, territory: Territory, sector: u8, parent: Option<ArrivalId>) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal: 1,
        elite: 0,
        advisors: false,
        parent,
        reactions_first: false,
    })
}

/// Ecaz's `place` on the open placement frame.
pub fn place_cmd(g: &Game, token: Ambassador, territory: Territory) -> Command {
    ecaz(Action::Place {
        frame: open_id(g),
        token,
        territory,
    })
}

/// Announce a placement (opens the host's response window).
pub fn announce(g: &Game, token: Ambassador, territory: Territory) -> (Game, Vec<Event>) {
    ok(g, &place_cmd(g, token, territory))
}

/// The host allows the announced placement.
pub fn allow(g: &Game) -> (Game, Vec<Event>) {
    ok(g, &host(Action::AllowPlacement { frame: open_id(g) }))
}

/// Announce and allow: the token is placed and a new placement frame opens.
pub fn place(g: &Game, token: Ambassador, territory: Territory) -> (Game, Vec<Event>) {
    let (g, mut events) = announce(g, token, territory);
    let (g, more) = allow(&g);
    events.extend(more);
    (g, events)
}

/// Ecaz finishes placing.
pub fn finish(g: &Game) -> (Game, Vec<Event>) {
    ok(g, &ecaz(Action::FinishPlacement { frame: open_id(g) }))
}

/// A faction's spice (panics when not seated).
pub fn spice(g: &Game, f: Faction) -> u32 {
    g.faction(f).expect("seated").spice
}

/// A token's zone.
pub fn zone(g: &Game, t: Ambassador) -> Zone {
    g.ambassadors().zone(t)
}

/// The tokens in Ecaz's supply.
pub fn supply(g: &Game) -> Vec<Ambassador> {
    g.ambassadors().in_zone(Zone::Supply).collect()
}

/// A placed zone.
pub fn placed(territory: Territory) -> Zone {
    Zone::Placed { territory }
}

/// Is the open frame Ecaz's placement frame?
pub fn placement_open(g: &Game) -> bool {
    matches!(
        g.open_frame(),
        Some(f) if f.decision == Decision::Placement && f.actor == Actor::Faction(Faction::Ecaz)
    )
}

/// Card ids of a kind in the base catalog.
pub fn cards_of_kind(kind: &str) -> Vec<CardId> {
    base_catalog()
        .iter()
        .enumerate()
        .filter(|(_, k)| k.as_str() == kind)
        .map(|(i, _)| CardId(u16::try_from(i).unwrap()))
        .collect()
}

/// The two Karama cards of the base deck.
pub fn karamas() -> Vec<CardId> {
    cards_of_kind(ecaz::KARAMA)
}

/// One card of a kind.
pub fn card(kind: &str) -> CardId {
    cards_of_kind(kind)[0]
}

/// The event kinds of a list of events.
pub fn kinds(events: &[Event]) -> Vec<&EventKind> {
    events.iter().map(|e| &e.event).collect()
}

/// The kind tag (`"ambassadorPlaced"` …) of each event, from its JSON form.
pub fn kind_names(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let v = serde_json::to_value(e).unwrap();
            v["event"]["kind"].as_str().unwrap().to_string()
        })
        .collect()
}

/// ARCHITECTURE §7: a rejection is the error code + the state unchanged
/// (byte-identical JSON, hence the RNG untouched) + `validate` agreeing.
/// Returns the error for further checks.
pub fn assert_rejected(game: &Game, cmd: &Command, code: &str) -> ecaz::ApplyError {
    let before = json(game);
    let err = match apply(game, cmd) {
        Ok((_, events)) => panic!("{cmd:?} was accepted (events {events:?}), expected {code}"),
        Err(e) => e,
    };
    assert_eq!(err.code(), code, "{cmd:?}: wrong code, message: {err}");
    assert_eq!(json(game), before, "apply changed its input");
    let mut copy = game.clone();
    let err_mut = apply_mut(&mut copy, cmd).expect_err("apply_mut accepted what apply rejected");
    assert_eq!(err_mut, err, "apply_mut and apply disagree");
    assert_eq!(json(&copy), before, "apply_mut changed the state on a rejection");
    assert_eq!(&copy, game);
    let v = validate(game, cmd).expect_err("validate accepted what apply rejected");
    assert_eq!(v.code(), code, "validate gives another code");
    err
}

/// Decode a state and assert the JSON round trip is the identity.
pub fn assert_round_trip(g: &Game) {
    let text = json(g);
    let back = match game_from_json(&text) {
        Ok(b) => b,
        Err(e) => panic!("round trip failed: {} {e} {:?}", e.code(), e.problems()),
    };
    assert_eq!(&back, g, "decoded state differs");
    assert_eq!(json(&back), text, "re-encoded state differs");
}

/// xorshift64* — the tests' own random choices, never the game's RNG.
pub struct TestRng(pub u64);

impl TestRng {
    /// A generator from a seed (any seed, zero included).
    pub fn new(seed: u64) -> Self {
        TestRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % u64::try_from(n.max(1)).unwrap()).unwrap()
    }
    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
    /// One item, uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// D-100: the whole table a host sends with `syncTable`, read off a host
/// view (a host builds it from its own table the same way).
pub fn table_from_view(v: &ecaz::View) -> ecaz::TableFacts {
    let factions = v
        .factions
        .iter()
        .map(|x| {
            let t = ecaz::FactionTable {
                spice: x.spice.expect("a host view shows spice"),
                reserves: x.reserves,
                tanks: x.tanks,
                board: x.board.clone(),
                leaders: x
                    .leaders
                    .iter()
                    .filter(|l| l.custody != ecaz::LeaderCustody::Available)
                    .copied()
                    .collect(),
                hand: x.hand.clone().expect("a host view shows hands"),
                hand_limit: x.hand_limit,
                traitors: x.traitors.clone().unwrap_or_default(),
                face_dancers: x.face_dancers.clone().unwrap_or_default(),
                revealed_face_dancers: x.revealed_face_dancers.clone(),
                ally: x.ally,
                nexus: x.nexus,
            };
            (x.faction, t)
        })
        .collect();
    ecaz::TableFacts {
        factions,
        deck: v.treachery.deck.clone().expect("a host view shows the deck"),
        discard: v.treachery.discard.clone(),
        outside: v.treachery.outside.clone(),
        nexus_deck: None,
        nexus_discard: v.nexus.discard.clone(),
    }
}

/// The text of `tests/fixtures/NAME`.
pub fn fixture_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// The Shipment and Movement phase with the Harkonnen Ambassador placed in
/// Carthag (cohort: Harkonnen, Guild, Fremen, Emperor, CHOAM): an entry
/// there triggers the Harkonnen effect (R-EFF-HAR).
pub fn harkonnen_token_in_carthag(s: &mut Setup) {
    s.phase = Some(Phase::ShipmentMovement);
    s.ambassadors = Some(ecaz::AmbassadorsSetup {
        cohort: vec![
            Ambassador::Harkonnen,
            Ambassador::Guild,
            Ambassador::Fremen,
            Ambassador::Emperor,
            Ambassador::Choam,
        ],
        zones: std::collections::BTreeMap::from([(
            Ambassador::Harkonnen,
            Zone::Placed {
                territory: Territory::Carthag,
            },
        )]),
        ..ecaz::AmbassadorsSetup::default()
    });
}
